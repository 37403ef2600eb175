package gather

import (
	"bytes"
	"context"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"
	schedfake "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/fake"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var unit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

// everything is a Need of every resource, in every namespace.
var everything = Need{Nodes: true, Pods: true, Events: true, Owners: true, Queues: true, Checks: true, Classes: true}

// refuse makes a fake client answer every list of resource with err.
func refuse(c interface {
	PrependReactor(verb, resource string, reaction clienttesting.ReactionFunc)
}, resource string, err error) {
	c.PrependReactor("list", resource, func(clienttesting.Action) (bool, runtime.Object, error) { return true, nil, err })
}

func notFound(resource string) error {
	return apierrors.NewNotFound(schema.GroupResource{Resource: resource}, "")
}

func forbidden(resource string) error {
	return apierrors.NewForbidden(schema.GroupResource{Resource: resource}, "", nil)
}

// fakes serve two v5e pools with JobSet ns/train on pool-1, a JobSet
// waiting in a queue, an event and a ComputeClass; edit changes what they
// answer before use.
func fakes(edit func(kube *kubefake.Clientset, ms *multislicefake.Clientset, pg *schedfake.Clientset)) *Clients {
	train := unit.JobSet("train").ReplicatedJob("slice", 1, 2).Obj()
	next := unit.JobSet("next").ReplicatedJob("slice", 1, 2).Obj()
	var kubeObjs []runtime.Object
	for _, n := range append(builders.V5ePool("pool-2").Build(), builders.V5ePool("pool-1").Build()...) {
		kubeObjs = append(kubeObjs, n)
	}
	for _, p := range builders.MembersOn(train, "pool-1-node-0", "pool-1-node-1") {
		kubeObjs = append(kubeObjs, p)
	}
	kubeObjs = append(kubeObjs, builders.Event("JobSet", "ns", "train", "train-uid", "Normal", "Placed", "placed on pool-1", builders.Epoch))
	kube := kubefake.NewSimpleClientset(kubeObjs...)
	ms := multislicefake.NewSimpleClientset(
		builders.ClusterQueue("cq").Quota("v5e", wellknown.ResourceTPU, "8").Usage("v5e", wellknown.ResourceTPU, "8", "0").Obj(),
		builders.LocalQueue("ns", "lq", "cq"),
		builders.Workload(cli.KindJobSet, "ns", "next", "lq").Waiting("QuotaExceeded", "insufficient quota").Obj(),
		builders.ComputeClass("flex").FlexStart("ct5lp-hightpu-4t", 3600, 600).Obj(),
	)
	pg := schedfake.NewSimpleClientset()
	if edit != nil {
		edit(kube, ms, pg)
	}
	return &Clients{Kube: kube, Multislice: ms, JobSets: jobsetfake.NewSimpleClientset(train, next), PodGroups: pg}
}

func names[T metav1.Object](items []T) []string {
	out := make([]string, len(items))
	for i, o := range items {
		out[i] = o.GetNamespace() + "/" + o.GetName()
	}
	return out
}

func TestList(t *testing.T) {
	now := builders.Epoch.Add(time.Hour)
	cases := map[string]struct {
		need    Need
		edit    func(kube *kubefake.Clientset, ms *multislicefake.Clientset, pg *schedfake.Clientset)
		check   func(t *testing.T, c *cli.Cluster)
		warning string
		err     string
	}{
		"what is needed, in namespace and name order": {
			need: Need{Nodes: true, Queues: true},
			check: func(t *testing.T, c *cli.Cluster) {
				if got, want := names(c.Nodes), []string{"/pool-1-node-0", "/pool-1-node-1", "/pool-2-node-0", "/pool-2-node-1"}; !cmp.Equal(got, want) {
					t.Errorf("nodes %v, want %v", got, want)
				}
				if len(c.Pods) != 0 || len(c.JobSets) != 0 || len(c.ComputeClasses) != 0 {
					t.Errorf("read what was not needed: %d pods, %d JobSets, %d ComputeClasses", len(c.Pods), len(c.JobSets), len(c.ComputeClasses))
				}
				if len(c.ClusterQueues) != 1 || len(c.LocalQueues) != 1 || len(c.Workloads) != 1 {
					t.Errorf("queues: %d ClusterQueues, %d LocalQueues, %d Workloads", len(c.ClusterQueues), len(c.LocalQueues), len(c.Workloads))
				}
				if !c.Now.Equal(now) {
					t.Errorf("Now %v, want %v", c.Now, now)
				}
			},
		},
		"ComputeClasses served": {
			need: Need{Classes: true},
			check: func(t *testing.T, c *cli.Cluster) {
				if !c.ComputeClassesServed || len(c.ComputeClasses) != 1 {
					t.Errorf("served %v, %d classes", c.ComputeClassesServed, len(c.ComputeClasses))
				}
			},
		},
		"an API not served is left empty, silently": {
			need: everything,
			edit: func(_ *kubefake.Clientset, ms *multislicefake.Clientset, pg *schedfake.Clientset) {
				refuse(ms, "computeclasses", notFound("computeclasses"))
				refuse(pg, "podgroups", notFound("podgroups"))
			},
			check: func(t *testing.T, c *cli.Cluster) {
				if c.ComputeClassesServed || c.PodGroups != nil || len(c.JobSets) != 2 {
					t.Errorf("served %v, PodGroups %v, %d JobSets", c.ComputeClassesServed, c.PodGroups, len(c.JobSets))
				}
			},
		},
		"an optional API the user may not list is said and left empty": {
			need: everything,
			edit: func(kube *kubefake.Clientset, _ *multislicefake.Clientset, _ *schedfake.Clientset) {
				refuse(kube, "events", forbidden("events"))
			},
			warning: "warning: cannot list events (Forbidden); going on without them\n",
			check: func(t *testing.T, c *cli.Cluster) {
				if c.Events != nil || len(c.Pods) != 2 {
					t.Errorf("events %v, %d pods", c.Events, len(c.Pods))
				}
			},
		},
		"nodes must be read": {
			need: Need{Nodes: true},
			edit: func(kube *kubefake.Clientset, _ *multislicefake.Clientset, _ *schedfake.Clientset) {
				refuse(kube, "nodes", forbidden("nodes"))
			},
			err: "listing nodes: nodes is forbidden",
		},
		"another error of an optional API fails": {
			need: Need{Queues: true},
			edit: func(_ *kubefake.Clientset, ms *multislicefake.Clientset, _ *schedfake.Clientset) {
				refuse(ms, "workloads", apierrors.NewServiceUnavailable("down"))
			},
			err: "listing workloads: down",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var warn bytes.Buffer
			c, err := List(t.Context(), fakes(tc.edit), tc.need, now, &warn)
			if tc.err != "" {
				if err == nil || !strings.HasPrefix(err.Error(), tc.err) {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if warn.String() != tc.warning {
				t.Errorf("warnings %q, want %q", warn.String(), tc.warning)
			}
			tc.check(t, c)
		})
	}
}

// A watch reads what a list reads, the same way, and follows changes.
func TestWatch(t *testing.T) {
	now := builders.Epoch.Add(time.Hour)
	edit := func(_ *kubefake.Clientset, ms *multislicefake.Clientset, pg *schedfake.Clientset) {
		refuse(pg, "podgroups", notFound("podgroups"))
		refuse(ms, "resourceflavors", forbidden("resourceflavors"))
	}
	clients := fakes(edit)
	var listWarn, watchWarn bytes.Buffer
	listed, err := List(t.Context(), clients, everything, now, &listWarn)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	var changes atomic.Int64
	w, err := Watch(ctx, clients, everything, &watchWarn, func() { changes.Add(1) })
	if err != nil {
		t.Fatal(err)
	}
	if watchWarn.String() != listWarn.String() || !strings.Contains(watchWarn.String(), "resourceflavors") {
		t.Errorf("watch warned %q, list %q", watchWarn.String(), listWarn.String())
	}
	want := []string{"nodes", "pods", "events", "jobsets", "jobs", "podgroups.scheduling.k8s.io", "compositepodgroups", "clusterqueues", "localqueues", "workloads", "topologies", "admissionchecks", "provisioningrequests", "computeclasses"}
	if diff := cmp.Diff(want, w.Watching()); diff != "" {
		t.Errorf("watched resources (-want +got):\n%s", diff)
	}
	// All it reads but what is not served or readable.
	if got := Resources(everything); len(got) != len(want)+2 || !slices.Contains(got, "podgroups") || !slices.Contains(got, "resourceflavors") {
		t.Errorf("Resources(everything) = %v", got)
	}
	if got := Resources(Need{Queues: true}); !cmp.Equal(got, []string{"clusterqueues", "localqueues", "workloads"}) {
		t.Errorf("Resources(queues) = %v", got)
	}
	if diff := cmp.Diff(listed, w.Snapshot(now)); diff != "" {
		t.Errorf("snapshot differs from the list (-list +snapshot):\n%s", diff)
	}
	if changes.Load() == 0 {
		t.Errorf("the initial objects were not reported as changes")
	}

	before := changes.Load()
	if err := clients.Kube.CoreV1().Nodes().Delete(ctx, "pool-2-node-1", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	err = wait.PollUntilContextTimeout(ctx, 10*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return changes.Load() > before && len(w.Snapshot(now).Nodes) == 3, nil
	})
	if err != nil {
		t.Fatalf("the deleted node is still in the snapshot (%d changes since): %v", changes.Load()-before, err)
	}
}
