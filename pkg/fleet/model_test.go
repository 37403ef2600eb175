package fleet

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	kubefake "k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetfake "sigs.k8s.io/jobset/client-go/clientset/versioned/fake"
	schedfake "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned/fake"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	multislicefake "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/fake"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var unit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

// everything is what the fleet page reads.
var everything = gather.Need{Nodes: true, Pods: true, Events: true, Owners: true, Queues: true, Classes: true}

// at is a time m minutes after builders.Epoch.
func at(m int) time.Time { return builders.Epoch.Add(time.Duration(m) * time.Minute) }

// fakeClients serve objs, each from the fake clientset of its API. The
// PodGroup API is not served: scheduler-plugins' fake clientset and
// informers predate the streaming lists informers start with, which its
// tracker never ends (pkg/cli/gather's tests read PodGroups).
func fakeClients(objs ...runtime.Object) *gather.Clients {
	var kube, ms, js []runtime.Object
	for _, o := range objs {
		switch o.(type) {
		case *jobsetv1alpha2.JobSet:
			js = append(js, o)
		case *corev1.Node, *corev1.Pod, *corev1.Event:
			kube = append(kube, o)
		default:
			ms = append(ms, o)
		}
	}
	podGroups := schedfake.NewSimpleClientset()
	podGroups.PrependReactor("list", "podgroups", func(clienttesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewNotFound(schema.GroupResource{Group: "scheduling.x-k8s.io", Resource: "podgroups"}, "")
	})
	return &gather.Clients{
		Kube: kubefake.NewSimpleClientset(kube...), Multislice: multislicefake.NewSimpleClientset(ms...),
		JobSets: jobsetfake.NewSimpleClientset(js...), PodGroups: podGroups,
	}
}

// readyAt gives every node's Ready condition its last transition time.
func readyAt(nodes []*corev1.Node, t time.Time) []*corev1.Node {
	for _, n := range nodes {
		for i := range n.Status.Conditions {
			n.Status.Conditions[i].LastTransitionTime = metav1.NewTime(t)
		}
	}
	return nodes
}

// view is the model's JSON as the page reads it: its own declaration of
// the field names, so that a renamed field fails the test.
type view struct {
	At    time.Time `json:"at"`
	Pools []struct {
		Name        string   `json:"name"`
		Accelerator string   `json:"accelerator"`
		Topology    string   `json:"topology"`
		Zone        string   `json:"zone"`
		Nodes       int      `json:"nodes"`
		Health      string   `json:"health"`
		Problems    []string `json:"problems"`
		Resource    string   `json:"resource"`
		Capacity    int64    `json:"capacity"`
		Used        int64    `json:"used"`
		Holders     []struct {
			Workload cli.WorkloadRef `json:"workload"`
			Priority int32           `json:"priority"`
			Since    time.Time       `json:"since"`
			Pods     int             `json:"pods"`
			Colour   string          `json:"colour"`
		} `json:"holders"`
	} `json:"pools"`
	Workloads []struct {
		Workload cli.WorkloadRef `json:"workload"`
		Colour   string          `json:"colour"`
		Priority int32           `json:"priority"`
		Pools    []string        `json:"pools"`
		Since    time.Time       `json:"since"`
	} `json:"workloads"`
	Queues []struct {
		Name     string `json:"name"`
		Pending  int32  `json:"pending"`
		Admitted int32  `json:"admitted"`
		Bars     []struct {
			Flavor         string   `json:"flavor"`
			Resource       string   `json:"resource"`
			Nominal        float64  `json:"nominal"`
			InUse          float64  `json:"inUse"`
			Borrowed       float64  `json:"borrowed"`
			BorrowingLimit *float64 `json:"borrowingLimit"`
			Label          string   `json:"label"`
		} `json:"bars"`
	} `json:"queues"`
	Pending struct {
		Order     string `json:"order"`
		Workloads []struct {
			Workload     cli.WorkloadRef `json:"workload"`
			ClusterQueue string          `json:"clusterQueue"`
			Position     int             `json:"position"`
			Priority     int32           `json:"priority"`
			Reason       string          `json:"reason"`
			Colour       string          `json:"colour"`
		} `json:"workloads"`
	} `json:"pending"`
	Timeline []struct {
		Time    time.Time `json:"time"`
		Kind    string    `json:"kind"`
		What    string    `json:"what"`
		Subject string    `json:"subject"`
		Message string    `json:"message"`
		Colour  string    `json:"colour"`
	} `json:"timeline"`
}

