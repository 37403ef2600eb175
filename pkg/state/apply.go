package state

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Decision is what one decision (package admission) asks the state to
// write, all of it applied together by Apply.
type Decision struct {
	Key workload.Key
	// Pod is the pod whose cycle decided: the head its gang plans through
	// when the decision failed.
	Pod types.UID
	// Expired is the ID of the workload's uncommitted reservation that
	// the decision found past its deadline (0: none): it is released
	// first, if it still stands.
	Expired uint64
	// Reserve is a reservation to commit (nil: none); its members wait in
	// Permit at most PermitTimeout for the rest of its gang.
	Reserve       *Reservation
	PermitTimeout time.Duration
	// Failed is why the workload could not be placed, decided on the
	// state at Generation (nil: nothing failed). Members other than the
	// head reuse it until the state's generation moves.
	Failed     *placement.Failure
	Generation uint64
	// RefusedReason is the reason of the failure recorded when Reserve is
	// refused ("": a placement failure).
	RefusedReason string
	// QueueVerdict: the queue's verdict on the workload is recorded,
	// QueueProblem (nil: it may plan), shown on its Workload while no
	// quota is reserved.
	QueueVerdict bool
	QueueProblem *quota.Problem
	// CheckQuota is quota to reserve for the workload's provisioning
	// check (nil: none).
	CheckQuota *CheckReservation
	// Claim is a preemption of Key's to record (nil: none), NoVictims
	// that Key's found no victims at Generation, VictimsGone when Key's
	// preemption under way found its victims gone (zero: not now), and
	// Hold where a move off recycled nodes takes Key's slice (nil: none):
	// see applyClaimsLocked.
	Claim       *Claim
	NoVictims   bool
	VictimsGone time.Time
	Hold        *Reservation
	// Rejected is what a cycle in which Pod fit no node decided (nil:
	// nothing; see applyRejectionLocked).
	Rejected *Rejection
	// Permit is what Pod's Permit decided about Key's reservation (nil:
	// nothing; see applyPermitLocked).
	Permit *PermitStep
}

// Applied is what Apply did.
type Applied struct {
	Actions Actions
	// Reservation is the ID of the reservation committed (0: none).
	Reservation uint64
	// Refused is why Reserve, CheckQuota, Claim or Hold was refused: the
	// state moved under the decision (a domain it chose, the quota or a
	// victim was taken meanwhile). A refused Reserve is recorded as the
	// failure of Pod's workload at the decision's generation (Pod set), so
	// that what frees room wakes its pods again. A refused Claim or Hold
	// records nothing.
	Refused error
	// Victims are the workloads a Claim applied evicts.
	Victims []Victim
	// Permit is what a Permit step did: the gate opened (Allow, with the
	// members it lets through), the admission's record started (Record;
	// zero when a member had started it), or the reservation, found stale,
	// was released (Message says why; Actions hold the release). Nil: the
	// step released the reservation as decided, or was refused.
	Permit *PermitResult
}

// Apply writes a decision back: the one way decisions change the state.
// It checks the decision against the live state first and refuses what
// moved under it.
func (s *State) Apply(d Decision) Applied {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out Applied
	if d.Expired != 0 {
		if r := s.reservations.of(d.Key); r != nil && r.ID == d.Expired && !r.Committed && s.opts.Clock.Now().After(r.Deadline) {
			out.Actions.merge(s.releaseLocked(d.Key, ReleaseTimeout, fmt.Sprintf("the reservation of %s expired: its pods were not all reserved in time", d.Key)))
		}
	}
	if d.QueueVerdict {
		if w := s.workloads.of(d.Key); w != nil {
			s.queued.recordQueueVerdict(w, d.QueueProblem, s.opts.Clock.Now())
		}
	}
	if d.CheckQuota != nil {
		out.Refused = s.applier.reserveCheckQuotaLocked(d.Key, d.CheckQuota)
	}
	failed := d.Failed
	if d.Reserve != nil {
		id, acts, err := s.applier.commitLocked(d.Reserve, d.PermitTimeout)
		out.Actions.merge(acts)
		if err != nil {
			out.Refused = err
			failed = &placement.Failure{Message: err.Error(), Reason: d.RefusedReason}
		} else {
			out.Reservation = id
		}
	}
	if failed != nil {
		out.Actions.merge(s.applier.planFailedLocked(d.Pod, d.Generation, failed))
	}
	s.applier.applyClaimsLocked(d, &out)
	if d.Rejected != nil {
		out.Actions.merge(s.applier.applyRejectionLocked(d.Pod, d.Rejected))
	}
	if d.Permit != nil {
		s.applier.applyPermitLocked(d.Key, d.Permit, &out)
	}
	return out
}
