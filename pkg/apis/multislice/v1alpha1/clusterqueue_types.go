package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ClusterQueue holds quota, per flavor and resource, that the workloads of
// the LocalQueues pointing at it share; ClusterQueues of the same cohort
// lend each other the quota they do not use.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster,shortName=cq,categories=multislice
// +kubebuilder:subresource:status
// +kubebuilder:printcolumn:name="Cohort",type="string",JSONPath=".spec.cohort",description="Cohort the ClusterQueue belongs to"
// +kubebuilder:printcolumn:name="Strategy",type="string",JSONPath=".spec.queueingStrategy",description="Queueing strategy of the ClusterQueue"
// +kubebuilder:printcolumn:name="Usage",type="string",JSONPath=".status.usage",description="Quota in use of the nominal quota, per resource over every flavor"
// +kubebuilder:printcolumn:name="Pending",type="integer",JSONPath=".status.pendingWorkloads",description="Workloads waiting for quota"
// +kubebuilder:printcolumn:name="Admitted",type="integer",JSONPath=".status.admittedWorkloads",description="Workloads holding quota"
// +kubebuilder:printcolumn:name="Active",type="string",JSONPath=`.status.conditions[?(@.type=="Active")].status`,description="Whether the ClusterQueue admits workloads"
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ClusterQueue struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec is the quota and the admission policy of the ClusterQueue.
	// +optional
	// +kubebuilder:default={}
	Spec ClusterQueueSpec `json:"spec,omitempty"`
	// status is the ClusterQueue's observed state, written by the scheduler.
	// +optional
	Status ClusterQueueStatus `json:"status,omitempty"`
}

