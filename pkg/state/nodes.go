package state

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// UpsertNode records a node. A node that fails (NotReady, cordoned) inside a
// reserved domain releases that reservation at once, so its workload plans
// again without waiting for its permit timeout; a node that joins or
// recovers lets waiting workloads try again.
func (fd Feed) UpsertNode(node *corev1.Node) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.nodes.Node(node.Name)
	if old != nil && !nodeChanged(old.Obj, node) {
		return Actions{}
	}
	ch := s.nodes.Upsert(node)
	return fd.nodeChangedLocked(node.Name, ch, old == nil || (!old.Usable && topology.Usable(node)))
}

// SetNodeLifetime records when a node goes away by itself (its class's
// maximum run, flex-start recycling). It changes what plans prefer, not
// what is already placed: nothing is released or woken.
func (fd Feed) SetNodeLifetime(name string, l topology.NodeLifetime) {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.nodes.SetLifetime(name, l) {
		s.bumpLocked()
	}
}

// DeleteNode forgets a node.
func (fd Feed) DeleteNode(name string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	ch := s.nodes.Delete(name)
	return fd.nodeChangedLocked(name, ch, false)
}

// nodeChanged reports whether a node update matters to placement; status
// heartbeats do not.
func nodeChanged(a, b *corev1.Node) bool {
	return topology.Usable(a) != topology.Usable(b) ||
		!maps.Equal(a.Labels, b.Labels) ||
		!equality.Semantic.DeepEqual(a.Status.Allocatable, b.Status.Allocatable) ||
		!equality.Semantic.DeepEqual(a.Spec.Taints, b.Spec.Taints)
}

func (fd Feed) nodeChangedLocked(name string, ch topology.Change, grew bool) Actions {
	s := fd.s
	var acts Actions
	clear(s.carrying)
	clear(s.selectable)
	s.room.touch(name)
	if ch.Moved || grew {
		// The pods on it hold the domain it is in now.
		fd.reholdNodeLocked(name)
	}
	if ch.Moved {
		acts.merge(fd.sharedByMoveLocked(name))
	}
	if ch.Failed || ch.Moved {
		// Reservations on the node, or in a domain it left or joined, are
		// no longer what was planned: a slice must not follow a node into
		// another pool, nor share its pool with a node it did not plan.
		touched := map[workload.Key]bool{}
		if ref, ok := s.reservations.room.nodeReserved[name]; ok {
			touched[ref.key] = true
		}
		for k := range s.reservations.room.outstanding[name] {
			touched[k] = true
		}
		if ch.Moved {
			for k, r := range s.reservations.all() {
				for _, sr := range r.Slices {
					if sr.Domain != "" && slices.Contains(ch.Domains, topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain}) {
						touched[k] = true
					}
				}
			}
		}
		what, reason := "failed", ReleaseNodeFailure
		if !ch.Failed {
			what, reason = "moved to another domain", ReleaseNodeMoved
		}
		for _, k := range slices.SortedFunc(maps.Keys(touched), compareKeys) {
			acts.merge(s.releaseLocked(k, reason, fmt.Sprintf("node %s of the reservation of %s %s", name, k, what)))
		}
	}
	// A changed domain may now take a workload that was rejected there.
	rejecting := fd.rejectingLocked()
	for _, d := range ch.Domains {
		for _, w := range rejecting {
			delete(w.rejected, d)
		}
	}
	// Any change to a node (a taint removed, a label fixed) may be what
	// rejected the workload's pods in the domains it is in.
	fd.clearRejectedLocked(name)
	s.bumpLocked()
	if !ch.Failed || grew {
		acts.merge(s.freedLocked())
	}
	return acts
}

