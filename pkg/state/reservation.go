package state

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// ReleaseReason says why a reservation ended before its workload settled.
type ReleaseReason string

const (
	ReleaseTimeout     ReleaseReason = "timeout"
	ReleaseRestart     ReleaseReason = "restart"
	ReleaseNodeFailure ReleaseReason = "node_failure"
	ReleaseDeleted     ReleaseReason = "deletion"
	ReleasePreemption  ReleaseReason = "preemption"
	ReleaseMemberFail  ReleaseReason = "member_failed"
	ReleaseRejected    ReleaseReason = "rejected_by_filters"
	ReleaseNodeMoved   ReleaseReason = "node_moved"
	ReleaseStale       ReleaseReason = "stale_at_commit"
)

// Reservation holds, for one attempt of a workload, a domain for every
// confined slice of its gang and room on nodes for every pod it still has to
// place, until the workload is placed, released, or times out.
type Reservation struct {
	// ID tells reservations of one workload apart: an Unreserve from an
	// older one must not release a newer one.
	ID      uint64
	Holder  workload.Holder
	Attempt int32
	Slices  map[int]*SliceReservation
	// Staged is JobSet's leaders-first placement: the gate is every leader.
	Staged bool
	// Deadline is the gate deadline before commit, the follower deadline after.
	Deadline        time.Time
	Committed       bool
	FollowerTimeout time.Duration
	// Reserved maps pods that passed Reserve to where they took room.
	Reserved map[types.UID]ReservedPod
	// reserves counts the pods reserved so far: each one's Order.
	reserves int
	// Charge admits the workload through its queue along with the
	// reservation (nil: not quota-managed, or admitted already).
	Charge *quota.Charge
	// record is how far the admission's record on the Workload object
	// has come.
	record recordPhase
}

// recordPhase is how far a reservation's admission record has come.
type recordPhase int

const (
	// recordNotStarted: the gate has not passed yet.
	recordNotStarted recordPhase = iota
	// recordWriting: the gate passed; the admission is being written on
	// the Workload object, and the members wait in Permit.
	recordWriting
	// recordWritten: the Workload object records the admission.
	recordWritten
)

// SliceReservation is where one slice goes.
type SliceReservation struct {
	// DomainKey and Domain name the confined domain ("" when unconfined).
	DomainKey, Domain string
	// Slots is the room still planned for the slice's pods, per node and
	// shape; Shapes lists each shape's request.
	Slots  []placement.Slot
	Shapes []ShapeRequest
	// NodeLabels, when set, are labels every node of the slice's pods must
	// carry: those of the flavors it is charged to, for slices the
	// scheduler's own filters place (a queued plain pod), and of the
	// topology domain a topology slice was placed in.
	NodeLabels map[string]string
	// Ranks, for a slice placed by topology whole, is the node of each
	// completion index, in index order (the placement's rank order): pod
	// i goes to Ranks[i] while its slot there has room, so consecutive
	// pods share a host, then the level above. Never modified once
	// planned.
	Ranks []string
}

// ShapeRequest is the request of one shape of a slice's pods.
type ShapeRequest struct {
	Sig     string
	Request workload.Resources
}

// ReservedPod is where a reserved pod took room.
type ReservedPod struct {
	Slice int
	Node  string
	// Shape is the slot's shape, -1 when the pod took no slot.
	Shape int
	// Order is the number of pods reserved under the reservation before
	// this one. Permit lets waiting members through in this order: a
	// gang's binds start together, and the member that has waited longest
	// should not be the one sent last.
	Order int
}