// ClusterQueueSpec is the quota and the admission policy of a ClusterQueue.
//
// +kubebuilder:validation:XValidation:rule="(has(self.cohort) && size(self.cohort) > 0) || (has(self.cohortName) && size(self.cohortName) > 0) || !has(self.resourceGroups) || self.resourceGroups.all(rg, rg.flavors.all(f, f.resources.all(r, !has(r.borrowingLimit) && !has(r.lendingLimit))))",message="borrowingLimit and lendingLimit can only be set when cohort (or cohortName) is set",fieldPath=".resourceGroups"
// +kubebuilder:validation:XValidation:rule="!has(self.cohort) || !has(self.cohortName)",message="cohort (Kueue v1beta1's spelling) and cohortName (v1beta2's) are the same field: set one of them",fieldPath=".cohortName"
// +kubebuilder:validation:XValidation:rule="!has(self.admissionChecks) || !has(self.admissionChecksStrategy)",message="admissionChecks (Kueue v1beta1's spelling) and admissionChecksStrategy (v1beta2's) are the same field: set one of them",fieldPath=".admissionChecksStrategy"
// +kubebuilder:validation:XValidation:rule="!has(self.resourceGroups) || self.resourceGroups.all(i, a, self.resourceGroups.all(j, b, j <= i || !sets.intersects(a.flavors.map(f, f.name), b.flavors.map(f, f.name))))",message="a flavor can appear in only one resource group",fieldPath=".resourceGroups"
// +kubebuilder:validation:XValidation:rule="!has(self.resourceGroups) || self.resourceGroups.all(i, a, self.resourceGroups.all(j, b, j <= i || size(a.flavors) == 0 || size(b.flavors) == 0 || !sets.intersects(a.flavors[0].resources.map(r, r.name), b.flavors[0].resources.map(r, r.name))))",message="a resource can be covered by only one resource group",fieldPath=".resourceGroups"
type ClusterQueueSpec struct {
	// namespaceSelector selects the namespaces whose LocalQueues may submit
	// workloads to this ClusterQueue. Unlike Kueue, where a missing selector
	// matches no namespace, here both a missing selector (null) and the
	// empty selector ({}) match every namespace.
	// +optional
	NamespaceSelector *metav1.LabelSelector `json:"namespaceSelector,omitempty"`

	// resourceGroups is the quota of the ClusterQueue. Each group covers a
	// set of resources and lists the flavors that give quota for them, in
	// the order a workload tries them. A flavor may appear in one group
	// only, and a resource be covered by one group only.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=16
	ResourceGroups []ResourceGroup `json:"resourceGroups,omitempty"`

	// cohort is the name of the set of ClusterQueues that lend each other
	// unused quota. A ClusterQueue without a cohort neither lends nor
	// borrows, so its quotas cannot have a borrowingLimit or lendingLimit.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
	Cohort string `json:"cohort,omitempty"`

	// cohortName is cohort as Kueue's v1beta2 API spells it; set one of
	// the two.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
	CohortName string `json:"cohortName,omitempty"`

	// queueingStrategy is the order in which pending workloads are tried:
	//   - StrictFIFO: by priority, then creation time; a workload that does
	//     not fit blocks the ones behind it.
	//   - BestEffortFIFO: by priority, then creation time; a workload that
	//     does not fit lets the ones behind it be tried.
	// +optional
	// +kubebuilder:default=BestEffortFIFO
	QueueingStrategy QueueingStrategy `json:"queueingStrategy,omitempty"`

	// preemption says which admitted workloads a pending workload of this
	// ClusterQueue may preempt to be admitted. Left out, every policy is
	// Never.
	// +optional
	// +kubebuilder:default={}
	Preemption *ClusterQueuePreemption `json:"preemption,omitempty"`

	// admissionChecks names the AdmissionCheck objects every workload of
	// this ClusterQueue has to pass before it is admitted: at most one, a
	// provisioning check (controllerName
	// kueue.x-k8s.io/provisioning-request).
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:MaxLength=253
	AdmissionChecks []string `json:"admissionChecks,omitempty"`

	// admissionChecksStrategy is admissionChecks as Kueue's v1beta2 API
	// spells it; set one of the two. A rule that names onFlavors is
	// refused (a Warning event on the ClusterQueue says so): here every
	// workload of the ClusterQueue passes its checks.
	// +optional
	AdmissionChecksStrategy *AdmissionChecksStrategy `json:"admissionChecksStrategy,omitempty"`

	// fairSharing holds the ClusterQueue's parameters for fair sharing of
	// its cohort's unused quota. Left out, the weight is 1.
	// +optional
	FairSharing *FairSharing `json:"fairSharing,omitempty"`

	// maxRunDurationSeconds, when set, is how long a workload of this
	// ClusterQueue may run, counted from when it was placed whole; it is
	// then ended whole. A workload's own
	// provreq.kueue.x-k8s.io/maxRunDurationSeconds annotation, or the
	// maxRunDurationSeconds parameter of the queue's provisioning check,
	// takes precedence.
	// +optional
	// +kubebuilder:validation:Minimum=1
	MaxRunDurationSeconds *int64 `json:"maxRunDurationSeconds,omitempty"`
}

// AdmissionChecksStrategy lists the admission checks of a ClusterQueue,
// as Kueue's v1beta2 API does.
type AdmissionChecksStrategy struct {
	// admissionChecks are the checks, by name.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	AdmissionChecks []AdmissionCheckStrategyRule `json:"admissionChecks"`
}

// AdmissionCheckStrategyRule names one admission check of a ClusterQueue.
type AdmissionCheckStrategyRule struct {
	// name is the AdmissionCheck's name.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`

	// onFlavors would limit the check to workloads given these flavors;
	// it must be left out (every workload passes the check).
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=64
	OnFlavors []string `json:"onFlavors,omitempty"`
}

// CohortOf is the cohort the spec names, in either spelling.
func (s *ClusterQueueSpec) CohortOf() string {
	if s.CohortName != "" {
		return s.CohortName
	}
	return s.Cohort
}

// CheckNames are the admission checks the spec names, in either spelling.
func (s *ClusterQueueSpec) CheckNames() []string {
	if st := s.AdmissionChecksStrategy; st != nil {
		out := make([]string, 0, len(st.AdmissionChecks))
		for _, r := range st.AdmissionChecks {
			out = append(out, r.Name)
		}
		return out
	}
	return s.AdmissionChecks
}

