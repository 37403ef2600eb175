package state_test

import (
	"maps"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// snapshotOpts compare snapshots: nodes, models and pods are shared with
// the state and never changed by a decision, so they compare by identity.
var snapshotOpts = cmp.Options{
	cmp.Comparer(func(a, b *topology.Node) bool { return a == b }),
	cmp.Comparer(func(a, b *workload.Workload) bool { return a == b }),
	cmp.Comparer(func(a, b *state.Pod) bool { return a == b }),
	cmpopts.EquateEmpty(),
	// Plans memoise node qualifiers on the snapshot; that is not a change.
	cmpopts.IgnoreFields(state.Snapshot{}, "Qualifiers"), cmpopts.IgnoreUnexported(state.Snapshot{}),
}

// threeWorkloads: of pools pool-1…pool-3, x runs on pool-1; y holds a
// reservation of pool-2 with nothing placed yet; b needs two pools and
// finds only pool-3 free.
func threeWorkloads(t *testing.T) *fixture {
	f := newFixture(t, builders.V5ePools(3)...)
	f.addRunning(unit.JobSet("x").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")
	f.addGang(unit.JobSet("y").ReplicatedJob("slice", 1, 2).Obj())
	f.commit(jsKey("y"))
	f.addGang(unit.JobSet("b").ReplicatedJob("slice", 2, 2).Obj())
	return f
}

func TestSnapshotRemoveWorkload(t *testing.T) {
	cases := map[string]struct {
		remove      []workload.Key
		wantDomains map[int]string
	}{
		"nothing removed": {},
		"an unknown workload": {
			remove: []workload.Key{jsKey("nobody")},
		},
		"the running workload": {
			remove:      []workload.Key{jsKey("x")},
			wantDomains: map[int]string{0: "pool-1", 1: "pool-3"},
		},
		"the reserving workload": {
			remove:      []workload.Key{jsKey("y")},
			wantDomains: map[int]string{0: "pool-2", 1: "pool-3"},
		},
		"both": {
			remove:      []workload.Key{jsKey("x"), jsKey("y")},
			wantDomains: map[int]string{0: "pool-1", 1: "pool-2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := threeWorkloads(t)
			sn := f.snapshot(jsKey("b"))
			before := f.snapshot(jsKey("b"))
			if diff := cmp.Diff(before, sn, snapshotOpts); diff != "" {
				t.Fatalf("two snapshots of an unchanged state differ (-first +second):\n%s", diff)
			}
			var undos []func()
			for _, k := range tc.remove {
				undos = append(undos, sn.RemoveWorkload(k))
			}
			r, fail := admission.Plan(sn)
			if tc.wantDomains == nil {
				if fail == nil {
					t.Errorf("plan = %v, want a failure", domains(r))
				}
			} else if fail != nil {
				t.Errorf("plan: %v", fail)
			} else if diff := cmp.Diff(tc.wantDomains, domains(r)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			for _, k := range tc.remove {
				if _, ok := sn.Workloads[k]; ok {
					t.Errorf("%s still in the snapshot", k)
				}
			}
			changed := cmp.Diff(before, sn, snapshotOpts) != ""
			if wantChange := tc.wantDomains != nil; changed != wantChange {
				t.Errorf("snapshot changed = %v, want %v", changed, wantChange)
			}
			for i := len(undos) - 1; i >= 0; i-- {
				undos[i]()
			}
			if diff := cmp.Diff(before, sn, snapshotOpts); diff != "" {
				t.Errorf("undo did not restore the snapshot (-before +after):\n%s", diff)
			}
			// The state itself never changed.
			if diff := cmp.Diff(before, f.snapshot(jsKey("b")), snapshotOpts); diff != "" {
				t.Errorf("RemoveWorkload changed the state (-before +after):\n%s", diff)
			}
		})
	}
}

// A snapshot is read outside the state's lock and shares each node's
// holder map with the state: pods placed or gone after it was taken
// change the state's holders, not the snapshot's.
func TestSnapshotKeepsItsHoldersAsTheStateChanges(t *testing.T) {
	f := threeWorkloads(t)
	sn := f.snapshot(jsKey("b"))
	// Copied: a second snapshot would share the maps it checks.
	before := map[string]map[workload.Holder]int{}
	for name, n := range sn.Nodes {
		before[name] = maps.Clone(n.Holders)
	}
	running := f.addRunning(unit.JobSet("z").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
	for _, p := range builders.MembersOn(unit.JobSet("x").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1") {
		f.deletePod(p)
	}
	for name, n := range sn.Nodes {
		if diff := cmp.Diff(before[name], n.Holders, cmpopts.EquateEmpty()); diff != "" {
			t.Errorf("%s: the state's changes reached the holders of a snapshot taken before them (-before +after):\n%s", name, diff)
		}
	}
	if len(before["pool-1-node-0"]) != 1 {
		t.Fatalf("pool-1-node-0 was held by %v, want x", before["pool-1-node-0"])
	}
	after := f.snapshot(jsKey("b"))
	for _, node := range []string{"pool-1-node-0", "pool-1-node-1"} {
		if h := after.Nodes[node].Holders; len(h) != 0 {
			t.Errorf("%s: holders %v after x's pods went, want none", node, h)
		}
	}
	for _, p := range running {
		if h := after.Nodes[p.Spec.NodeName].Holders; len(h) != 1 {
			t.Errorf("%s: holders %v, want z alone", p.Spec.NodeName, h)
		}
	}
}

// What a snapshot holds of the nodes, holders and reservations.
func TestSnapshotViews(t *testing.T) {
	f := threeWorkloads(t)
	sn := f.snapshot(jsKey("b"))
	xHolder := workload.Holder{Key: jsKey("x"), UID: "x-uid"}
	tpuLeft := func(n string) int64 { return sn.Nodes[n].Free[wellknown.ResourceTPU] }
	got := map[string]any{
		"domains":            sn.Domains[wellknown.NodePoolLabel],
		"pool-1 holders":     sn.Nodes["pool-1-node-0"].Holders,
		"pool-1 tpu left":    tpuLeft("pool-1-node-0"),
		"pool-2 reserved":    []any{sn.Nodes["pool-2-node-0"].Reserved, sn.Nodes["pool-2-node-0"].ReservedBy},
		"pool-2 tpu left":    tpuLeft("pool-2-node-1"),
		"pool-3 tpu left":    tpuLeft("pool-3-node-0"),
		"workloads":          len(sn.Workloads),
		"self active":        sn.Self.Active,
		"self members":       len(sn.Self.Members),
		"x placed pods":      len(sn.Workloads[jsKey("x")].Pods),
		"y reserved":         sn.Workloads[jsKey("y")].Reserved,
		"y outstanding":      sn.Workloads[jsKey("y")].Outstanding,
		"self holder is b's": sn.Self.Holder == workload.Holder{Key: jsKey("b"), UID: "b-uid"},
	}
	want := map[string]any{
		"domains": map[string][]string{
			"pool-1": {"pool-1-node-0", "pool-1-node-1"},
			"pool-2": {"pool-2-node-0", "pool-2-node-1"},
			"pool-3": {"pool-3-node-0", "pool-3-node-1"},
		},
		"pool-1 holders":  map[workload.Holder]int{xHolder: 1},
		"pool-1 tpu left": int64(0),
		"pool-2 reserved": []any{true, jsKey("y")},
		"pool-2 tpu left": int64(0),
		"pool-3 tpu left": int64(4000),
		"workloads":       3,
		"self active":     []int{0, 1},
		"self members":    4,
		"x placed pods":   2,
		"y reserved":      true,
		"y outstanding": map[string]workload.Resources{
			"pool-2-node-0": {wellknown.ResourceTPU: 4000, "pods": 1000},
			"pool-2-node-1": {wellknown.ResourceTPU: 4000, "pods": 1000},
		},
		"self holder is b's": true,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("snapshot (-want +got):\n%s", diff)
	}
	// y's own snapshot does not count its own reservation against it.
	if left := f.snapshot(jsKey("y")).Nodes["pool-2-node-0"]; left.Reserved || left.Free[wellknown.ResourceTPU] != 4000 {
		t.Errorf("y's own view of pool-2: reserved %v, tpu left %d", left.Reserved, left.Free[wellknown.ResourceTPU])
	}
}