// commitLocked records a reservation decided on a snapshot (Apply's
// Decision.Reserve). It fails when the state moved under the decision in
// a way that invalidates it (a domain it chose was taken meanwhile).
func (ap applier) commitLocked(r *Reservation, permitTimeout time.Duration) (uint64, Actions, error) {
	s := ap.s
	key := r.Holder.Key
	if old := s.reservations.of(key); old != nil {
		return 0, Actions{}, fmt.Errorf("%s already holds a reservation", key)
	}
	for _, sr := range r.Slices {
		if sr.Domain == "" {
			continue
		}
		for _, n := range s.nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain}) {
			if ref, ok := s.reservations.room.nodeReserved[n]; ok && ref.key != key {
				return 0, Actions{}, fmt.Errorf("%s=%s was reserved for %s meanwhile", sr.DomainKey, sr.Domain, ref.key)
			}
			if k, ok := ap.claimedForOther(n, key, true); ok {
				return 0, Actions{}, fmt.Errorf("%s=%s was kept for %s meanwhile", sr.DomainKey, sr.Domain, k)
			}
			if h, ok := s.domainHolders.blockingOn(n, &r.Holder); ok {
				return 0, Actions{}, fmt.Errorf("%s=%s was taken by %s (uid %s) meanwhile", sr.DomainKey, sr.Domain, h.Key, h.UID)
			}
		}
	}
	if err := ap.slotsStillFitLocked(r); err != nil {
		return 0, Actions{}, err
	}
	w := s.workloads.of(key)
	if r.Charge != nil {
		if w == nil {
			return 0, Actions{}, fmt.Errorf("%s is gone", key)
		}
		if s.book.ChargeOf(key) != nil {
			return 0, Actions{}, fmt.Errorf("%s was admitted meanwhile", key)
		}
		if err := ap.chargeLocked(w, r.Charge); err != nil {
			return 0, Actions{}, err
		}
	}
	s.claims.drop(key)
	s.nextID++
	r.ID = s.nextID
	r.Deadline = s.opts.Clock.Now().Add(permitTimeout)
	r.Reserved = map[types.UID]ReservedPod{}
	s.reservations.put(key, r)
	if w != nil {
		s.queues.trackQueuedLocked(w)
	}
	for i, sr := range r.Slices {
		if sr.Domain != "" {
			nodes := s.nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})
			s.reservations.room.reserveDomain(nodes, sliceRef{key: key, slice: i})
			s.claims.takeRestartNodes(key, nodes)
		}
		for _, slot := range sr.Slots {
			s.reservations.room.add(slot.Node, key, sr.Shapes[slot.Shape].Request, int64(slot.Count))
			s.claims.takeRestartNodes(key, []string{slot.Node})
		}
	}
	var acts Actions
	if w != nil {
		s.queued.setHead(w, nil)
		w.blockedBy = nil
		w.failure = nil
		// Members rejected while the workload waited come back now.
		acts.Activate = s.pendingLocked(w)
		if cq := s.book.ClusterQueue(chargedTo(r)); cq != nil && cq.Strategy == quota.StrictFIFO {
			// The next workload of a strict queue may go now; under
			// BestEffortFIFO what fits was woken with this one when quota
			// was released (admission.Wake).
			acts.Wake = append(acts.Wake, cq.Name)
		}
	}
	s.opts.Observer.ReservationsActive(s.reservations.count())
	return r.ID, acts, nil
}

// slotsStillFitLocked checks the nodes a reservation plans room on
// against the live state: each still exists, still lies in its slice's
// domain and carries its flavors' labels (a node relabelled or removed
// after the snapshot was taken), and what the plan puts there beside what
// other reservations planned there since does not exceed what it has.
func (ap applier) slotsStillFitLocked(r *Reservation) error {
	s := ap.s
	planned := map[string]workload.Resources{}
	for i, sr := range r.Slices {
		for _, slot := range sr.Slots {
			n := s.nodes.Node(slot.Node)
			if n == nil {
				return fmt.Errorf("node %s, planned for slice %d, was removed meanwhile", slot.Node, i)
			}
			if why := sr.Bounds().Excludes(n.Labels()); why != "" {
				return fmt.Errorf("node %s, planned for slice %d, was relabelled meanwhile: %s", slot.Node, i, why)
			}
			if slot.Shape < len(sr.Shapes) {
				add := planned[slot.Node]
				if add == nil {
					add = workload.Resources{}
					planned[slot.Node] = add
				}
				add.AddScaled(sr.Shapes[slot.Shape].Request, int64(slot.Count))
			}
		}
	}
	// planned is this call's own: each node's total adds up in it.
	for node, total := range planned {
		total.AddScaled(s.reservations.room.othersOn(node, r.Holder.Key), 1)
		alloc := s.nodes.Node(node).Allocatable
		for name, v := range total {
			if v > alloc[name] {
				return fmt.Errorf("node %s has no room left for what was planned there: other reservations took it meanwhile", node)
			}
		}
	}
	return nil
}

