package state

import (
	corev1 "k8s.io/api/core/v1"

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
