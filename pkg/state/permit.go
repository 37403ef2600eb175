package state

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

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
	old := s.pods[pod.UID]
	if old == nil {
		s.Feed().upsertPodLocked(pod)
		old = s.pods[pod.UID]
	}
	held := old.holds
	s.unindexLocked(old)
	p := *old
	p.Node, p.Assumed = node, true
	s.pods[pod.UID] = &p
	s.indexLocked(&p)
	if held != nil && !holdsAgain(old, &p, held) {
		s.bumpLocked()
	}
	if !p.Gang || p.MemberErr != nil {
		return 0
	}
	r := s.reservations[p.Member.Key]
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
			s.reservedRoom.add(node, r.Holder.Key, sr.Shapes[slot.Shape].Request, -1)
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
	p := s.pods[pod.UID]
	if p == nil {
		return Actions{}
	}
	if p.Assumed {
		s.unindexLocked(p)
		np := *p
		np.Node, np.Assumed = "", false
		s.pods[pod.UID] = &np
		s.indexLocked(&np)
		p = &np
		s.bumpLocked()
	}
	if !p.Gang || p.MemberErr != nil {
		return Actions{}
	}
	var acts Actions
	if r := s.reservations[p.Member.Key]; r != nil && id != 0 && r.ID == id {
		if _, in := r.Reserved[pod.UID]; in {
			s.reservedRoom.giveBack(r, pod.UID)
			if !r.Committed {
				acts = s.releaseLocked(p.Member.Key, ReleaseMemberFail, fmt.Sprintf("pod %s/%s of the gang could not be placed", pod.Namespace, pod.Name))
			}
		}
	}
	if w := s.workloads[p.Member.Key]; w != nil {
		// The pod left its node: a workload whose reservation ended while
		// its members were still assumed (rejected after a timeout) holds
		// its quota only until the last of them is unreserved.
		acts.merge(s.settleQuotaLocked(w))
	}
	return acts
}

// PermitResult is the Permit answer for a pod.
type PermitResult struct {
	// Allow lets the pod bind now; with Wait zero and Allow false the pod
	// is rejected (its reservation is gone).
	Allow bool
	Wait  time.Duration
	// AllowWaiting lists the waiting members to let through with this pod.
	AllowWaiting []types.UID
	// Committed describes the placement when this pod completed the gate
	// ("" for a queued plain pod: see Permit).
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

// Permit holds gang pods until every required member is reserved: every pod
// of every slice of the gang, or every leader under staged placement.
func (s *State) Permit(pod *corev1.Pod) PermitResult {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.podLocked(pod)
	v, w := s.applier.classifyLocked(p)
	if !v.Gang || w == nil {
		return PermitResult{Allow: true}
	}
	r := s.reservations[w.key]
	if r == nil && w.boundWhole() {
		// It runs whole (a PodGroup's member beyond minMember joins it).
		// Bound, not merely assumed: members assumed under a reservation
		// released meanwhile are about to be rejected, and this one must
		// not bind without them.
		return PermitResult{Allow: true}
	}
	if r == nil || r.Attempt != w.model.RestartAttempt {
		return PermitResult{Message: fmt.Sprintf("the reservation of %s was released", w.key), Ref: v.Ref}
	}
	if sr := r.Slices[p.Member.Slice]; sr != nil && p.Node != "" {
		// Committed too: a member's failed bind is retried after the gate.
		if why := s.applier.excludedLocked(sr, p.Node); why != "" {
			msg := fmt.Sprintf("the reservation of %s no longer holds: %s (node %s of slice %d)", w.key, why, p.Node, p.Member.Slice)
			return PermitResult{Message: msg, Ref: v.Ref, Actions: s.releaseLocked(w.key, ReleaseNodeMoved, msg)}
		}
	}
	if r.Committed {
		return PermitResult{Allow: true}
	}
	need, have := 0, 0
	for i := range r.Slices {
		if i >= len(w.model.Slices) {
			// The workload changed shape under its reservation (which
			// upsertSourceLocked releases): nothing of it may bind.
			return PermitResult{Message: fmt.Sprintf("%s changed shape while reserved", w.key), Ref: v.Ref}
		}
		want := w.model.Slices[i].Pods
		if r.Staged {
			want = 1
		}
		need += want
		have += min(w.slices[i].placed, want)
	}
	if have < need {
		wait := r.Deadline.Sub(s.opts.Clock.Now())
		if wait <= 0 {
			return PermitResult{Message: fmt.Sprintf("%s did not get %d required pods reserved in time", w.key, need), Ref: v.Ref}
		}
		return PermitResult{Wait: wait, Message: fmt.Sprintf("waiting for %d of %d gang members of %s to be reserved", need-have, need, w.key), Ref: v.Ref}
	}
	if why := s.applier.staleLocked(w, r); why != "" {
		msg := fmt.Sprintf("the reservation of %s no longer holds: %s", w.key, why)
		return PermitResult{Message: msg, Ref: v.Ref, Actions: s.releaseLocked(w.key, ReleaseStale, msg)}
	}
	if s.applier.recordFirstLocked(w, r) {
		// The admission is written on the Workload object before any pod
		// binds (see record.go): the members wait until it is.
		first := r.record == recordNotStarted
		r.record = recordWriting
		res := PermitResult{Wait: max(r.Deadline.Sub(s.opts.Clock.Now()), time.Second), Ref: v.Ref,
			Message: fmt.Sprintf("waiting for the admission of %s to be recorded on its Workload object", w.key)}
		if first {
			res.Record, res.Key = r.ID, w.key
		}
		return res
	}
	return s.applier.commitGateLocked(w, r, v.Ref, pod.UID)
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
