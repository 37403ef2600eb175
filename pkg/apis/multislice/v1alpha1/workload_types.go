package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Workload is what the scheduler queues and admits: the pods of one JobSet,
// PodGroup or Job (its owner), grouped into pod sets of identical pods.
// The scheduler creates and updates it; users read it.
//
// Kubernetes' own scheduling.k8s.io Workload (GenericWorkload gate) takes
// `kubectl get workloads` when it is served, as discovery lists built-in
// groups before CRDs: ours is `wl` (Kueue's short name, when Kueue's CRDs
// are not installed too), `mswl` (ours alone) or `workloads.multislice.dev`,
// and every multislice.dev kind is in the category `multislice`.
//
// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Namespaced,shortName=wl;mswl,categories=multislice
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Queue",type="string",JSONPath=".spec.queueName",description="LocalQueue the workload was submitted to"
// +kubebuilder:printcolumn:name="Reserved in",type="string",JSONPath=".status.admission.clusterQueue",description="ClusterQueue the workload holds quota in"
// +kubebuilder:printcolumn:name="Position",type="integer",JSONPath=".status.positionInClusterQueue",description="Place among the workloads waiting in its ClusterQueue (first ten only)"
// +kubebuilder:printcolumn:name="In LocalQueue",type="integer",JSONPath=".status.positionInLocalQueue",description="Place among the workloads waiting in its LocalQueue (first ten only)",priority=1
// +kubebuilder:printcolumn:name="Admitted",type="string",JSONPath=`.status.conditions[?(@.type=="Admitted")].status`,description="Whether the workload is admitted"
// +kubebuilder:printcolumn:name="Finished",type="string",JSONPath=`.status.conditions[?(@.type=="Finished")].status`,description="Whether the workload has finished"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type Workload struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is what the workload asks for.
	Spec WorkloadSpec `json:"spec"`
	// status is where the workload stands: its admission and conditions.
	// +optional
	Status WorkloadStatus `json:"status,omitempty"`
}

// WorkloadSpec is what a workload asks for.
type WorkloadSpec struct {
	// queueName is the name of the LocalQueue, in the workload's namespace,
	// the workload was submitted to.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	QueueName string `json:"queueName,omitempty"`

	// priorityClassName is the PriorityClass of the workload's pods.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	PriorityClassName string `json:"priorityClassName,omitempty"`

	// priority is the priority of the workload's pods (their
	// PriorityClass's value when the workload was created). Left out, 0.
	// +optional
	Priority *int32 `json:"priority,omitempty"`

	// podSets are the groups of identical pods of the workload, e.g. one
	// per slice of a JobSet.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=256
	PodSets []PodSet `json:"podSets"`
}

// PodSet is a group of identical pods of a workload.
type PodSet struct {
	// name identifies the pod set within the workload.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`

	// count is the number of pods of the set.
	// +kubebuilder:validation:Minimum=0
	Count int32 `json:"count"`

	// requests are the resources each pod of the set requests.
	// +optional
	Requests corev1.ResourceList `json:"requests,omitempty"`

	// topologyKey, when given, is a node label (e.g.
	// cloud.google.com/gke-nodepool) all pods of the set are placed under
	// one value of, a domain no other pod set then uses: the exclusive
	// topology of a JobSet, whose workload has one pod set per slice.
	// +optional
	// +kubebuilder:validation:MaxLength=317
	TopologyKey string `json:"topologyKey,omitempty"`
}

// WorkloadStatus is where a workload stands.
type WorkloadStatus struct {
	// admission is the quota reserved for the workload, set when it gets
	// the QuotaReserved condition and cleared when it is evicted.
	// +optional
	Admission *Admission `json:"admission,omitempty"`

	// positionInClusterQueue is, while the workload waits for quota among
	// the first ten of its ClusterQueue, its place there (1 is admitted
	// next); unset further back or once it holds quota.
	// +optional
	// +kubebuilder:validation:Minimum=1
	PositionInClusterQueue *int32 `json:"positionInClusterQueue,omitempty"`

	// positionInLocalQueue is the same among the workloads of its
	// LocalQueue.
	// +optional
	// +kubebuilder:validation:Minimum=1
	PositionInLocalQueue *int32 `json:"positionInLocalQueue,omitempty"`

	// conditions of the workload: QuotaReserved, Admitted, Evicted,
	// Finished.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// requeueState says when an evicted workload is tried again.
	// +optional
	RequeueState *RequeueState `json:"requeueState,omitempty"`

	// admissionChecks are the states of the admission checks its
	// ClusterQueue lists (a provisioning check: its ProvisioningRequest).
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=8
	AdmissionChecks []AdmissionCheckState `json:"admissionChecks,omitempty"`
}

// AdmissionCheckState is where a workload stands in one admission check.
type AdmissionCheckState struct {
	// name is the AdmissionCheck's name.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// state is Pending (its request is not provisioned yet), Ready (the
	// capacity exists; the workload is placed on it), Retry (the request
	// failed; a new one follows after a backoff) or Rejected (no retries
	// left).
	// +kubebuilder:validation:Enum=Pending;Ready;Retry;Rejected
	State string `json:"state"`

	// lastTransitionTime is when the state last changed.
	LastTransitionTime metav1.Time `json:"lastTransitionTime"`

	// message says why, naming the ProvisioningRequest.
	// +optional
	// +kubebuilder:validation:MaxLength=32768
	Message string `json:"message,omitempty"`
}

// Admission is the quota reserved for a workload.
type Admission struct {
	// clusterQueue is the name of the ClusterQueue the quota is reserved in.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	ClusterQueue string `json:"clusterQueue"`

	// podSetAssignments are the flavors and quota assigned to each pod set.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=256
	PodSetAssignments []PodSetAssignment `json:"podSetAssignments"`
}

// PodSetAssignment is the flavors and quota assigned to one pod set.
type PodSetAssignment struct {
	// name is the name of the pod set.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=63
	Name string `json:"name"`

	// flavors is the flavor assigned to each resource of the pod set.
	// +optional
	Flavors map[corev1.ResourceName]string `json:"flavors,omitempty"`

	// resourceUsage is the quota the pod set uses: the per-pod requests
	// times count, per resource.
	// +optional
	ResourceUsage corev1.ResourceList `json:"resourceUsage,omitempty"`

	// count is the number of pods the quota was reserved for.
	// +kubebuilder:validation:Minimum=0
	Count int32 `json:"count"`

	// domain is the topology domain the pod set was placed in: the value
	// of its topologyKey label (e.g. the node pool name). Empty when the
	// pod set has no topologyKey.
	// +optional
	// +kubebuilder:validation:MaxLength=63
	Domain string `json:"domain,omitempty"`
}

// RequeueState says when an evicted workload is tried again.
type RequeueState struct {
	// count is the number of times the workload was evicted and requeued.
	// +optional
	// +kubebuilder:validation:Minimum=0
	Count int32 `json:"count,omitempty"`

	// requeueAt is the earliest time the workload is tried again. Left
	// out, it is tried at once.
	// +optional
	RequeueAt *metav1.Time `json:"requeueAt,omitempty"`
}

// WorkloadList is a list of Workloads.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type WorkloadList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Workload `json:"items"`
}
