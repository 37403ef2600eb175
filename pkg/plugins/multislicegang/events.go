package multislicegang

import (
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
)

// maxRemembered bounds the (object, reason) pairs whose last message is kept.
const maxRemembered = 20000

// eventSink records events for users, once per object and message: the
// same "waiting for domains" line is not repeated every scheduling attempt.
type eventSink struct {
	recorder events.EventRecorder
	mu       sync.Mutex
	last     map[string]string
}

func newEventSink(r events.EventRecorder) *eventSink {
	return &eventSink{recorder: r, last: map[string]string{}}
}

func (s *eventSink) changed(obj, reason, msg string) bool {
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

func (s *eventSink) emit(ref *corev1.ObjectReference, eventType, reason, msg string) {
	if s.recorder == nil || ref == nil || ref.Name == "" {
		return
	}
	if !s.changed(string(ref.UID)+ref.Kind+ref.Namespace+ref.Name, reason, msg) {
		return
	}
	s.recorder.Eventf(ref, nil, eventType, reason, "Scheduling", "%s", msg)
}

func (s *eventSink) normal(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeNormal, reason, msg)
}

func (s *eventSink) warn(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeWarning, reason, msg)
}

// warnPod records a warning on a pod and, when known, on its workload.
func (s *eventSink) warnPod(pod *corev1.Pod, workloadRef *corev1.ObjectReference, reason, msg string) {
	if s.recorder != nil && s.changed(string(pod.UID), reason, msg) {
		s.recorder.Eventf(pod, nil, corev1.EventTypeWarning, reason, "Scheduling", "%s", msg)
	}
	s.warn(workloadRef, reason, msg)
}