// NodeFacts copies, under one read lock, what the index holds about node
// for pod: the inputs of the Filter rule (placement.NodeFacts.Allows),
// which reads them alone. The state answers what is there, never whether
// the pod may go.
func (s *State) NodeFacts(pod *corev1.Pod, node string) placement.NodeFacts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.pods.get(pod.UID)
	if p == nil {
		p = s.derivePod(pod, nil)
	}
	f := placement.NodeFacts{Request: p.Request}
	// The node's labels, read once: the domains it lies in
	// (topology.Index.DomainOf) for every key below.
	var labels map[string]string
	if n := s.nodes.Node(node); n != nil {
		labels = n.Labels()
	}
	var self workload.Key
	gang := p.Gang && p.MemberErr == nil && s.registry.apis[p.Member.Key.Source] == APIServed
	if gang {
		self = p.Member.Key
	}
	if ref, ok := s.reservations.room.nodeReserved[node]; ok && !(gang && ref.key == self && ref.slice == p.Member.Slice) {
		sr := s.reservations.of(ref.key).Slices[ref.slice]
		f.Reserved = placement.ReservedSlice{Key: ref.key, Slice: ref.slice, DomainKey: sr.DomainKey, Domain: sr.Domain}
	}
	if k, ok := s.applier.claimedForOther(node, self, gang); ok {
		f.Claim = placement.NodeClaim{By: k, Kind: placement.PreemptionClaim}
		if c := s.claims.of(k); c != nil && c.migration {
			f.Claim.Kind = placement.MigrationClaim
		} else if c != nil && c.restart {
			f.Claim.Kind = placement.RestartClaim
		}
	}
	for k, o := range s.reservations.room.outstanding[node] {
		if gang && k == self {
			continue
		}
		if f.Outstanding == nil {
			f.Outstanding = map[workload.Key]workload.Resources{}
		}
		f.Outstanding[k] = maps.Clone(o)
	}
	var w *Workload
	if gang {
		w = s.workloads.of(self)
	}
	if w != nil && w.model != nil {
		// Pods of a deleted object of the same name are another holder.
		f.Own = workload.Holder{Key: self, UID: p.Member.OwnerUID}
		if f.Own.UID == "" {
			f.Own.UID = w.model.UID
		}
	}
	for key := range s.domainHolders.heldKeys {
		if v, ok := labels[key]; ok && key != "" {
			ref := topology.DomainRef{Key: key, Value: v}
			if holders := s.domainHolders.domainHeld[ref]; len(holders) > 0 {
				d := placement.HeldDomain{Ref: ref}
				for h := range holders {
					d.Holders.Add(h)
				}
				f.Held.Add(d)
			}
		}
	}
	if !gang {
		return f
	}
	if r := s.reservations.of(self); r != nil && r.Attempt == p.Member.RestartAttempt {
		if sr := r.Slices[p.Member.Slice]; sr != nil {
			f.Bounds, f.Labels = sr.Bounds(), labels
		}
	}
	if w != nil && w.confines(p.Member.Slice) {
		key := w.model.Slices[p.Member.Slice].DomainKey
		c := placement.ConfinedDomain{Key: key}
		c.Value, c.Labelled = labels[key]
		if c.Labelled = c.Labelled && key != ""; c.Labelled {
			nodes := s.nodes.NodesOf(topology.DomainRef{Key: key, Value: c.Value})
			if len(nodes) == 0 {
				nodes = []string{node}
			}
			for _, n := range nodes {
				for h := range s.domainHolders.nodeHolders[n] {
					placement.AddNew(&c.Holders, h)
				}
			}
		}
		f.Confined = c
	}
	return f
}

// RecordBlocked remembers a plain pod a reservation kept off a node, to
// try it again when reservations end.
func (s *State) RecordBlocked(pod *corev1.Pod) { s.blocked.record(pod) }

// Rejection is what PostFilter decided of a pod no node fits
// (Decision.Rejected): one of its fields is set.
type Rejection struct {
	// Unschedulable is why another plugin's PreFilter rejected a gang
	// member before this scheduler's plan saw it.
	Unschedulable string
	// Reserved is why the scheduler's other filters rejected every node
	// the pod's reservation gave it.
	Reserved string
	// Alone is why a queued plain pod admitted on quota alone fits no
	// node.
	Alone string
}

