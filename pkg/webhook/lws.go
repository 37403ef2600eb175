package webhook

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LeaderWorkerSet is what the webhook reads of a LeaderWorkerSet
// (leaderworkerset.x-k8s.io/v1, kubernetes-sigs/lws), whose Go module is
// not available here: its metadata and its pod templates. Every other
// field is left as the request has it (the webhook patches, it does not
// rewrite the object).
type LeaderWorkerSet struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`
	Spec              LeaderWorkerSetSpec `json:"spec"`
}

// LeaderWorkerSetSpec is the part of the set's spec the webhook reads.
type LeaderWorkerSetSpec struct {
	LeaderWorkerTemplate LeaderWorkerTemplate `json:"leaderWorkerTemplate"`
}

// LeaderWorkerTemplate holds the set's pod templates: the leader's, when
// it differs from the workers', and the workers'.
type LeaderWorkerTemplate struct {
	// LeaderTemplate is the leader pod's template; nil: the leader is
	// made from WorkerTemplate.
	LeaderTemplate *corev1.PodTemplateSpec `json:"leaderTemplate,omitempty"`
	WorkerTemplate corev1.PodTemplateSpec  `json:"workerTemplate"`
}
