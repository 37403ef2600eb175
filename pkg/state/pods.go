package state

import (
	"maps"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Pod is what the state knows of a pod. Its membership is derived once,
// when the pod (or a change to its labels) is first seen; everything else
// reads the result. A Pod is replaced, never modified, once indexed.
type Pod struct {
	UID       types.UID
	Namespace string
	Name      string
	// Gang is true for pods that name a workload (JobSet or PodGroup
	// labels), well-formed or not; MemberErr says why a member is malformed.
	Gang      bool
	Member    workload.Member
	MemberErr error
	Scheduler string
	// Node is where the pod is bound or assumed ("" while pending).
	Node    string
	Assumed bool
	// Terminal pods (succeeded, failed, being deleted) hold nothing.
	Terminal  bool
	Succeeded bool
	// Deleting pods (terminal) still occupy their node until they are gone.
	Deleting bool
	// Gated pods have scheduling gates: they do not count as present.
	Gated bool
	// StagedLeader is a Job leader that JobSet's webhook gave a required
	// affinity to its own Job: its followers come only after it binds.
	StagedLeader bool
	Priority     int32
	// Request is what the pod asks for, as the scheduler counts it;
	// RequestSig renders it so equal requests compare equal.
	Request    workload.Resources
	RequestSig string
	Spec       *corev1.PodSpec
	Created    time.Time
	labels     map[string]string
	// holds is the holder this pod counts for on its node, if it holds;
	// heldDomain the domain it holds (nil when the node has no value of
	// its slice's key).
	holds      *workload.Holder
	heldDomain *topology.DomainRef
}

// Ref names the pod.
func (p *Pod) Ref() PodRef { return PodRef{Namespace: p.Namespace, Name: p.Name, UID: p.UID} }

// Live pods are neither terminal nor gated.
func (p *Pod) Live() bool { return !p.Terminal && !p.Gated }

func (s *State) derivePod(pod *corev1.Pod, old *Pod) *Pod {
	p := &Pod{
		UID: pod.UID, Namespace: pod.Namespace, Name: pod.Name,
		Scheduler: pod.Spec.SchedulerName,
		Node:      pod.Spec.NodeName,
		Succeeded: pod.Status.Phase == corev1.PodSucceeded,
		Terminal:  pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed || pod.DeletionTimestamp != nil,
		Deleting:  pod.DeletionTimestamp != nil,
		Gated:     len(pod.Spec.SchedulingGates) > 0,
		Priority:  corev1helpers.PodPriority(pod),
		Spec:      &pod.Spec,
		Created:   pod.CreationTimestamp.Time,
		labels:    pod.Labels,
	}
	if old != nil && maps.Equal(old.labels, pod.Labels) && old.Spec != nil && requestInputsEqual(old.Spec, &pod.Spec) {
		// Labels and requests are what membership and sizing derive from.
		p.Gang, p.Member, p.MemberErr = old.Gang, old.Member, old.MemberErr
		p.Request, p.RequestSig, p.StagedLeader = old.Request, old.RequestSig, old.StagedLeader
	} else {
		var isMember bool
		p.Member, isMember, p.MemberErr = workload.MemberOf(pod)
		p.Gang = isMember
		p.Request = workload.PodRequests(&pod.Spec)
		p.RequestSig = p.Request.String()
		p.StagedLeader = p.Member.Leader && (hasOwnJobAffinity(pod) || lwsLeaderFirst(p, pod))
	}
	if p.Gang && p.MemberErr == nil {
		// A composite's children may have changed since old was derived.
		p.Member = s.workloads.childMember(p.Member, pod.Namespace, &pod.Spec)
	}
	if old != nil && old.Assumed && p.Node == "" {
		// The informer has not seen the binding yet: keep the assumption.
		p.Node, p.Assumed = old.Node, true
	}
	return p
}

// requestInputsEqual: the informer hands out new objects on every update;
// a pod's containers and overhead are immutable, but resize can change
// requests, so compare the pointers' targets only when they differ.
func requestInputsEqual(a, b *corev1.PodSpec) bool {
	if len(a.Containers) != len(b.Containers) || len(a.InitContainers) != len(b.InitContainers) {
		return false
	}
	for i := range a.Containers {
		if !resourceListEqual(a.Containers[i].Resources.Requests, b.Containers[i].Resources.Requests) {
			return false
		}
	}
	for i := range a.InitContainers {
		if !resourceListEqual(a.InitContainers[i].Resources.Requests, b.InitContainers[i].Resources.Requests) {
			return false
		}
	}
	return (a.Affinity == nil) == (b.Affinity == nil)
}

func resourceListEqual(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || !v.Equal(w) {
			return false
		}
	}
	return true
}

