package state_test

import (
	"fmt"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// BenchmarkSnapshotAndPlan is one gang's decision in PreFilter on its own
// (the snapshot, then the plan; on the snapshot for planning, and on the
// full snapshot a failed plan and preemption read), without the scheduler and apiserver of
// scheduler_perf, as the cluster grows: pools of 2 v5e hosts, half of them
// held by running JobSets of 16 slices, and a new JobSet of 16 slices to
// place. A gang needs 16 pools whatever the cluster's size, so what grows
// from one size to the next is the per-node term of the gang path.
func BenchmarkSnapshotAndPlan(b *testing.B) {
	for _, nodes := range []int{1024, 4096, 15000} {
		b.Run(fmt.Sprintf("%dNodes", nodes), func(b *testing.B) {
			f := halfHeld(b, nodes)
			// The scheduler reads what pods request on a node from its
			// cycle's snapshot, an index; the fixture's requested walks
			// every pod, which the benchmark would measure instead.
			perNode := map[string]workload.Resources{}
			for name := range f.nodes {
				perNode[name], _ = f.requested(name)
			}
			requested := func(node string) (workload.Resources, bool) {
				r, ok := perNode[node]
				return r, ok
			}
			// PreFilter plans on the snapshot for planning; a plan that
			// fails, and preemption, read the full snapshot.
			for _, mode := range []struct {
				name     string
				snapshot func(workload.Key, state.Requested) *state.Snapshot
			}{{"ForPlan", f.s.SnapshotForPlan}, {"Full", f.s.Snapshot}} {
				b.Run(mode.name, func(b *testing.B) {
					b.ReportAllocs()
					for range b.N {
						if _, fail := admission.Plan(mode.snapshot(jsKey("new"), requested)); fail != nil {
							b.Fatal(fail.Message)
						}
					}
				})
			}
		})
	}
}

// halfHeld is a fixture of nodes hosts in pools of 2, the first half of
// the pools held by running JobSets of 16 slices × 2 pods (one slice per
// pool), and JobSet "new" of 16 slices × 2 pods pending.
func halfHeld(tb testing.TB, nodes int) *fixture {
	tb.Helper()
	pools := nodes / 2
	f := newFixture(tb, builders.V5ePools(pools)...)
	for j := range pools / 2 / 16 {
		var on []string
		for s := range 16 {
			pool := 16*j + s + 1
			on = append(on, fmt.Sprintf("pool-%d-node-0", pool), fmt.Sprintf("pool-%d-node-1", pool))
		}
		f.addRunning(unit.JobSet(fmt.Sprintf("run-%d", j)).ReplicatedJob("slice", 16, 2).Obj(), on...)
	}
	f.addGang(unit.JobSet("new").ReplicatedJob("slice", 16, 2).Obj())
	return f
}

// The benchmark's fixture plans "new" on free pools only, and the snapshot
// for planning leaves the held pools' nodes out.
func TestHalfHeldPlansOnFreePools(t *testing.T) {
	f := halfHeld(t, 128)
	sn := f.s.SnapshotForPlan(jsKey("new"), f.requested)
	if got := elided(sn); got != 32 || len(sn.Nodes) != 64 || len(sn.Domains[wellknown.NodePoolLabel]) != 64 {
		t.Errorf("snapshot for planning: %d pools elided, %d nodes, %d pools listed; want 32 elided, 64 nodes of 64 listed",
			got, len(sn.Nodes), len(sn.Domains[wellknown.NodePoolLabel]))
	}
	for _, run := range []string{"run-0", "run-1"} {
		if _, ok := sn.Workloads[jsKey(run)]; ok {
			t.Errorf("snapshot for planning holds %s, whose pools it leaves out", run)
		}
	}
	r := f.mustPlan(jsKey("new"))
	if len(r.Slices) != 16 {
		t.Fatalf("%d slices planned, want 16", len(r.Slices))
	}
	for i, d := range domains(r) {
		var n int
		if _, err := fmt.Sscanf(d, "pool-%d", &n); err != nil || n <= 32 {
			t.Errorf("slice %d planned on %s, want a pool above pool-32 (the first 32 are held)", i, d)
		}
	}
}

// The snapshot for planning leaves out the pools other workloads hold, but
// never one where the workload's own pods run: a slice partly placed in a
// pool another workload holds too is planned (and fails) there, as on the
// full snapshot, not elsewhere as if its pods were not placed.
func TestSnapshotForPlanKeepsPoolsOfOwnPods(t *testing.T) {
	f := newFixture(t, builders.V5ePools(4)...)
	f.addRunning(unit.JobSet("other").ReplicatedJob("slice", 2, 1).Obj(), "pool-1-node-1", "pool-3-node-0")
	pods := f.addGang(unit.JobSet("mine").ReplicatedJob("slice", 2, 2).Obj())
	f.bind(pods[0], "pool-1-node-0")
	sn := f.s.SnapshotForPlan(jsKey("mine"), f.requested)
	if _, ok := sn.Nodes["pool-1-node-1"]; !ok || sn.Elided[wellknown.NodePoolLabel]["pool-1"] {
		t.Errorf("pool-1, where a pod of the workload runs, was left out of the snapshot for planning")
	}
	if !sn.Elided[wellknown.NodePoolLabel]["pool-3"] {
		t.Errorf("pool-3, held by another workload alone, was not left out")
	}
	if _, fail := f.plan(jsKey("mine")); fail == nil {
		t.Errorf("planned a slice partly placed in a pool another workload holds")
	}
}