// MemberNodes returns the nodes a gang pod may use under its workload's
// reservation: those with room planned for a pod of its shape in its slice
// (any node of the slice's domain when the plan has no slot of its shape).
// ok is false when the workload holds no reservation covering the pod.
func (rp Reports) MemberNodes(pod *corev1.Pod) (nodes sets.Set[string], ok bool) {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.podLocked(pod)
	if !p.Gang || p.MemberErr != nil {
		return nil, false
	}
	r := s.reservations.of(p.Member.Key)
	if r == nil || r.Attempt != p.Member.RestartAttempt {
		return nil, false
	}
	sr := r.Slices[p.Member.Slice]
	if sr == nil {
		return nil, false
	}
	nodes = sets.New[string]()
	for _, slot := range sr.Slots {
		if slot.Count > 0 && sr.Shapes[slot.Shape].Sig == p.RequestSig {
			nodes.Insert(slot.Node)
		}
	}
	if nodes.Len() == 0 && sr.Domain != "" {
		nodes.Insert(s.nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})...)
	}
	return nodes, true
}

// heldDomainNodesLocked returns, for p, a member of w, a workload that
// already runs whole, the nodes of its slice's domain, or for an
// unconfined slice of an atomic workload those under the workload's value
// of its atomic key (nil when the slice is unconfined otherwise, or holds
// no domain yet), sorted (shared: read-only).
func (cp copier) heldDomainNodesLocked(p *Pod, w *Workload) []string {
	s := cp.s
	if w.model == nil || p.Member.Slice >= len(w.model.Slices) {
		return nil
	}
	key := w.model.Slices[p.Member.Slice].DomainKey
	sameSlice := true
	if key == "" {
		// An unconfined slice of an atomic workload stays where the
		// workload runs: under the value its placed pods share.
		if key = cp.atomicKeyLocked(w); key == "" {
			return nil
		}
		sameSlice = false
	}
	s.nodes.Track(key)
	for _, m := range w.members {
		if m.Node != "" && m.Live() && w.current(m) && (m.Member.Slice == p.Member.Slice || !sameSlice) {
			if v, ok := s.nodes.DomainOf(m.Node, key); ok {
				return s.nodes.NodesOf(topology.DomainRef{Key: key, Value: v})
			}
		}
	}
	return nil
}

// settleLocked drops a committed reservation once every pod of its slices
// is bound: from then on the bound pods themselves hold the domains.
func (fd Feed) settleLocked(key workload.Key) Actions {
	s := fd.s
	r := s.reservations.of(key)
	w := s.workloads.of(key)
	if r == nil || !r.Committed || w == nil || w.model == nil || r.Attempt != w.model.RestartAttempt {
		return Actions{}
	}
	for i := range r.Slices {
		if i >= len(w.slices) || w.slices[i].bound < w.model.Slices[i].Pods {
			return Actions{}
		}
	}
	s.dropReservationLocked(key, r)
	w.ranAttempt = r.Attempt + 1
	w.ranDomains = w.ranDomains[:0]
	for _, sr := range r.Slices {
		if sr.Domain != "" {
			w.ranDomains = append(w.ranDomains, topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})
		}
	}
	w.placedAt = s.opts.Clock.Now()
	w.checkPlacedLocked()
	w.runExpired = time.Time{}
	if !w.firstPending.IsZero() {
		s.opts.Observer.GangPlaced(s.opts.Clock.Now().Sub(w.firstPending))
		w.firstPending = time.Time{}
	}
	// Plain pods kept out of the reserved domains may now fill their gaps.
	return Actions{Activate: s.blocked.take()}
}

func (s *State) dropReservationLocked(key workload.Key, r *Reservation) {
	s.reservations.drop(key, r)
	s.opts.Observer.ReservationsActive(s.reservations.count())
}