// ResourceGroup is a set of resources and the flavors that give quota for
// all of them.
//
// +kubebuilder:validation:XValidation:rule="!has(self.coveredResources) || size(self.coveredResources) == 0 || self.flavors.all(f, f.resources.map(r, r.name) == self.coveredResources)",message="every flavor must list exactly the resources of coveredResources, in the same order",fieldPath=".flavors"
// +kubebuilder:validation:XValidation:rule="(has(self.coveredResources) && size(self.coveredResources) > 0) || size(self.flavors) == 0 || self.flavors.all(f, f.resources.map(r, r.name) == self.flavors[0].resources.map(r, r.name))",message="every flavor must list the same resources, in the same order",fieldPath=".flavors"
type ResourceGroup struct {
	// coveredResources are the resources of the group. When given, every
	// flavor lists exactly these resources, in this order. When left out
	// (or empty), the group covers the resources its flavors list, and
	// every flavor lists the same resources in the same order.
	// +optional
	// +listType=set
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:items:Type=string
	// +kubebuilder:validation:items:MaxLength=317
	CoveredResources []corev1.ResourceName `json:"coveredResources,omitempty"`

	// flavors are the flavors giving quota for the group's resources, in
	// the order a workload tries them.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Flavors []FlavorQuotas `json:"flavors"`
}

// FlavorQuotas is the quota one flavor gives for the resources of a group.
type FlavorQuotas struct {
	// name is the name of the ResourceFlavor.
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern="^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$"
	Name string `json:"name"`

	// resources is the quota of each resource of the group.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	Resources []ResourceQuota `json:"resources"`
}

// ResourceQuota is the quota of one resource in one flavor.
//
// +kubebuilder:validation:XValidation:rule="!has(self.lendingLimit) || !isQuantity(string(self.lendingLimit)) || !isQuantity(string(self.nominalQuota)) || !quantity(string(self.lendingLimit)).isGreaterThan(quantity(string(self.nominalQuota)))",message="lendingLimit must be less than or equal to nominalQuota",fieldPath=".lendingLimit"
type ResourceQuota struct {
	// name is the resource, e.g. google.com/tpu, nvidia.com/gpu, cpu.
	// +kubebuilder:validation:Type=string
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=317
	Name corev1.ResourceName `json:"name"`

	// nominalQuota is the amount of the resource the ClusterQueue's
	// workloads may use at any time; what they do not use, the cohort may
	// borrow (up to lendingLimit).
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!isQuantity(string(self)) || !quantity(string(self)).isLessThan(quantity('0'))",message="nominalQuota must not be negative"
	NominalQuota resource.Quantity `json:"nominalQuota"`

	// borrowingLimit is the most the ClusterQueue may borrow from its
	// cohort on top of nominalQuota. Left out, no limit. Requires a cohort.
	// +optional
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!isQuantity(string(self)) || !quantity(string(self)).isLessThan(quantity('0'))",message="borrowingLimit must not be negative"
	BorrowingLimit *resource.Quantity `json:"borrowingLimit,omitempty"`

	// lendingLimit is the most of nominalQuota the cohort may borrow while
	// the ClusterQueue does not use it. Left out, all of it. At most
	// nominalQuota. Requires a cohort.
	// +optional
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!isQuantity(string(self)) || !quantity(string(self)).isLessThan(quantity('0'))",message="lendingLimit must not be negative"
	LendingLimit *resource.Quantity `json:"lendingLimit,omitempty"`
}