// applyRejectionLocked writes what PostFilter decided of pod uid, if it
// still applies (it refuses what moved: the pod gone, placed or of
// another attempt than its workload's reservation, the reservation
// committed or gone):
//
//   - Unschedulable: no reservation can complete the gang while that
//     lasts. An uncommitted reservation is released at once, its quota
//     and domains with it (its reserved members are rejected), rather
//     than held until the permit timeout; and the pod becomes the head
//     the gang plans through, so the gang plans again only once that pod
//     passes those filters. A committed reservation keeps the pod's room:
//     its other members are bound or binding.
//   - Reserved: the scheduler's other filters (JobSet's anti-affinity,
//     host ports, volume topology…) rejected the nodes the reservation
//     gave the pod. The domain is kept out of the workload's plans for a
//     while, and the reservation is released so the workload plans
//     elsewhere at once instead of timing out into the same domain again.
//   - Alone: the quota a queued plain pod's reservation took is given
//     back, unless a pod was reserved under it.
func (ap applier) applyRejectionLocked(uid types.UID, rej *Rejection) Actions {
	s := ap.s
	p := s.pods.get(uid)
	if p == nil || !p.Gang || p.MemberErr != nil {
		return Actions{}
	}
	w, r := s.workloads.of(p.Member.Key), s.reservations.of(p.Member.Key)
	switch {
	case rej.Alone != "":
		if p.Member.Key.Source != workload.SourcePod || r == nil || len(r.Reserved) > 0 {
			return Actions{}
		}
		return s.releaseLocked(p.Member.Key, ReleaseMemberFail, rej.Alone)
	case rej.Unschedulable != "":
		if p.Node != "" || !p.Live() || w == nil || w.model == nil || !w.current(p) || w.placedWhole() || (r != nil && r.Committed) {
			return Actions{}
		}
		msg := fmt.Sprintf("pod %s/%s cannot be scheduled (%s); the gang waits for it, holding no quota or domains", p.Namespace, p.Name, rej.Unschedulable)
		passed := wakePasses(w)
		ref := p.Ref()
		first := w.blockedBy == nil || w.blockedBy.UID != p.UID
		w.blockedBy = &ref
		s.queued.setProblem(w, &quota.Problem{Reason: ReasonMemberUnschedulable, Message: msg})
		var acts Actions
		if r != nil {
			acts = s.releaseLocked(w.key, ReleaseMemberFail, msg)
		}
		s.headLocked(w)
		if first || r != nil {
			acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: true, Reason: ReasonMemberUnschedulable, Message: msg})
		}
		acts.merge(wakeIfPassedLocked(w, passed))
		return acts
	case rej.Reserved == "" || r == nil || w == nil || r.Attempt != p.Member.RestartAttempt:
		return Actions{}
	}
	reason := rej.Reserved
	sr := r.Slices[p.Member.Slice]
	if sr == nil {
		return Actions{}
	}
	if w.rejected == nil {
		w.rejected = map[topology.DomainRef]rejection{}
	}
	s.rejecting[w.key] = w
	now := s.opts.Clock.Now()
	why := placement.RejectedPrefix + reason
	if sr.Domain != "" {
		w.rejected[topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain}] = rejection{reason: why, at: now}
	} else {
		for _, slot := range sr.Slots {
			if slot.Count > 0 {
				w.rejected[topology.DomainRef{Value: slot.Node}] = rejection{reason: why, at: now}
			}
		}
	}
	where := sr.Domain
	if where == "" {
		where = "its planned nodes"
	}
	acts := s.releaseLocked(p.Member.Key, ReleaseRejected, fmt.Sprintf("pod %s/%s fits no node of %s: %s", p.Namespace, p.Name, where, reason))
	acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: true, Reason: "DomainRejected",
		Message: fmt.Sprintf("pods of slice %d were rejected on %s (%s); planning elsewhere", p.Member.Slice, describeDomain(sr), reason)})
	return acts
}