// releaseLocked ends key's reservation early: waiting members are rejected,
// and whatever waited for the room it held is tried again.
func (s *State) releaseLocked(key workload.Key, reason ReleaseReason, msg string) Actions {
	r := s.reservations.of(key)
	if r == nil {
		return Actions{}
	}
	s.dropReservationLocked(key, r)
	s.opts.Observer.ReservationReleased(reason)
	s.bumpLocked()
	acts := Actions{Reason: msg}
	if !r.Committed {
		for uid := range r.Reserved {
			acts.Reject = append(acts.Reject, uid)
		}
		slices.Sort(acts.Reject)
	}
	if w := s.workloads.of(key); w != nil {
		if reason != ReleaseDeleted {
			// The workload itself plans again, through its head.
			s.queued.setHead(w, nil)
			s.headLocked(w)
		}
		acts.merge(s.settleQuotaLocked(w))
		s.queues.trackQueuedLocked(w)
	}
	acts.merge(s.freedLocked())
	acts.Activate = append(acts.Activate, s.blocked.take()...)
	return acts
}

// Expire releases reservations past their deadline: uncommitted ones whose
// gate never passed, and committed ones whose followers never came.
func (up Upkeep) Expire() Actions {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Clock.Now()
	var acts Actions
	if ended, released := up.expireClaimsLocked(now); ended {
		acts.merge(released)
		acts.merge(s.freedLocked())
	}
	acts.merge(up.expireChecksLocked(now))
	acts.merge(up.expireRunsLocked(now))
	for _, key := range s.reservations.keys() {
		if r := s.reservations.of(key); now.After(r.Deadline) {
			why := "its pods were not all reserved in time"
			if r.Committed {
				why = "its followers did not appear in time"
			}
			acts.merge(s.releaseLocked(key, ReleaseTimeout, fmt.Sprintf("the reservation of %s expired: %s", key, why)))
		}
	}
	return acts
}

func compareKeys(a, b workload.Key) int { return a.Compare(b) }

// DescribePlacement renders a reservation for users: each slice on its
// whole domain, each slice placed by topology in the domain that holds it
// (its node labels), and the pods of the others in a count.
func DescribePlacement(w *workload.Workload, r *Reservation) string {
	idx := slices.Sorted(maps.Keys(r.Slices))
	var parts []string
	unconfined, pods := 0, 0
	for _, i := range idx {
		sr := r.Slices[i]
		name := fmt.Sprint(i)
		var topology *workload.TopologyRequest
		if i < len(w.Slices) {
			name, topology = w.Slices[i].Name, w.Slices[i].Topology
		}
		switch {
		case sr.Domain != "":
			parts = append(parts, fmt.Sprintf("slice %d (%s) on %s=%s", i, name, wellknown.ShortLabel(sr.DomainKey), sr.Domain))
		case topology != nil && len(sr.NodeLabels) > 0:
			var in []string
			for _, k := range slices.Sorted(maps.Keys(sr.NodeLabels)) {
				in = append(in, wellknown.ShortLabel(k)+"="+sr.NodeLabels[k])
			}
			parts = append(parts, fmt.Sprintf("slice %d (%s) in %s", i, name, strings.Join(in, ",")))
		default:
			unconfined++
			if i < len(w.Slices) {
				pods += w.Slices[i].Pods
			}
		}
	}
	if unconfined > 0 {
		what := fmt.Sprintf("%d unconfined slices", unconfined)
		if unconfined == 1 {
			what = "1 unconfined slice"
		}
		parts = append(parts, fmt.Sprintf("%d pods of %s", pods, what))
	}
	return "reserved " + strings.Join(parts, ", ")
}

// chargedTo names the ClusterQueue a reservation charges ("" for none).
func chargedTo(r *Reservation) string {
	if r.Charge == nil {
		return ""
	}
	return r.Charge.ClusterQueue
}

// PlansOn reports whether the reservation of pod's workload planned room on
// node, or reserved the confined domain node is in: a node the plan used
// that the scheduler's cache did not hold yet is worth the pod's retry when
// it arrives there.
func (s *State) PlansOn(pod *corev1.Pod, node string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.pods.get(pod.UID)
	if p == nil || !p.Gang || p.MemberErr != nil {
		return false
	}
	return s.reservations.room.plansOn(node, p.Member.Key)
}