// ClusterQueuePreemption says which admitted workloads a pending workload
// may preempt.
//
// +kubebuilder:validation:XValidation:rule="!has(self.borrowWithinCohort) || !has(self.borrowWithinCohort.policy) || self.borrowWithinCohort.policy == 'Never' || (has(self.reclaimWithinCohort) && self.reclaimWithinCohort != 'Never')",message="borrowWithinCohort.policy other than Never requires reclaimWithinCohort other than Never",fieldPath=".borrowWithinCohort.policy"
type ClusterQueuePreemption struct {
	// reclaimWithinCohort says which workloads of other ClusterQueues of
	// the cohort, borrowing quota, a pending workload may preempt to get
	// back quota within its own nominalQuota:
	//   - Never: none.
	//   - LowerPriority: those of lower priority.
	//   - Any: any, whatever their priority.
	// +optional
	// +kubebuilder:default=Never
	// +kubebuilder:validation:Enum=Never;LowerPriority;Any
	ReclaimWithinCohort PreemptionPolicy `json:"reclaimWithinCohort,omitempty"`

	// borrowWithinCohort says whether a pending workload that needs to
	// borrow may preempt workloads of other ClusterQueues of the cohort.
	// Left out, it may not (policy Never).
	// +optional
	BorrowWithinCohort *BorrowWithinCohort `json:"borrowWithinCohort,omitempty"`

	// withinClusterQueue says which workloads of the same ClusterQueue a
	// pending workload may preempt when the ClusterQueue has no quota left:
	//   - Never: none.
	//   - LowerPriority: those of lower priority.
	//   - LowerOrNewerEqualPriority: those of lower priority, and those of
	//     equal priority created after the pending workload (so two
	//     workloads never preempt each other in turn).
	// +optional
	// +kubebuilder:default=Never
	// +kubebuilder:validation:Enum=Never;LowerPriority;LowerOrNewerEqualPriority
	WithinClusterQueue PreemptionPolicy `json:"withinClusterQueue,omitempty"`

	// reclaimOutOfCohort says whether a pending workload may preempt
	// workloads of ClusterQueues outside its cohort (or of any other
	// ClusterQueue, without a cohort) that hold the nodes its quota is
	// meant for. Left out, it may not.
	// +optional
	ReclaimOutOfCohort *ReclaimOutOfCohort `json:"reclaimOutOfCohort,omitempty"`

	// forceFit says which workloads of other ClusterQueues a workload of
	// this ClusterQueue may evict to make room for its pods when quota is
	// not what it lacks: its quota fits (or it is admitted already, and
	// lost its domain to a failure), but no domain it may use — a node
	// pool, or the rack or subblock its topology requires — has room.
	//   - LowerPriority: those of lower priority, in any ClusterQueue,
	//     whether or not their queues borrow.
	//   - LowerPriorityWithinCohort: those of lower priority in
	//     ClusterQueues of its own cohort.
	//   - Never: none; it waits for room.
	// Lower-priority workloads of its own ClusterQueue, and workloads
	// outside the queues, may be evicted for room whatever this says.
	// +optional
	// +kubebuilder:default=LowerPriority
	// +kubebuilder:validation:Enum=Never;LowerPriorityWithinCohort;LowerPriority
	ForceFit PreemptionPolicy `json:"forceFit,omitempty"`
}

// BorrowWithinCohort says whether a workload that borrows may preempt
// workloads of other ClusterQueues of the cohort.
type BorrowWithinCohort struct {
	// policy is which workloads may be preempted:
	//   - Never: none.
	//   - LowerPriority: those of lower priority (and at most
	//     maxPriorityThreshold, when given).
	// +optional
	// +kubebuilder:default=Never
	// +kubebuilder:validation:Enum=Never;LowerPriority
	Policy BorrowWithinCohortPolicy `json:"policy,omitempty"`

	// maxPriorityThreshold, when given, limits the workloads that may be
	// preempted to those whose priority is at most this value.
	// +optional
	MaxPriorityThreshold *int32 `json:"maxPriorityThreshold,omitempty"`
}

// ReclaimOutOfCohort says whether a workload may preempt workloads of
// ClusterQueues outside its cohort to get its quota's worth of nodes.
type ReclaimOutOfCohort struct {
	// enable allows the preemption, up to the ClusterQueue's nominalQuota.
	// +optional
	Enable bool `json:"enable,omitempty"`

	// reclaimMoreThanNominalQuota also allows it beyond nominalQuota.
	// +optional
	ReclaimMoreThanNominalQuota bool `json:"reclaimMoreThanNominalQuota,omitempty"`
}

// FairSharing holds a ClusterQueue's parameters for fair sharing.
type FairSharing struct {
	// weight is the ClusterQueue's share of its cohort's unused quota
	// relative to the other ClusterQueues of the cohort: a queue of weight
	// 2 is entitled to twice what one of weight 1 is. Zero makes the
	// queue borrow only what no other queue wants. Defaults to 1.
	// +optional
	// +kubebuilder:default=1
	// +kubebuilder:validation:XIntOrString
	// +kubebuilder:validation:MaxLength=64
	// +kubebuilder:validation:XValidation:rule="!isQuantity(string(self)) || !quantity(string(self)).isLessThan(quantity('0'))",message="weight must not be negative"
	Weight *resource.Quantity `json:"weight,omitempty"`
}