func describeDomain(sr *SliceReservation) string {
	if sr.Domain == "" {
		return "their planned nodes"
	}
	return wellknown.ShortLabel(sr.DomainKey) + "=" + sr.Domain
}

// ReasonMemberUnschedulable: a member of the gang cannot be scheduled for
// a reason the plan cannot see (another plugin rejected it); the gang
// waits for it, holding nothing.
const ReasonMemberUnschedulable = "MemberUnschedulable"

// PlanFailed records that the workload could not be planned at this
// generation; its other members reuse the answer instead of planning again
// until something changes.
func (s *State) PlanFailed(pod *corev1.Pod, gen uint64, f *placement.Failure) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.applier.planFailedLocked(pod.UID, gen, f)
}

// planFailedLocked records f as the failure of the workload of pod uid.
// When that makes quota wakes pass the workload by (wakePasses), its
// queue is woken: a wake may have counted the workload against the quota
// it now leaves unused.
func (ap applier) planFailedLocked(uid types.UID, gen uint64, f *placement.Failure) Actions {
	s := ap.s
	p := s.pods.get(uid)
	if p == nil || !p.Gang {
		return Actions{}
	}
	w := s.workloads.of(p.Member.Key)
	if w == nil {
		return Actions{}
	}
	passed := wakePasses(w)
	ref := p.Ref()
	s.queued.setHead(w, &ref)
	w.failure, w.failGen = f, gen
	if f.Reason == quota.ReasonQuotaExceeded {
		w.markWaitingForQuota(s.opts.Clock.Now())
	}
	if f.Reason != "" || s.queues.awaitingAdmissionLocked(w) {
		// Quota would fit when the planner failed: the domains do not,
		// for now or for good. The Workload's condition gives the reason
		// its event does.
		s.queued.setProblem(w, &quota.Problem{Reason: FailureReason(f), Message: f.Message, Config: f.Unresolvable})
	}
	ap.observeWaitingLocked()
	return wakeIfPassedLocked(w, passed)
}

// wakeIfPassedLocked wakes the queue w waits in when quota wakes pass w by
// now (wakePasses) and did not before (passed): what a wake counted w
// for goes to the workloads behind it.
func wakeIfPassedLocked(w *Workload, passed bool) Actions {
	if passed || w.queuedIn == "" || !wakePasses(w) {
		return Actions{}
	}
	return Actions{Wake: []string{w.queuedIn}}
}

// WaitsForCapacity reports whether the pod is its waiting workload's head
// and the workload waits for room, not for its queue: capacity freed is
// worth retrying it for; quota released wakes the others itself.
func (s *State) WaitsForCapacity(pod *corev1.Pod) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w := s.queued.headOf(pod.UID)
	return w != nil && !s.queues.quotaGatedLocked(w)
}

func (ap applier) observeWaitingLocked() {
	s := ap.s
	unplaceable, waiting := 0, 0
	for w := range s.workloads.all() {
		if w.failure == nil || s.reservations.of(w.key) != nil {
			continue
		}
		if w.failure.Unresolvable {
			unplaceable++
		} else {
			waiting++
		}
	}
	s.opts.Observer.GangsWaiting(unplaceable, waiting)
}

// VictimCycle is what deciding whether a preemptor may take victims
// from a node reads: which victims are members of gangs, the slice the
// node is reserved for, and the preemptor's own slice.
type VictimCycle struct {
	// GangVictim: a victim is a member of a gang, which only whole
	// workloads' preemption may evict.
	GangVictim bool
	// Reserved: the node lies in a domain reserved for slice ReservedSlice
	// of ReservedFor.
	Reserved      bool
	ReservedFor   workload.Key
	ReservedSlice int
	// Gang: the preemptor is a gang member, of slice Slice of Key.
	Gang  bool
	Key   workload.Key
	Slice int
}

