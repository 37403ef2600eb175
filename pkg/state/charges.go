package state

import (
	"fmt"
	"slices"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// What admitted workloads are charged is kept in the quota book
// (pkg/quota): the ledger. Here is when a workload is charged, keeps its
// charge, and gives it back: charged when its reservation commits, kept
// while anything of its admission lives (pods on nodes, a reservation, a
// claim, a provisioning check), recharged from the API's record or its
// pods' nodes when the scheduler starts after it was placed.

// QuotaDecision is what a plan needs to charge a workload's quota.
type QuotaDecision struct {
	ClusterQueue *quota.ClusterQueue
	View         *quota.View
	Needs        []quota.Need
	// Problem is set when the workload's queue cannot admit it at all.
	Problem *quota.Problem
}

// quotaDecisionLocked prepares the quota part of w's plan (nil when w is
// not quota-managed or already admitted).
func (s *State) quotaDecisionLocked(w *Workload) *QuotaDecision {
	if !s.awaitingAdmissionLocked(w) {
		return nil
	}
	if p := s.queueAPIProblemLocked(); p != nil {
		return &QuotaDecision{Problem: p}
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		return &QuotaDecision{Problem: p}
	}
	return &QuotaDecision{ClusterQueue: cq, View: s.book.View(), Needs: s.needsLocked(w)}
}

// chargeLocked admits w with c, if the quota it was decided on is still
// there.
func (s *State) chargeLocked(w *Workload, c *quota.Charge) error {
	cq := s.book.ClusterQueue(c.ClusterQueue)
	if cq == nil {
		return fmt.Errorf("ClusterQueue %s was deleted meanwhile", c.ClusterQueue)
	}
	view := s.book.View()
	for fr, v := range c.Usage {
		if avail := view.Available(cq, fr); v > avail {
			return fmt.Errorf("the quota of %s in ClusterQueue %s was taken meanwhile", fr, cq.Name)
		}
	}
	s.book.Charge(w.key, c)
	s.trackQueuedLocked(w)
	w.quotaSince.Store(0)
	w.queueProblem.Store(nil)
	return nil
}

// waitingForQuotaSince is when w was first found waiting for quota (zero:
// it is not).
func (w *Workload) waitingForQuotaSince() time.Time {
	if n := w.quotaSince.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// markWaitingForQuota records that w waits for quota, from now unless it
// already did.
func (w *Workload) markWaitingForQuota(now time.Time) { w.quotaSince.CompareAndSwap(0, now.UnixNano()) }

// settleQuotaLocked releases w's charge once nothing of its admission
// lives (see holdsQuotaLocked). Freed quota wakes the workloads waiting
// for it.
func (s *State) settleQuotaLocked(w *Workload) Actions {
	if s.book.ChargeOf(w.key) == nil || s.holdsQuotaLocked(w) {
		return Actions{}
	}
	c := s.book.Release(w.key)
	s.trackQueuedLocked(w)
	s.bumpLocked()
	return Actions{Wake: []string{c.ClusterQueue}}
}

// holdsQuotaLocked reports whether anything of w's admission lives: a
// reservation being placed, a claim keeping its nodes (it restarts, or
// waits for the victims of its capacity preemption), a provisioning check holding quota for
// capacity being provisioned (while its owner still wants it), or any of
// its pods on a node, of any attempt, terminating ones included. Usage
// follows what the API shows: a pod uses its node until it is gone,
// whether or not its owner is finished, restarting or deleted.
func (s *State) holdsQuotaLocked(w *Workload) bool {
	if s.reservations[w.key] != nil || w.onNodes() > 0 || s.claims.keepsCharge(w.key) {
		return true
	}
	return w.model != nil && w.observed && !w.model.Finished && w.check.holdsQuota()
}

// rechargeLocked charges a quota-managed workload found with pods on
// nodes and no charge (the scheduler restarted, or its queue objects or
// the queue API appeared after its pods were placed): each slice to the
// flavor of the nodes its pods run on, whether or not the quota has room.
// It reports whether it charged w. A workload whose queue cannot be
// resolved yet is charged once it can (queuesChangedLocked).
func (s *State) rechargeLocked(w *Workload) bool {
	if w.model == nil || !s.awaitingAdmissionLocked(w) || w.onNodes() == 0 {
		return false
	}
	if c := s.recorded.chargeFor(w.key, w.model.UID); c != nil {
		// Charged as its Workload object records, to the ClusterQueue and
		// flavors it was admitted with, whatever the queue objects say now.
		s.book.Charge(w.key, c)
	} else if !s.forceChargeLocked(w) {
		return false
	}
	for _, c := range w.slices {
		if c.placed > 0 {
			// Its current attempt runs.
			w.ranAttempt = w.model.RestartAttempt + 1
			w.ranDomains = w.ranDomains[:0]
			for _, m := range w.members {
				if m.heldDomain != nil && m.Live() && !slices.Contains(w.ranDomains, *m.heldDomain) {
					w.ranDomains = append(w.ranDomains, *m.heldDomain)
				}
			}
			break
		}
	}
	if w.placedAt.IsZero() {
		// Found running after a restart: its pods' age stands in.
		for _, m := range w.members {
			if m.Live() && m.Created.After(w.placedAt) {
				w.placedAt = m.Created
			}
		}
	}
	s.trackQueuedLocked(w)
	return true
}

// forceChargeLocked charges w, found with pods on nodes and no record of
// its admission, to its queue: each slice to the flavor of the nodes its
// pods run on. It reports false when the queue cannot be resolved.
func (s *State) forceChargeLocked(w *Workload) bool {
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		return false
	}
	needs := slices.Clone(s.needsLocked(w))
	for _, m := range w.members {
		if m.Node == "" || !(m.Live() || m.Deleting) || m.Member.Slice >= len(needs) {
			continue
		}
		n := s.nodes.Node(m.Node)
		if n == nil {
			continue
		}
		labels := n.Labels()
		needs[m.Member.Slice].Compatible = func(f *quota.Flavor) bool { return f.Matches(labels) }
	}
	s.book.Charge(w.key, s.book.View().Force(cq, needs))
	return true
}

// rechargeAllLocked charges every workload with pods on nodes that is
// not charged yet: what the queues could not account for before (a
// missing flavor or LocalQueue, the queue API not served) is accounted
// for before anything else is admitted.
func (s *State) rechargeAllLocked() {
	for _, w := range s.workloads {
		s.rechargeLocked(w)
	}
}
