package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// LocalQueue is the namespaced queue users submit workloads to: a workload
// names it in its queue-name label or annotation, and it sends the
// namespace's workloads to one ClusterQueue.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Namespaced,shortName=queue;queues;lq,categories=multislice
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="ClusterQueue",type="string",JSONPath=".spec.clusterQueue",description="ClusterQueue the LocalQueue sends workloads to"
// +kubebuilder:printcolumn:name="Pending",type="integer",JSONPath=".status.pendingWorkloads",description="Workloads waiting for quota"
// +kubebuilder:printcolumn:name="Admitted",type="integer",JSONPath=".status.admittedWorkloads",description="Workloads holding quota"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type LocalQueue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec names the ClusterQueue of the LocalQueue.
	Spec LocalQueueSpec `json:"spec"`
	// status is the LocalQueue's observed state, written by the scheduler.
	// +optional
	Status LocalQueueStatus `json:"status,omitempty"`
}

// LocalQueueSpec names the ClusterQueue of a LocalQueue.
type LocalQueueSpec struct {
	// clusterQueue is the name of the ClusterQueue the LocalQueue's
	// workloads are admitted by. Immutable.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf",message="clusterQueue is immutable"
	ClusterQueue string `json:"clusterQueue"`
}

// LocalQueueStatus is the observed state of a LocalQueue.
type LocalQueueStatus struct {
	// pendingWorkloads is the number of the LocalQueue's workloads waiting
	// for quota.
	// +optional
	PendingWorkloads int32 `json:"pendingWorkloads"`

	// reservingWorkloads is the number of the LocalQueue's workloads
	// holding quota, admitted or waiting for their admission checks.
	// +optional
	ReservingWorkloads int32 `json:"reservingWorkloads"`

	// admittedWorkloads is the number of the LocalQueue's workloads
	// holding quota that passed their admission checks.
	// +optional
	AdmittedWorkloads int32 `json:"admittedWorkloads"`

	// flavorUsage is the quota the LocalQueue's workloads use, per flavor
	// and resource (borrowed is not tracked per LocalQueue: always zero).
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=256
	FlavorUsage []FlavorUsage `json:"flavorUsage,omitempty"`

	// pendingWorkloadsStatus lists the first of its workloads waiting for
	// quota, in the order their ClusterQueue admits them.
	// +optional
	PendingWorkloadsStatus *PendingWorkloadsStatus `json:"pendingWorkloadsStatus,omitempty"`

	// conditions of the LocalQueue; Active says whether its workloads can
	// be admitted (its ClusterQueue exists and is active).
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// LocalQueueList is a list of LocalQueues.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type LocalQueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []LocalQueue `json:"items"`
}
