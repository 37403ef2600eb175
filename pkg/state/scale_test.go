package state_test

import (
	"fmt"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// BenchmarkSnapshotAndPlan is one gang's decision in PreFilter on its own
// (the snapshot, then the plan), without the scheduler and apiserver of
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
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, fail := admission.Plan(f.s.Snapshot(jsKey("new"), requested)); fail != nil {
					b.Fatal(fail.Message)
				}
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

// The benchmark's fixture plans "new" on free pools only.
func TestHalfHeldPlansOnFreePools(t *testing.T) {
	f := halfHeld(t, 128)
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
