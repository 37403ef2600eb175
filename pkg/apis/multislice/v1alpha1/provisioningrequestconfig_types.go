package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ProvisioningRequestConfig configures the provisioning AdmissionCheck: the
// ProvisioningRequests (autoscaling.x-k8s.io/v1, the cluster autoscaler's
// API) made for the workloads that have to pass the check say what it
// says, and failed requests are retried as it says.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster,categories=multislice
// +kubebuilder:printcolumn:name="Class",type="string",JSONPath=".spec.provisioningClassName",description="Provisioning class of the requests"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ProvisioningRequestConfig struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what the ProvisioningRequests say and how they are retried.
	Spec ProvisioningRequestConfigSpec `json:"spec"`
}

// ProvisioningRequestConfigSpec is what the ProvisioningRequests of a
// provisioning check say and how they are retried.
type ProvisioningRequestConfigSpec struct {
	// provisioningClassName is the provisioningClassName of the
	// ProvisioningRequests: how the autoscaler provisions the capacity,
	// e.g. queued-provisioning.gke.io (GKE's Dynamic Workload Scheduler),
	// best-effort-atomic-scale-up.autoscaling.x-k8s.io or
	// check-capacity.autoscaling.x-k8s.io. The same validation as the
	// request's field, so that a config that is accepted makes requests
	// that are.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	ProvisioningClassName string `json:"provisioningClassName"`

	// parameters are copied into every request's parameters, for the
	// class to interpret. A workload's provreq.kueue.x-k8s.io/<key>
	// annotations add to them (and win).
	// +optional
	// +kubebuilder:validation:MaxProperties=100
	Parameters map[string]Parameter `json:"parameters,omitempty"`

	// managedResources are the resources the autoscaler provisions. When
	// given, a request covers only the pod sets that ask for at least one
	// of them, and a workload none of whose pod sets does passes the check
	// without a request. Empty or left out: every resource is managed.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=100
	// +kubebuilder:validation:items:Type=string
	// +kubebuilder:validation:items:MaxLength=317
	ManagedResources []corev1.ResourceName `json:"managedResources,omitempty"`

	// retryStrategy says how often, and how long after, a request that
	// failed (or whose booking expired before the workload was placed) is
	// replaced by a new one. Left out: 3 retries, 60 s base, 1800 s most.
	// +optional
	// +kubebuilder:default={backoffLimitCount:3,backoffBaseSeconds:60,backoffMaxSeconds:1800}
	RetryStrategy *ProvisioningRequestRetryStrategy `json:"retryStrategy,omitempty"`

	// podSetUpdates steers the workload onto the provisioned nodes: each
	// nodeSelector entry's value is read from the request's
	// status.provisioningClassDetails once it is Provisioned, and the
	// workload is placed only on nodes carrying those labels (the scheduler
	// applies them when it places the pods, which keep their own spec).
	// +optional
	PodSetUpdates *ProvisioningRequestPodSetUpdates `json:"podSetUpdates,omitempty"`

	// podSetMergePolicy, in Kueue, merges pod sets before they are passed
	// to the autoscaler:
	//   - IdenticalPodTemplates: pod sets with identical pod templates.
	//   - IdenticalWorkloadSchedulingRequirements: pod sets with the same
	//     scheduling requirements (resources, node selector, affinity,
	//     tolerations, ...).
	// Left out, each pod set is one of the request. Accepted so that Kueue
	// manifests apply; not applied yet.
	// +optional
	// +kubebuilder:validation:Enum=IdenticalPodTemplates;IdenticalWorkloadSchedulingRequirements
	PodSetMergePolicy *PodSetMergePolicy `json:"podSetMergePolicy,omitempty"`
}

// PodSetMergePolicy says which pod sets of a workload are merged into one
// pod set of its ProvisioningRequest.
type PodSetMergePolicy string

const (
	// IdenticalPodTemplates merges pod sets with identical pod templates.
	IdenticalPodTemplates PodSetMergePolicy = "IdenticalPodTemplates"
	// IdenticalWorkloadSchedulingRequirements merges pod sets with the same
	// scheduling requirements.
	IdenticalWorkloadSchedulingRequirements PodSetMergePolicy = "IdenticalWorkloadSchedulingRequirements"
)

// Defaults of ProvisioningRequestRetryStrategy, Kueue's, which the CRD
// applies; exported so that code reading a config built without the
// apiserver (tests, fakes) can apply the same.
const (
	DefaultBackoffLimitCount  int32 = 3
	DefaultBackoffBaseSeconds int32 = 60
	DefaultBackoffMaxSeconds  int32 = 1800
)

// Parameter is a value of a ProvisioningRequest parameter, at most 255
// characters as the request's are.
//
// +kubebuilder:validation:MaxLength=255
type Parameter string

// ProvisioningRequestRetryStrategy says how a failed ProvisioningRequest
// is retried: after the n-th failure the check waits
// min(backoffBaseSeconds·2^(n-1), backoffMaxSeconds) and creates a new
// request, until backoffLimitCount retries have failed, when the workload
// is rejected.
type ProvisioningRequestRetryStrategy struct {
	// backoffLimitCount is the number of retries after the first request;
	// 0 rejects the workload at the first failure.
	// +optional
	// +kubebuilder:default=3
	// +kubebuilder:validation:Minimum=0
	BackoffLimitCount *int32 `json:"backoffLimitCount,omitempty"`

	// backoffBaseSeconds is the delay before the first retry; each next
	// one doubles it.
	// +optional
	// +kubebuilder:default=60
	// +kubebuilder:validation:Minimum=0
	BackoffBaseSeconds *int32 `json:"backoffBaseSeconds,omitempty"`

	// backoffMaxSeconds caps the delay between retries.
	// +optional
	// +kubebuilder:default=1800
	// +kubebuilder:validation:Minimum=0
	BackoffMaxSeconds *int32 `json:"backoffMaxSeconds,omitempty"`
}

// ProvisioningRequestPodSetUpdates are updates of the workload's pods made
// from a provisioned request.
type ProvisioningRequestPodSetUpdates struct {
	// nodeSelector are node selector entries to add to the pods.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	NodeSelector []ProvisioningRequestPodSetUpdatesNodeSelector `json:"nodeSelector,omitempty"`
}

// ProvisioningRequestPodSetUpdatesNodeSelector is a node selector entry
// whose value a provisioned request reports.
type ProvisioningRequestPodSetUpdatesNodeSelector struct {
	// key is the node label of the entry.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=317
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`
	Key string `json:"key"`

	// valueFromProvisioningClassDetail is the key, in the request's
	// status.provisioningClassDetails, of the entry's value.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=32768
	ValueFromProvisioningClassDetail string `json:"valueFromProvisioningClassDetail"`
}

// ProvisioningRequestConfigList is a list of ProvisioningRequestConfigs.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ProvisioningRequestConfigList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProvisioningRequestConfig `json:"items"`
}
