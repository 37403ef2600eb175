package multislicegang

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// withQueue gives the fixture's namespace a LocalQueue whose ClusterQueue
// has chips of google.com/tpu in one flavor with labels.
func withQueue(f *fixture, labels map[string]string, chips int64) {
	f.st.Feed().SetAPI(state.QueueAPI, state.APIServed)
	f.st.Feed().SetFlavor(&quota.Flavor{Name: "flavor", NodeLabels: labels})
	f.st.Feed().SetClusterQueue(&quota.ClusterQueue{
		Name: "cq", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{"flavor"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: "flavor", Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}},
	})
	f.st.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "lq", ClusterQueue: "cq"})
}

// A queued plain pod is admitted on quota alone and limited to the nodes of
// the flavor it is charged to that have room for it; with none that has
// room, to every node of the flavor, so that the filters say why and
// preemption may make room. Whatever fails after admission gives the
// quota back in PostFilter.
func TestPreFilterQueuedPlainPod(t *testing.T) {
	v5e := map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}
	occupant := func(name, node string) *corev1.Pod { return unit.Pod(name).TPU("4").NodeName(node).Obj() }
	cases := map[string]struct {
		// flavor is the flavor's node labels.
		flavor map[string]string
		// running are pods already on nodes.
		running []*corev1.Pod
		want    status
		// wantNodes are the candidates (nil: every node).
		wantNodes []string
	}{
		"the flavor's nodes with room": {
			flavor:    v5e,
			running:   []*corev1.Pod{occupant("r", "pool-1-node-0")},
			wantNodes: []string{"pool-1-node-1", "pool-2-node-0", "pool-2-node-1"},
		},
		"no node of the flavor has room": {
			flavor: v5e,
			running: []*corev1.Pod{
				occupant("r0", "pool-1-node-0"), occupant("r1", "pool-1-node-1"),
				occupant("r2", "pool-2-node-0"), occupant("r3", "pool-2-node-1"),
			},
			wantNodes: append(poolNodes("pool-1"), poolNodes("pool-2")...),
		},
		"no node carries the flavor's labels": {
			flavor: map[string]string{wellknown.TPUAcceleratorLabel: "tpu-v6e-slice"},
			want:   status{fwk.Unschedulable, "no node carries the labels of the flavors the pod's quota was charged to"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			gpu := builders.NodePool("gpu").Nodes(1).GPU("nvidia-h100-80gb", 8).Build()
			f := newFixture(t, append(builders.V5ePools(2), gpu...)...)
			withQueue(f, tc.flavor, 16)
			f.addPods(tc.running...)
			pod := unit.Pod("p").TPU("4").Label(wellknown.QueueNameLabel, "lq").Obj()
			f.addPods(pod)
			key := workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: "p"}

			res, st := f.preFilter(pod)
			if diff := cmp.Diff(tc.want, statusOf(st)); diff != "" {
				t.Fatalf("PreFilter status (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantNodes, nodeNames(res)); diff != "" {
				t.Errorf("candidates (-want +got):\n%s", diff)
			}
			if reportedCharge(t, f.st, key) == nil {
				t.Fatalf("the pod's workload was not charged")
			}
			// Again in a later cycle: the same candidates, no second charge.
			if again, _ := f.preFilter(pod); !cmp.Equal(nodeNames(again), nodeNames(res)) {
				t.Errorf("second PreFilter's candidates = %v, want %v", nodeNames(again), nodeNames(res))
			}
			_, pf := f.pl.PostFilter(context.Background(), f.cycles[pod.UID], pod, rejectedEverywhere(nodeNames(res)))
			if pf.Code() != fwk.Unschedulable {
				t.Errorf("PostFilter: %v, want Unschedulable", pf)
			}
			if reportedCharge(t, f.st, key) != nil {
				t.Errorf("the quota was kept after no node fitted")
			}
		})
	}
}

