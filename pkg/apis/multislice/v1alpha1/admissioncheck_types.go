package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AdmissionCheck is a condition, besides quota, that a workload of a
// ClusterQueue listing it in spec.admissionChecks has to pass before it is
// admitted; spec.controllerName says which controller decides it. The
// scheduler decides the checks whose controllerName is
// ProvisioningRequestControllerName: it asks the cluster autoscaler for the
// workload's capacity with a ProvisioningRequest, configured by the
// ProvisioningRequestConfig that spec.parameters names, and places the
// workload once the capacity is provisioned. A ClusterQueue listing a check
// of another controller admits nothing.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster,categories=multislice
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Controller",type="string",JSONPath=".spec.controllerName",description="Controller that decides the check"
// +kubebuilder:printcolumn:name="Parameters",type="string",JSONPath=".spec.parameters.name",description="Name of the object configuring the check"
// +kubebuilder:printcolumn:name="Active",type="string",JSONPath=`.status.conditions[?(@.type=="Active")].status`,description="Whether the check's controller evaluates it"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type AdmissionCheck struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec names the check's controller and its configuration.
	Spec AdmissionCheckSpec `json:"spec"`
	// status is the check's observed state, written by its controller.
	// +optional
	Status AdmissionCheckStatus `json:"status,omitempty"`
}

// ProvisioningRequestControllerName is the controllerName of the
// provisioning check, as Kueue spells it.
const ProvisioningRequestControllerName = "kueue.x-k8s.io/provisioning-request"

// AdmissionCheckActive is the condition type of an AdmissionCheck's status
// saying whether its controller evaluates it.
const AdmissionCheckActive = "Active"

// AdmissionCheckSpec names the controller of an AdmissionCheck and its
// configuration.
type AdmissionCheckSpec struct {
	// controllerName identifies the controller that decides the check (not
	// necessarily a Pod or Deployment name). Kueue's name for the
	// provisioning check, kueue.x-k8s.io/provisioning-request
	// (ProvisioningRequestControllerName), is also the scheduler's, so that
	// manifests written for Kueue apply unchanged. Immutable: a check's
	// state only makes sense to the controller that wrote it.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="controllerName is immutable"
	ControllerName string `json:"controllerName"`

	// retryDelayMinutes is how long a workload stays suspended after its
	// check failed, in Kueue's v1beta1 API, which deprecated the field in
	// v0.8. It is accepted (and defaulted to 15, as there) so that Kueue
	// manifests apply, but not used: retries of the provisioning check
	// follow the ProvisioningRequestConfig's retryStrategy.
	// +optional
	// +kubebuilder:default=15
	// +kubebuilder:validation:Minimum=0
	RetryDelayMinutes *int64 `json:"retryDelayMinutes,omitempty"`

	// parameters names the object holding the check's configuration, for
	// the provisioning check a ProvisioningRequestConfig.
	// +optional
	Parameters *AdmissionCheckParametersReference `json:"parameters,omitempty"`
}

// AdmissionCheckParametersReference names the object configuring an
// AdmissionCheck.
type AdmissionCheckParametersReference struct {
	// apiGroup is the API group of the referenced object. Any group (a DNS
	// subdomain, without a version) is accepted: manifests written for
	// Kueue say kueue.x-k8s.io (seed 003's AdmissionCheck does) and apply
	// as written. The scheduler is to look
	// the object up by kind and name only, in multislice.dev/v1alpha1,
	// whatever the group says, and to report that leniency for a group
	// other than multislice.dev rather than reject the check.
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
	APIGroup string `json:"apiGroup"`

	// kind is the kind of the referenced object, e.g.
	// ProvisioningRequestConfig.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern="^(?i)[a-z]([-a-z0-9]*[a-z0-9])?$"
	Kind string `json:"kind"`

	// name is the name of the referenced object.
	// +kubebuilder:validation:MaxLength=63
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?$"
	Name string `json:"name"`
}

// AdmissionCheckStatus is the observed state of an AdmissionCheck.
type AdmissionCheckStatus struct {
	// conditions of the check; Active says whether its controller
	// evaluates it (it runs and the check's parameters resolve).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// AdmissionCheckList is a list of AdmissionChecks.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type AdmissionCheckList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []AdmissionCheck `json:"items"`
}
