package state_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// lwsPod is pod worker of group group of LeaderWorkerSet set, of size
// pods, as the set's controller and webhook make it: labels, size and
// exclusive-topology annotations, one v5e host's chips; a worker is
// pinned to its leader's pool once that is known (pool).
func lwsPod(set string, group, worker, size int, pool string) *corev1.Pod {
	name := fmt.Sprintf("%s-%d", set, group)
	if worker > 0 {
		name = fmt.Sprintf("%s-%d-%d", set, group, worker)
	}
	b := unit.Pod(name).UID(name+"-uid").TPU("4").
		Label(wellknown.LWSNameLabel, set).
		Label(wellknown.LWSGroupIndexLabel, fmt.Sprint(group)).
		Label(wellknown.LWSWorkerIndexLabel, fmt.Sprint(worker)).
		Label(wellknown.LWSGroupKeyLabel, name+"-key").
		Annotation(wellknown.LWSSizeAnnotation, fmt.Sprint(size)).
		Annotation(wellknown.LWSExclusiveTopologyAnnotation, wellknown.NodePoolLabel)
	if worker > 0 {
		b.Annotation(wellknown.LWSLeaderNameAnnotation, fmt.Sprintf("%s-%d", set, group))
		b.NodeSelector(wellknown.NodePoolLabel, pool)
	}
	pod := b.Obj()
	pod.Labels[wellknown.LWSGroupKeyLabel] = fmt.Sprintf("%s-%d-key", set, group)
	return pod
}

func lwsKey(set string, group int) workload.Key {
	return workload.Key{Source: workload.SourceLeaderWorkerSet, Namespace: unit.Namespace, Name: fmt.Sprintf("%s-%d", set, group)}
}

// Each group of an exclusively placed LeaderWorkerSet is a gang of its own
// on a pool of its own: its leader, alone at first (the set creates the
// workers once the leader exists), plans the whole group, the pool is
// reserved while the workers come, and the workers land there. Groups do
// not share pools with each other or with other workloads.
func TestLWSGroupsHoldAPoolEach(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	leaders := []*corev1.Pod{lwsPod("serve", 0, 0, 2, ""), lwsPod("serve", 1, 0, 2, "")}
	f.addPods(leaders...)

	pools := map[string]bool{}
	for g, leader := range leaders {
		if v := f.admit(leader); v.Wait || v.Unresolvable || !v.Gang || v.Member.Key != lwsKey("serve", g) {
			t.Fatalf("group %d's leader, alone: %+v, want it to plan for its group", g, v)
		}
		_, r, _ := f.commit(lwsKey("serve", g))
		pool := r.Slices[0].Domain
		if pool == "" || pools[pool] || len(r.Slices[0].Slots) == 0 {
			t.Fatalf("group %d reserved %+v, want a pool of its own", g, r.Slices[0])
		}
		pools[pool] = true
		_, node := f.reserve(leader)
		f.bind(leader, node)

		worker := lwsPod("serve", g, 1, 2, pool)
		f.addPods(worker)
		if v := f.admit(worker); v.Wait || v.Unresolvable {
			t.Fatalf("group %d's worker: %+v", g, v)
		}
		nodes, ok := f.s.Reports().MemberNodes(worker)
		if !ok || nodes.Len() == 0 {
			t.Fatalf("group %d's worker has no reserved room", g)
		}
		for n := range nodes {
			if !strings.HasPrefix(n, pool+"-") {
				t.Errorf("group %d's worker may go to %s, outside its pool %s", g, n, pool)
			}
		}
		_, wnode := f.reserve(worker)
		f.bind(worker, wnode)
	}

	// A JobSet slice finds the third pool, not one a group holds.
	f.addGang(unit.JobSet("train").ReplicatedJob("slice", 1, 2).Obj())
	_, r, _ := f.commit(jsKey("train"))
	if pools[r.Slices[0].Domain] {
		t.Errorf("the JobSet got %s, held by a group", r.Slices[0].Domain)
	}
}

// A group whose size annotation is not a number is said to be malformed,
// naming the annotation, rather than placed.
func TestLWSGroupWithABadSizeIsTold(t *testing.T) {
	f := newFixture(t, builders.V5ePools(1)...)
	leader := lwsPod("serve", 0, 0, 2, "")
	leader.Annotations[wellknown.LWSSizeAnnotation] = "two"
	f.addPods(leader)
	if v := f.admit(leader); !v.Unresolvable || !strings.Contains(v.Message, wellknown.LWSSizeAnnotation) {
		t.Errorf("verdict %+v, want unresolvable naming the size annotation", v)
	}
}

