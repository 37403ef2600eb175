package state

import (
	"iter"
	"maps"
	"slices"
	"sort"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// The workloads waiting to be admitted are indexed by the ClusterQueue they
// resolve to, so that deciding a queue's order, and waking what freed quota
// can admit, costs the queues of one cohort, not every workload.

// pendingQueue is one ClusterQueue's waiting workloads, kept in queue
// order as they are filed, so that its head, its first few and a
// workload's place are read off without sorting.
type pendingQueue struct {
	entries []pendingEntry
}

// pendingEntry is a filed workload with the order keys it was filed by:
// removal finds it by them even if the workload's priority changed since.
type pendingEntry struct {
	w        *Workload
	priority int32
	created  time.Time
}

func entryOf(w *Workload) pendingEntry {
	return pendingEntry{w: w, priority: w.priority, created: w.model.Created}
}

func (e pendingEntry) before(o pendingEntry) bool {
	return quota.Precedes(e.priority, o.priority, e.created, o.created, e.w.key, o.w.key)
}

// search is the position of the first entry not before e.
func (q *pendingQueue) search(e pendingEntry) int {
	return sort.Search(len(q.entries), func(i int) bool { return !q.entries[i].before(e) })
}

func (q *pendingQueue) insert(e pendingEntry) {
	q.entries = slices.Insert(q.entries, q.search(e), e)
}

func (q *pendingQueue) remove(e pendingEntry) {
	i := q.search(e)
	if i < len(q.entries) && q.entries[i].w == e.w {
		q.entries = slices.Delete(q.entries, i, i+1)
		return
	}
	// Unreachable while entries are only filed through insert.
	q.entries = slices.DeleteFunc(q.entries, func(o pendingEntry) bool { return o.w == e.w })
}

// len is how many workloads wait in the queue.
func (q *pendingQueue) len() int {
	if q == nil {
		return 0
	}
	return len(q.entries)
}

// at is the i-th workload in queue order (nil past the end).
func (q *pendingQueue) at(i int) *Workload {
	if q == nil || i >= len(q.entries) {
		return nil
	}
	return q.entries[i].w
}

// queueIndex indexes the workloads that wait: those waiting to be admitted
// by the ClusterQueue they resolve to, and those with a waiting head by the
// head's UID.
//
// Invariants: w is in byCQ[cq] exactly when w.queuedIn == cq, filed by
// w.queuedAs, and each queue's entries are in queue order with no empty
// queue kept; heads[u] == w exactly when w.waitingHead.UID == u; roomHeads
// holds those of them that freed room retries through a plan (waitsForRoom):
// not queued plain pods, whom the default filters place, and not workloads
// filed in a queue whose last verdict kept them waiting for quota, whom a
// quota release wakes (WakeRound) — so that neither a queue of thousands of
// single pods nor of thousands of quota-bound gangs is walked on every pod
// deletion. Only file, unfile, refile, setHead and setProblem change them.
// Guarded by State.mu.
type queueIndex struct {
	byCQ      map[string]*pendingQueue
	heads     map[types.UID]*Workload
	roomHeads map[types.UID]*Workload
}

func newQueueIndex() queueIndex {
	return queueIndex{byCQ: map[string]*pendingQueue{}, heads: map[types.UID]*Workload{}, roomHeads: map[types.UID]*Workload{}}
}

// of is ClusterQueue cq's waiting workloads (nil: none).
func (x *queueIndex) of(cq string) *pendingQueue { return x.byCQ[cq] }

// unfile takes w out of the queue it waits in, if any.
func (x *queueIndex) unfile(w *Workload) {
	if w.queuedIn != "" {
		if q := x.byCQ[w.queuedIn]; q != nil {
			q.remove(w.queuedAs)
			if q.len() == 0 {
				delete(x.byCQ, w.queuedIn)
			}
		}
		w.queuedIn, w.queuedAs = "", pendingEntry{}
		x.trackRoomHead(w)
	}
}

// file records that w waits in ClusterQueue cq and puts it in cq's queue
// (created on first use) in order.
func (x *queueIndex) file(w *Workload, cq string) {
	x.fileUnsorted(w, cq).insert(w.queuedAs)
}

// fileUnsorted is file for a caller that appends w's entry itself and sorts
// the queues once it filed everything (refile).
func (x *queueIndex) fileUnsorted(w *Workload, cq string) *pendingQueue {
	q := x.byCQ[cq]
	if q == nil {
		q = &pendingQueue{}
		x.byCQ[cq] = q
	}
	w.queuedIn, w.queuedAs = cq, entryOf(w)
	x.trackRoomHead(w)
	return q
}

// refile files every workload again, in the queue queueOf names ("": none),
// sorting each queue once.
func (x *queueIndex) refile(workloads iter.Seq[*Workload], queueOf func(*Workload) string) {
	clear(x.byCQ)
	for w := range workloads {
		w.queuedIn, w.queuedAs = "", pendingEntry{}
		x.trackRoomHead(w)
		if cq := queueOf(w); cq != "" {
			q := x.fileUnsorted(w, cq)
			q.entries = append(q.entries, w.queuedAs)
		}
	}
	for _, q := range x.byCQ {
		sortEntries(q.entries)
	}
}

// setHead makes ref w's waiting head (nil: none), keeping the index of
// heads by pod UID that hints and wakes read.
func (x *queueIndex) setHead(w *Workload, ref *PodRef) {
	if old := w.waitingHead; old != nil && x.heads[old.UID] == w {
		delete(x.heads, old.UID)
		delete(x.roomHeads, old.UID)
	}
	w.waitingHead = ref
	if ref != nil {
		x.heads[ref.UID] = w
		x.trackRoomHead(w)
	}
}

// setProblem records why w's queue keeps it waiting (nil: nothing), which
// decides whether freed room retries it.
func (x *queueIndex) setProblem(w *Workload, p *quota.Problem) {
	w.queueProblem.Store(p)
	x.trackRoomHead(w)
}

// trackRoomHead puts w's head in roomHeads or takes it out, as
// waitsForRoom says now. Callers call it wherever an input of it changes.
func (x *queueIndex) trackRoomHead(w *Workload) {
	h := w.waitingHead
	if h == nil || x.heads[h.UID] != w {
		return
	}
	if waitsForRoom(w) {
		x.roomHeads[h.UID] = w
	} else {
		delete(x.roomHeads, h.UID)
	}
}

// waitsForRoom reports whether freed room may let w plan, as far as the
// index can tell: w is not a queued plain pod, and, if filed in a queue, its
// queue's last verdict was a domain wait. The rest of quotaGatedLocked (a
// workload awaiting admission but not filed: its queue objects are
// missing) is checked where the heads are read.
func waitsForRoom(w *Workload) bool {
	return w.key.Source != workload.SourcePod && (w.queuedIn == "" || waitingForDomains(w.queueProblem.Load()))
}

// withHeads lists the workloads that have a waiting head: freed room is
// offered to them, not to every workload.
func (x *queueIndex) withHeads() []*Workload {
	return slices.Collect(maps.Values(x.heads))
}

// withRoomHeads lists the workloads freed room retries (roomHeads), as a
// copy: choosing a head may change the index.
func (x *queueIndex) withRoomHeads() []*Workload {
	return slices.Collect(maps.Values(x.roomHeads))
}

// headOf returns the workload whose waiting head is the pod of uid (nil:
// none).
func (x *queueIndex) headOf(uid types.UID) *Workload {
	w := x.heads[uid]
	if w == nil || w.waitingHead == nil || w.waitingHead.UID != uid {
		return nil
	}
	return w
}

// trackQueuedLocked files w under its ClusterQueue while it waits to be
// admitted (complete, quota-managed, not charged, no reservation), and
// takes it out otherwise. Callers call it wherever one of those changes.
func (qs queues) trackQueuedLocked(w *Workload) {
	s := qs.s
	s.queued.unfile(w)
	if cq := qs.pendingQueueOfLocked(w); cq != "" {
		s.queued.file(w, cq)
	}
}

// pendingQueueOfLocked is the ClusterQueue w waits in ("": w does not wait
// to be admitted, or its queue objects are missing, which re-files
// everything once they change).
func (qs queues) pendingQueueOfLocked(w *Workload) string {
	s := qs.s
	if s.workloads.of(w.key) != w || !w.observed || w.model == nil || w.model.Finished || !w.complete ||
		qs.queueAPIProblemLocked() != nil || !qs.awaitingAdmissionLocked(w) {
		return ""
	}
	cq, p := s.book.Resolve(w.key.Namespace, qs.queueNameLocked(w))
	if p != nil {
		return ""
	}
	return cq.Name
}

// reindexQueuedLocked files every workload again (queue objects changed).
func (fd Feed) reindexQueuedLocked() {
	s := fd.s
	s.queued.refile(s.workloads.all(), s.queues.pendingQueueOfLocked)
}

// sortEntries puts entries in queue order.
func sortEntries(entries []pendingEntry) {
	slices.SortFunc(entries, func(a, b pendingEntry) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
}

// WakeRound is what deciding which waiting workloads of a cohort the
// quota now free admits reads (admission.Wake): the quota as it stands,
// and each queue of the cohort with quota free and workloads waiting, the
// first maxWakeScan of them in queue order. The decision activates only
// the heads of those the quota admits, which keeps a release from sending
// thousands of gated pods through PreEnqueue.
type WakeRound struct {
	View       *quota.View
	Queues     map[string][]WakingWorkload
	Now        time.Time
	Starvation time.Duration
}

// WakingWorkload is a workload waiting for quota as a wake reads it: its
// place in its queue, what it needs, and its head pod (nil: none now).
type WakingWorkload struct {
	quota.Waiting
	Head *PodRef
}

// WakeRound copies what waking the cohort of ClusterQueue cqName reads
// (ok false: the queue is gone). It takes the write lock: the heads and
// needs it reads are refreshed caches.
func (s *State) WakeRound(cqName string) (WakeRound, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	cq := s.book.ClusterQueue(cqName)
	if cq == nil {
		return WakeRound{}, false
	}
	r := WakeRound{View: s.book.View(), Queues: map[string][]WakingWorkload{}, Now: s.opts.Clock.Now(), Starvation: s.opts.QuotaStarvation}
	for _, q := range s.book.Cohort(cq) {
		pending := s.queued.of(q.Name)
		if pending.len() == 0 || !r.View.AnyAvailable(q) {
			continue
		}
		list := make([]WakingWorkload, 0, min(pending.len(), maxWakeScan))
		for i := 0; len(list) < maxWakeScan && i < maxWakePass; i++ {
			w := pending.at(i)
			if w == nil {
				break
			}
			// Before wakePasses: choosing the head forgets a blocking
			// member that is gone.
			head := copyRef(s.headLocked(w))
			if wakePasses(w) {
				continue
			}
			list = append(list, WakingWorkload{
				Waiting: quota.Waiting{Candidate: queuePlace(w, q), Needs: s.queues.needsLocked(w), Shape: s.copier.shapeLocked(w)},
				Head:    head,
			})
		}
		r.Queues[q.Name] = list
	}
	return r, true
}

// copyRef is a copy of *ref (nil: nil), not shared with the state.
func copyRef(ref *PodRef) *PodRef {
	if ref == nil {
		return nil
	}
	c := *ref
	return &c
}

// maxWakeScan bounds how deep into a queue one wake looks for workloads
// that fit: past a few shapes that do not fit, a queue of thousands is not
// walked on every release. Deeper ones are reached by later wakes.
const maxWakeScan = 64

// maxWakePass bounds how many workloads of one queue a wake looks at,
// those it passes by (wakePasses) included.
const maxWakePass = 8 * maxWakeScan

// wakePasses reports whether a quota wake passes w by: quota is not what
// it waits for. Its queue let it plan and the plan failed on domains or
// nodes (freed room retries it: roomHeads; node changes an unplaceable
// one), or another plugin rejects a member of it (that member's own events
// retry it). Counted against the quota in a wake, it would keep that quota
// from the workloads behind it, and nothing else wakes them: quota not
// taken is never released. The verdict it waits on changes only through
// setProblem, which a retry calls with the queue's verdict of then.
func wakePasses(w *Workload) bool {
	if w.blockedBy != nil {
		return true
	}
	p := w.queueProblem.Load()
	return p != nil && (p.Reason == ReasonWaitingForDomains || p.Reason == ReasonUnplaceable || p.Reason == ReasonGangBlocked)
}

// quotaGatedLocked reports whether w waits for its queue (quota, order,
// fair share, queue objects) rather than for domains: such a workload is
// woken by quota released or queue objects changed, not by capacity freed.
// A workload awaiting admission waits for its queue unless the queue's
// last verdict let it plan and domains failed it (a verdict not given yet
// is its queue's to give).
func (qs queues) quotaGatedLocked(w *Workload) bool {
	return !waitingForDomains(w.queueProblem.Load()) && qs.awaitingAdmissionLocked(w)
}

// waitingForDomains reports whether p, a queue's last verdict on a
// workload, is that domains, not quota, keep it waiting.
func waitingForDomains(p *quota.Problem) bool {
	return p != nil && p.Reason == ReasonWaitingForDomains
}
