package admission

import (
	"strings"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// permitCopy builds the copy a gang member's Permit reads: by default a
// member on node n1 of pool-a, whose slice 0 of 2 (4 pods each) reserved
// pool-a, none of them placed, 30 seconds before the deadline.
type permitCopy struct{ c state.PermitCycle }

var permitNow = time.Date(2026, 11, 30, 4, 0, 0, 0, time.UTC)

func aMember() *permitCopy {
	return &permitCopy{state.PermitCycle{
		Now: permitNow, Gang: true,
		Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"},
		Reservation: &state.PermitReservation{
			ID: 7, Deadline: permitNow.Add(30 * time.Second),
			Node: "n1", Slice: 0, InSlice: true,
			Bounds:     placement.SliceBounds{DomainKey: "pool", Domain: "pool-a"},
			NodeLabels: map[string]string{"pool": "pool-a"},
			Slices:     []state.PermitSlice{{Pods: 4}, {Pods: 4}},
		},
	}}
}

func (b *permitCopy) placed(perSlice ...int) *permitCopy {
	for i, n := range perSlice {
		b.c.Reservation.Slices[i].Placed = n
	}
	return b
}
func (b *permitCopy) on(labels map[string]string) *permitCopy {
	b.c.Reservation.NodeLabels = labels
	return b
}
func (b *permitCopy) at(now time.Time) *permitCopy { b.c.Now = now; return b }
func (b *permitCopy) with(f func(r *state.PermitReservation)) *permitCopy {
	f(b.c.Reservation)
	return b
}
func (b *permitCopy) noReservation() *permitCopy { b.c.Reservation = nil; return b }
func (b *permitCopy) boundWhole() *permitCopy    { b.c.BoundWhole = true; return b }
func (b *permitCopy) copy() state.PermitCycle    { return b.c }

func TestDecidePermitOnValues(t *testing.T) {
	type want struct {
		allow   bool
		wait    time.Duration
		message string // a substring; "" for none
		step    string // "", "release", "record", "commit"
	}
	cases := []struct {
		name string
		c    state.PermitCycle
		want want
	}{
		{name: "a pod of no gang binds", c: state.PermitCycle{Now: permitNow}, want: want{allow: true}},
		{name: "a member of a gang that runs whole joins it", c: aMember().noReservation().boundWhole().copy(), want: want{allow: true}},
		{name: "a member whose reservation is gone is rejected", c: aMember().noReservation().copy(),
			want: want{message: "the reservation of JobSet ns/train was released"}},
		{name: "a reservation of another restart attempt holds nothing", c: aMember().placed(4, 4).with(func(r *state.PermitReservation) { r.OtherAttempt = true }).copy(),
			want: want{message: "was released"}},
		{name: "a node relabelled into another pool releases the reservation", c: aMember().placed(4, 4).on(map[string]string{"pool": "pool-b"}).copy(),
			want: want{message: "node is in pool=pool-b, not in pool=pool-a, where its slice is reserved (node n1 of slice 0)", step: "release"}},
		{name: "a node the state no longer holds releases the reservation", c: aMember().on(nil).copy(),
			want: want{message: "node has no pool label", step: "release"}},
		{name: "a committed gate lets a retried member through", c: aMember().with(func(r *state.PermitReservation) { r.Committed = true }).copy(),
			want: want{allow: true}},
		{name: "a committed gate still releases a member's node that left its pool", c: aMember().on(map[string]string{"pool": "pool-c"}).with(func(r *state.PermitReservation) { r.Committed = true }).copy(),
			want: want{message: "pool=pool-c", step: "release"}},
		{name: "a workload that changed shape binds nothing", c: aMember().placed(4, 4).with(func(r *state.PermitReservation) { r.ShapeChanged = true }).copy(),
			want: want{message: "changed shape while reserved"}},
		{name: "members wait for the rest of the gang until the deadline", c: aMember().placed(4, 3).copy(),
			want: want{wait: 30 * time.Second, message: "waiting for 1 of 8 gang members of JobSet ns/train to be reserved"}},
		{name: "past the deadline the gate rejects", c: aMember().placed(4, 3).at(permitNow.Add(31 * time.Second)).copy(),
			want: want{message: "did not get 8 required pods reserved in time"}},
		{name: "more placed than a slice asks does not count for another", c: aMember().placed(6, 2).copy(),
			want: want{wait: 30 * time.Second, message: "waiting for 2 of 8"}},
		{name: "staged placement gates on one leader per slice", c: aMember().placed(1, 1).with(func(r *state.PermitReservation) { r.Staged = true }).copy(),
			want: want{allow: true, step: "commit"}},
		{name: "staged placement waits for every leader", c: aMember().placed(1, 0).with(func(r *state.PermitReservation) { r.Staged = true }).copy(),
			want: want{wait: 30 * time.Second, message: "waiting for 1 of 2"}},
		{name: "an admission recorded first holds the members", c: aMember().placed(4, 4).with(func(r *state.PermitReservation) { r.RecordFirst = true }).copy(),
			want: want{wait: 30 * time.Second, message: "waiting for the admission of JobSet ns/train to be recorded", step: "record"}},
		{name: "a record near the deadline still waits a second", c: aMember().placed(4, 4).at(permitNow.Add(30 * time.Second)).with(func(r *state.PermitReservation) { r.RecordFirst = true }).copy(),
			want: want{wait: recordWait, message: "to be recorded", step: "record"}},
		{name: "every member reserved commits the gate", c: aMember().placed(4, 4).copy(), want: want{allow: true, step: "commit"}},
		{name: "an unconfined slice's node carries no domain", c: aMember().placed(4, 4).on(map[string]string{}).with(func(r *state.PermitReservation) { r.Bounds = placement.SliceBounds{} }).copy(),
			want: want{allow: true, step: "commit"}},
		{name: "a flavor's label lost releases the reservation", c: aMember().placed(4, 4).with(func(r *state.PermitReservation) {
			r.Bounds.NodeLabels = map[string]string{"cloud.google.com/gke-spot": "true"}
		}).copy(), want: want{message: "not of a flavor its slice's quota was charged to", step: "release"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := decidePermit(tc.c)
			if got.Allow != tc.want.allow || got.Wait != tc.want.wait {
				t.Errorf("allow, wait = %v, %v; want %v, %v (%q)", got.Allow, got.Wait, tc.want.allow, tc.want.wait, got.Message)
			}
			if tc.want.message == "" && got.Message != "" || !strings.Contains(got.Message, tc.want.message) {
				t.Errorf("message = %q, want %q", got.Message, tc.want.message)
			}
			step := ""
			if s := got.Step; s != nil {
				switch {
				case s.Release != "":
					step = "release"
					if s.Release != state.ReleaseNodeMoved || s.Message != got.Message {
						t.Errorf("release %q %q, want %q with the answer's message", s.Release, s.Message, state.ReleaseNodeMoved)
					}
				case s.Record:
					step = "record"
				case s.Commit:
					step = "commit"
				}
				if tc.c.Reservation == nil || s.Reservation != tc.c.Reservation.ID {
					t.Errorf("step on reservation %d, want the copy's", s.Reservation)
				}
			}
			if step != tc.want.step {
				t.Errorf("step = %q, want %q", step, tc.want.step)
			}
		})
	}
}
