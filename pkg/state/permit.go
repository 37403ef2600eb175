package state

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A committed reservation's pods go through Reserve, which takes their room
// from the plan, and wait in Permit until the gang's gate passes: every
// required member reserved (and, where admissions are recorded, the
// admission written). Unreserve gives a pod's room back.

// Reserve records that pod is assumed on node and takes its room from the
// workload's reservation. It returns the reservation's ID (0 for none).
func (s *State) Reserve(pod *corev1.Pod, node string) uint64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	old := s.pods.get(pod.UID)
	if old == nil {
		s.Feed().upsertPodLocked(pod)
		old = s.pods.get(pod.UID)
	}
	held := old.holds
	s.unindexLocked(old)
	p := *old
	p.Node, p.Assumed = node, true
	s.indexLocked(&p)
	if held != nil && !holdsAgain(old, &p, held) {
		s.bumpLocked()
	}
	if !p.Gang || p.MemberErr != nil {
		return 0
	}
	r := s.reservations.of(p.Member.Key)
	if r == nil || r.Attempt != p.Member.RestartAttempt {
		return 0
	}
	sr := r.Slices[p.Member.Slice]
	if sr == nil || s.applier.excludedLocked(sr, node) != "" {
		// The node left the slice's bounds: no room here; Permit rejects.
		return 0
	}
	rp := ReservedPod{Slice: p.Member.Slice, Node: node, Shape: -1, Order: r.reserves}
	r.reserves++
	for i := range sr.Slots {
		slot := &sr.Slots[i]
		if slot.Node == node && slot.Count > 0 && sr.Shapes[slot.Shape].Sig == p.RequestSig {
			slot.Count--
			rp.Shape = slot.Shape
			s.reservations.room.add(node, r.Holder.Key, sr.Shapes[slot.Shape].Request, -1)
			break
		}
	}
	r.Reserved[pod.UID] = rp
	return r.ID
}

// Unreserve undoes Reserve. Before its gate passes a workload is all or
// nothing: one member failing releases the reservation it was reserved
// under (id), and every other waiting member is rejected. A late Unreserve
// for an older reservation releases nothing.
func (s *State) Unreserve(pod *corev1.Pod, id uint64) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.pods.get(pod.UID)
	if p == nil {
		return Actions{}
	}
	if p.Assumed {
		s.unindexLocked(p)
		np := *p
		np.Node, np.Assumed = "", false
		s.indexLocked(&np)
		p = &np
		s.bumpLocked()
	}
	if !p.Gang || p.MemberErr != nil {
		return Actions{}
	}
	var acts Actions
	if r := s.reservations.of(p.Member.Key); r != nil && id != 0 && r.ID == id {
		if _, in := r.Reserved[pod.UID]; in {
			s.reservations.room.giveBack(r, pod.UID)
			if !r.Committed {
				acts = s.releaseLocked(p.Member.Key, ReleaseMemberFail, fmt.Sprintf("pod %s/%s of the gang could not be placed", pod.Namespace, pod.Name))
			}
		}
	}
	if w := s.workloads.of(p.Member.Key); w != nil {
		// The pod left its node: a workload whose reservation ended while
		// its members were still assumed (rejected after a timeout) holds
		// its quota only until the last of them is unreserved.
		acts.merge(s.settleQuotaLocked(w))
	}
	return acts
}

// PermitResult is what a gang's gate opening, or its reservation found
// stale when it would, tells the scheduler (Applied.Permit,
// Upkeep.AdmissionRecorded), and the Permit answer for a pod (package
// admission fills Allow, Wait and Message from its decision).
type PermitResult struct {
	// Allow lets the pod bind now; with Wait zero and Allow false the pod
	// is rejected (its reservation is gone).
	Allow bool
	Wait  time.Duration
	// AllowWaiting lists the waiting members to let through with this pod.
	AllowWaiting []types.UID
	// Committed describes the placement when this pod completed the gate
	// ("" for a queued plain pod: see commitGateLocked).
	Committed string
	Message   string
	Ref       corev1.ObjectReference
	// Actions are what the scheduler must do besides: a reservation found
	// stale when its gate passed is released (its waiting members are
	// rejected, what it held is offered again).
	Actions Actions
	// Record, when set, is the ID of a reservation whose admission must
	// now be written on its Workload object (RecordAdmission); its
	// members wait until AdmissionRecorded lets them through. Key is the
	// workload's.
	Record uint64
	Key    workload.Key
}