// UpsertPod records a pod's membership, node and phase.
func (fd Feed) UpsertPod(pod *corev1.Pod) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	return fd.upsertPodLocked(pod)
}

func (fd Feed) upsertPodLocked(pod *corev1.Pod) Actions {
	s := fd.s
	old := s.pods.get(pod.UID)
	p := s.derivePod(pod, old)
	var acts Actions
	var held *workload.Holder
	if old != nil {
		held = old.holds
		s.unindexLocked(old)
	}
	s.indexLocked(p)
	if p.Gang && p.MemberErr == nil && p.Member.Key.Source == workload.SourcePod {
		acts.merge(fd.observePodWorkloadLocked(pod, old, p))
	}
	if p.Gang && p.MemberErr == nil && p.Member.Key.Source == workload.SourceLeaderWorkerSet && p.Member.Leader {
		acts.merge(fd.observeLWSGroupLocked(pod, p.Member.Key))
	}
	if old == nil && p.Gang && p.MemberErr == nil && p.Node == "" && s.registry.api(p.Member.Key.Source) == APINotServed {
		// A pending pod names a workload API last found not served: it may
		// have been installed since, so look now rather than at the next
		// backed-off poll.
		acts.Rediscover = append(acts.Rediscover, p.Member.Key.Source)
	}
	if held != nil && !holdsAgain(old, p, held) {
		// A domain may no longer be held.
		s.bumpLocked()
	}
	if old != nil && old.Node != "" && !old.Terminal && (p.Terminal || p.Node == "") {
		acts.merge(fd.leftNodeLocked(old.Node))
	}
	if old != nil && old.Assumed && !p.Assumed && p.Node != "" {
		// The binding is confirmed: a committed reservation may be done.
		acts.merge(fd.settleLocked(p.Member.Key))
		// A node relabelled while the pod was being bound to it may have
		// put it, now running, in a domain another workload holds.
		acts.merge(fd.sharedByMoveLocked(p.Node))
	}
	if p.Gang && p.MemberErr == nil {
		w := s.workloads.of(p.Member.Key)
		if w != nil && old == nil && len(w.rejected) > 0 {
			// A member replaced (its owner recreated it, perhaps fixed):
			// the domains its predecessor was rejected in may take it.
			w.rejected = nil
		}
		if w != nil && p.Node != "" && !p.Assumed && p.Live() && w.current(p) {
			// A running member of a workload admitted before this
			// scheduler started: charge its queue.
			s.rechargeLocked(w, &acts)
		}
		if w != nil && old != nil && old.Node != "" && (p.Node == "" || !p.Live()) {
			acts.merge(s.settleQuotaLocked(w))
		}
		if w != nil && (old == nil || presenceChanged(old, p)) && fd.refreshCompleteLocked(w) {
			// The last member that can exist yet arrived: the gang plans
			// through its head; the rest wait, gated, for its reservation.
			if h := s.headLocked(w); h != nil {
				acts.Activate = append(acts.Activate, *h)
			}
		} else if w != nil && w.complete && p.Node != "" && (old == nil || old.Node == "") && s.reservations.of(w.key) == nil {
			// A member was placed outside a plan (a restarted scheduler
			// listing running pods, or the head itself): members held back
			// behind the head may now be admissible, or need a new head.
			if w.model != nil && w.placedWhole() {
				s.queued.setHead(w, nil)
				acts.Activate = append(acts.Activate, s.pendingLocked(w)...)
			} else if h := s.headLocked(w); h != nil {
				acts.Activate = append(acts.Activate, *h)
			}
		} else if w != nil && old == nil && p.Node == "" && p.Live() && s.registry.ours(p.Scheduler) {
			// PreEnqueue may have held this pod before the state indexed
			// it: it is tried again when its turn at the gate lets it go,
			// or makes it its gang's head.
			if t := workload.TurnAt(fd.turnFactsLocked(w, p), true); t == workload.TurnGo || t == workload.TurnHead {
				acts.Activate = append(acts.Activate, p.Ref())
			}
		}
	}
	return acts
}

