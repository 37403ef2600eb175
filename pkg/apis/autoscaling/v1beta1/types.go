// Package v1beta1 is the cluster autoscaler's earlier ProvisioningRequest
// version, autoscaling.x-k8s.io/v1beta1, which seed manifests (GKE's
// "Dynamic Workload Scheduler without Kueue") still write. Its schema is
// v1's, field for field, so the CRD serves both versions with no
// conversion and stores v1: everything in this project reads and writes
// v1, and an object created as v1beta1 is read back as v1 unchanged.
//
// The package exists only so that the generated CRD
// (manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml) serves
// this version: it declares the object around v1's spec and status and
// nothing else.
//
// +groupName=autoscaling.x-k8s.io
package v1beta1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
)

// ProvisioningRequest is autoscaling.x-k8s.io/v1's ProvisioningRequest
// served under its earlier version.
//
// +kubebuilder:object:root=true
// +kubebuilder:resource:scope=Namespaced,shortName=provreq;provreqs
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Class",type="string",JSONPath=".spec.provisioningClassName",description="Provisioning class"
// +kubebuilder:printcolumn:name="Accepted",type="string",JSONPath=`.status.conditions[?(@.type=="Accepted")].status`,description="The provisioner took the request on"
// +kubebuilder:printcolumn:name="Provisioned",type="string",JSONPath=`.status.conditions[?(@.type=="Provisioned")].status`,description="All the capacity exists and is booked"
// +kubebuilder:printcolumn:name="Failed",type="string",JSONPath=`.status.conditions[?(@.type=="Failed")].status`,description="The capacity cannot be provisioned"
// +kubebuilder:printcolumn:name="BookingExpired",type="string",JSONPath=`.status.conditions[?(@.type=="BookingExpired")].status`,description="The booking of the capacity ended"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ProvisioningRequest struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec autoscalingv1.ProvisioningRequestSpec `json:"spec"`
	// +optional
	Status autoscalingv1.ProvisioningRequestStatus `json:"status,omitempty"`
}

// ProvisioningRequestList is a list of ProvisioningRequests.
//
// +kubebuilder:object:root=true
type ProvisioningRequestList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ProvisioningRequest `json:"items"`
}
