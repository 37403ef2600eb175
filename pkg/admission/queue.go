package admission

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// QueueVerdict decides whether a quota-managed workload may try to be
// placed now, on the round the state gathered for it: each candidate is
// charged on the round's view as if admitted alone, then the queue order,
// the ClusterQueues' strategies and fair sharing decide among them.
func QueueVerdict(r *state.QueueRound) quota.Verdict {
	if r.Problem != nil {
		return quota.Verdict{Problem: r.Problem}
	}
	cands := make([]*quota.Candidate, len(r.Candidates))
	for i := range r.Candidates {
		qc := &r.Candidates[i]
		c := qc.Place
		c.Charge, c.Problem = r.View.Assign(qc.ClusterQueue, qc.Needs, nil)
		cands[i] = &c
	}
	return quota.Decide(r.View, cands, r.Now, r.Starvation)[r.Key]
}

// decideAdmit is whether c's pod may enter the active queue (decideGate
// behind the head), with its queue's verdict taken when it is a
// quota-managed workload's head: a workload its queue does not admit now
// waits, gated, with the queue's reason — unless only quota keeps it and it
// may reclaim quota by preemption in a cycle. The verdict is recorded on
// the workload by the decision returned.
func decideAdmit(c *state.PodCycle) (state.Verdict, state.Decision) {
	var d state.Decision
	v, record := decideGate(*c, true)
	if record != nil {
		d.Key, d.QueueVerdict, d.QueueProblem = v.Member.Key, true, record
	}
	r := v.Queue
	if r == nil {
		return v, d
	}
	v.Queue = nil
	qv := QueueVerdict(r)
	d.Key, d.QueueVerdict = r.Key, true
	if qv.Proceed || (qv.Problem.Reason == quota.ReasonQuotaExceeded && mayPreemptForQuota(r)) {
		return v, d
	}
	v.Wait, v.Message, v.QueueReason = true, qv.Problem.Message, qv.Problem.Reason
	v.QueueNeedsAction = qv.Problem.Config
	d.QueueProblem = qv.Problem
	if qv.Problem.Reason == quota.ReasonYieldingToFairShare {
		// The wake woke the fairer workload first, unless a workload
		// woken with it and not charged yet made the two decisions
		// differ: then it may sit gated, and nothing else would wake it.
		if o := r.Candidate(qv.After); o != nil && o.Head != nil {
			v.Wake = append(v.Wake, *o.Head)
		}
	}
	return v, d
}

// mayPreemptForQuota says whether the workload of r, which its quota keeps
// waiting, should still go to a scheduling cycle, where it may reclaim
// quota by preemption: its ClusterQueue's policies allow some preemption,
// it has not found no victims since the state last changed, and no
// preemption of its own is under way.
func mayPreemptForQuota(r *state.QueueRound) bool {
	if r.NoVictims || r.Preempting || len(r.Candidates) == 0 || r.Candidates[0].ClusterQueue == nil {
		return false
	}
	cq := r.Candidates[0].ClusterQueue
	pol := cq.Preemption
	return pol.WithinClusterQueue == "LowerPriority" || pol.WithinClusterQueue == "LowerOrNewerEqualPriority" ||
		(cq.Cohort != "" && (pol.ReclaimWithinCohort == "Any" || pol.ReclaimWithinCohort == "LowerPriority" || pol.BorrowWithinCohort == "LowerPriority")) ||
		pol.ReclaimOutOfCohort
}