// leftNodeLocked: a running pod left node (it ended or was deleted).
// Capacity, and maybe a whole domain, was freed: waiting gangs plan again,
// and the plain pods our Filter kept out (the domain was held, or its room
// planned) are tried again. The scheduler's own retry on this event may
// have run before this handler, against the pod still recorded here.
func (fd Feed) leftNodeLocked(node string) Actions {
	s := fd.s
	s.bumpLocked()
	fd.clearRejectedLocked(node)
	acts := s.freedLocked()
	acts.Activate = append(acts.Activate, s.blocked.take()...)
	return acts
}

// turnFactsLocked gathers what p's turn at its gang's gate depends on
// (workload.TurnAt), choosing the complete gang's head if it has none that
// can still plan: the first member indexed after the gang is complete may
// be that head.
func (fd Feed) turnFactsLocked(w *Workload, p *Pod) workload.GateFacts {
	s := fd.s
	r := s.reservations.of(w.key)
	f := workload.GateFacts{Reserved: r != nil, Complete: w.complete}
	if r != nil && w.model != nil && r.Attempt == w.model.RestartAttempt {
		_, f.InReservedSlice = r.Slices[p.Member.Slice]
	}
	if !f.Complete || f.InReservedSlice || f.Reserved {
		return f
	}
	if f.PlacedWhole = w.model != nil && w.placedWhole(); f.PlacedWhole {
		return f
	}
	if h := s.headLocked(w); h != nil {
		f.HeadValid, f.IsHead = true, h.UID == p.UID
	}
	return f
}

// headLocked returns the member a complete gang without a reservation
// plans through, choosing a new one when the last is gone or placed. Only
// the head goes past PreEnqueue; the others stay gated until its plan is
// committed, so a gang that cannot be placed costs the scheduling queue one
// pod, not all of its pods, on every cluster event.
func (s *State) headLocked(w *Workload) *PodRef {
	if b := w.blockedBy; b != nil {
		if p := s.pods.get(b.UID); p != nil && p.Node == "" && p.Live() && w.current(p) {
			if h := w.waitingHead; h == nil || h.UID != b.UID {
				s.queued.setHead(w, b)
			}
			return b
		}
		w.blockedBy = nil
	}
	if h := w.waitingHead; h != nil {
		if p := s.pods.get(h.UID); p != nil && p.Node == "" && p.Live() && w.current(p) {
			return h
		}
	}
	s.queued.setHead(w, nil)
	var best *Pod
	for _, p := range w.members {
		if p.Node != "" || !p.Live() || !w.current(p) || !s.registry.ours(p.Scheduler) {
			continue
		}
		if best == nil || p.Name < best.Name {
			best = p
		}
	}
	if best != nil {
		ref := best.Ref()
		s.queued.setHead(w, &ref)
	}
	return w.waitingHead
}

// headValidLocked reports whether the workload has a head that can still
// plan, without choosing one (for readers holding only the read lock).
func (cp copier) headValidLocked(w *Workload) bool {
	s := cp.s
	h := w.waitingHead
	if h == nil {
		return false
	}
	p := s.pods.get(h.UID)
	return p != nil && p.Node == "" && p.Live() && w.current(p)
}

// presenceChanged reports whether an update changed what the gate counts.
func presenceChanged(old, p *Pod) bool {
	return old.Gated != p.Gated || old.Terminal != p.Terminal || (old.Node == "") != (p.Node == "") ||
		old.Member != p.Member || (old.MemberErr == nil) != (p.MemberErr == nil) || old.StagedLeader != p.StagedLeader
}