// since renders t as minutes after Epoch.
func since(t time.Time) string { return fmt.Sprintf("+%gm", t.Sub(builders.Epoch).Minutes()) }

// digest sums the view up a line per pool, legend entry, queue bar,
// pending workload and timeline entry.
func (v *view) digest() []string {
	var out []string
	for _, p := range v.Pools {
		line := fmt.Sprintf("pool %s %s: %s %s %s, %d nodes, %d/%d %s", p.Name, p.Health, p.Accelerator, p.Topology, p.Zone, p.Nodes, p.Used, p.Capacity, p.Resource)
		for _, h := range p.Holders {
			line += fmt.Sprintf("; held by %s (priority %d, %d pods, since %s, %s)", h.Workload, h.Priority, h.Pods, since(h.Since), h.Colour)
		}
		if len(p.Problems) > 0 {
			line += "; " + strings.Join(p.Problems, ", ")
		}
		out = append(out, line)
	}
	for _, w := range v.Workloads {
		out = append(out, fmt.Sprintf("legend %s %s priority %d since %s: %s", w.Workload, w.Colour, w.Priority, since(w.Since), strings.Join(w.Pools, ",")))
	}
	for _, q := range v.Queues {
		for _, b := range q.Bars {
			limit := "none"
			if b.BorrowingLimit != nil {
				limit = fmt.Sprint(*b.BorrowingLimit)
			}
			out = append(out, fmt.Sprintf("queue %s (%d pending, %d admitted) %s %s: %g of %g, %g borrowed, limit %s: %q",
				q.Name, q.Pending, q.Admitted, b.Flavor, b.Resource, b.InUse, b.Nominal, b.Borrowed, limit, b.Label))
		}
	}
	for _, w := range v.Pending.Workloads {
		out = append(out, fmt.Sprintf("pending %q #%d %s priority %d: %s %s", w.ClusterQueue, w.Position, w.Workload, w.Priority, w.Reason, w.Colour))
	}
	for _, e := range v.Timeline {
		out = append(out, fmt.Sprintf("timeline %s %s %s %s: %s %s", since(e.Time), e.Kind, e.What, e.Subject, e.Message, e.Colour))
	}
	return out
}

