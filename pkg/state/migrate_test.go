package state_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// recycle makes pool's nodes with the given indexes recycled at the
// fixture's clock (Epoch): past their recycling start and cordoned, as
// GKE cordons a node once its replacement is Ready.
func recycle(f *fixture, pool string, nodes ...int) {
	b := builders.V5ePool(pool).Nodes(4)
	for _, i := range nodes {
		n := b.Node(i)
		f.s.Feed().SetNodeLifetime(n.Name, topology.NodeLifetime{Recycle: builders.Epoch, End: builders.Epoch.Add(time.Hour)})
		n.Spec.Unschedulable = true
		f.addNodes(n)
	}
}

// unitsOf renders what must move: "<unit>: <pods> off <nodes>[, blocked]".
func unitsOf(units []state.MigrationUnit) []string {
	var out []string
	for _, u := range units {
		var pods []string
		for _, p := range u.Pods {
			pods = append(pods, p.Name)
		}
		s := u.Describe() + ": " + strings.Join(pods, ",") + " off " + strings.Join(u.Recycled, ",")
		if u.Blocked != "" {
			s += ", blocked"
		}
		out = append(out, s)
	}
	return out
}

// What runs on recycled nodes, and moves together: a slice of a gang with
// a pod there moves whole (its pod on a node that is not recycled too); a
// plain pod of this scheduler alone; a pod of another scheduler is left to
// the platform; a cordon with no recycling start, or a recycling start
// with no cordon, is no recycling; a workload being placed waits.
func TestRecycledUnits(t *testing.T) {
	train := unit.JobSet("train").ReplicatedJob("slice", 2, 2).Obj()
	ours := unit.Pod("web").Running("pool-1-node-0").Obj()
	theirs := builders.Pod("ns", "theirs").UID("theirs").Running("pool-1-node-0").Obj()
	slice0 := "slice 0 (train-slice-0) of JobSet ns/train: train-slice-0-0-a0,train-slice-0-1-a0 off pool-1-node-0"
	web := "pod ns/web: web off pool-1-node-0"
	cases := map[string]struct {
		setup func(f *fixture)
		want  []string
	}{
		"a recycled node: the whole slice, and the plain pod alone": {
			setup: func(f *fixture) { recycle(f, "pool-1", 0) },
			want:  []string{slice0, web},
		},
		"a cordon alone is no recycling": {
			setup: func(f *fixture) {
				n := builders.V5ePool("pool-1").Node(0)
				n.Spec.Unschedulable = true
				f.addNodes(n)
			},
		},
		"a recycling start alone: the replacement is not Ready": {
			setup: func(f *fixture) {
				f.s.Feed().SetNodeLifetime("pool-1-node-0", topology.NodeLifetime{Recycle: builders.Epoch, End: builders.Epoch.Add(time.Hour)})
			},
		},
		"a workload being placed waits its turn": {
			setup: func(f *fixture) {
				recycle(f, "pool-1", 0)
				holder := workload.Holder{Key: jsKey("train"), UID: train.UID}
				if err := f.s.Apply(state.Decision{Reserve: &state.Reservation{Holder: holder, Slices: map[int]*state.SliceReservation{}}, PermitTimeout: time.Minute}).Refused; err != nil {
					t.Fatal(err)
				}
			},
			want: []string{slice0 + ", blocked", web},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(2)...)
			f.addRunning(train, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
			f.addPods(ours, theirs)
			tc.setup(f)
			if diff := cmp.Diff(tc.want, unitsOf(f.s.Upkeep().Recycled())); diff != "" {
				t.Errorf("units (-want +got):\n%s", diff)
			}
		})
	}
}

