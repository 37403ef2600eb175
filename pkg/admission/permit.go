package admission

import (
	"fmt"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Permit holds gang pods until every required member is reserved: every
// pod of every slice of the gang, or every leader under staged placement.
// The gate is decided on a copy (state.PermitCycle) by decidePermit; what
// it decides about the reservation (release it, record its admission,
// commit it) is a state.PermitStep applied with the rest of a Decision.

// permitAnswer is what decidePermit answers for a pod: Allow, Wait (more
// than zero: wait at most that long), otherwise rejected with Message.
// Step, when set, is to be applied before the answer holds: a refused step
// means the reservation moved and the gate is decided again; an applied
// Commit or Record answers with what it did (see Engine.permit).
type permitAnswer struct {
	Allow   bool
	Wait    time.Duration
	Message string
	Step    *state.PermitStep
}

// recordWait is the least a member waits for its workload's admission to
// be recorded, however close the reservation's deadline is.
const recordWait = time.Second

// decidePermit decides a pod's Permit on its copy alone.
func decidePermit(c state.PermitCycle) permitAnswer {
	if !c.Gang {
		return permitAnswer{Allow: true}
	}
	r := c.Reservation
	if r == nil && c.BoundWhole {
		// It runs whole (a PodGroup's member beyond minMember joins it).
		// Bound, not merely assumed: members assumed under a reservation
		// released meanwhile are about to be rejected, and this one must
		// not bind without them.
		return permitAnswer{Allow: true}
	}
	if r == nil || r.OtherAttempt {
		return permitAnswer{Message: fmt.Sprintf("the reservation of %s was released", c.Key)}
	}
	if r.InSlice && r.Node != "" {
		// Committed too: a member's failed bind is retried after the gate.
		if why := r.Bounds.Excludes(r.NodeLabels); why != "" {
			msg := fmt.Sprintf("the reservation of %s no longer holds: %s (node %s of slice %d)", c.Key, why, r.Node, r.Slice)
			return permitAnswer{Message: msg, Step: &state.PermitStep{Reservation: r.ID, Release: state.ReleaseNodeMoved, Message: msg}}
		}
	}
	if r.Committed {
		return permitAnswer{Allow: true}
	}
	if r.ShapeChanged {
		// The workload changed shape under its reservation (which the
		// state releases when it sees the change): nothing of it binds.
		return permitAnswer{Message: fmt.Sprintf("%s changed shape while reserved", c.Key)}
	}
	need, have := 0, 0
	for _, sl := range r.Slices {
		want := sl.Pods
		if r.Staged {
			want = 1
		}
		need += want
		have += min(sl.Placed, want)
	}
	if have < need {
		wait := r.Deadline.Sub(c.Now)
		if wait <= 0 {
			return permitAnswer{Message: fmt.Sprintf("%s did not get %d required pods reserved in time", c.Key, need)}
		}
		return permitAnswer{Wait: wait, Message: fmt.Sprintf("waiting for %d of %d gang members of %s to be reserved", need-have, need, c.Key)}
	}
	if r.RecordFirst {
		// The admission is written on the Workload object before any pod
		// binds: the members wait until it is.
		return permitAnswer{
			Wait:    max(r.Deadline.Sub(c.Now), recordWait),
			Message: fmt.Sprintf("waiting for the admission of %s to be recorded on its Workload object", c.Key),
			Step:    &state.PermitStep{Reservation: r.ID, Record: true},
		}
	}
	return permitAnswer{Allow: true, Step: &state.PermitStep{Reservation: r.ID, Commit: true}}
}