// A queued plain pod is charged as it passes the gate, so the pods created
// while quota is free do not all pass: those beyond the quota wait gated,
// and come through once quota is released. A pod charged at the gate is
// not charged again in its cycle.
func TestGateChargesQueuedPlainPods(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	withQueue(f, map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e}, 8)
	pods := make([]*corev1.Pod, 3)
	for i := range pods {
		pods[i] = unit.Pod(fmt.Sprintf("p%d", i)).TPU("4").Label(wellknown.QueueNameLabel, "lq").Obj()
		pods[i].CreationTimestamp.Time = builders.Epoch.Add(time.Duration(i) * time.Second)
		f.addPods(pods[i])
	}
	keyOf := func(p *corev1.Pod) workload.Key {
		return workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: p.Name}
	}
	gate := func(p *corev1.Pod) status { return statusOf(f.gate.PreEnqueue(context.Background(), p)) }

	for _, p := range pods[:2] {
		if got := gate(p); got != (status{}) {
			t.Fatalf("gate held %s within quota: %v", p.Name, got)
		}
		if reportedCharge(t, f.st, keyOf(p)) == nil {
			t.Fatalf("%s passed the gate uncharged", p.Name)
		}
	}
	if got := gate(pods[2]); got.Code != fwk.UnschedulableAndUnresolvable || !strings.Contains(got.Message, "quota") {
		t.Fatalf("gate on the pod beyond the quota = %v, want it held for quota", got)
	}
	if reportedCharge(t, f.st, keyOf(pods[2])) != nil {
		t.Fatalf("a gated pod was charged")
	}

	before := reportedCharge(t, f.st, keyOf(pods[0]))
	if res := mustPreFilter(f, pods[0]); len(nodeNames(res)) == 0 {
		t.Fatalf("PreFilter gave no candidates to a pod charged at the gate")
	}
	if after := reportedCharge(t, f.st, keyOf(pods[0])); after != before {
		t.Errorf("PreFilter charged a pod charged at the gate again: %v, then %v", before, after)
	}

	// The first pod ends before it was placed: its quota goes to the third.
	f.deletePods(pods[0])
	if got := gate(pods[2]); got != (status{}) {
		t.Fatalf("gate held the third pod after quota was released: %v", got)
	}
	if reportedCharge(t, f.st, keyOf(pods[2])) == nil {
		t.Errorf("the third pod passed the gate uncharged")
	}
}

// A plain pod without a queue is neither charged nor limited.
func TestPreFilterUnqueuedPlainPodIsNotLimited(t *testing.T) {
	f := newFixture(t, builders.V5ePools(1)...)
	withQueue(f, map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e}, 16)
	pod := unit.Pod("p").TPU("4").Obj()
	f.addPods(pod)
	if res := mustPreFilter(f, pod); res != nil {
		t.Errorf("PreFilter limited an unqueued pod to %v", nodeNames(res))
	}
	if c := reportedCharge(t, f.st, workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: "p"}); c != nil {
		t.Errorf("an unqueued pod was charged %v", c)
	}
}

// HasRoom agrees with freeOf, without building it: a pod fits when every
// resource it asks for is left, the pod slot included.
func TestHasRoom(t *testing.T) {
	n := builders.V5ePool("pool-1").Node(0) // 8 CPUs, 32Gi, 110 pods, 4 chips
	tpuPod := unit.Pod("a").TPU("4").NodeName(n.Name).Obj()
	cases := map[string]struct {
		running []*corev1.Pod
		request workload.Resources
		want    bool
	}{
		"an empty node":             {request: workload.Resources{wellknown.ResourceTPU: 4000, corev1.ResourcePods: 1000}, want: true},
		"chips taken":               {running: []*corev1.Pod{tpuPod}, request: workload.Resources{wellknown.ResourceTPU: 1000}},
		"cpu left":                  {running: []*corev1.Pod{tpuPod}, request: workload.Resources{corev1.ResourceCPU: 8000, corev1.ResourcePods: 1000}, want: true},
		"more cpu than the node":    {request: workload.Resources{corev1.ResourceCPU: 8001}},
		"memory in bytes×1000":      {request: workload.Resources{corev1.ResourceMemory: 32 << 30 * 1000}, want: true},
		"more memory":               {request: workload.Resources{corev1.ResourceMemory: 32<<30*1000 + 1}},
		"a resource the node lacks": {request: workload.Resources{"nvidia.com/gpu": 1000}},
		"nothing asked":             {request: workload.Resources{"nvidia.com/gpu": 0}, want: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			ni := framework.NewNodeInfo(tc.running...)
			ni.SetNode(n)
			if got := nodeinfo.HasRoom(ni, tc.request); got != tc.want {
				t.Errorf("HasRoom = %v, want %v", got, tc.want)
			}
			if byFree := freeOf(ni).Count(tc.request) != 0; byFree != tc.want {
				t.Errorf("freeOf(...).Count = %v, disagrees with the case", byFree)
			}
		})
	}
	full := framework.NewNodeInfo()
	full.SetNode(builders.Node("tiny").Obj())
	for i := range 110 {
		full.AddPod(unit.Pod(fmt.Sprintf("p%d", i)).NodeName("tiny").Obj())
	}
	if nodeinfo.HasRoom(full, workload.Resources{corev1.ResourcePods: 1000}) {
		t.Errorf("HasRoom found a pod slot on a node with 110 of 110 pods")
	}
}
