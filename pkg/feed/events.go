package feed

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
)

// maxRemembered bounds the (object, reason) pairs whose last message is kept.
const maxRemembered = 20000

// EventSink records events for users, once per object and message: the
// same "waiting for domains" line is not repeated every scheduling attempt.
type EventSink struct {
	recorder events.EventRecorder
	mu       sync.Mutex
	last     map[string]string
}

// NewEventSink returns a sink writing to r (nil discards).
func NewEventSink(r events.EventRecorder) *EventSink {
	return &EventSink{recorder: r, last: map[string]string{}}
}

func (s *EventSink) changed(obj, reason, msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := obj + "|" + reason
	if s.last[k] == msg {
		return false
	}
	if len(s.last) >= maxRemembered {
		// Forgetting only costs a repeated event; it bounds memory on
		// clusters that churn through many workloads.
		clear(s.last)
	}
	s.last[k] = msg
	return true
}

func (s *EventSink) emit(ref *corev1.ObjectReference, eventType, reason, msg string) {
	if s == nil || s.recorder == nil || ref == nil || ref.Name == "" {
		return
	}
	if !s.changed(string(ref.UID)+ref.Kind+ref.Namespace+ref.Name, reason, msg) {
		return
	}
	s.recorder.Eventf(ref, nil, eventType, reason, "Scheduling", "%s", msg)
}

// Normal records a normal event on a workload object.
func (s *EventSink) Normal(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeNormal, reason, msg)
}

// Warn records a warning on a workload object.
func (s *EventSink) Warn(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeWarning, reason, msg)
}

// WarnPod records a warning on a pod and, when known, on its workload.
func (s *EventSink) WarnPod(pod *corev1.Pod, workloadRef *corev1.ObjectReference, reason, msg string) {
	if s != nil && s.recorder != nil && s.changed(string(pod.UID), reason, msg) {
		s.recorder.Eventf(pod, nil, corev1.EventTypeWarning, reason, "Scheduling", "%s", msg)
	}
	s.Warn(workloadRef, reason, msg)
}
