package state

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Verdict classifies a pod for the scheduling cycle.
type Verdict struct {
	// Gang is false for pods scheduled as plain pods.
	Gang   bool
	Member workload.Member
	// Wait is true when the pod must not be tried yet (PreEnqueue).
	Wait bool
	// Unresolvable is true when only a change to the pod's or workload's
	// objects can help (malformed input, finished workload, stale attempt).
	Unresolvable bool
	Message      string
	// Ref names the workload object for events.
	Ref corev1.ObjectReference
	// QueueReason is set when the workload's queue keeps it waiting: a
	// quota.Reason* constant.
	QueueReason string
	// QueueNeedsAction is set with QueueReason when only a change to
	// queue objects or to the workload can help (the user must act): its
	// event is a Warning then.
	QueueNeedsAction bool
	// QueueReasonTold is set with QueueReason when the workload's own
	// events told the reason already: holding the pod records no event.
	QueueReasonTold bool
	// Wake lists pods to activate: the head of the fairer workload this
	// one yields to, which may sit gated while quota waits for it. The
	// caller activates them later, outside the scheduling queue's lock
	// that PreEnqueue runs under.
	Wake []PodRef
	// Queue is set when the pod is its quota-managed workload's head and
	// may go only if its queue lets it: admission.Admit takes the queue's
	// verdict on it, and fills in Wait, the queue fields and Wake.
	Queue *QueueRound
}

// podLocked returns the state's view of pod, deriving one (not indexed)
// when the informer has not delivered it yet.
func (s *State) podLocked(pod *corev1.Pod) *Pod {
	if p := s.pods[pod.UID]; p != nil {
		return p
	}
	return s.derivePod(pod, nil)
}

// classifyLocked reads the pod's membership and its workload's state.
func (s *State) classifyLocked(p *Pod) (Verdict, *Workload) {
	if !p.Gang {
		return Verdict{}, nil
	}
	if p.MemberErr != nil {
		return Verdict{Gang: true, Unresolvable: true, Message: p.MemberErr.Error()}, nil
	}
	m := p.Member
	switch s.apis[m.Key.Source] {
	case APINotServed:
		// The API is definitely not served here: schedule as a plain pod.
		return Verdict{}, nil
	case APIUnknown:
		return Verdict{Gang: true, Member: m, Wait: true,
			Message: fmt.Sprintf("waiting to learn whether the %s API is served", m.Key.Source)}, nil
	}
	v := Verdict{Gang: true, Member: m}
	w := s.workloads[m.Key]
	if w == nil || !w.observed {
		v.Wait = true
		v.Message = fmt.Sprintf("waiting for %s to be observed", m.Key)
		if m.Key.Source == workload.SourceProvisioningRequest {
			// Its API is served and watched: the request is not there.
			v.Message = ConsumerMissingMessage(m.Key)
			v.QueueReason, v.QueueNeedsAction = ReasonProvisioningRequestGone, true
			v.Ref = provisioning.ConsumedRef(m.Key.Namespace, m.Key.Name, "")
		}
		return v, nil
	}
	v.Ref = w.ref
	if w.err != nil {
		v.Unresolvable = true
		v.Message = w.err.Error()
		return v, nil
	}
	model := w.model
	if model == nil {
		// Its object is no gang (a Kubernetes PodGroup with the basic
		// policy): its pods are scheduled one by one.
		return Verdict{}, nil
	}
	switch st, why := workload.StandingIn(m, model); st {
	case workload.Stale:
		v.Unresolvable, v.Message = true, why
	case workload.Ahead:
		v.Wait, v.Message = true, why
	}
	return v, w
}

// Admit decides whether a pod may enter the active queue: a gang pod waits
// until every member that can exist yet exists (all pods of the created
// startup groups; only the leaders under JobSet's staged exclusive
// placement), unless its workload already holds a reservation its slice is
// in, or already runs whole.
func (s *State) Admit(pod *corev1.Pod) Verdict {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.admitLocked(pod, true)
}

// Classify is Admit without holding members back behind their gang's
// head: a member that reached a scheduling cycle may plan for its gang.
func (s *State) Classify(pod *corev1.Pod) Verdict {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.admitLocked(pod, false)
}

func (s *State) admitLocked(pod *corev1.Pod, behindHead bool) Verdict {
	p := s.podLocked(pod)
	v, w := s.classifyLocked(p)
	if !v.Gang || v.Wait || v.Unresolvable {
		return v
	}
	if behindHead && s.pods[pod.UID] == nil {
		// Not indexed yet: the informer will deliver it and re-activate
		// it if it may go (upsertPodLocked). Scheduling cycles read only
		// pods the state holds: a pod the gate lets through is one.
		v.Wait, v.Message = true, fmt.Sprintf("waiting for the scheduler to observe pod %s/%s", pod.Namespace, pod.Name)
		return v
	}
	if r := s.reservations[w.key]; r != nil && r.Attempt == w.model.RestartAttempt {
		if _, in := r.Slices[v.Member.Slice]; in {
			return v
		}
	}
	// A pod not indexed yet whose slice is not active belongs to a startup
	// group the complete gang does not include: it opens a new gang.
	if w.complete && (s.pods[pod.UID] != nil || slices.Contains(w.active(), v.Member.Slice)) {
		if behindHead && s.reservations[w.key] == nil && !w.placedWhole() && s.headValidLocked(w) && w.waitingHead.UID != pod.UID {
			// The gang plans through its head; the others wait, gated,
			// until the head's plan is committed.
			v.Wait = true
			v.Message = fmt.Sprintf("waiting for %s to find room for %s", w.waitingHead.Name, w.key)
			if w.failure != nil {
				v.Message += ": " + w.failure.Message
			}
			return v
		}
		if behindHead && s.reservations[w.key] == nil && !w.placedWhole() {
			// A provisioning check holds the head until its capacity exists.
			if cw := s.checkGateLocked(w); cw != nil {
				v.Wait, v.Message, v.QueueReason = true, cw.message, cw.reason
				v.QueueNeedsAction, v.QueueReasonTold = cw.needsAction, cw.told
				// Shown on the Workload while no quota is reserved.
				w.queueProblem.Store(&quota.Problem{Reason: cw.reason, Message: cw.message, Config: cw.needsAction})
				return v
			}
		}
		if behindHead && s.reservations[w.key] == nil && !w.placedWhole() && s.awaitingAdmissionLocked(w) {
			// The head goes only when its queue lets it: quota, queue
			// order and fair sharing are decided on this round, so a
			// workload that may not be admitted waits gated instead of
			// planning.
			v.Queue = s.queueRoundLocked(w)
		}
		return v
	}
	if s.pods[pod.UID] == nil {
		// Not indexed yet: the informer will deliver it and re-activate.
		v.Wait, v.Message = true, fmt.Sprintf("waiting for the scheduler to observe pod %s/%s", pod.Namespace, pod.Name)
		return v
	}
	slices, pods := w.missing()
	v.Wait = true
	if w.staged() {
		v.Message = fmt.Sprintf("waiting for the first pod of %d of %d Jobs of %s to be created", slices, len(w.active()), w.key)
	} else {
		total := 0
		for _, i := range w.active() {
			total += w.model.Slices[i].Pods
		}
		v.Message = fmt.Sprintf("waiting for %d of %d pods of %s to be created", pods, total, w.key)
	}
	return v
}