// PermitCycle is what deciding a pod's Permit reads, copied under one
// lock (State.PermitCycle). Package admission decides on it alone; what it
// decides about the reservation is a PermitStep that State.Apply writes
// back.
type PermitCycle struct {
	Now time.Time
	Ref corev1.ObjectReference
	// Gang: the pod is a well-formed member of a gang whose API is served
	// and whose workload is observed, valid and a gang (false: it binds as
	// any pod does). Key is its workload's.
	Gang bool
	Key  workload.Key
	// BoundWhole: every pod of the workload's active slices is bound (it
	// runs whole; further members join it without a reservation).
	BoundWhole bool
	// Reservation is a copy of the facts of the workload's reservation
	// the gate reads (nil: it holds none).
	Reservation *PermitReservation
}

// PermitReservation is what the gate reads of a reservation.
type PermitReservation struct {
	ID uint64
	// OtherAttempt: it was made for another restart attempt of the
	// workload than the current one.
	OtherAttempt bool
	Committed    bool
	// Staged: the gate is every leader (JobSet's leaders-first placement).
	Staged   bool
	Deadline time.Time
	// Node is the pod's node ("" none) and Slice its slice; InSlice says
	// the reservation reserved that slice, Bounds are then what the node
	// must carry and NodeLabels the labels the state holds for it (nil:
	// it holds no such node).
	Node       string
	Slice      int
	InSlice    bool
	Bounds     placement.SliceBounds
	NodeLabels map[string]string
	// Slices are, for each slice the reservation reserved, the pods the
	// workload asks of it and how many are placed; ShapeChanged says the
	// reservation has slices the workload no longer has.
	Slices       []PermitSlice
	ShapeChanged bool
	// RecordFirst: the admission is written on the Workload object before
	// any pod binds (see record.go).
	RecordFirst bool
}

// PermitSlice is what the gate counts of one reserved slice.
type PermitSlice struct {
	Pods, Placed int
}

// PermitStep is what a pod's Permit decided about its workload's
// reservation (Decision.Permit): exactly one of Release, Record or Commit.
type PermitStep struct {
	// Reservation is the ID of the reservation decided on; Apply refuses
	// the step once it is gone or replaced, or (Record, Commit) committed.
	Reservation uint64
	// Release, with Message, releases it: a node of it left its slice's
	// bounds.
	Release ReleaseReason
	Message string
	// Record: every required member is reserved and the admission must be
	// on the Workload object before any binds; Apply starts writing it
	// unless a member already did.
	Record bool
	// Commit: every required member is reserved; the gate passes and the
	// members may bind.
	Commit bool
	// Self is the pod whose Permit decided: let through by its own
	// answer, not listed among the waiting members.
	Self types.UID
}

// PermitCycle copies, under one lock, what deciding pod's Permit reads.
func (s *State) PermitCycle(pod *corev1.Pod) PermitCycle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := PermitCycle{Now: s.opts.Clock.Now()}
	p := s.podLocked(pod)
	if !p.Gang || p.MemberErr != nil || s.registry.apis[p.Member.Key.Source] != APIServed {
		return c
	}
	w := s.workloads.of(p.Member.Key)
	if w == nil || !w.observed || w.err != nil || w.model == nil {
		// Not a gang the state placed: the gate and PreFilter held or
		// refused its pod, or it is scheduled one by one.
		return c
	}
	c.Gang, c.Key, c.Ref = true, w.key, w.ref
	c.BoundWhole = w.boundWhole()
	r := s.reservations.of(w.key)
	if r == nil {
		return c
	}
	pr := &PermitReservation{
		ID: r.ID, OtherAttempt: r.Attempt != w.model.RestartAttempt, Committed: r.Committed,
		Staged: r.Staged, Deadline: r.Deadline, Node: p.Node, Slice: p.Member.Slice,
		RecordFirst: s.applier.recordFirstLocked(w, r),
	}
	if sr := r.Slices[p.Member.Slice]; sr != nil {
		pr.InSlice, pr.Bounds = true, sr.Bounds()
		if n := s.nodes.Node(p.Node); n != nil && p.Node != "" {
			pr.NodeLabels = n.Labels()
		}
	}
	for i := range r.Slices {
		if i >= len(w.model.Slices) {
			pr.ShapeChanged = true
			break
		}
		pr.Slices = append(pr.Slices, PermitSlice{Pods: w.model.Slices[i].Pods, Placed: w.slices[i].placed})
	}
	c.Reservation = pr
	return c
}

