package state

import (
	"fmt"
	"slices"
	"strings"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Workload is what the state knows of one workload: its model (once its
// object is observed) and its member pods, with per-slice counts of the
// current attempt kept up to date as pods come and go, so gates are checked
// in O(slices), not O(pods).
type Workload struct {
	key      workload.Key
	model    *workload.Workload
	err      error
	ref      corev1.ObjectReference
	observed bool
	members  map[types.UID]*Pod
	slices   []sliceCount
	// stagedLeaders counts live leaders placed in JobSet's staged way.
	stagedLeaders int
	// complete caches whether every member that can exist yet exists.
	complete bool
	// waitingHead is the member a complete gang without a reservation
	// plans through: it alone passes PreEnqueue and is retried when
	// something is freed; the others are activated once its plan commits.
	waitingHead *PodRef
	// blockedBy is a member other filters rejected before the plan could
	// see it (see MemberUnschedulable): while it is pending, it is the
	// head, so the gang plans again only once that pod can be scheduled.
	blockedBy *PodRef
	failure   *placement.Failure
	failGen   uint64
	// rejected domains: the workload's pods failed other filters there.
	rejected     map[topology.DomainRef]rejection
	firstPending time.Time
	// priority is the highest priority among the current attempt's live
	// pods seen (queue order reads it).
	priority int32
	// quotaSince is when the workload was first found waiting for quota
	// (unix nanoseconds, 0 while it is not). Atomic: PreEnqueue records it
	// under the read lock.
	quotaSince atomic.Int64
	// queueProblem is why its queue last kept it waiting.
	queueProblem problemBox
	// queuedIn is the ClusterQueue it is filed under while it waits to be
	// admitted ("": not filed), queuedAs its entry there.
	queuedIn string
	queuedAs pendingEntry
	// ours is set once a member of this scheduler was seen: the workload
	// stays reported after its pods are gone.
	ours bool
	// ranAttempt is 1 + the attempt that was last placed whole (0: none),
	// so that a workload whose pods ended is not taken for a pending one
	// before its owner reports it finished.
	ranAttempt int32
	// ranDomains are the confined domains that attempt was placed in: a
	// restart hold keeps them even once the pods that ran there are gone
	// (their node was recycled away and the owner restarts the workload).
	ranDomains []topology.DomainRef
	// placedAt is when the workload was last placed whole.
	placedAt time.Time
	// membersGen changes whenever a member is added or removed (a changed
	// pod is removed and added again); needs caches what admission would
	// charge for the model and members it was computed from.
	membersGen uint64
	needs      needsCache
	// eviction is the workload's last eviction by preemption.
	eviction *Eviction
	// noVictimsGen is 1 + the generation at which a preemption for w found
	// no victims (0: none).
	noVictimsGen uint64
	// check is its progress through its queue's provisioning check (nil:
	// none started).
	check *checkTrack
	// runExpired is when it was ended for exceeding its maximum run
	// duration (zero: not since it was last placed); ending holds it out
	// of admission until its owner is seen suspended or finished.
	runExpired time.Time
	ending     bool
}

type needsCache struct {
	model *workload.Workload
	gen   uint64
	needs []quota.Need
	shape string
}

// ran reports whether the current attempt was placed whole.
func (w *Workload) ran() bool { return w.model != nil && w.ranAttempt == w.model.RestartAttempt+1 }

type rejection struct {
	reason string
	at     time.Time
}

// sliceCount counts the current attempt's pods of one slice.
type sliceCount struct {
	// total counts every pod, gated and terminal ones too: a startup group
	// with any pod has been created by the workload's owner.
	total int
	// present counts live pods; leaders the live Job leaders among them.
	present, leaders int
	// placed counts live pods on a node (bound or assumed), bound the
	// confirmed bindings among them.
	placed, bound int
	succeeded     int
}

func (fd Feed) dropIfEmptyLocked(w *Workload) {
	s := fd.s
	if !w.observed && len(w.members) == 0 && s.reservations.of(w.key) == nil {
		s.queued.setHead(w, nil)
		s.workloads.drop(w.key)
		if w.key.Source == workload.SourceCompositePodGroup {
			s.workloads.forgetChildren(w.key)
		}
		s.queues.trackQueuedLocked(w)
	}
}

// current reports whether a member belongs to the workload's current
// attempt of its current object.
func (w *Workload) current(p *Pod) bool {
	m := w.model
	if m == nil {
		return false
	}
	if p.Member.OwnerUID != "" && m.UID != "" && p.Member.OwnerUID != m.UID {
		return false
	}
	return p.Member.RestartAttempt == m.RestartAttempt && p.Member.Slice < len(m.Slices)
}

// confines reports whether slice i of the workload is confined to a domain.
func (w *Workload) confines(i int) bool {
	if w.model == nil {
		return false
	}
	if i < len(w.model.Slices) {
		return w.model.Slices[i].DomainKey != ""
	}
	return w.model.Confined()
}

// domainKeyOf is the node label confining slice i ("" when the slice is
// unconfined or beyond the model's slices).
func (w *Workload) domainKeyOf(i int) string {
	if w.model == nil || i >= len(w.model.Slices) {
		return ""
	}
	return w.model.Slices[i].DomainKey
}

func (w *Workload) count(p *Pod, delta int) {
	w.membersGen++
	if !w.current(p) {
		return
	}
	c := &w.slices[p.Member.Slice]
	c.total += delta
	if p.Succeeded {
		c.succeeded += delta
	}
	if !p.Live() {
		return
	}
	c.present += delta
	if delta > 0 {
		if w.livePods() == 1 {
			w.priority = p.Priority
		} else {
			w.priority = max(w.priority, p.Priority)
		}
	}
	if p.Member.Leader {
		c.leaders += delta
	}
	if p.StagedLeader {
		w.stagedLeaders += delta
	}
	if p.Node != "" {
		c.placed += delta
		if !p.Assumed {
			c.bound += delta
		}
	}
}

// livePods counts the current attempt's live pods.
func (w *Workload) livePods() int {
	n := 0
	for _, c := range w.slices {
		n += c.present
	}
	return n
}

// recount recomputes the counts from the members.
func (w *Workload) recount() {
	w.slices = nil
	w.stagedLeaders = 0
	if w.model == nil {
		return
	}
	w.slices = make([]sliceCount, len(w.model.Slices))
	for _, p := range w.members {
		w.count(p, +1)
	}
}

// currentMembersBySlice lists, for each slice of the model, its live
// members of the current attempt, by name: the members
// workload.StillNeeds reads, in the order the snapshot gives the plan.
func (w *Workload) currentMembersBySlice() [][]*Pod {
	out := make([][]*Pod, len(w.model.Slices))
	for _, p := range w.members {
		if p.Live() && w.current(p) {
			out[p.Member.Slice] = append(out[p.Member.Slice], p)
		}
	}
	for _, ms := range out {
		slices.SortFunc(ms, func(a, b *Pod) int { return strings.Compare(a.Name, b.Name) })
	}
	return out
}

// staged reports whether the workload is placed in JobSet's staged way:
// each Job's leader first, its followers only after the leader is bound.
// A LeaderWorkerSet group is placed the same way: its workers come after
// its leader (or once it is ready), in the domain or on the nodes its
// leader's plan reserved for the whole group.
func (w *Workload) staged() bool {
	switch {
	case w.stagedLeaders == 0:
		return false
	case w.key.Source == workload.SourceJobSet:
		return w.model.Confined()
	case w.key.Source == workload.SourceLeaderWorkerSet:
		return w.model.Confined() || w.model.Slices[0].Topology != nil
	}
	return false
}

// groupOpen reports whether the owner has created startup group g.
func (w *Workload) groupOpen(g int) bool {
	if g == 0 {
		return true
	}
	for i, sl := range w.model.Slices {
		if sl.Group == g && w.slices[i].total > 0 {
			return true
		}
	}
	return false
}

// active lists the slices that make up the gang now: those of created
// startup groups that have not run to completion. A slice with no live pods
// is done when it has succeeded pods in view, when its owner reports Jobs
// of its replicated Job succeeded, or when a later startup group exists
// (the owner creates one only once earlier groups are done or running).
func (w *Workload) active() []int {
	open := map[int]bool{}
	latest := 0
	for i, sl := range w.model.Slices {
		o, seen := open[sl.Group]
		if !seen {
			o = w.groupOpen(sl.Group)
			open[sl.Group] = o
		}
		if o && w.slices[i].total > 0 {
			latest = max(latest, sl.Group)
		}
	}
	var out []int
	for i, sl := range w.model.Slices {
		c := w.slices[i]
		if !open[sl.Group] {
			continue
		}
		if c.present == 0 && (c.succeeded > 0 || w.model.SucceededJobs[sl.ReplicatedJob] > 0 || sl.Group < latest) {
			continue
		}
		out = append(out, i)
	}
	return out
}

// missing counts, over the active slices, those still lacking members that
// must exist before the gang is planned: every pod, or under staged
// placement each Job's leader.
func (w *Workload) missing() (slices, pods int) {
	staged := w.staged()
	for _, i := range w.active() {
		c := w.slices[i]
		if staged {
			if c.leaders == 0 && c.placed == 0 {
				slices++
				pods++
			}
			continue
		}
		if need := w.model.Slices[i].Pods - c.present; need > 0 {
			slices++
			pods += need
		}
	}
	return slices, pods
}

// refreshCompleteLocked updates the cached gate and reports whether it
// just became complete.
func (fd Feed) refreshCompleteLocked(w *Workload) bool {
	s := fd.s
	was := w.complete
	w.complete = false
	if w.model != nil && w.err == nil && !w.model.Finished {
		n, _ := w.missing()
		w.complete = n == 0
	}
	if w.complete && !was {
		s.queued.setHead(w, nil)
		s.headLocked(w)
	}
	if w.complete != was {
		s.queues.trackQueuedLocked(w)
	}
	return w.complete && !was
}

// placedWhole reports whether every active slice has all its pods placed:
// the gang runs, and further pods (replacements, a PodGroup's extra
// members) join without a new reservation.
func (w *Workload) placedWhole() bool {
	for _, i := range w.active() {
		if w.slices[i].placed < w.model.Slices[i].Pods {
			return false
		}
	}
	return true
}

// boundWhole is placedWhole counting bound pods only, not those assumed
// while their binding is pending.
func (w *Workload) boundWhole() bool {
	for _, i := range w.active() {
		if w.slices[i].bound < w.model.Slices[i].Pods {
			return false
		}
	}
	return true
}

// UpsertSource records a workload derived from its object (w nil and err
// set for a malformed object). Changes that end the current placement (a new
// restart attempt, another object of the same name, completion, deletion)
// release its reservation.
func (fd Feed) UpsertSource(key workload.Key, model *workload.Workload, err error, ref corev1.ObjectReference) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return fd.upsertSourceLocked(key, model, err, ref)
}

func (fd Feed) upsertSourceLocked(key workload.Key, model *workload.Workload, err error, ref corev1.ObjectReference) Actions {
	s := fd.s
	w := s.workloads.ensure(key)
	old := w.model
	if key.Source == workload.SourceCompositePodGroup {
		// Before the model changes: the members leave as the old model
		// counted them, and are counted again below (w.recount).
		fd.rechildLocked(key, model)
	}
	w.model, w.err, w.ref, w.observed = model, err, ref, true
	if model != nil && model.Finished {
		// Its owner took the end of its run: a user who starts it again
		// has it admitted again.
		w.ending = false
	}
	var acts Actions
	fd.holdRestartLocked(w, old)
	if (model == nil || model.Finished) && s.claims.drop(key) {
		// Nothing is kept for a workload that ended.
		acts.merge(s.freedLocked())
	}
	if r := s.reservations.of(key); r != nil && (model == nil || model.Finished || model.RestartAttempt != r.Attempt || model.UID != r.Holder.UID ||
		old == nil || len(old.Slices) != len(model.Slices)) {
		// Its slices are indexed by the model it was planned on: a JobSet
		// scaled up or down is planned again.
		reason := ReleaseRestart
		if model == nil || model.Finished {
			reason = ReleaseDeleted
		}
		acts.merge(s.releaseLocked(key, reason, fmt.Sprintf("%s changed", key)))
	}
	if old == nil || model == nil || old.RestartAttempt != model.RestartAttempt || old.UID != model.UID || len(old.Slices) != len(model.Slices) {
		w.rejected = nil
		w.failure = nil
		w.firstPending = time.Time{}
	}
	w.recount()
	fd.reholdLocked(w)
	fd.refreshCompleteLocked(w)
	// A finished workload, or one restarting, gives its quota back; one
	// found running (the scheduler restarted) is charged.
	acts.merge(s.settleQuotaLocked(w))
	s.rechargeLocked(w, &acts)
	s.queues.trackQueuedLocked(w)
	acts.Events = append(acts.Events, fd.consumerEventsLocked(w, old)...)
	// Pods gated on this workload's shape re-run PreEnqueue.
	acts.Activate = append(acts.Activate, s.pendingLocked(w)...)
	return acts
}

// DeleteSource forgets a workload's object and releases its reservation.
func (fd Feed) DeleteSource(key workload.Key) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return fd.deleteSourceLocked(key)
}

func (fd Feed) deleteSourceLocked(key workload.Key) Actions {
	s := fd.s
	w := s.workloads.of(key)
	if w == nil {
		return Actions{}
	}
	acts := s.releaseLocked(key, ReleaseDeleted, fmt.Sprintf("%s was deleted", key))
	acts.merge(fd.consumerDeletedLocked(w))
	if s.claims.drop(key) {
		acts.merge(s.freedLocked())
	}
	// The model stays: pods still running keep holding their domains
	// until they are gone. Pods wait until an object of the name returns.
	w.observed = false
	w.complete = false
	s.queued.setHead(w, nil)
	acts.merge(s.settleQuotaLocked(w))
	s.queues.trackQueuedLocked(w)
	fd.dropIfEmptyLocked(w)
	return acts
}

// Created returns when key's object was created, for queue ordering.
func (s *State) Created(key workload.Key) (time.Time, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w := s.workloads.of(key)
	if w == nil || w.model == nil {
		return time.Time{}, false
	}
	return w.model.Created, true
}

// Ref returns the event reference of key's object.
func (rp Reports) Ref(key workload.Key) corev1.ObjectReference {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.workloads.of(key); w != nil {
		return w.ref
	}
	return corev1.ObjectReference{}
}
