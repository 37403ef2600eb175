package state_test

import (
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A node's Free in a snapshot starts as the node's own allocatable when
// nothing takes room on it; what a decision simulates on the snapshot
// (a workload removed, its pods' room given back) must change a copy,
// never the node the state and every other snapshot share.
func TestSnapshotNeverChangesANodesAllocatable(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	f.addRunning(unit.JobSet("x").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")
	f.addGang(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj())
	// The framework's snapshot says nothing is requested anywhere (x's pods
	// not yet in it): x's nodes' Free are their allocatable.
	nothing := func(string) (workload.Resources, bool) { return nil, true }
	sn := f.s.Snapshot(jsKey("b"), state.Requested(nothing))
	n := sn.Nodes["pool-1-node-0"]
	if n == nil {
		t.Fatal("pool-1-node-0 is not in the snapshot")
	}
	before := maps.Clone(n.Node.Allocatable)

	undo := sn.RemoveWorkload(jsKey("x"))
	if diff := cmp.Diff(before, n.Node.Allocatable); diff != "" {
		t.Errorf("removing x from the snapshot changed the node's allocatable (-before +after):\n%s", diff)
	}
	undo()
	if diff := cmp.Diff(before, n.Free); diff != "" {
		t.Errorf("the undo left Free changed (-before +after):\n%s", diff)
	}
	again := f.s.Snapshot(jsKey("b"), state.Requested(nothing))
	if diff := cmp.Diff(before, again.Nodes["pool-1-node-0"].Free); diff != "" {
		t.Errorf("a later snapshot's Free differs from the allocatable (-want +got):\n%s", diff)
	}
}