// A queued group's Workload object is owned by its leader pod: the report
// names it with its UID, which an owner reference needs.
func TestQueuedLWSGroupIsOwnedByItsLeader(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(1)...), 8, quota.BestEffortFIFO)
	leader := lwsPod("serve", 0, 0, 2, "")
	leader.Labels[wellknown.QueueNameLabel] = "multislice-queue"
	f.addPods(leader)
	for _, wr := range f.s.Reports().QueueReport().Workloads {
		if wr.Key == lwsKey("serve", 0) {
			if wr.Ref.Kind != "Pod" || wr.Ref.Name != leader.Name || wr.Ref.UID != leader.UID {
				t.Errorf("ref %+v, want the leader pod with its UID", wr.Ref)
			}
			return
		}
	}
	t.Error("the queued group is not reported")
}

// lwsTopologyPod is pod worker of a LeaderWorkerSet group in the GPU
// queue whose templates ask for one subblock (Kueue's annotation), gpus
// GPUs a pod.
func lwsTopologyPod(set string, group, worker, size int, gpus string) *corev1.Pod {
	pod := lwsPod(set, group, worker, size, "")
	delete(pod.Annotations, wellknown.LWSExclusiveTopologyAnnotation)
	pod.Annotations[wellknown.RequiredTopologyAnnotation] = gpuSubblock
	pod.Labels[wellknown.QueueNameLabel] = "gpu-queue"
	pod.Spec.NodeSelector = nil
	pod.Spec.Containers[0].Resources.Requests = corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse(gpus)}
	pod.Spec.Containers[0].Resources.Limits = nil
	return pod
}

// A queued LeaderWorkerSet group asking for one subblock: its leader,
// alone, plans the whole group into the one subblock with room for all of
// it (not the one a running pod left too small), the room is reserved
// while the workers come, and the workers are held to it.
func TestLWSGroupAskingForASubblock(t *testing.T) {
	// Two subblocks of 2 hosts × 8 GPUs; 4 GPUs of sb-0 are taken.
	f := withGPUQueue(newFixture(t, gpuHost(0, "sb-0"), gpuHost(1, "sb-0"), gpuHost(2, "sb-1"), gpuHost(3, "sb-1")), 64)
	running(f, "squatter", "4", "gpu-0")
	leader := lwsTopologyPod("serve", 0, 0, 4, "4")
	f.addPods(leader)
	if v := f.admit(leader); v.Wait || v.Unresolvable || !v.Gang || v.Member.Key != lwsKey("serve", 0) {
		t.Fatalf("the leader, alone: %+v, want it to plan for its group", v)
	}
	_, r, _ := f.commit(lwsKey("serve", 0))
	sr := r.Slices[0]
	planned := 0
	for _, slot := range sr.Slots {
		planned += slot.Count
		if slot.Node != "gpu-2" && slot.Node != "gpu-3" {
			t.Errorf("room planned on %s, outside sb-1, the one subblock with 16 free GPUs", slot.Node)
		}
	}
	if planned != 4 || sr.Domain != "" {
		t.Fatalf("reserved %+v, want room for the 4 pods of the group on nodes, no whole domain", sr)
	}
	_, node := f.reserve(leader)
	f.bind(leader, node)
	for w := 1; w < 4; w++ {
		worker := lwsTopologyPod("serve", 0, w, 4, "4")
		f.addPods(worker)
		if v := f.admit(worker); v.Wait || v.Unresolvable {
			t.Fatalf("worker %d: %+v", w, v)
		}
		nodes, ok := f.s.Reports().MemberNodes(worker)
		if !ok || nodes.Len() == 0 {
			t.Fatalf("worker %d has no reserved room", w)
		}
		for n := range nodes {
			if n != "gpu-2" && n != "gpu-3" {
				t.Errorf("worker %d may go to %s, outside its leader's subblock", w, n)
			}
		}
	}
}

// A worker of a group whose leader asks for nothing: the leader is
// scheduled alone, and the worker says what it waits for and what to
// change.
func TestLWSWorkerOfALeaderAskingNothingSaysWhy(t *testing.T) {
	f := withGPUQueue(newFixture(t, gpuHost(0, "sb-0"), gpuHost(1, "sb-0")), 64)
	leader := lwsTopologyPod("serve", 0, 0, 2, "4")
	delete(leader.Annotations, wellknown.RequiredTopologyAnnotation)
	worker := lwsTopologyPod("serve", 0, 1, 2, "4")
	f.addPods(leader, worker)
	if v := f.admit(leader); v.Member.Key.Source == workload.SourceLeaderWorkerSet {
		t.Errorf("the leader asking nothing: %+v, want it alone (a queued pod is a workload of its own)", v)
	}
	v := f.admit(worker)
	if !v.Gang || !v.Wait || !strings.Contains(v.Message, "waiting for the leader pod of LeaderWorkerSet ns/serve-0") ||
		!strings.Contains(v.Message, "give the leader template the annotations this pod's has") {
		t.Errorf("the worker: %+v, want it to wait saying why and what to change", v)
	}
}
