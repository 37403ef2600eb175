package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ProvisioningRequest asks the cluster autoscaler for the capacity of a set
// of pods, all of it at once: the autoscaler reports on its conditions
// whether it was provisioned, and pods that carry the consume annotations
// (wellknown.ConsumeProvisioningRequestAnnotation and
// wellknown.ProvisioningClassNameAnnotation) then run on it.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Namespaced,shortName=provreq;provreqs
// +kubebuilder:subresource:status
// +kubebuilder:storageversion
// +kubebuilder:printcolumn:name="Class",type="string",JSONPath=".spec.provisioningClassName",description="Provisioning class"
// +kubebuilder:printcolumn:name="Accepted",type="string",JSONPath=`.status.conditions[?(@.type=="Accepted")].status`,description="The provisioner took the request on"
// +kubebuilder:printcolumn:name="Provisioned",type="string",JSONPath=`.status.conditions[?(@.type=="Provisioned")].status`,description="All the capacity exists and is booked"
// +kubebuilder:printcolumn:name="Failed",type="string",JSONPath=`.status.conditions[?(@.type=="Failed")].status`,description="The capacity cannot be provisioned"
// +kubebuilder:printcolumn:name="BookingExpired",type="string",JSONPath=`.status.conditions[?(@.type=="BookingExpired")].status`,description="The booking of the capacity ended"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ProvisioningRequest struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the capacity asked for. Every field of it is immutable: a
	// different request is a new object.
	Spec ProvisioningRequestSpec `json:"spec"`
	// status is written by the autoscaler.
	// +optional
	Status ProvisioningRequestStatus `json:"status,omitempty"`
}

// ProvisioningRequestSpec is the capacity a ProvisioningRequest asks for.
type ProvisioningRequestSpec struct {
	// podSets are the groups of pods to provision capacity for.
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=32
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="Value is immutable"
	PodSets []PodSet `json:"podSets"`

	// provisioningClassName is how the capacity is provisioned:
	// ProvisioningClassCheckCapacity and
	// ProvisioningClassBestEffortAtomicScaleUp are the autoscaler's, other
	// classes a cloud provider's (queued-provisioning.gke.io, GKE's Dynamic
	// Workload Scheduler). The kubernetes.io and autoscaling.x-k8s.io
	// suffixes are reserved for Kubernetes projects.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="Value is immutable"
	ProvisioningClassName string `json:"provisioningClassName"`

	// parameters are what the class needs besides the pods, e.g.
	// maxRunDurationSeconds for queued-provisioning.gke.io or
	// ValidUntilSeconds for best-effort atomic scale-up.
	// +optional
	// +kubebuilder:validation:MaxProperties=100
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="Value is immutable"
	Parameters map[string]Parameter `json:"parameters,omitempty"`
}

// Parameter is the value of a ProvisioningRequest parameter.
//
// +kubebuilder:validation:MaxLength=255
type Parameter string

// PodSet is a group of identical pods of a ProvisioningRequest.
type PodSet struct {
	// podTemplateRef names the PodTemplate, in the request's namespace,
	// that describes the pods. What matters for scheduling in it (requests,
	// node selector, affinity, tolerations) has to be what the pods that
	// consume the request have.
	PodTemplateRef Reference `json:"podTemplateRef"`

	// count is the number of pods.
	// +kubebuilder:validation:Minimum=1
	Count int32 `json:"count"`
}

// Reference names an object in the same namespace.
type Reference struct {
	// name is the name of the object.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	Name string `json:"name"`
}

// ProvisioningRequestStatus is the state of a ProvisioningRequest, as the
// autoscaler reports it.
type ProvisioningRequestStatus struct {
	// conditions say where the request stands: Accepted, Provisioned,
	// Failed, BookingExpired, CapacityRevoked (the types below); classes
	// may add their own.
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// provisioningClassDetails are values the class reports to users,
	// e.g. where the capacity was provisioned.
	// +optional
	// +kubebuilder:validation:MaxProperties=64
	ProvisioningClassDetails map[string]Detail `json:"provisioningClassDetails,omitempty"`
}

// Detail is the value of a provisioning class detail.
//
// +kubebuilder:validation:MaxLength=32768
type Detail string

// Condition types of a ProvisioningRequest's status.
const (
	// Accepted: the autoscaler has taken the request on and tries to
	// provision it.
	Accepted = "Accepted"
	// Provisioned: all the capacity exists and is booked for the request's
	// pods. With status False the reason says why not yet (for
	// queued-provisioning.gke.io, e.g. NotProvisioned or QuotaExceeded).
	Provisioned = "Provisioned"
	// Failed: the capacity cannot be provisioned; final. A new request is
	// needed to try again.
	Failed = "Failed"
	// BookingExpired: the booking of provisioned capacity ended, 10 minutes
	// after Provisioned or once all the pods are scheduled; capacity the
	// pods have not taken by then may be scaled down.
	BookingExpired = "BookingExpired"
	// CapacityRevoked: the provisioned capacity is gone or no longer valid.
	CapacityRevoked = "CapacityRevoked"
)

// The autoscaler's own provisioning classes.
const (
	// ProvisioningClassCheckCapacity checks whether the cluster's current
	// capacity can take the pods, and books it.
	ProvisioningClassCheckCapacity = "check-capacity.autoscaling.x-k8s.io"
	// ProvisioningClassBestEffortAtomicScaleUp scales up all of the
	// capacity or none of it.
	ProvisioningClassBestEffortAtomicScaleUp = "best-effort-atomic-scale-up.autoscaling.x-k8s.io"
)

// ProvisioningRequestList is a list of ProvisioningRequests.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ProvisioningRequestList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProvisioningRequest `json:"items"`
}