// ClusterQueueStatus is the observed state of a ClusterQueue.
type ClusterQueueStatus struct {
	// pendingWorkloads is the number of workloads waiting for quota.
	// +optional
	PendingWorkloads int32 `json:"pendingWorkloads"`

	// reservingWorkloads is the number of workloads holding quota,
	// admitted or waiting for their admission checks.
	// +optional
	ReservingWorkloads int32 `json:"reservingWorkloads"`

	// admittedWorkloads is the number of workloads holding quota that
	// passed their admission checks.
	// +optional
	AdmittedWorkloads int32 `json:"admittedWorkloads"`

	// flavorsUsage is the quota in use, per flavor and resource.
	// +optional
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=256
	FlavorsUsage []FlavorUsage `json:"flavorsUsage,omitempty"`

	// usage sums flavorsUsage up for kubectl get: per resource, the quota
	// in use of the nominal quota over every flavor, e.g.
	// "google.com/tpu: 24/32".
	// +optional
	// +kubebuilder:validation:MaxLength=1024
	Usage string `json:"usage,omitempty"`

	// conditions of the ClusterQueue; Active says whether it admits
	// workloads.
	// +optional
	// +listType=map
	// +listMapKey=type
	// +kubebuilder:validation:MaxItems=16
	Conditions []metav1.Condition `json:"conditions,omitempty"`

	// fairSharing is the ClusterQueue's fair-sharing state.
	// +optional
	FairSharing *FairSharingStatus `json:"fairSharing,omitempty"`

	// pendingWorkloadsStatus lists the first workloads waiting for quota,
	// in the order they are admitted.
	// +optional
	PendingWorkloadsStatus *PendingWorkloadsStatus `json:"pendingWorkloadsStatus,omitempty"`
}

// PendingWorkloadsStatus is the head of a queue: its first waiting
// workloads (at most ten), in the order they are admitted.
type PendingWorkloadsStatus struct {
	// head are the first waiting workloads, the next one to be admitted
	// first.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=10
	Head []PendingWorkload `json:"head,omitempty"`

	// lastChangeTime is when the head last changed.
	LastChangeTime metav1.Time `json:"lastChangeTime"`
}

// PendingWorkload names a waiting Workload object.
type PendingWorkload struct {
	// name of the Workload object.
	// +kubebuilder:validation:MaxLength=253
	Name string `json:"name"`
	// namespace of the Workload object.
	// +kubebuilder:validation:MaxLength=63
	Namespace string `json:"namespace"`
}

// FlavorUsage is the quota used in one flavor.
type FlavorUsage struct {
	// name is the name of the ResourceFlavor.
	Name string `json:"name"`

	// resources is the usage of each resource.
	// +listType=map
	// +listMapKey=name
	// +kubebuilder:validation:MaxItems=16
	Resources []ResourceUsage `json:"resources"`
}

// ResourceUsage is the quota used of one resource in one flavor.
type ResourceUsage struct {
	// name is the resource.
	Name corev1.ResourceName `json:"name"`

	// total is the quantity in use, borrowed part included.
	// +optional
	Total resource.Quantity `json:"total"`

	// borrowed is the part of total above nominalQuota, borrowed from the
	// cohort. Always zero in a LocalQueue's status.
	// +optional
	Borrowed resource.Quantity `json:"borrowed"`
}

// FairSharingStatus is a ClusterQueue's fair-sharing state.
type FairSharingStatus struct {
	// weightedShare is how much of its cohort's quota the ClusterQueue
	// borrows, relative to its weight: over the resources it has quota
	// for, the largest ratio of its usage above nominalQuota to what the
	// cohort can lend of that resource, times 1000, divided by the weight.
	// Zero while the ClusterQueue stays within its nominalQuota; the
	// largest int64 when it borrows with a weight of zero. The ClusterQueue
	// with the lowest share borrows first. Written by the scheduler.
	WeightedShare int64 `json:"weightedShare"`
}

// ClusterQueueList is a list of ClusterQueues.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ClusterQueueList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterQueue `json:"items"`
}
