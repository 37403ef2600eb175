package preemption

import (
	"fmt"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Party is the preemptor or a possible victim, as the policies see it.
type Party struct {
	Key      workload.Key
	Priority int32
	// Created is when the workload was created (LowerOrNewerEqualPriority
	// compares it); Started is when it was placed.
	Created, Started time.Time
	// Queue is its ClusterQueue (nil: not quota-managed).
	Queue *quota.ClusterQueue
}

// Policy ClusterQueue preemption policy values.
const (
	Never                     = "Never"
	LowerPriority             = "LowerPriority"
	LowerOrNewerEqualPriority = "LowerOrNewerEqualPriority"
	Any                       = "Any"
	LowerPriorityWithinCohort = "LowerPriorityWithinCohort"
)

// Situation is what the policies read beyond the two parties.
type Situation struct {
	// Borrowing says whether a ClusterQueue uses more than its nominal
	// quota now (a victim's queue may only be reclaimed from then).
	Borrowing func(cq *quota.ClusterQueue) bool
	// PreemptorBorrows is set when admitting the preemptor would make its
	// queue borrow from the cohort.
	PreemptorBorrows bool
	// Capacity is set when the preemptor asks the victims for domains
	// only: it is admitted already, or its quota fits without evicting
	// anyone. That is capacity preemption (hotswap), which priority
	// decides; the ClusterQueue policies decide quota preemption only.
	Capacity bool
}

// Allowed says whether victim may be evicted for preemptor, and why not.
//
// Capacity preemption (Situation.Capacity: the preemptor takes domains,
// not quota) is decided by priority: only a strictly lower priority is a
// victim, as with kube-scheduler, and never a quota-managed workload for
// one outside the queues — work that bypasses the queues does not undo
// their admissions. The preemptor's ClusterQueue may narrow which other
// queues' workloads it evicts for room (forceFit: those of its cohort, or
// none); its own queue's and unqueued ones stay victims by priority.
//
// Quota preemption (the preemptor needs quota the victims hold): between
// workloads that are not both quota-managed, priority decides as above.
// Between quota-managed workloads the preemptor's ClusterQueue decides:
//   - same queue: withinClusterQueue (Never by default);
//   - another queue of its cohort: only one that borrows, under
//     reclaimWithinCohort, or borrowWithinCohort when the preemptor would
//     borrow itself;
//   - a queue outside its cohort: only with reclaimOutOfCohort enabled,
//     for a lower priority, and while the preemptor stays within its
//     nominal quota unless reclaimMoreThanNominalQuota.
func Allowed(p, v Party, s Situation) (bool, string) {
	lower := v.Priority < p.Priority
	if p.Queue == nil && v.Queue != nil {
		return false, fmt.Sprintf("%s is admitted through ClusterQueue %s and the preemptor is not queued", v.Key, v.Queue.Name)
	}
	if s.Capacity || p.Queue == nil || v.Queue == nil {
		if !lower {
			return false, fmt.Sprintf("%s has priority %d, not lower than %d", v.Key, v.Priority, p.Priority)
		}
		if s.Capacity && p.Queue != nil && v.Queue != nil {
			return forceFit(p, v)
		}
		return true, ""
	}
	pol := p.Queue.Preemption
	switch {
	case v.Queue.Name == p.Queue.Name:
		switch pol.WithinClusterQueue {
		case LowerPriority:
			if lower {
				return true, ""
			}
		case LowerOrNewerEqualPriority:
			// Newer by creation, not by start: the relation is
			// antisymmetric, so two workloads cannot evict each other
			// in turn.
			if lower || (v.Priority == p.Priority && v.Created.After(p.Created)) {
				return true, ""
			}
		default:
			return false, fmt.Sprintf("the policy of ClusterQueue %s forbids preempting its own workloads (spec.preemption.withinClusterQueue: Never)", p.Queue.Name)
		}
		return false, fmt.Sprintf("%s is not of lower priority (spec.preemption.withinClusterQueue: %s)", v.Key, pol.WithinClusterQueue)
	case p.Queue.Cohort != "" && v.Queue.Cohort == p.Queue.Cohort:
		if s.Borrowing == nil || !s.Borrowing(v.Queue) {
			return false, fmt.Sprintf("ClusterQueue %s of %s does not borrow", v.Queue.Name, v.Key)
		}
		if s.PreemptorBorrows {
			if pol.BorrowWithinCohort == LowerPriority && lower &&
				(pol.BorrowMaxPriority == nil || v.Priority <= *pol.BorrowMaxPriority) {
				return true, ""
			}
			return false, fmt.Sprintf("the preemptor would borrow and borrowWithinCohort does not allow evicting %s", v.Key)
		}
		switch pol.ReclaimWithinCohort {
		case Any:
			return true, ""
		case LowerPriority:
			if lower {
				return true, ""
			}
		}
		return false, fmt.Sprintf("reclaimWithinCohort does not allow evicting %s", v.Key)
	default:
		if !pol.ReclaimOutOfCohort {
			return false, fmt.Sprintf("%s is in ClusterQueue %s, outside the cohort (reclaimOutOfCohort not enabled)", v.Key, v.Queue.Name)
		}
		if !lower {
			return false, fmt.Sprintf("%s has priority %d, not lower than %d", v.Key, v.Priority, p.Priority)
		}
		if s.PreemptorBorrows && !pol.ReclaimMoreThanNominal {
			return false, "the preemptor would exceed its nominal quota (reclaimMoreThanNominalQuota: false)"
		}
		return true, ""
	}
}

// forceFit says whether capacity preemption may evict v, of lower
// priority and queued, for p, queued: the preemptor's ClusterQueue's
// forceFit policy decides for workloads of other queues.
func forceFit(p, v Party) (bool, string) {
	if v.Queue.Name == p.Queue.Name {
		return true, ""
	}
	switch p.Queue.Preemption.ForceFit {
	case Never:
		// No victim named: the reason is the same for every one, and the
		// preemptor's message counts them.
		return false, fmt.Sprintf("ClusterQueue %s evicts no other queue's workloads for room (spec.preemption.forceFit: Never)", p.Queue.Name)
	case LowerPriorityWithinCohort:
		if p.Queue.Cohort == "" || v.Queue.Cohort != p.Queue.Cohort {
			return false, fmt.Sprintf("ClusterQueue %s is outside the cohort of ClusterQueue %s (spec.preemption.forceFit: LowerPriorityWithinCohort)", v.Queue.Name, p.Queue.Name)
		}
	}
	return true, ""
}