// Victims copies, under one lock, what deciding whether preemptor may
// evict victims from node reads (node "": no node is asked of).
func (s *State) Victims(preemptor *corev1.Pod, victims []*corev1.Pod, node string) VictimCycle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	var c VictimCycle
	for _, v := range victims {
		if p := s.pods.get(v.UID); p != nil && p.Gang {
			c.GangVictim = true
			break
		}
	}
	if ref, ok := s.reservations.room.nodeReserved[node]; ok && node != "" {
		c.Reserved, c.ReservedFor, c.ReservedSlice = true, ref.key, ref.slice
	}
	if p := s.pods.get(preemptor.UID); p != nil && p.Gang {
		c.Gang, c.Key, c.Slice = true, p.Member.Key, p.Member.Slice
	}
	return c
}

// Bounds are what every node of the slice's pods must carry: its domain
// and its flavors' labels (see placement.SliceBounds.Excludes).
func (sr *SliceReservation) Bounds() placement.SliceBounds {
	return placement.SliceBounds{DomainKey: sr.DomainKey, Domain: sr.Domain, NodeLabels: sr.NodeLabels}
}

// excludedLocked says why node, as the state has it, may not take a pod of
// the reserved slice sr ("" when it may): placement.SliceBounds.Excludes,
// the one rule for a node that leaves a reserved domain, which Filter,
// Reserve and Permit ask here (a commit and the gate ask it of the nodes
// they check). A node the state does not hold carries no label.
func (ap applier) excludedLocked(sr *SliceReservation, node string) string {
	s := ap.s
	var labels map[string]string
	if n := s.nodes.Node(node); n != nil {
		labels = n.Labels()
	}
	return sr.Bounds().Excludes(labels)
}

// nodesCarryingLocked lists, sorted, the nodes that carry every label of
// labels. The list is cached until a node changes: callers must not modify
// it.
func (cp copier) nodesCarryingLocked(labels map[string]string) []string {
	s := cp.s
	key := labelsKey(labels)
	if names, ok := s.carrying[key]; ok {
		return names
	}
	names := []string{}
	for _, name := range s.nodes.AllNodes() {
		if quota.AdmitsNode(labels, s.nodes.Node(name).Labels()) {
			names = append(names, name)
		}
	}
	s.carrying[key] = names
	return names
}

// labelsKey identifies a set of labels.
func labelsKey(labels map[string]string) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(labels)) {
		b.WriteString(k)
		b.WriteByte('=')
		b.WriteString(labels[k])
		b.WriteByte(',')
	}
	return b.String()
}

// sharedByMoveLocked tells the workloads concerned when a node moved, with
// confined pods on it, into a domain another workload's confined slice
// holds: the labels put two workloads in one domain, which the scheduler
// never does and cannot undo (the pods run). Both get a Warning: whoever
// relabelled the node must move one of them, or the node back.
func (fd Feed) sharedByMoveLocked(node string) Actions {
	s := fd.s
	var acts Actions
	told := map[workload.Holder]bool{}
	for p := range s.pods.on(node) {
		// A pod assumed on the node is not running there yet: its bind
		// may still fail, and the reservation's bounds keep it off the
		// node if so (placement.SliceBounds.Excludes).
		if p.holds == nil || p.Assumed || told[*p.holds] {
			continue
		}
		other, ref, ok := s.domainHolders.domainHolderLocked(node, p.holds)
		if !ok {
			continue
		}
		told[*p.holds] = true
		where := wellknown.ShortLabel(ref.Key) + "=" + ref.Value
		msg := fmt.Sprintf("node %s, running pods of %s, was relabelled into %s, which %s holds: the two workloads now share that domain; move one of them, or the node back", node, p.holds.Key, where, other.Key)
		for _, k := range []workload.Key{p.holds.Key, other.Key} {
			if w := s.workloads.of(k); w != nil {
				acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: true, Reason: ReasonDomainShared, Message: msg})
			}
		}
	}
	return acts
}

// ReasonDomainShared: a node relabelled under running pods put two
// workloads' confined slices in one domain.
const ReasonDomainShared = "DomainShared"
