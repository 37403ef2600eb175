package state

import (
	"fmt"
	"maps"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
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
func (cp copier) quotaDecisionLocked(w *Workload) *QuotaDecision {
	s := cp.s
	if !s.queues.awaitingAdmissionLocked(w) {
		return nil
	}
	if p := s.queues.queueAPIProblemLocked(); p != nil {
		return &QuotaDecision{Problem: p}
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queues.queueNameLocked(w))
	if p != nil {
		return &QuotaDecision{Problem: p}
	}
	return &QuotaDecision{ClusterQueue: cq, View: s.book.View(), Needs: s.queues.needsLocked(w)}
}

// chargeLocked admits w with c, if the quota it was decided on is still
// there.
func (ap applier) chargeLocked(w *Workload, c *quota.Charge) error {
	s := ap.s
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
	s.queues.trackQueuedLocked(w)
	w.quotaSince.Store(0)
	s.queued.setProblem(w, nil)
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
	s.queues.trackQueuedLocked(w)
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
	if s.reservations.of(w.key) != nil || w.onNodes() > 0 || s.claims.keepsCharge(w.key) {
		return true
	}
	return w.model != nil && w.observed && !w.model.Finished && w.check.holdsQuota()
}

// rechargeLocked charges a quota-managed workload found with pods on
// nodes and no charge (the scheduler restarted, or its queue objects or
// the queue API appeared after its pods were placed) as its Workload
// object records it, whether or not the quota has room, and reports
// whether it charged w. With no record, the flavors it is charged to are
// a decision the state does not take: w is reported in acts.Uncharged,
// and the leader charges it (controllers.ChargeRunning decides on a
// RunningCharges copy, ChargeRunning applies). A workload whose queue
// cannot be resolved yet is reported once it can (queuesChangedLocked).
func (s *State) rechargeLocked(w *Workload, acts *Actions) bool {
	if w.model == nil || !s.queues.awaitingAdmissionLocked(w) || w.onNodes() == 0 {
		return false
	}
	c := s.recorded.chargeFor(w.key, w.model.UID)
	if c == nil {
		if _, p := s.book.Resolve(w.key.Namespace, s.queues.queueNameLocked(w)); p == nil {
			acts.Uncharged = append(acts.Uncharged, w.key)
		}
		return false
	}
	// Charged as its Workload object records, to the ClusterQueue and
	// flavors it was admitted with, whatever the queue objects say now.
	s.book.Charge(w.key, c)
	w.markRan()
	s.queues.trackQueuedLocked(w)
	return true
}

// markRan records that w, found running, is charged now: its current
// attempt runs, on the domains its live members hold, since its pods' age
// if it was not placed by this scheduler.
func (w *Workload) markRan() {
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
}

// RunningCharge is what charging a workload found running with no record
// of its admission reads (admission.ForcedCharge): its queue, what it
// needs, and per slice the labels of the node its pods run on.
type RunningCharge struct {
	Key          workload.Key
	UID          types.UID
	ClusterQueue *quota.ClusterQueue
	View         *quota.View
	// Needs is a copy: the decision may set each one's Compatible.
	Needs []quota.Need
	// NodeLabels holds, per slice index, the labels of the node, first by
	// name, that one of its pods runs on (a slice with none is absent).
	NodeLabels map[int]map[string]string
}

// RunningCharges copies what charging each of keys (nil: every
// workload), running with no charge and no record of its admission,
// reads; those that are not such workloads, or whose queue cannot be
// resolved, are left out. It takes the write lock: the needs it reads are
// a refreshed cache.
func (up Upkeep) RunningCharges(keys []workload.Key) []RunningCharge {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if keys == nil {
		keys = s.workloads.keys()
	}
	var out []RunningCharge
	for _, k := range keys {
		if rc, ok := up.runningChargeLocked(k); ok {
			out = append(out, rc)
		}
	}
	return out
}

func (up Upkeep) runningChargeLocked(key workload.Key) (RunningCharge, bool) {
	s := up.s
	w := s.workloads.of(key)
	if w == nil || w.model == nil || !s.queues.awaitingAdmissionLocked(w) || w.onNodes() == 0 ||
		s.recorded.chargeFor(w.key, w.model.UID) != nil {
		return RunningCharge{}, false
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queues.queueNameLocked(w))
	if p != nil {
		return RunningCharge{}, false
	}
	rc := RunningCharge{Key: key, UID: w.model.UID, ClusterQueue: cq, View: s.book.View(),
		Needs: slices.Clone(s.queues.needsLocked(w)), NodeLabels: map[int]map[string]string{}}
	// Of a slice's nodes, the first by name stands for all: a slice's pods
	// share a flavor, and the same node is read again to validate.
	chosen := map[int]string{}
	for _, m := range w.members {
		if m.Node == "" || !(m.Live() || m.Deleting) || m.Member.Slice >= len(rc.Needs) || s.nodes.Node(m.Node) == nil {
			continue
		}
		if c, ok := chosen[m.Member.Slice]; !ok || m.Node < c {
			chosen[m.Member.Slice] = m.Node
		}
	}
	for slice, node := range chosen {
		rc.NodeLabels[slice] = maps.Clone(s.nodes.Node(node).Labels())
	}
	return rc, true
}

// ChargeRunning charges rc's workload c, decided on rc, unless what the
// decision read moved since: the workload was charged or recorded
// meanwhile, is no longer running, its queue resolves elsewhere, or its
// pods run on nodes labelled otherwise. The caller copies and decides
// again on an error.
func (up Upkeep) ChargeRunning(rc RunningCharge, c *quota.Charge) error {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	now, ok := up.runningChargeLocked(rc.Key)
	switch {
	case !ok || now.UID != rc.UID:
		return fmt.Errorf("%s is no longer running uncharged", rc.Key)
	case c == nil || c.ClusterQueue != now.ClusterQueue.Name || now.ClusterQueue != rc.ClusterQueue:
		return fmt.Errorf("the ClusterQueue of %s changed meanwhile", rc.Key)
	case !maps.EqualFunc(now.NodeLabels, rc.NodeLabels, maps.Equal):
		return fmt.Errorf("the nodes %s runs on changed meanwhile", rc.Key)
	}
	w := s.workloads.of(rc.Key)
	s.book.Charge(w.key, c)
	w.markRan()
	s.queues.trackQueuedLocked(w)
	// Decisions taken on the quota before this charge are stale.
	s.bumpLocked()
	return nil
}

// rechargeAllLocked charges every workload with pods on nodes that is
// not charged yet: what the queues could not account for before (a
// missing flavor or LocalQueue, the queue API not served) is accounted
// for before anything else is admitted.
func (fd Feed) rechargeAllLocked(acts *Actions) {
	s := fd.s
	for w := range s.workloads.all() {
		s.rechargeLocked(w, acts)
	}
}