// DeletePod forgets a pod. The scheduler's informer reports pods that
// succeed or fail as deleted (with their last running state), so a slice
// whose pods are gone is told done from its owner's status and startup
// order, not from here.
func (fd Feed) DeletePod(pod *corev1.Pod) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	uid := pod.UID
	p := s.pods.get(uid)
	if p == nil {
		return Actions{}
	}
	s.unindexLocked(p)
	var acts Actions
	if p.Gang && p.MemberErr == nil {
		if r := s.reservations.of(p.Member.Key); r != nil {
			s.reservations.room.giveBack(r, uid)
		}
		if w := s.workloads.of(p.Member.Key); w != nil {
			became := fd.refreshCompleteLocked(w)
			if (became || (w.waitingHead != nil && w.waitingHead.UID == uid)) && w.complete && s.reservations.of(w.key) == nil {
				// The head is gone: another member plans for the gang.
				if h := s.headLocked(w); h != nil {
					acts.Activate = append(acts.Activate, *h)
				}
			}
			acts.merge(s.settleQuotaLocked(w))
			fd.dropIfEmptyLocked(w)
		}
	}
	if p.Node != "" && !p.Terminal {
		acts.merge(fd.leftNodeLocked(p.Node))
	}
	if p.Gang && p.MemberErr == nil && (p.Member.Key.Source == workload.SourcePod ||
		p.Member.Key.Source == workload.SourceLeaderWorkerSet && p.Member.Leader) {
		// A queued plain pod is its own workload's object; a
		// LeaderWorkerSet group's leader is its group's.
		acts.merge(fd.deleteSourceLocked(p.Member.Key))
	}
	s.blocked.forget(uid)
	return acts
}

// observePodWorkloadLocked keeps the workload of a queued plain pod: the
// pod is its own workload object.
func (fd Feed) observePodWorkloadLocked(pod *corev1.Pod, old, p *Pod) Actions {
	s := fd.s
	w := s.workloads.of(p.Member.Key)
	finished := p.Terminal
	if w != nil && w.observed && w.model != nil && w.model.UID == pod.UID && old != nil && w.model.Finished == finished {
		return Actions{}
	}
	model := workload.FromPod(pod)
	model.Finished = finished
	ref := corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}
	return fd.upsertSourceLocked(p.Member.Key, model, nil, ref)
}

// observeLWSGroupLocked keeps the workload of a LeaderWorkerSet group,
// whose object is its leader pod.
func (fd Feed) observeLWSGroupLocked(leader *corev1.Pod, key workload.Key) Actions {
	s := fd.s
	model, err := workload.FromLWSLeader(leader)
	if w := s.workloads.of(key); w != nil && w.observed && err == nil && w.err == nil && w.model != nil &&
		w.model.UID == model.UID && w.model.Finished == model.Finished && w.model.Slices[0].Pods == model.Slices[0].Pods {
		return Actions{}
	}
	if err != nil {
		model = nil
	}
	// The leader pod stands for its group: its events, and the owner of
	// the group's Workload object when the set is queued (an owner
	// reference needs a UID; the LeaderWorkerSet's is not on its pods).
	ref := corev1.ObjectReference{Kind: "Pod", APIVersion: "v1", Namespace: leader.Namespace, Name: leader.Name, UID: leader.UID}
	return fd.upsertSourceLocked(key, model, err, ref)
}

// lwsLeaderFirst reports whether p leads a LeaderWorkerSet group of
// workers: the set creates them only once the leader exists (or is
// ready), so the leader is placed first, its domain reserved for the whole
// group, as a JobSet's Job leaders are.
func lwsLeaderFirst(p *Pod, pod *corev1.Pod) bool {
	return p.Member.Key.Source == workload.SourceLeaderWorkerSet && pod.Annotations[wellknown.LWSSizeAnnotation] != "1"
}

// Pod returns what the state knows of a pod.
func (s *State) Pod(uid types.UID) (*Pod, bool) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.pods.get(uid)
	return p, p != nil
}

func (s *State) indexLocked(p *Pod) {
	s.pods.put(p)
	s.room.touch(p.Node)
	if !p.Gang || p.MemberErr != nil {
		return
	}
	w := s.workloads.ensure(p.Member.Key)
	w.members[p.UID] = p
	if s.registry.ours(p.Scheduler) {
		w.ours = true
	}
	w.count(p, +1)
	if p.Node == "" && !p.Terminal && w.firstPending.IsZero() {
		w.firstPending = s.opts.Clock.Now()
	}
	s.domainHolders.hold(w, p)
}

func (s *State) unindexLocked(p *Pod) {
	s.pods.drop(p)
	s.room.touch(p.Node)
	if !p.Gang || p.MemberErr != nil {
		return
	}
	w := s.workloads.of(p.Member.Key)
	if w == nil {
		return
	}
	delete(w.members, p.UID)
	w.count(p, -1)
	s.domainHolders.unhold(p)
}

// reholdNodeLocked recomputes what the pods on node hold after the node
// changed domains (a label changed, or it was added again).
func (fd Feed) reholdNodeLocked(node string) {
	s := fd.s
	for p := range s.pods.on(node) {
		if p.holds == nil {
			continue
		}
		if w := s.workloads.of(p.Member.Key); w != nil {
			s.domainHolders.unhold(p)
			s.domainHolders.hold(w, p)
		}
	}
}

