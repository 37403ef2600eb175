package preemption_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// lwsGroup is the pods of group 0 of LeaderWorkerSet set, size pods of 8
// GPUs of priorityClass, as the set makes them from templates that
// require one subblock (Kueue's annotation), the leader first.
func lwsGroup(ns, set, priorityClass string, size int) []*corev1.Pod {
	var pods []*corev1.Pod
	for w := range size {
		name := set + "-0"
		if w > 0 {
			name = fmt.Sprintf("%s-0-%d", set, w)
		}
		b := builders.Pod(ns, name).Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "8").PriorityClass(priorityClass).
			Label(wellknown.LWSNameLabel, set).Label(wellknown.LWSGroupIndexLabel, "0").
			Label(wellknown.LWSWorkerIndexLabel, fmt.Sprint(w)).Label(wellknown.LWSGroupKeyLabel, set+"-0-key").
			Annotation(wellknown.LWSSizeAnnotation, fmt.Sprint(size)).
			Annotation(wellknown.RequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel)
		if w > 0 {
			b = b.Annotation(wellknown.LWSLeaderNameAnnotation, set+"-0")
		}
		pods = append(pods, b.Obj())
	}
	return pods
}

// A high-priority LeaderWorkerSet group that requires one subblock, on a
// fleet whose two subblocks each hold a low-priority gang on three of
// their four hosts: its leader plans the whole group and evicts one gang
// whole (not a pod of each), and the group lands in the subblock that gang
// freed; the other gang is never touched.
func TestLeaderWorkerSetGroupPreemptsForItsSubblock(t *testing.T) {
	cp, kubelet, jobsets, ns := startGPUSubblocks(t, "lws-tas")

	for _, name := range []string{"low-a", "low-b"} {
		jobsets.CreateAll(t, subblockJobSet(ns, name, lowPriority, 3))
		waitBound(t, cp, ns, name, 3)
	}
	if a, b := subblockOf(nodesOf(t, cp, ns, "low-a")), subblockOf(nodesOf(t, cp, ns, "low-b")); len(a) != 1 || len(b) != 1 || firstKey(a) == firstKey(b) {
		t.Fatalf("low-a in %v, low-b in %v: want one subblock each", a, b)
	}

	for _, p := range lwsGroup(ns, "serve", highPriority, 2) {
		cp.CreatePod(t, p)
	}
	victims := kubelet.WaitTerminated(t, "the group needs 2 hosts of one subblock; one low-priority gang of 3 is the fewest victims",
		func(p *corev1.Pod) bool { return p.Namespace == ns && p.Labels[wellknown.JobSetNameLabel] != "" }, 3, nil)
	checkVictims(t, victims, ns+"/serve-0")
	evicted := victims[0].Pod.Labels[wellknown.JobSetNameLabel]
	for _, v := range victims {
		if js := v.Pod.Labels[wellknown.JobSetNameLabel]; js != evicted {
			t.Errorf("victims of two gangs (%s and %s): want one gang whole", evicted, js)
		}
	}
	leader := cp.WaitForPodBound(t, ns, "serve-0")
	worker := cp.WaitForPodBound(t, ns, "serve-0-1")
	if sub := leader.Spec.NodeName[:2]; worker.Spec.NodeName[:2] != sub {
		t.Errorf("the leader on %s, its worker on %s: want one subblock", leader.Spec.NodeName, worker.Spec.NodeName)
	}
	other := "low-a"
	if evicted == "low-a" {
		other = "low-b"
	}
	kubelet.ExpectNoDisruption(t, "the other gang is never a victim", harness.OfJobSet(ns, other, -1), 0)
}
