package controllers

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A queue's head is written with the time it changed: the same head keeps
// its time (no write), a new one takes now, none clears it.
func TestPendingHead(t *testing.T) {
	t0, t1 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2026, 1, 1, 0, 5, 0, 0, time.UTC)
	a := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "a"}
	b := workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "b"}
	first := pendingHead(nil, []workload.Key{a, b}, t0)
	want := &multislicev1alpha1.PendingWorkloadsStatus{
		Head:           []multislicev1alpha1.PendingWorkload{{Namespace: "ns", Name: WorkloadName(a)}, {Namespace: "ns", Name: WorkloadName(b)}},
		LastChangeTime: metav1.NewTime(t0),
	}
	if diff := cmp.Diff(want, first); diff != "" {
		t.Errorf("first head (-want +got):\n%s", diff)
	}
	if same := pendingHead(first, []workload.Key{a, b}, t1); same != first {
		t.Errorf("an unchanged head was rewritten: %+v", same)
	}
	if moved := pendingHead(first, []workload.Key{b}, t1); len(moved.Head) != 1 || !moved.LastChangeTime.Time.Equal(t1) {
		t.Errorf("a changed head: %+v", moved)
	}
	if empty := pendingHead(first, nil, t1); empty != nil {
		t.Errorf("an empty queue has head %+v", empty)
	}
}

// A waiting workload's Workload object carries its places; a workload
// holding quota, none.
func TestDesiredWorkloadPositions(t *testing.T) {
	r := &state.WorkloadReport{
		Key:      workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "js"},
		Model:    &workload.Workload{Slices: []workload.Slice{{Name: "s", Pods: 1}}},
		Position: &state.QueuePosition{ClusterQueue: 3, LocalQueue: 1},
	}
	wl := desiredWorkload(r, "jobset-js")
	if p, q := wl.Status.PositionInClusterQueue, wl.Status.PositionInLocalQueue; p == nil || *p != 3 || q == nil || *q != 1 {
		t.Errorf("positions %v, %v; want 3, 1", p, q)
	}
	r.Position = &state.QueuePosition{LocalQueue: 1}
	if wl := desiredWorkload(r, "jobset-js"); wl.Status.PositionInClusterQueue != nil {
		t.Errorf("a place beyond the head of the ClusterQueue is written: %d", *wl.Status.PositionInClusterQueue)
	}
}
