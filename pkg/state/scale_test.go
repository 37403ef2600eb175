package state_test

import (
	"fmt"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"

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
			requested := indexedRequested(f)
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

// BenchmarkSnapshotAndPlanMixedFleet is BenchmarkSnapshotAndPlan's
// decision at 4096 nodes of the gang's kind, in a fleet that also has as
// many, or three times as many, nodes of another kind (v5e 2x2 pools of 2
// hosts, which the gang's pods do not select): the snapshot for planning
// leaves those pools out, so the decision costs what the gang's own kind
// of node costs.
func BenchmarkSnapshotAndPlanMixedFleet(b *testing.B) {
	for _, others := range []int{0, 4096, 12288} {
		b.Run(fmt.Sprintf("%dOtherNodes", others), func(b *testing.B) {
			var other []*corev1.Node
			for i := range others / 2 {
				other = append(other, builders.NodePool(fmt.Sprintf("small-%d", i)).Nodes(2).TPU(builders.V5e, "2x2", 4).Build()...)
			}
			f := halfHeld(b, 4096, other...)
			requested := indexedRequested(f)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, fail := admission.Plan(f.s.SnapshotForPlan(jsKey("new"), requested)); fail != nil {
					b.Fatal(fail.Message)
				}
			}
		})
	}
}

// indexedRequested is f.requested read from an index made once: the
// scheduler reads what pods request on a node from its cycle's snapshot,
// an index, while the fixture's requested walks every pod, which a
// benchmark would measure instead.
func indexedRequested(f *fixture) state.Requested {
	perNode := map[string]workload.Resources{}
	for name := range f.nodes {
		perNode[name], _ = f.requested(name)
	}
	return func(node string) (workload.Resources, bool) {
		r, ok := perNode[node]
		return r, ok
	}
}

// halfHeld is a fixture of nodes hosts in pools of 2, the first half of
// the pools held by running JobSets of 16 slices × 2 pods (one slice per
// pool), and JobSet "new" of 16 slices × 2 pods pending; others are more
// nodes of the cluster.
func halfHeld(tb testing.TB, nodes int, others ...*corev1.Node) *fixture {
	tb.Helper()
	pools := nodes / 2
	f := newFixture(tb, append(builders.V5ePools(pools), others...)...)
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

// The snapshot for planning leaves out the pools in which no node carries
// the labels every pod of the workload selects — another topology, another
// accelerator — but keeps a pool where one of its own pods runs, and every
// pool when its slices select different kinds of node. The plan is the
// full snapshot's (fixture.plan checks both).
func TestSnapshotForPlanLeavesOutPoolsNotSelected(t *testing.T) {
	nodes := builders.V5ePools(2)
	nodes = append(nodes, builders.NodePool("small-1").Nodes(2).TPU(builders.V5e, "2x2", 4).Build()...)
	nodes = append(nodes, builders.NodePool("small-2").Nodes(2).TPU(builders.V5e, "2x2", 4).Build()...)
	nodes = append(nodes, builders.NodePool("gpu-1").Nodes(2).GPU("nvidia-l4", 1).Build()...)
	small := func(p *builders.PodBuilder) { p.NodeSelector(wellknown.TPUTopologyLabel, "2x2") }
	for _, tc := range []struct {
		name string
		js   *builders.JobSetBuilder
		// bindTo places the first pod there before planning.
		bindTo string
		// unselected: the pods select no node labels.
		unselected bool
		// wantPools are the pools the snapshot lists; nil: all.
		wantPools []string
		wantOn    []string
	}{{
		name:      "another topology and another accelerator",
		js:        unit.JobSet("mine").ReplicatedJob("slice", 2, 2),
		wantPools: []string{"pool-1", "pool-2"},
		wantOn:    []string{"pool-1", "pool-2"},
	}, {
		name:      "slices of two topologies: only the accelerator is common",
		js:        unit.JobSet("mine").ReplicatedJob("big", 1, 2).Pod(small).ReplicatedJob("small", 1, 2),
		wantPools: []string{"pool-1", "pool-2", "small-1", "small-2"},
		wantOn:    []string{"pool-1", "small-1"},
	}, {
		name:      "a pool its own pod runs in",
		js:        unit.JobSet("mine").ReplicatedJob("slice", 2, 2),
		bindTo:    "small-2-node-0",
		wantPools: []string{"pool-1", "pool-2", "small-2"},
	}, {
		name:       "nothing selected: every pool is listed",
		js:         unit.JobSet("mine").ReplicatedJob("slice", 2, 2),
		unselected: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, nodes...)
			js := tc.js.Obj()
			if tc.unselected {
				for i := range js.Spec.ReplicatedJobs {
					js.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.NodeSelector = nil
				}
			}
			pods := f.addGang(js)
			if tc.bindTo != "" {
				f.bind(pods[0], tc.bindTo)
			}
			sn := f.s.SnapshotForPlan(jsKey("mine"), f.requested)
			got := sn.DomainValues(wellknown.NodePoolLabel)
			want := tc.wantPools
			if want == nil {
				want = []string{"gpu-1", "pool-1", "pool-2", "small-1", "small-2"}
			}
			if !slices.Equal(got, want) || sn.Partial() != (tc.wantPools != nil) {
				t.Errorf("pools listed: %v (partial %t), want %v", got, sn.Partial(), want)
			}
			for name := range sn.Nodes {
				if v := f.nodes[name].Labels[wellknown.NodePoolLabel]; !slices.Contains(want, v) {
					t.Errorf("node %s of pool %s, left out, is in the snapshot", name, v)
				}
			}
			r, fail := f.plan(jsKey("mine"))
			if tc.wantOn == nil {
				return
			}
			if fail != nil {
				t.Fatalf("plan failed: %s", fail.Message)
			}
			var on []string
			for _, sl := range r.Slices {
				on = append(on, sl.Domain)
			}
			slices.Sort(on)
			if !slices.Equal(on, tc.wantOn) {
				t.Errorf("planned on %v, want %v", on, tc.wantOn)
			}
		})
	}
}
