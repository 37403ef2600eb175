package state

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
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
	// may go only if its queue lets it: the gate (package admission) takes
	// the queue's verdict on it, and fills in Wait, the queue fields and
	// Wake.
	Queue *QueueRound
}

// podLocked returns the state's view of pod, deriving one (not indexed)
// when the informer has not delivered it yet.
func (s *State) podLocked(pod *corev1.Pod) *Pod {
	if p := s.pods.get(pod.UID); p != nil {
		return p
	}
	return s.derivePod(pod, nil)
}

// classifyLocked reads the pod's membership and its workload's state.
func (ap applier) classifyLocked(p *Pod) (Verdict, *Workload) {
	s := ap.s
	if !p.Gang {
		return Verdict{}, nil
	}
	if p.MemberErr != nil {
		return Verdict{Gang: true, Unresolvable: true, Message: p.MemberErr.Error()}, nil
	}
	m := p.Member
	switch s.registry.apis[m.Key.Source] {
	case APINotServed:
		// The API is definitely not served here: schedule as a plain pod.
		return Verdict{}, nil
	case APIUnknown:
		return Verdict{Gang: true, Member: m, Wait: true,
			Message: fmt.Sprintf("waiting to learn whether the %s API is served", m.Key.Source)}, nil
	}
	v := Verdict{Gang: true, Member: m}
	w := s.workloads.of(m.Key)
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
