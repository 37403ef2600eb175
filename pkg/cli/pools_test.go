package cli

import (
	"bytes"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var unit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

// now is when the tests' objects are listed: ten minutes after they were
// created.
var now = builders.Epoch.Add(10 * time.Minute)

func nodes(pools ...*builders.NodePoolBuilder) []*corev1.Node {
	var out []*corev1.Node
	for _, p := range pools {
		out = append(out, p.Build()...)
	}
	return out
}

// v5e is a free, healthy v5e 2x4 pool as Pools lists it.
func v5e(name string) Pool {
	return Pool{Name: name, Accelerator: builders.V5e, Topology: "2x4", Zone: "us-west4-a", Nodes: 2, Health: HealthOK,
		Resource: string(wellknown.ResourceTPU), Capacity: 8}
}

func with(p Pool, edit func(*Pool)) Pool {
	edit(&p)
	return p
}

func TestPools(t *testing.T) {
	pool := func(name string) *builders.NodePoolBuilder { return builders.V5ePool(name).Zone("us-west4-a") }
	train := unit.JobSet("train").ReplicatedJob("slice", 2, 2).Obj()
	trainPods := builders.MembersOn(train, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	for i := range trainPods {
		trainPods[i] = builders.Edit(trainPods[i]).Priority(1000).ScheduledAt(builders.Epoch.Add(time.Minute)).Obj()
	}
	class := builders.ComputeClass("flex").FlexStart("ct5lp-hightpu-4t", 3600, 600).Obj()
	// A node of pool flex-1 created at Epoch from the class's flex-start
	// priority: recycled from 50 minutes on, ended at 60.
	flexNode := func() *builders.NodeBuilder {
		b := builders.Node("flex-1-node-0").TPU(builders.V5e, "2x4", 4).Zone("us-west4-a").
			Label(wellknown.NodePoolLabel, "flex-1").Created(builders.Epoch)
		for k, v := range computeclass.NodeLabels("flex", &class.Spec.Priorities[0], "") {
			b.Label(k, v)
		}
		return b
	}
	cases := map[string]struct {
		cluster Cluster
		want    []Pool
	}{
		"free pools in name order": {
			cluster: Cluster{Nodes: nodes(pool("pool-2"), pool("pool-1"))},
			want:    []Pool{v5e("pool-1"), v5e("pool-2")},
		},
		"a JobSet holds the pools its slices run in": {
			cluster: Cluster{Nodes: nodes(pool("pool-1"), pool("pool-2"), pool("pool-3")), Pods: trainPods},
			want: []Pool{
				with(v5e("pool-1"), func(p *Pool) {
					p.Used = 8
					p.Holders = []Holder{{Workload: WorkloadRef{KindJobSet, "ns", "train"}, UID: "train-uid", Priority: 1000, Since: builders.Epoch.Add(time.Minute), Pods: 2}}
				}),
				with(v5e("pool-2"), func(p *Pool) {
					p.Used = 8
					p.Holders = []Holder{{Workload: WorkloadRef{KindJobSet, "ns", "train"}, UID: "train-uid", Priority: 1000, Since: builders.Epoch.Add(time.Minute), Pods: 2}}
				}),
				v5e("pool-3"),
			},
		},
		"finished pods hold nothing; an unqueued Job's pod is its Job's": {
			cluster: Cluster{Nodes: nodes(pool("pool-1")), Pods: []*corev1.Pod{
				builders.InPhase(builders.Bound(unit.Pod("done").TPU("4").Obj(), "pool-1-node-0"), corev1.PodSucceeded),
				unit.Pod("batch-x7").TPU("4").Label(wellknown.JobNameLabel, "batch").Running("pool-1-node-1").Created(builders.Epoch.Add(2 * time.Minute)).Obj(),
			}},
			want: []Pool{with(v5e("pool-1"), func(p *Pool) {
				p.Used = 4
				p.Holders = []Holder{{Workload: WorkloadRef{KindJob, "ns", "batch"}, Since: builders.Epoch.Add(2 * time.Minute), Pods: 1}}
			})},
		},
		"a NotReady node fails its pool, which outranks a cordoned one": {
			cluster: Cluster{Nodes: append(nodes(pool("pool-1").NotReady(), pool("pool-2").Unschedulable()),
				pool("pool-3").Node(0), pool("pool-3").Unschedulable().NotReady().Node(1))},
			want: []Pool{
				with(v5e("pool-1"), func(p *Pool) {
					p.Health = HealthFailed
					p.Problems = []string{"pool-1-node-0: Ready=False (KubeletNotReady)", "pool-1-node-1: Ready=False (KubeletNotReady)"}
				}),
				with(v5e("pool-2"), func(p *Pool) {
					p.Health = HealthCordoned
					p.Problems = []string{"pool-2-node-0: cordoned", "pool-2-node-1: cordoned"}
				}),
				with(v5e("pool-3"), func(p *Pool) {
					p.Health = HealthFailed
					p.Problems = []string{"pool-3-node-1: Ready=False (KubeletNotReady)"}
				}),
			},
		},
		"a flex-start node past its recycling start, by its ComputeClass": {
			cluster: Cluster{Now: builders.Epoch.Add(55 * time.Minute), Nodes: []*corev1.Node{flexNode().Unschedulable().Obj()},
				ComputeClasses: []*cloudv1.ComputeClass{class}, ComputeClassesServed: true},
			want: []Pool{with(v5e("flex-1"), func(p *Pool) {
				p.Nodes, p.Capacity = 1, 4
				p.Health = HealthRecycling
				p.Problems = []string{"flex-1-node-0: recycling since 2025-01-01T00:50:00Z"}
				p.Recycles, p.Ends = builders.Epoch.Add(50*time.Minute), builders.Epoch.Add(time.Hour)
				p.Lifetimes = []NodeLifetime{{Node: "flex-1-node-0", Phase: computeclass.Recycling, Recycles: p.Recycles, Ends: p.Ends, Cordoned: true}}
			})},
		},
		"before its recycling start it is ok, and says when it recycles and ends": {
			cluster: Cluster{Now: builders.Epoch.Add(49 * time.Minute), Nodes: []*corev1.Node{flexNode().Obj()},
				ComputeClasses: []*cloudv1.ComputeClass{class}, ComputeClassesServed: true},
			want: []Pool{with(v5e("flex-1"), func(p *Pool) {
				p.Nodes, p.Capacity = 1, 4
				p.Recycles, p.Ends = builders.Epoch.Add(50*time.Minute), builders.Epoch.Add(time.Hour)
				p.Lifetimes = []NodeLifetime{{Node: "flex-1-node-0", Phase: computeclass.Running, Recycles: p.Recycles, Ends: p.Ends}}
			})},
		},
		"without the ComputeClass API a flex-start node ends after 7 days": {
			cluster: Cluster{Now: builders.Epoch.Add(8 * 24 * time.Hour), Nodes: []*corev1.Node{flexNode().Obj()},
				ComputeClasses: []*cloudv1.ComputeClass{class}},
			want: []Pool{with(v5e("flex-1"), func(p *Pool) {
				p.Nodes, p.Capacity = 1, 4
				p.Health = HealthRecycling
				p.Problems = []string{"flex-1-node-0: past its end of life 2025-01-08T00:00:00Z"}
				p.Ends = builders.Epoch.Add(7 * 24 * time.Hour)
				p.Lifetimes = []NodeLifetime{{Node: "flex-1-node-0", Phase: computeclass.Ended, Ends: p.Ends}}
			})},
		},
		"GPU and CPU pools; nodes of no pool are left out": {
			cluster: Cluster{Nodes: append(nodes(builders.NodePool("gpu").Nodes(2).GPU("nvidia-l4", 4).Zone("us-central1-a"), builders.NodePool("cpu")),
				builders.Node("loose").Obj())},
			want: []Pool{
				{Name: "cpu", Nodes: 1, Health: HealthOK},
				{Name: "gpu", Accelerator: "nvidia-l4", Zone: "us-central1-a", Nodes: 2, Health: HealthOK, Resource: string(wellknown.ResourceGPU), Capacity: 8},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if tc.cluster.Now.IsZero() {
				tc.cluster.Now = now
			}
			if diff := cmp.Diff(tc.want, Pools(&tc.cluster)); diff != "" {
				t.Errorf("Pools (-want +got):\n%s", diff)
			}
		})
	}
}

// `pools -o wide` says when each pool's first node is recycled and ends.
func TestPrintPoolsWideShowsLifetimes(t *testing.T) {
	class := builders.ComputeClass("flex").FlexStart("ct5lp-hightpu-4t", 3600, 600).Obj()
	b := builders.Node("flex-1-node-0").TPU(builders.V5e, "2x4", 4).Label(wellknown.NodePoolLabel, "flex-1").Created(builders.Epoch)
	for k, v := range computeclass.NodeLabels("flex", &class.Spec.Priorities[0], "") {
		b.Label(k, v)
	}
	c := Cluster{Now: builders.Epoch.Add(55 * time.Minute), Nodes: []*corev1.Node{b.Unschedulable().Obj()},
		ComputeClasses: []*cloudv1.ComputeClass{class}, ComputeClassesServed: true}
	var out bytes.Buffer
	if err := PrintPools(&out, Pools(&c), c.Now, true); err != nil {
		t.Fatal(err)
	}
	want := lines(
		"POOL     ACCELERATOR            TOPOLOGY   ZONE   NODES   HEALTH      HELD BY   PRIORITY   SINCE   USED                 PODS   RECYCLES   ENDS    PROBLEMS",
		"flex-1   tpu-v5-lite-podslice   2x4        -      1       recycling   free      -          -       0/4 google.com/tpu   0      5m ago     in 5m   flex-1-node-0: recycling since 2025-01-01T00:50:00Z",
	)
	if diff := cmp.Diff(want, trimLines(out.String())); diff != "" {
		t.Errorf("pools -o wide (-want +got):\n%s", diff)
	}
}