// applyPermitLocked writes back what a pod's Permit decided. It refuses
// the step (out.Refused) when the reservation moved under the decision;
// a reservation whose gate would pass but that no longer holds (see
// staleLocked) is released instead, and out.Permit says why.
func (ap applier) applyPermitLocked(key workload.Key, st *PermitStep, out *Applied) {
	s := ap.s
	r, w := s.reservations.of(key), s.workloads.of(key)
	if r == nil || w == nil || w.model == nil || r.ID != st.Reservation {
		out.Refused = fmt.Errorf("the reservation of %s moved while its gate was decided", key)
		return
	}
	if st.Release != "" {
		out.Actions.merge(s.releaseLocked(key, st.Release, st.Message))
		return
	}
	if r.Committed || r.Attempt != w.model.RestartAttempt {
		out.Refused = fmt.Errorf("the reservation of %s moved while its gate was decided", key)
		return
	}
	if why := ap.staleLocked(w, r); why != "" {
		msg := fmt.Sprintf("the reservation of %s no longer holds: %s", key, why)
		out.Actions.merge(s.releaseLocked(key, ReleaseStale, msg))
		out.Permit = &PermitResult{Message: msg, Ref: w.ref}
		return
	}
	if st.Record {
		res := &PermitResult{Ref: w.ref}
		if r.record == recordNotStarted {
			r.record = recordWriting
			res.Record, res.Key = r.ID, key
		}
		out.Permit = res
		return
	}
	res := ap.commitGateLocked(w, r, w.ref, st.Self)
	out.Permit = &res
}

// commitGateLocked commits a reservation whose gate passed: its members
// may bind. self is the member whose Permit passed it (let through by its
// own answer), "" when none is (every member waits).
func (ap applier) commitGateLocked(w *Workload, r *Reservation, ref corev1.ObjectReference, self types.UID) PermitResult {
	s := ap.s
	r.Committed = true
	r.Deadline = s.opts.Clock.Now().Add(r.FollowerTimeout)
	charge := r.Charge
	if charge == nil && w.check != nil && w.check.phase == checkReady {
		// Its quota was reserved before its capacity was provisioned.
		charge = s.book.ChargeOf(w.key)
	}
	if charge != nil {
		// Counted once every pod has a node: a charge given back because
		// no node fit (and taken again later) is not another admission.
		s.opts.Observer.WorkloadAdmitted(charge.ClusterQueue, s.opts.Clock.Now().Sub(w.model.Created))
	}
	res := PermitResult{Allow: true, Ref: ref}
	if w.key.Source != workload.SourcePod {
		// A queued plain pod's placement is the scheduler's own Scheduled
		// event on the pod: one event per pod is enough, for thousands.
		res.Committed = DescribePlacement(w.model, r)
	}
	for uid := range r.Reserved {
		if uid != self {
			res.AllowWaiting = append(res.AllowWaiting, uid)
		}
	}
	slices.SortFunc(res.AllowWaiting, func(a, b types.UID) int {
		return cmp.Compare(r.Reserved[a].Order, r.Reserved[b].Order)
	})
	return res
}

// staleLocked re-checks, when a workload's gate passes and before any of
// its pods may bind, every reserved pod's node against what the cluster is
// now: the node must still exist and be usable, lie in the domain its
// slice reserved, carry the flavor labels the slice was charged for, and
// be held by no other workload. Node labels can change at any time; what
// was true when the pods were reserved is not trusted. It returns why the
// reservation no longer holds ("" when it does).
func (ap applier) staleLocked(w *Workload, r *Reservation) string {
	s := ap.s
	own := r.Holder
	for _, rp := range r.Reserved {
		sr := r.Slices[rp.Slice]
		if sr == nil {
			continue
		}
		n := s.nodes.Node(rp.Node)
		switch {
		case n == nil:
			return fmt.Sprintf("node %s of slice %d is gone", rp.Node, rp.Slice)
		case !n.Usable:
			return fmt.Sprintf("node %s of slice %d is not usable", rp.Node, rp.Slice)
		}
		if why := sr.Bounds().Excludes(n.Labels()); why != "" {
			return fmt.Sprintf("%s (node %s of slice %d)", why, rp.Node, rp.Slice)
		}
		if sr.Domain == "" {
			continue
		}
		if h, ok := s.domainHolders.blockingOn(rp.Node, &own); ok {
			return fmt.Sprintf("node %s of slice %d is held by %s", rp.Node, rp.Slice, h.Key)
		}
	}
	return ""
}
