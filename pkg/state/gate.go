package state

import (
	corev1 "k8s.io/api/core/v1"
)

// CheckWait is why a workload's head waits for its provisioning check, or
// for the request it consumes, before it plans.
type CheckWait struct {
	Reason, Message string
	// NeedsAction: only the user can help. Told: the workload's own
	// events told the message already.
	NeedsAction, Told bool
}

// Gate copies, under one read lock, what the gate's decision about pod
// reads (admission.Admit and admission.Classify decide on it): the pod as
// the state holds it (or derived from pod while not indexed yet), its
// workload's facts and reservation, and — behindHead, for a complete gang
// that holds no reservation and does not run whole — why a provisioning
// check holds its head and, for a pod that is its head (or of a gang with
// no valid head), what its queue's verdict reads. The state answers what
// is there; whether the pod may go is decided on the copy.
func (s *State) Gate(pod *corev1.Pod, behindHead bool) PodCycle {
	s.mu.RLock()
	defer s.mu.RUnlock()
	c := PodCycle{Now: s.opts.Clock.Now(), Generation: s.generation, Pod: s.pods[pod.UID], Indexed: true}
	if c.Pod == nil {
		c.Pod, c.Indexed = s.derivePod(pod, nil), false
	}
	p := c.Pod
	if !p.Gang || p.MemberErr != nil {
		return c
	}
	w, r := s.copyWorkloadLocked(&c)
	if w == nil || !behindHead || w.model == nil || r != nil || !w.complete || w.placedWhole() {
		return c
	}
	if cw := s.checkGateLocked(w); cw != nil {
		c.Check = &CheckWait{Reason: cw.reason, Message: cw.message, NeedsAction: cw.needsAction, Told: cw.told}
	}
	// The queue round is gathered for the one pod that asks the queue: a
	// member behind a valid head waits for the head instead.
	head := c.Workload.HeadValid && c.Workload.Head != p.UID
	if c.Check == nil && !head && s.awaitingAdmissionLocked(w) {
		c.Queue = s.queueRoundLocked(w)
	}
	return c
}
