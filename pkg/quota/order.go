package quota

import (
	"fmt"
	"sort"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Candidate is a pending workload of a ClusterQueue.
type Candidate struct {
	Key          workload.Key
	ClusterQueue string
	Priority     int32
	Created      time.Time
	// WaitingSince is when the workload was first found not to fit
	// (zero: it has not been waiting for quota).
	WaitingSince time.Time
	// Charge is what admitting it now would charge (nil when it does not
	// fit); Problem says why not.
	Charge  *Charge
	Problem *Problem
}

// Verdict says whether a pending workload may try to be placed now.
type Verdict struct {
	Proceed bool
	// Problem says why not (when Proceed is false).
	Problem *Problem
	// After is the workload it waits for, when it waits for order alone:
	// the one it queues behind, or the fairer one it yields to.
	After workload.Key
}

// Before orders pending workloads: higher priority first, then older, then
// by key, so every reader agrees on the order.
func Before(a, b *Candidate) bool {
	return Precedes(a.Priority, b.Priority, a.Created, b.Created, a.Key, b.Key)
}

// Precedes is Before on the ordering fields alone, for callers that keep
// them elsewhere: higher priority first, then older, then by key.
func Precedes(ap, bp int32, ac, bc time.Time, ak, bk workload.Key) bool {
	if ap != bp {
		return ap > bp
	}
	if !ac.Equal(bc) {
		return ac.Before(bc)
	}
	return ak.Compare(bk) < 0
}

// Decide says which pending workloads of one cohort (or one queue without a
// cohort) may try to be placed now. Placement itself comes after: a
// workload that proceeds is admitted only if its domains fit too.
//
//   - A workload whose quota does not fit waits.
//   - StrictFIFO: only each queue's head may proceed; the rest wait behind it.
//   - BestEffortFIFO: every workload that fits may proceed, except that a
//     head which has waited for quota longer than starvation turns its
//     queue strict until it is admitted: workloads behind it wait, so the
//     quota they would take accumulates for it.
//   - Fair sharing: among workloads of different queues that would borrow
//     from the cohort, only those of the queues with the lowest weighted
//     share after admission proceed; the others yield to them.
func Decide(v *View, cands []*Candidate, now time.Time, starvation time.Duration) map[workload.Key]Verdict {
	out := make(map[workload.Key]Verdict, len(cands))
	byQueue := map[string][]*Candidate{}
	for _, c := range cands {
		byQueue[c.ClusterQueue] = append(byQueue[c.ClusterQueue], c)
	}
	type borrower struct {
		c     *Candidate
		share int64
	}
	var borrowers []borrower
	for name, list := range byQueue {
		sort.Slice(list, func(i, j int) bool { return Before(list[i], list[j]) })
		cq := v.queues[name]
		var blocker *Candidate
		for _, c := range list {
			switch {
			case blocker != nil:
				out[c.Key] = Verdict{After: blocker.Key, Problem: &Problem{Reason: ReasonWaitingInQueue,
					Message: fmt.Sprintf("waiting behind %s in ClusterQueue %s (%s)", blocker.Key, name, strategyWhy(cq, blocker, now, starvation))}}
			case c.Charge == nil:
				out[c.Key] = Verdict{Problem: c.Problem}
			default:
				out[c.Key] = Verdict{Proceed: true}
				if cq != nil && v.Borrowing(cq, c.Charge.Usage) {
					borrowers = append(borrowers, borrower{c: c, share: v.Share(cq, c.Charge.Usage)})
				}
			}
			if blocker == nil && cq != nil && blocks(cq, c, now, starvation) {
				blocker = c
			}
		}
	}
	if len(borrowers) > 1 {
		// Fairer first: a borrower yields only when what the fairer ones
		// of other queues would take leaves it no room.
		sort.Slice(borrowers, func(i, j int) bool {
			if borrowers[i].share != borrowers[j].share {
				return borrowers[i].share < borrowers[j].share
			}
			return Before(borrowers[i].c, borrowers[j].c)
		})
		after := v.clone()
		for i, b := range borrowers {
			if i > 0 && b.c.ClusterQueue != borrowers[0].c.ClusterQueue && !after.fits(v.queues[b.c.ClusterQueue], b.c.Charge.Usage) {
				fairest := borrowers[0].c
				out[b.c.Key] = Verdict{After: fairest.Key, Problem: &Problem{Reason: ReasonYieldingToFairShare,
					Message: fmt.Sprintf("yielding the cohort's unused quota to %s of ClusterQueue %s, whose weighted share would stay lower", fairest.Key, fairest.ClusterQueue)}}
				continue
			}
			after.Add(b.c.Charge)
		}
	}
	return out
}

// blocks reports whether candidate c holds back the workloads behind it.
func blocks(cq *ClusterQueue, c *Candidate, now time.Time, starvation time.Duration) bool {
	if cq.Strategy == StrictFIFO {
		return true
	}
	return c.Charge == nil && (c.Problem == nil || !c.Problem.Config) &&
		!c.WaitingSince.IsZero() && now.Sub(c.WaitingSince) >= starvation
}

func strategyWhy(cq *ClusterQueue, blocker *Candidate, now time.Time, starvation time.Duration) string {
	if cq == nil || cq.Strategy == StrictFIFO {
		return "StrictFIFO"
	}
	return fmt.Sprintf("BestEffortFIFO: it has waited %s for quota, longer than %s", now.Sub(blocker.WaitingSince).Round(time.Second), starvation)
}
