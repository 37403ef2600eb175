package controllers

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
)

// maxRemembered bounds the (object, reason) pairs whose last message is kept.
const maxRemembered = 20000

// RestatePeriod is how long an object's event of one reason stands before a
// new message of the same reason is recorded: a queued workload's "0
// available (nominal 24, 20 in use)" changes with every admission in its
// cohort, and its Workload's condition already carries the current one.
const RestatePeriod = 30 * time.Second

// EventSink records events for users: on each object, the first event of
// each reason, and a new message of the same reason at most once per
// RestatePeriod. The same "waiting for domains" line is not repeated every
// scheduling attempt, nor every change of the numbers in it.
type EventSink struct {
	recorder events.EventRecorder
	clock    clock.PassiveClock
	mu       sync.Mutex
	last     map[string]recorded
}

// recorded is the last event of one reason on one object.
type recorded struct {
	msg string
	at  time.Time
}

// NewEventSink returns a sink writing to r (nil discards), timed by clk.
func NewEventSink(r events.EventRecorder, clk clock.PassiveClock) *EventSink {
	return &EventSink{recorder: r, clock: clk, last: map[string]recorded{}}
}

func (s *EventSink) changed(obj, reason, msg string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	k := obj + "|" + reason
	now := s.clock.Now()
	if last, ok := s.last[k]; ok && (last.msg == msg || now.Sub(last.at) < RestatePeriod) {
		return false
	}
	if len(s.last) >= maxRemembered {
		// Forgetting only costs a repeated event; it bounds memory on
		// clusters that churn through many workloads.
		clear(s.last)
	}
	s.last[k] = recorded{msg: msg, at: now}
	return true
}

func (s *EventSink) emit(ref *corev1.ObjectReference, eventType, reason, msg string) {
	s.emitAbout(ref, nil, eventType, reason, msg)
}

// emitAbout records an event on ref about related, one of several objects
// events of one reason on ref may be about (the pods of one slice of a
// workload, among its slices): each related object's are limited on their
// own, and the API keeps them apart too — it folds events that differ
// only in their message into one series, which shows the first message.
func (s *EventSink) emitAbout(ref, related *corev1.ObjectReference, eventType, reason, msg string) {
	if s == nil || s.recorder == nil || ref == nil || ref.Name == "" {
		return
	}
	key := string(ref.UID) + ref.Kind + ref.Namespace + ref.Name
	var rel runtime.Object
	if related != nil {
		key += "#" + related.Kind + "/" + related.Namespace + "/" + related.Name + "/" + string(related.UID)
		rel = related
	}
	if !s.changed(key, reason, msg) {
		return
	}
	s.recorder.Eventf(ref, rel, eventType, reason, "Scheduling", "%s", msg)
}

// NormalAbout records a normal event on a workload object about related
// (a pod of one of its slices), limited apart from events about others.
func (s *EventSink) NormalAbout(ref, related *corev1.ObjectReference, reason, msg string) {
	s.emitAbout(ref, related, corev1.EventTypeNormal, reason, msg)
}

// WarnAbout is NormalAbout for a warning.
func (s *EventSink) WarnAbout(ref, related *corev1.ObjectReference, reason, msg string) {
	s.emitAbout(ref, related, corev1.EventTypeWarning, reason, msg)
}

// Normal records a normal event on a workload object.
func (s *EventSink) Normal(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeNormal, reason, msg)
}

// Warn records a warning on a workload object.
func (s *EventSink) Warn(ref *corev1.ObjectReference, reason, msg string) {
	s.emit(ref, corev1.EventTypeWarning, reason, msg)
}

// NormalPod records a normal event on a pod.
func (s *EventSink) NormalPod(pod *corev1.Pod, reason, msg string) {
	if s != nil && s.recorder != nil && s.changed(string(pod.UID), reason, msg) {
		s.recorder.Eventf(pod, nil, corev1.EventTypeNormal, reason, "Scheduling", "%s", msg)
	}
}

// WarnPod records a warning on a pod and, when known, on its workload.
func (s *EventSink) WarnPod(pod *corev1.Pod, workloadRef *corev1.ObjectReference, reason, msg string) {
	if s != nil && s.recorder != nil && s.changed(string(pod.UID), reason, msg) {
		s.recorder.Eventf(pod, nil, corev1.EventTypeWarning, reason, "Scheduling", "%s", msg)
	}
	s.Warn(workloadRef, reason, msg)
}
