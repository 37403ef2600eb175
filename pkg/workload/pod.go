package workload

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SourcePod is a plain pod that names a LocalQueue: a workload of one
// slice of one pod, admitted through its queue like any other workload.
const SourcePod Source = "Pod"

// PodMember makes a plain pod that names a LocalQueue a workload of its
// own (ok false for pods that name none).
func PodMember(pod *corev1.Pod) (m Member, ok bool) {
	if wellknown.QueueName(pod.Labels, pod.Annotations) == "" {
		return Member{}, false
	}
	return Member{Key: Key{Source: SourcePod, Namespace: pod.Namespace, Name: pod.Name}, Leader: true, OwnerUID: pod.UID}, true
}

// FromPod is the workload of a queued plain pod: one unconfined slice of
// the pod itself.
func FromPod(pod *corev1.Pod) *Workload {
	spec := pod.Spec.DeepCopy()
	return &Workload{
		Key:       Key{Source: SourcePod, Namespace: pod.Namespace, Name: pod.Name},
		UID:       pod.UID,
		Created:   pod.CreationTimestamp.Time,
		Slices:    []Slice{{Index: 0, Name: pod.Name, Pods: 1, Request: PodRequests(spec), Template: spec}},
		Groups:    1,
		QueueName: wellknown.QueueName(pod.Labels, pod.Annotations),
		Finished:  pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed,
		Failed:    pod.Status.Phase == corev1.PodFailed,
	}
}
