package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"
	schedfake "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/fake"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// fakeClients serve seed 002 on two v5e pools: JobSet ns/train admitted
// and running on pool-1, JobSet ns/next waiting for quota. ComputeClasses
// and PodGroups are not served.
func fakeClients() *gather.Clients {
	unit := builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}
	train := unit.JobSet("train").ReplicatedJob("slice", 1, 2).Obj()
	next := unit.JobSet("next").ReplicatedJob("slice", 1, 2).Obj()
	var kube []runtime.Object
	for _, n := range append(builders.V5ePool("pool-1").Build(), builders.V5ePool("pool-2").Build()...) {
		kube = append(kube, n)
	}
	for _, p := range builders.MembersOn(train, "pool-1-node-0", "pool-1-node-1") {
		kube = append(kube, p)
	}
	for _, p := range builders.Members(next) {
		kube = append(kube, builders.Edit(p).Held("QuotaExceeded", "insufficient quota").Obj())
	}
	ms := multislicefake.NewSimpleClientset(
		builders.ClusterQueue("cq").Quota("v5e", wellknown.ResourceTPU, "8").Usage("v5e", wellknown.ResourceTPU, "8", "0").Counts(1, 0, 1).Obj(),
		builders.LocalQueue("ns", "lq", "cq"),
		builders.Workload(cli.KindJobSet, "ns", "train", "lq").PodSet("train-slice-0", 2, wellknown.ResourceTPU, "4", wellknown.NodePoolLabel).Admitted("cq", "v5e", "pool-1").Obj(),
		builders.Workload(cli.KindJobSet, "ns", "next", "lq").PodSet("next-slice-0", 2, wellknown.ResourceTPU, "4", wellknown.NodePoolLabel).Waiting("QuotaExceeded", "insufficient quota in ClusterQueue cq").Obj(),
	)
	notServed := func(resource string) clienttesting.ReactionFunc {
		return func(clienttesting.Action) (bool, runtime.Object, error) {
			return true, nil, apierrors.NewNotFound(schema.GroupResource{Resource: resource}, "")
		}
	}
	ms.PrependReactor("list", "computeclasses", notServed("computeclasses"))
	pg := schedfake.NewSimpleClientset()
	pg.PrependReactor("list", "podgroups", notServed("podgroups"))
	return &gather.Clients{
		Kube:       kubefake.NewSimpleClientset(kube...),
		Multislice: ms,
		JobSets:    jobsetfake.NewSimpleClientset(train, next),
		PodGroups:  pg,
	}
}

func runWith(t *testing.T, clients *gather.Clients, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	streams := genericiooptions.IOStreams{In: strings.NewReader(""), Out: &out, ErrOut: &errOut}
	// No kubeconfig: the namespace comes from -n.
	t.Setenv("KUBECONFIG", t.TempDir()+"/none")
	code = run(args, streams, func() (*gather.Clients, error) { return clients, nil })
	return code, out.String(), errOut.String()
}

func TestCommands(t *testing.T) {
	cases := map[string]struct {
		args       []string
		code       int
		stdout     []string // lines that must appear, in order
		stderr     string
		structured func(t *testing.T, out string)
	}{
		"pools": {
			args:   []string{"pools"},
			stdout: []string{"POOL ", "pool-1 ", "JobSet ns/train", "pool-2 ", "free"},
		},
		"queues -o wide": {
			args:   []string{"queues", "-o", "wide"},
			stdout: []string{"CLUSTERQUEUE", "cq ", "v5e", "google.com/tpu", "ns/lq"},
		},
		"pending -n ns": {
			args:   []string{"pending", "-n", "ns"},
			stdout: []string{"Order: ", "cq ", "JobSet ns/next", "QuotaExceeded"},
		},
		"pending of another namespace": {
			args:   []string{"pending", "-n", "elsewhere"},
			stderr: "No pending workloads in namespace elsewhere.\n",
		},
		"pending --cluster-queue -o json": {
			args: []string{"pending", "--cluster-queue", "cq", "-o", "json"},
			structured: func(t *testing.T, out string) {
				var list cli.PendingList
				if err := json.Unmarshal([]byte(out), &list); err != nil {
					t.Fatalf("%v\n%s", err, out)
				}
				if len(list.Workloads) != 1 || list.Workloads[0].Workload.Name != "next" || list.Workloads[0].Position != 1 || list.Workloads[0].Reason != "QuotaExceeded" {
					t.Errorf("pending: %+v", list.Workloads)
				}
			},
		},
		"why a pod": {
			args:   []string{"why", "pod/next-slice-0-0-a0", "-n", "ns"},
			stdout: []string{"JobSet ns/next (Workload object jobset-next)", "(pod ns/next-slice-0-0-a0 is part of JobSet ns/next)", "State:      Pending: QuotaExceeded", "Quota in ClusterQueue cq:", "Domains (gke-nodepool): 2 in the cluster, 2 match", "  pool-1: held by JobSet ns/train"},
		},
		"why -o yaml": {
			args:   []string{"why", "train", "-n", "ns", "-o", "yaml"},
			stdout: []string{"state: Running", "workload:", "  kind: JobSet"},
		},
		"why what does not exist": {
			args:   []string{"why", "jobset/nope", "-n", "ns"},
			code:   1,
			stderr: "error: no JobSet named \"nope\" in namespace ns\n",
		},
		"an unknown output format": {
			args:   []string{"pools", "-o", "name"},
			code:   1,
			stderr: "error: unknown output format \"name\": want wide, json or yaml\n",
		},
		"an unknown kind": {
			args:   []string{"why", "deployment/x"},
			code:   1,
			stderr: "error: \"deployment/x\": unknown kind \"deployment\" (want jobset, job, podgroup, compositepodgroup, pod, workload or provisioningrequest)\n",
		},
		"arguments where none are taken": {
			args: []string{"pools", "extra"},
			code: 1,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			code, out, errOut := runWith(t, fakeClients(), tc.args...)
			if code != tc.code {
				t.Fatalf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, out, errOut)
			}
			if tc.stderr != "" && errOut != tc.stderr {
				t.Errorf("stderr %q, want %q", errOut, tc.stderr)
			}
			rest := out
			for _, want := range tc.stdout {
				i := strings.Index(rest, want)
				if i < 0 {
					t.Fatalf("stdout lacks %q (in order):\n%s", want, out)
				}
				rest = rest[i+len(want):]
			}
			if tc.structured != nil {
				tc.structured(t, out)
			}
		})
	}
}

// Every command has help with examples.
func TestHelp(t *testing.T) {
	for _, sub := range []string{"pools", "queues", "pending", "why"} {
		code, out, _ := runWith(t, fakeClients(), sub, "--help")
		if code != 0 || !strings.Contains(out, "Examples:") || !strings.Contains(out, "kubectl multislice "+sub) || !strings.Contains(out, "--kubeconfig") {
			t.Errorf("%s --help (exit %d):\n%s", sub, code, out)
		}
	}
}
