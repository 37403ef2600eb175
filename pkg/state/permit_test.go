package state_test

import (
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A Permit step is applied only to the reservation it was decided on, and
// only while that reservation's gate has not passed: what moved between
// the copy and the write-back is refused, and the gate decided again.
func TestPermitStepIsRefusedOnceItsReservationMoved(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	id, _, _ := f.commit(jsKey("a"))
	for _, p := range all {
		f.reserve(p)
	}
	c := f.s.PermitCycle(all[1])
	if c.Reservation == nil || c.Reservation.ID != id || c.Reservation.Committed {
		t.Fatalf("copy = %+v, want reservation %d uncommitted", c.Reservation, id)
	}
	step := func(id uint64) state.Applied {
		return f.s.Apply(state.Decision{Key: jsKey("a"), Pod: all[1].UID, Permit: &state.PermitStep{Reservation: id, Commit: true, Self: all[1].UID}})
	}
	if got := step(id + 1); got.Refused == nil || got.Permit != nil {
		t.Errorf("a commit of reservation %d applied while %d stands: %+v", id+1, id, got)
	}
	got := step(id)
	if got.Refused != nil || got.Permit == nil || !got.Permit.Allow {
		t.Fatalf("commit of the standing reservation = %+v, want the gate opened", got)
	}
	if want := []string{all[0].Name}; !slices.Equal(podNamesOf(f, got.Permit.AllowWaiting), want) {
		t.Errorf("let through %v, want %v (the deciding member lets itself through)", podNamesOf(f, got.Permit.AllowWaiting), want)
	}
	if again := step(id); again.Refused == nil {
		t.Errorf("a second commit of a committed gate applied: %+v", again)
	}
	if res := f.permit(all[0]); !res.Allow {
		t.Errorf("Permit after the gate passed = %+v", res)
	}
}

// When the gate would pass, every reserved pod's node is checked again
// against the live state: a pod of another workload bound meanwhile into
// the slice's domain (by another scheduler) makes it held by that workload,
// which releases the reservation: no member binds.
func TestGateFindsItsDomainTakenByAnother(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	f.commit(jsKey("a"))
	var first string
	for i, p := range all {
		_, node := f.reserve(p)
		if i == 0 {
			first = node
		}
	}
	f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 1).Obj(), first)
	res := f.permit(all[1])
	if res.Allow || res.Wait > 0 || !strings.Contains(res.Message, "no longer holds: node "+first+" of slice 0 is held by JobSet ns/b") {
		t.Fatalf("Permit = %+v, want the member rejected: %s is held by b", res, first)
	}
	if got := f.obs.releases(); !slices.Contains(got, state.ReleaseStale) {
		t.Errorf("releases %v, want %s", got, state.ReleaseStale)
	}
	if again := f.permit(all[0]); again.Allow || again.Wait > 0 {
		t.Errorf("another member's Permit after the release = %+v, want it rejected", again)
	}
}

func podNamesOf(f *fixture, uids []types.UID) []string {
	var out []string
	for _, u := range uids {
		for _, p := range f.pods {
			if p.UID == u {
				out = append(out, p.Name)
			}
		}
	}
	return out
}
