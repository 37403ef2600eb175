package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ComputeClass is a cluster-wide profile of the nodes GKE creates for the
// pods that select it (node selector cloud.google.com/compute-class:
// <name>): a list of priorities tried in order, each a kind of capacity
// (spot, flex-start, on-demand) of a machine type, family or accelerator,
// with how long its nodes may run and, for flex-start, whether they are
// recycled before that.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Auto-create",type="boolean",JSONPath=".spec.nodePoolAutoCreation.enabled",description="GKE creates node pools for the class"
// +kubebuilder:printcolumn:name="When unsatisfiable",type="string",JSONPath=".spec.whenUnsatisfiable",description="What happens when no priority can be provisioned"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ComputeClass struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the class.
	Spec ComputeClassSpec `json:"spec"`
	// status is written by GKE.
	// +optional
	Status ComputeClassStatus `json:"status,omitempty"`
}

// ComputeClassSpec is a class: its priorities and what happens when none
// of them can be provisioned. GKE's other fields (activeMigration,
// autoscalingPolicy, nodePoolConfig, priorityDefaults, description, …)
// are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type ComputeClassSpec struct {
	// priorities are the node configurations to create, most preferred
	// first: the first one that can be provisioned is used.
	// +optional
	Priorities []Priority `json:"priorities,omitempty"`

	// nodePoolAutoCreation lets GKE create node pools for the class; without
	// it the class only selects among existing node pools labelled with it.
	// +optional
	NodePoolAutoCreation *NodePoolAutoCreation `json:"nodePoolAutoCreation,omitempty"`

	// whenUnsatisfiable is what GKE does when no priority can be
	// provisioned: DoNotScaleUp (pods stay pending; GKE's default) or
	// ScaleUpAnyway (nodes of a default machine series).
	// +optional
	// +kubebuilder:validation:Enum=DoNotScaleUp;ScaleUpAnyway
	WhenUnsatisfiable WhenUnsatisfiable `json:"whenUnsatisfiable,omitempty"`
}

// WhenUnsatisfiable is spec.whenUnsatisfiable.
type WhenUnsatisfiable string

// The values of spec.whenUnsatisfiable.
const (
	DoNotScaleUp  WhenUnsatisfiable = "DoNotScaleUp"
	ScaleUpAnyway WhenUnsatisfiable = "ScaleUpAnyway"
)

// NodePoolAutoCreation is spec.nodePoolAutoCreation. GKE's other fields of it are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type NodePoolAutoCreation struct {
	// enabled lets GKE create node pools for the class.
	// +optional
	Enabled bool `json:"enabled,omitempty"`
}

// Priority is one node configuration of a class. GKE's other fields of a
// priority (location, reservations, storage, nodepools, minMemoryGb,
// podFamily, …) are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type Priority struct {
	// machineFamily is a Compute Engine machine series, e.g. n4 or g2.
	// +optional
	MachineFamily string `json:"machineFamily,omitempty"`
	// machineType is a Compute Engine machine type, e.g. g2-standard-24.
	// +optional
	MachineType string `json:"machineType,omitempty"`
	// minCores is the least number of vCPUs a node of the priority has.
	// +optional
	// +kubebuilder:validation:Minimum=0
	MinCores *int32 `json:"minCores,omitempty"`
	// spot makes the nodes Spot VMs, which Compute Engine may preempt at
	// any time.
	// +optional
	Spot *bool `json:"spot,omitempty"`
	// gpu attaches GPUs to each node.
	// +optional
	GPU *GPU `json:"gpu,omitempty"`
	// tpu makes the nodes TPU hosts.
	// +optional
	TPU *TPU `json:"tpu,omitempty"`
	// maxRunDurationSeconds is how long a node of the priority may run
	// before Compute Engine stops it. For flex-start nodes it is 7 days when
	// not set; other nodes run without limit unless it is set.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MaxRunDurationSeconds *int64 `json:"maxRunDurationSeconds,omitempty"`
	// flexStart makes the nodes flex-start VMs: obtained as capacity
	// becomes available, and run for a bounded time.
	// +optional
	FlexStart *FlexStart `json:"flexStart,omitempty"`
}

// GPU is a priority's GPUs per node. GKE's other fields of it are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type GPU struct {
	// type is the GPU model, e.g. nvidia-l4 (the node label
	// cloud.google.com/gke-accelerator).
	// +optional
	Type string `json:"type,omitempty"`
	// count is the number of GPUs per node.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Count int32 `json:"count,omitempty"`
	// driverVersion is the GPU driver GKE installs (default, latest, …).
	// +optional
	DriverVersion string `json:"driverVersion,omitempty"`
}

// TPU is a priority's TPU slice. GKE's other fields of it are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type TPU struct {
	// type is the TPU generation, e.g. tpu-v5-lite-podslice (the node label
	// cloud.google.com/gke-tpu-accelerator).
	// +optional
	Type string `json:"type,omitempty"`
	// count is the number of TPU chips per node.
	// +optional
	// +kubebuilder:validation:Minimum=1
	Count int32 `json:"count,omitempty"`
	// topology is the slice topology, e.g. 2x4 (the node label
	// cloud.google.com/gke-tpu-topology).
	// +optional
	Topology string `json:"topology,omitempty"`
}

// FlexStart is a priority's flex-start settings. GKE's other fields of it are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type FlexStart struct {
	// enabled makes the priority's nodes flex-start VMs.
	// +optional
	Enabled bool `json:"enabled,omitempty"`
	// nodeRecycling replaces each node before the end of its run time: a
	// new node is requested leadTimeSeconds before the old one's end, the
	// old one is cordoned once the new one is ready, and removed a while
	// later.
	// +optional
	NodeRecycling *NodeRecycling `json:"nodeRecycling,omitempty"`
}

// NodeRecycling is flexStart.nodeRecycling. GKE's other fields of it are kept as written.
//
// +kubebuilder:pruning:PreserveUnknownFields
type NodeRecycling struct {
	// leadTimeSeconds is how long before a node's end of life its
	// replacement is requested.
	// +optional
	// +kubebuilder:validation:Minimum=0
	LeadTimeSeconds *int64 `json:"leadTimeSeconds,omitempty"`
}

// ComputeClassStatus is what GKE reports on a class.
//
// +kubebuilder:pruning:PreserveUnknownFields
type ComputeClassStatus struct {
	// conditions report whether GKE accepted the class (Health, …).
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// ComputeClassList is a list of ComputeClasses.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ComputeClassList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ComputeClass `json:"items"`
}
