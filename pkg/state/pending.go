package state

import (
	"slices"
	"sort"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// The workloads waiting to be admitted are indexed by the ClusterQueue they
// resolve to, so that deciding a queue's order, and waking what freed quota
// can admit, costs the queues of one cohort, not every workload.

// trackQueuedLocked files w under its ClusterQueue while it waits to be
// admitted (complete, quota-managed, not charged, no reservation), and
// takes it out otherwise. Callers call it wherever one of those changes.
func (s *State) trackQueuedLocked(w *Workload) {
	if w.queuedIn != "" {
		if m := s.pendingByCQ[w.queuedIn]; m != nil {
			delete(m, w.key)
			if len(m) == 0 {
				delete(s.pendingByCQ, w.queuedIn)
			}
		}
		w.queuedIn = ""
	}
	if s.workloads[w.key] != w || !w.observed || w.model == nil || w.model.Finished || !w.complete ||
		s.queueAPIProblemLocked() != nil || !s.awaitingAdmissionLocked(w) {
		return
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		// Waits for queue objects to change, which re-files everything.
		return
	}
	m := s.pendingByCQ[cq.Name]
	if m == nil {
		m = map[workload.Key]*Workload{}
		s.pendingByCQ[cq.Name] = m
	}
	m[w.key] = w
	w.queuedIn = cq.Name
}

// reindexQueuedLocked files every workload again (queue objects changed).
func (s *State) reindexQueuedLocked() {
	clear(s.pendingByCQ)
	for _, w := range s.workloads {
		w.queuedIn = ""
		s.trackQueuedLocked(w)
	}
}

// firstPendingLocked lists the first n of cq's waiting workloads in queue
// order, without sorting the whole queue.
func (s *State) firstPendingLocked(cq string, n int) []*Workload {
	m := s.pendingByCQ[cq]
	out := make([]*Workload, 0, min(len(m), n)+1)
	for _, w := range m {
		if len(out) == n && !s.before(w, out[n-1]) {
			continue
		}
		i := sort.Search(len(out), func(i int) bool { return s.before(w, out[i]) })
		out = slices.Insert(out, i, w)
		if len(out) > n {
			out = out[:n]
		}
	}
	return out
}

// wakeCohortLocked lists the heads of the waiting workloads of cq's cohort
// that the quota now free admits, in the order quota.Wake gives: the order
// the gate's verdict lets them through, each counted against the quota
// before the next. Waking only those keeps a release from sending
// thousands of gated pods through PreEnqueue.
func (s *State) wakeCohortLocked(cqName string) []PodRef {
	cq := s.book.ClusterQueue(cqName)
	if cq == nil {
		return nil
	}
	view := s.book.View()
	queues := map[string][]*quota.Waiting{}
	byKey := map[workload.Key]*Workload{}
	for _, q := range s.book.Cohort(cq) {
		if len(s.pendingByCQ[q.Name]) == 0 || !view.AnyAvailable(q) {
			continue
		}
		// Bounded: deeper workloads are reached by later wakes.
		for _, w := range s.firstPendingLocked(q.Name, maxWakeScan) {
			byKey[w.key] = w
			queues[q.Name] = append(queues[q.Name], &quota.Waiting{Candidate: queuePlace(w, q), Needs: s.needsLocked(w), Shape: s.shapeLocked(w)})
		}
	}
	var out []PodRef
	for _, k := range quota.Wake(view, queues, s.opts.Clock.Now(), s.opts.QuotaStarvation) {
		if h := s.headLocked(byKey[k]); h != nil {
			out = append(out, *h)
		}
	}
	return out
}

// maxWakeScan bounds how deep into a queue one wake looks for workloads
// that fit: a queue of thousands is not sorted and sized on every release.
const maxWakeScan = 64

// quotaGatedLocked reports whether w waits for its queue (quota, order,
// fair share, queue objects) rather than for domains: such a workload is
// woken by quota released or queue objects changed, not by capacity freed.
func (s *State) quotaGatedLocked(w *Workload) bool {
	p := w.queueProblem.Load()
	return p != nil && p.Reason != reasonWaitingForDomains && s.awaitingAdmissionLocked(w)
}

// reasonWaitingForDomains: quota would fit, the domains do not.
const reasonWaitingForDomains = "WaitingForDomains"