// holdsAgain reports whether p, replacing old, holds what old held (held)
// on the same node.
func holdsAgain(old, p *Pod, held *workload.Holder) bool {
	return p.holds != nil && *p.holds == *held && p.Node == old.Node
}

// rehold recomputes what a workload's pods hold after its model changed.
func (fd Feed) reholdLocked(w *Workload) {
	s := fd.s
	for _, p := range w.members {
		held := p.holds
		s.domainHolders.unhold(p)
		s.domainHolders.hold(w, p)
		if held != nil && (p.holds == nil || *p.holds != *held) {
			s.bumpLocked()
		}
	}
}

// pendingLocked lists the workload's members this scheduler still has to
// place: unbound, live, of one of our profiles.
func (s *State) pendingLocked(w *Workload) []PodRef {
	var out []PodRef
	for _, p := range w.members {
		if p.Node == "" && p.Live() && s.registry.ours(p.Scheduler) {
			out = append(out, p.Ref())
		}
	}
	return out
}

// PendingPods lists every pod of this scheduler's profiles not on a node
// and live: what a replica that starts leading decides on.
func (rp Reports) PendingPods() []PodRef {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []PodRef
	for p := range s.pods.all() {
		if p.Node == "" && p.Live() && s.registry.ours(p.Scheduler) {
			out = append(out, p.Ref())
		}
	}
	return out
}

// freedLocked is called when capacity or a domain may have been freed:
// workloads that failed to plan try again, each through one pod. Those
// their queue keeps waiting are left to quota releases to wake.
//
// Queued plain pods are not among them: the default filters place them,
// and their own queueing hints retry them when room frees up.
func (s *State) freedLocked() Actions {
	var acts Actions
	for _, w := range s.queued.withRoomHeads() {
		if w.waitingHead == nil || s.reservations.of(w.key) != nil || s.queues.quotaGatedLocked(w) {
			continue
		}
		if h := s.headLocked(w); h != nil {
			acts.Activate = append(acts.Activate, *h)
		}
	}
	return acts
}

// wakeAllLocked lists the head of every waiting workload, those gated by
// their queue included (queue objects changed).
func (s *State) wakeAllLocked() []PodRef {
	var out []PodRef
	for _, w := range s.queued.withHeads() {
		if w.waitingHead == nil || s.reservations.of(w.key) != nil {
			continue
		}
		if h := s.headLocked(w); h != nil {
			out = append(out, *h)
		}
	}
	return out
}

// clearRejectedLocked forgets rejections of the domains a node is in: what
// changed there may let the workload's pods in.
func (fd Feed) clearRejectedLocked(node string) {
	s := fd.s
	for _, w := range fd.rejectingLocked() {
		for d := range w.rejected {
			if d.Key == "" {
				if d.Value == node {
					delete(w.rejected, d)
				}
				continue
			}
			if v, ok := s.nodes.DomainOf(node, d.Key); ok && v == d.Value {
				delete(w.rejected, d)
			}
		}
	}
}

// rejectingLocked lists the workloads that have rejected domains, and
// drops from the index those that have none left or are gone.
func (fd Feed) rejectingLocked() []*Workload {
	s := fd.s
	out := make([]*Workload, 0, len(s.rejecting))
	for k, w := range s.rejecting {
		if len(w.rejected) == 0 || s.workloads.of(k) != w {
			delete(s.rejecting, k)
			continue
		}
		out = append(out, w)
	}
	return out
}

// hasOwnJobAffinity reports whether JobSet's pod webhook gave this leader a
// required pod affinity to its own Job: its followers will be created only
// after it is bound.
func hasOwnJobAffinity(pod *corev1.Pod) bool {
	a := pod.Spec.Affinity
	if a == nil || a.PodAffinity == nil {
		return false
	}
	for _, term := range a.PodAffinity.RequiredDuringSchedulingIgnoredDuringExecution {
		if term.LabelSelector == nil {
			continue
		}
		for _, e := range term.LabelSelector.MatchExpressions {
			if e.Key == wellknown.JobKeyLabel {
				return true
			}
		}
		if _, ok := term.LabelSelector.MatchLabels[wellknown.JobKeyLabel]; ok {
			return true
		}
	}
	return false
}