// The model's JSON, for a table of cluster states read from fake API
// clients as the fleet page reads them.
func TestModelJSON(t *testing.T) {
	train := unit.JobSet("train").ReplicatedJob("slice", 2, 2).Obj()
	trainPods := builders.MembersOn(train, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	for i := range trainPods {
		trainPods[i] = builders.Edit(trainPods[i]).Priority(1000).ScheduledAt(at(1)).Obj()
	}
	class := builders.ComputeClass("flex").FlexStart("ct5lp-hightpu-4t", 3600, 600).Obj()
	flex := builders.Node("flex-1-node-0").TPU(builders.V5e, "2x4", 4).Label(wellknown.NodePoolLabel, "flex-1").Created(builders.Epoch)
	for k, v := range computeclass.NodeLabels("flex", &class.Spec.Priorities[0], "") {
		flex.Label(k, v)
	}
	gpuPod := func(name string, priority int32, scheduled int, node string) *corev1.Pod {
		return unit.Pod(name).Request(wellknown.ResourceGPU, "2").Priority(priority).Running(node).ScheduledAt(at(scheduled)).Obj()
	}
	waiting := func(owner string, priority int32, created int) runtime.Object {
		return builders.Workload(cli.KindJobSet, "ns", owner, "lq").PodSet("slice", 2, wellknown.ResourceTPU, "4", wellknown.NodePoolLabel).
			Priority(priority).Created(at(created)).Waiting("QuotaExceeded", "insufficient quota").Obj()
	}
	objects := func(groups ...[]runtime.Object) []runtime.Object {
		var out []runtime.Object
		for _, g := range groups {
			out = append(out, g...)
		}
		return out
	}
	nodes := func(ns ...*corev1.Node) []runtime.Object {
		out := make([]runtime.Object, len(ns))
		for i, n := range ns {
			out[i] = n
		}
		return out
	}
	pods := func(ps ...*corev1.Pod) []runtime.Object {
		out := make([]runtime.Object, len(ps))
		for i, p := range ps {
			out[i] = p
		}
		return out
	}
	cases := map[string]struct {
		objects []runtime.Object
		now     time.Time
		want    []string
	}{
		"an empty cluster": {},
		"a 2-slice JobSet holds two pools, the third is free": {
			objects: objects(
				nodes(builders.V5ePools(3)...), pods(trainPods...),
				[]runtime.Object{train, builders.Event("JobSet", "ns", "train", "train-uid", corev1.EventTypeNormal, "Placed", "placed slice-0 on pool-1, slice-1 on pool-2", at(1))},
			),
			want: []string{
				"pool pool-1 ok: tpu-v5-lite-podslice 2x4 , 2 nodes, 8/8 google.com/tpu; held by JobSet ns/train (priority 1000, 2 pods, since +1m, #4e79a7)",
				"pool pool-2 ok: tpu-v5-lite-podslice 2x4 , 2 nodes, 8/8 google.com/tpu; held by JobSet ns/train (priority 1000, 2 pods, since +1m, #4e79a7)",
				"pool pool-3 ok: tpu-v5-lite-podslice 2x4 , 2 nodes, 0/8 google.com/tpu",
				"legend JobSet ns/train #4e79a7 priority 1000 since +1m: pool-1,pool-2",
				"timeline +1m admission Placed JobSet ns/train: placed slice-0 on pool-1, slice-1 on pool-2 #4e79a7",
			},
		},
		"two workloads share a GPU pool, coloured in the order they took it": {
			objects: objects(
				nodes(builders.NodePool("gpu").Nodes(2).GPU("nvidia-l4", 4).Zone("us-central1-a").Build()...),
				pods(gpuPod("late", 5, 3, "gpu-node-0"), gpuPod("early", 0, 2, "gpu-node-1")),
			),
			want: []string{
				"pool gpu ok: nvidia-l4  us-central1-a, 2 nodes, 4/8 nvidia.com/gpu; held by Pod ns/early (priority 0, 1 pods, since +2m, #4e79a7); held by Pod ns/late (priority 5, 1 pods, since +3m, #59a14f)",
				"legend Pod ns/early #4e79a7 priority 0 since +2m: gpu",
				"legend Pod ns/late #59a14f priority 5 since +3m: gpu",
			},
		},
		"queue usage with borrowing, and the pending list in queue order": {
			objects: []runtime.Object{
				builders.ClusterQueue("cq").Quota("v5e", wellknown.ResourceTPU, "24").Limits("8", "").
					Usage("v5e", wellknown.ResourceTPU, "32", "8").Counts(2, 0, 1).Obj(),
				builders.ClusterQueue("idle").Quota("v6e", wellknown.ResourceTPU, "64").Obj(),
				builders.LocalQueue("ns", "lq", "cq"),
				waiting("next", 0, 2),
				waiting("urgent", 100, 3),
			},
			want: []string{
				`queue cq (2 pending, 1 admitted) v5e google.com/tpu: 32 of 24, 8 borrowed, limit 8: "32 of 24, 8 borrowed"`,
				`queue idle (0 pending, 0 admitted) v6e google.com/tpu: 0 of 64, 0 borrowed, limit none: "0 of 64"`,
				`pending "cq" #1 JobSet ns/urgent priority 100: QuotaExceeded #4e79a7`,
				`pending "cq" #2 JobSet ns/next priority 0: QuotaExceeded #59a14f`,
			},
		},
		"failed, cordoned and recycling pools, told on the first read": {
			now: at(55),
			objects: objects(
				nodes(readyAt(builders.V5ePool("bad").NotReady().Build(), at(5))...),
				nodes(builders.V5ePool("closed").Unschedulable().Build()...),
				nodes(flex.Obj()),
				[]runtime.Object{class},
			),
			want: []string{
				"pool bad failed: tpu-v5-lite-podslice 2x4 , 2 nodes, 0/8 google.com/tpu; bad-node-0: Ready=False (KubeletNotReady), bad-node-1: Ready=False (KubeletNotReady)",
				"pool closed cordoned: tpu-v5-lite-podslice 2x4 , 2 nodes, 0/8 google.com/tpu; closed-node-0: cordoned, closed-node-1: cordoned",
				"pool flex-1 recycling: tpu-v5-lite-podslice 2x4 , 1 nodes, 0/4 google.com/tpu; flex-1-node-0: recycling since 2025-01-01T00:50:00Z",
				"timeline +55m pool Pool cordoned pool closed: closed-node-0: cordoned; closed-node-1: cordoned ",
				"timeline +55m pool Pool recycling pool flex-1: flex-1-node-0: recycling since 2025-01-01T00:50:00Z ",
				"timeline +5m failure Pool failed pool bad: bad-node-0: Ready=False (KubeletNotReady); bad-node-1: Ready=False (KubeletNotReady) ",
			},
		},
		"admissions and preemptions, newest first": {
			objects: objects(
				nodes(builders.V5ePools(1)...),
				pods(builders.MembersOn(unit.JobSet("high").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")...),
				[]runtime.Object{
					func() runtime.Object {
						wl := builders.Workload(cli.KindJobSet, "ns", "high", "lq").PodSet("slice", 2, wellknown.ResourceTPU, "4", wellknown.NodePoolLabel).Admitted("cq", "v5e", "pool-1").Obj()
						for i := range wl.Status.Conditions {
							wl.Status.Conditions[i].LastTransitionTime = metav1.NewTime(at(3))
						}
						return wl
					}(),
					builders.Event("JobSet", "ns", "high", "high-uid", corev1.EventTypeNormal, "Preempting", "evicting JobSet ns/low (priority 0)", at(2)),
					builders.Event("JobSet", "ns", "low", "low-uid", corev1.EventTypeWarning, "Preempted", "evicted whole by JobSet ns/high", at(2)),
					builders.Event("Pod", "ns", "x", "x-uid", corev1.EventTypeNormal, "Scheduled", "assigned to pool-1-node-0", at(2)),
				},
			),
			want: []string{
				"pool pool-1 ok: tpu-v5-lite-podslice 2x4 , 2 nodes, 8/8 google.com/tpu; held by JobSet ns/high (priority 0, 2 pods, since +0m, #4e79a7)",
				"legend JobSet ns/high #4e79a7 priority 0 since +0m: pool-1",
				"timeline +3m admission Admitted JobSet ns/high: by ClusterQueue cq: The workload is admitted #4e79a7",
				"timeline +2m preemption Preempting JobSet ns/high: evicting JobSet ns/low (priority 0) #4e79a7",
				"timeline +2m preemption Preempted JobSet ns/low: evicted whole by JobSet ns/high ",
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			now := tc.now
			if now.IsZero() {
				now = at(10)
			}
			c, err := gather.List(t.Context(), fakeClients(tc.objects...), everything, now, io.Discard)
			if err != nil {
				t.Fatal(err)
			}
			data, err := json.Marshal(NewBuilder(50).Build(c))
			if err != nil {
				t.Fatal(err)
			}
			// The page reads lists: never null.
			for _, list := range []string{`"pools":[`, `"workloads":[`, `"queues":[`, `"timeline":[`, `"pending":{"order":"per ClusterQueue`, `"workloads":[`} {
				if !strings.Contains(string(data), list) {
					t.Errorf("the model lacks %s:\n%s", list, data)
				}
			}
			var v view
			if err := json.Unmarshal(data, &v); err != nil {
				t.Fatal(err)
			}
			if !v.At.Equal(now) {
				t.Errorf("at %v, want %v", v.At, now)
			}
			if diff := cmp.Diff(tc.want, v.digest()); diff != "" {
				t.Errorf("model (-want +got):\n%s\n%s", diff, data)
			}
		})
	}
}