// A slice moved off a recycled pool goes back whole to the pool's
// replacements: the plan made without it finds them, the pool and the
// workload's quota are kept while its pods are recreated (the workload
// waiting for quota is not let in), and its recreated pods are planned
// there, which ends the hold.
func TestMovedSliceGoesBackToItsPoolsReplacements(t *testing.T) {
	f, old := restartFixture(t, 5*time.Minute)
	next := f.addGang(queued("next", 1, 1))
	f.addNodes(builders.V5ePool("pool-1").Nodes(4).Node(2), builders.V5ePool("pool-1").Nodes(4).Node(3))
	recycle(f, "pool-1", 0, 1)

	units := f.s.Upkeep().Recycled()
	if got := unitsOf(units); !slices.Equal(got, []string{"slice 0 (train-slice-0) of JobSet ns/train: train-slice-0-0-a0,train-slice-0-1-a0 off pool-1-node-0,pool-1-node-1"}) {
		t.Fatalf("units %v, want slice 0 of train", got)
	}
	r, fail := admission.PlanMove(f.s.SnapshotForMove(units[0].Key, units[0].Slice), units[0])
	if fail != nil {
		t.Fatalf("PlanMove: %v", fail)
	}
	if got := r.Slices[0]; got == nil || got.Domain != "pool-1" || len(r.Slices) != 1 {
		t.Fatalf("the move goes to %s, want slice 0 alone to its own pool-1", describe(r))
	}
	for _, slot := range r.Slices[0].Slots {
		if slot.Node != "pool-1-node-2" && slot.Node != "pool-1-node-3" {
			t.Errorf("slot on %s, want the replacements only", slot.Node)
		}
	}
	if err := f.s.Apply(state.Decision{Key: units[0].Key, Hold: r}).Refused; err != nil {
		t.Fatal(err)
	}
	// The eviction: the slice's pods go.
	for _, p := range old[:2] {
		f.deletePod(p)
	}
	if held, why := heldFor(f, "pool-1-node-2"); !held || !strings.Contains(why, "move here off nodes being recycled") {
		t.Errorf("pool-1-node-2 held %v (%q), want kept for train's move", held, why)
	}
	if got := tpuCharged(f, "train"); got != 16 {
		t.Errorf("train charged %d chips while its slice moves, want 16", got)
	}
	f.addNodes(builders.V5ePools(4)[6:]...) // room for next, but no quota
	if _, fail := f.plan(jsKey("next")); fail == nil {
		t.Error("next could be placed while train's slice moved")
	}
	_ = next
	if got := f.s.Upkeep().Recycled(); len(got) != 0 {
		t.Errorf("units %v once the slice's pods are gone, want none", unitsOf(got))
	}

	// The Job recreates the slice's pods.
	var recreated []*corev1.Pod
	for _, p := range builders.Members(queued("train", 2, 0))[:2] {
		recreated = append(recreated, builders.Edit(p).UID(string(p.UID)+"-moved").Obj())
	}
	f.addPods(recreated...)
	_, planned, _ := f.commit(jsKey("train"))
	if got := domains(planned); !cmp.Equal(got, map[int]string{0: "pool-1"}) {
		t.Errorf("the recreated slice is planned on %v, want pool-1", got)
	}
	if held, why := heldFor(f, "pool-1-node-2"); !held || strings.Contains(why, "being recycled") {
		t.Errorf("pool-1-node-2 held %v (%q), want reserved for train, the hold ended", held, why)
	}
}

// A workload whose owner restarts it while one of its slices moves gets a
// restart hold of every pool it ran in, in place of the move's hold.
func TestRestartReplacesAMovesHold(t *testing.T) {
	f, old := restartFixture(t, 5*time.Minute)
	unit, r := plannedMove(t, f)
	if err := f.s.Apply(state.Decision{Key: unit.Key, Hold: r}).Refused; err != nil {
		t.Fatal(err)
	}
	restart(f, old)
	if held, why := heldFor(f, "pool-2-node-0"); !held || !strings.Contains(why, "train, which ran here and is restarting") {
		t.Errorf("pool-2-node-0 held %v (%q), want kept by train's restart hold", held, why)
	}
}

// A move is held only if nothing moved under its plan: a node it puts pods
// on, kept meanwhile for another workload's preemption, refuses the hold,
// and nothing is kept for the move.
func TestMoveHoldRefusedWhenItsNodeIsTakenMeanwhile(t *testing.T) {
	f, _ := restartFixture(t, 5*time.Minute)
	unit, r := plannedMove(t, f)
	// Meanwhile a preemption claims a node the move planned.
	f.addJobSet(prioritized("rival", 1, 500))
	taken := r.Slices[0].Slots[0].Node
	claim(f, jsKey("rival"), 500, nil, &state.Reservation{Slices: map[int]*state.SliceReservation{0: {Slots: []placement.Slot{{Node: taken, Count: 1}}}}})
	err := f.s.Apply(state.Decision{Key: unit.Key, Hold: r}).Refused
	if err == nil || !strings.Contains(err.Error(), "node "+taken+" is kept for JobSet ns/rival") {
		t.Fatalf("the hold was applied (%v), want it refused: %s is kept for rival", err, taken)
	}
	for _, slot := range r.Slices[0].Slots {
		if held, why := heldFor(f, slot.Node); held && strings.Contains(why, "move here") {
			t.Errorf("%s kept for the refused move (%q)", slot.Node, why)
		}
	}
}

// plannedMove recycles pool-1's first two nodes under f's workload, with
// two spare nodes added to pool-1, and plans the move of the first unit
// recycled on a copy, as the Migrator does: the unit and its plan, not
// held yet.
func plannedMove(t *testing.T, f *fixture) (state.MigrationUnit, *state.Reservation) {
	t.Helper()
	f.addNodes(builders.V5ePool("pool-1").Nodes(4).Node(2), builders.V5ePool("pool-1").Nodes(4).Node(3))
	recycle(f, "pool-1", 0, 1)
	units := f.s.Upkeep().Recycled()
	r, fail := admission.PlanMove(f.s.SnapshotForMove(units[0].Key, units[0].Slice), units[0])
	if fail != nil {
		t.Fatal(fail)
	}
	return units[0], r
}
