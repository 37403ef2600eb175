package quota_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// lwsTopologyPod is pod worker of group group of LeaderWorkerSet set in
// the GPU queue, as the set's controller makes it from a template
// annotated as given (size pods a group, gpus GPUs each).
func lwsTopologyPod(set string, group, worker, size int, gpus string, annotations ...string) *corev1.Pod {
	leader := fmt.Sprintf("%s-%d", set, group)
	name := leader
	if worker > 0 {
		name = fmt.Sprintf("%s-%d", leader, worker)
	}
	b := builders.Pod("default", name).Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, gpus).
		Label(wellknown.QueueNameLabel, "gpu-queue").
		Label(wellknown.LWSNameLabel, set).
		Label(wellknown.LWSGroupIndexLabel, fmt.Sprint(group)).
		Label(wellknown.LWSWorkerIndexLabel, fmt.Sprint(worker)).
		Label(wellknown.LWSGroupKeyLabel, leader+"-key").
		Annotation(wellknown.LWSSizeAnnotation, fmt.Sprint(size))
	if worker > 0 {
		b = b.Annotation(wellknown.LWSLeaderNameAnnotation, leader)
	}
	for i := 0; i+1 < len(annotations); i += 2 {
		b = b.Annotation(annotations[i], annotations[i+1])
	}
	return b.Obj()
}

// subblockOf is the subblock of the node a bound pod runs on.
func (e *env) subblockOf(t *testing.T, pod *corev1.Pod) string {
	t.Helper()
	node, err := e.cp.Client.CoreV1().Nodes().Get(t.Context(), pod.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return node.Labels[subblockLabel]
}

// A LeaderWorkerSet whose templates ask, as Kueue users write them, for
// one subblock per group: each group is a gang of its own, placed whole in
// one subblock its leader's plan chose for the workers created after it
// (the set creates them once the leader exists), with room another pod has
// taken passed over, and quota charged for the whole group. A worker whose
// template asks for another level is refused, saying what to change.
func TestLeaderWorkerSetGroupsKeepTheirTopology(t *testing.T) {
	e := startGPUFleet(t)
	// A pod outside the queue takes 4 GPUs of b0-s0: 12 are left there,
	// too few for a group of 16.
	e.cp.CreatePod(t, builders.Pod("default", "squatter").NoRequests().Request(wellknown.ResourceGPU, "4").NodeName("b0-s0-h0").Obj())
	ask := []string{wellknown.RequiredTopologyAnnotation, subblockLabel, wellknown.PodSetGroupNameAnnotation, "serve"}

	used := map[string]string{}
	for g := range 2 {
		leader := e.cp.CreatePod(t, lwsTopologyPod("serve", g, 0, 4, "4", ask...))
		leader = e.cp.WaitForPodBound(t, "default", leader.Name)
		sub := e.subblockOf(t, leader)
		if sub == "b0-s0" {
			t.Errorf("group %d's leader landed in b0-s0, which has room for 12 of its 16 GPUs", g)
		}
		if other, ok := used[sub]; ok {
			t.Errorf("groups %s and %d share subblock %s, which holds one", other, g, sub)
		}
		used[sub] = fmt.Sprint(g)
		for w := 1; w < 4; w++ {
			e.cp.CreatePod(t, lwsTopologyPod("serve", g, w, 4, "4", ask...))
		}
		for w := 1; w < 4; w++ {
			if got := e.subblockOf(t, e.cp.WaitForPodBound(t, "default", fmt.Sprintf("serve-%d-%d", g, w))); got != sub {
				t.Errorf("group %d's worker %d landed in %s, away from its leader's %s", g, w, got, sub)
			}
		}
	}
	// 32 of the queue's 64 GPUs are charged, for the two groups.
	e.q.WaitResourceInUse(t, "gpu-cluster-queue", wellknown.ResourceGPU, 32)

	// A third group whose worker asks for a block instead: the leader
	// plans the group in a subblock, the worker is refused and says why.
	e.cp.CreatePod(t, lwsTopologyPod("mixed", 0, 0, 2, "4", ask...))
	bad := e.cp.CreatePod(t, lwsTopologyPod("mixed", 0, 1, 2, "4", wellknown.RequiredTopologyAnnotation, blockLabel))
	e.cp.WaitForPodConditionSaying(t, "default", bad.Name, corev1.PodScheduled, corev1.ConditionFalse,
		"its group's leader for required "+subblockLabel)
	e.cp.ExpectPodStaysUnbound(t, "default", bad.Name, time.Second)
}
