package v1alpha1

// QueueingStrategy is the order in which a ClusterQueue tries its pending
// workloads.
//
// +kubebuilder:validation:Enum=StrictFIFO;BestEffortFIFO
type QueueingStrategy string

const (
	// StrictFIFO tries workloads by priority, then creation time; one that
	// does not fit blocks those behind it.
	StrictFIFO QueueingStrategy = "StrictFIFO"
	// BestEffortFIFO tries workloads by priority, then creation time; one
	// that does not fit lets those behind it be tried.
	BestEffortFIFO QueueingStrategy = "BestEffortFIFO"
)

// PreemptionPolicy says which admitted workloads a pending one may preempt.
// Each field of ClusterQueuePreemption accepts a subset of the values.
type PreemptionPolicy string

const (
	// PreemptionPolicyNever: none.
	PreemptionPolicyNever PreemptionPolicy = "Never"
	// PreemptionPolicyLowerPriority: those of lower priority.
	PreemptionPolicyLowerPriority PreemptionPolicy = "LowerPriority"
	// PreemptionPolicyLowerOrNewerEqualPriority: those of lower priority,
	// and those of equal priority admitted after the pending workload was
	// created (withinClusterQueue only).
	PreemptionPolicyLowerOrNewerEqualPriority PreemptionPolicy = "LowerOrNewerEqualPriority"
	// PreemptionPolicyAny: any, whatever their priority
	// (reclaimWithinCohort only).
	PreemptionPolicyAny PreemptionPolicy = "Any"
	// PreemptionPolicyLowerPriorityWithinCohort: those of lower priority
	// in ClusterQueues of the same cohort (forceFit only).
	PreemptionPolicyLowerPriorityWithinCohort PreemptionPolicy = "LowerPriorityWithinCohort"
)

// BorrowWithinCohortPolicy says whether a workload that borrows may preempt
// workloads of other ClusterQueues of its cohort.
type BorrowWithinCohortPolicy string

const (
	// BorrowWithinCohortPolicyNever: it may not.
	BorrowWithinCohortPolicyNever BorrowWithinCohortPolicy = "Never"
	// BorrowWithinCohortPolicyLowerPriority: it may preempt those of lower
	// priority.
	BorrowWithinCohortPolicyLowerPriority BorrowWithinCohortPolicy = "LowerPriority"
)

// Condition types of a Workload's status.
const (
	// WorkloadQuotaReserved: the workload holds quota in a ClusterQueue
	// (status.admission is set).
	WorkloadQuotaReserved = "QuotaReserved"
	// WorkloadAdmitted: the workload holds quota and has passed its
	// admission checks; its pods may run.
	WorkloadAdmitted = "Admitted"
	// WorkloadEvicted: the workload lost its quota (preempted, or its
	// ClusterQueue became inactive) and waits to be requeued.
	WorkloadEvicted = "Evicted"
	// WorkloadFinished: the workload's owner has completed or failed; its
	// quota is released.
	WorkloadFinished = "Finished"
)

// Condition types of a ClusterQueue's and a LocalQueue's status.
const (
	// ClusterQueueActive: the ClusterQueue admits workloads (its flavors
	// and admission checks exist).
	ClusterQueueActive = "Active"
	// LocalQueueActive: the LocalQueue's workloads can be admitted (its
	// ClusterQueue exists and is active).
	LocalQueueActive = "Active"
)

// Reasons of the conditions above.
const (
	// ReasonPending: the workload waits for quota (QuotaReserved=False,
	// Admitted=False).
	ReasonPending = "Pending"
	// ReasonQuotaReserved: quota was reserved (QuotaReserved=True).
	ReasonQuotaReserved = "QuotaReserved"
	// ReasonAdmitted: the workload was admitted (Admitted=True).
	ReasonAdmitted = "Admitted"
	// ReasonPreempted: the workload was evicted to make room for another
	// (Evicted=True).
	ReasonPreempted = "Preempted"
	// ReasonInactiveClusterQueue: the workload's ClusterQueue is not
	// active (Evicted=True, or QuotaReserved=False; LocalQueue
	// Active=False).
	ReasonInactiveClusterQueue = "InactiveClusterQueue"
	// ReasonLocalQueueNotFound: the workload's LocalQueue does not exist
	// (QuotaReserved=False).
	ReasonLocalQueueNotFound = "LocalQueueNotFound"
	// ReasonClusterQueueNotFound: the ClusterQueue does not exist
	// (LocalQueue Active=False, workload QuotaReserved=False).
	ReasonClusterQueueNotFound = "ClusterQueueNotFound"
	// ReasonFlavorNotFound: a flavor the ClusterQueue lists does not exist
	// (ClusterQueue Active=False).
	ReasonFlavorNotFound = "FlavorNotFound"
	// ReasonAdmissionCheckNotFound: an admission check the ClusterQueue
	// lists does not exist (ClusterQueue Active=False).
	ReasonAdmissionCheckNotFound = "AdmissionCheckNotFound"
	// ReasonReady: the queue is active (Active=True).
	ReasonReady = "Ready"
	// ReasonSucceeded: the workload's owner completed (Finished=True).
	ReasonSucceeded = "Succeeded"
	// ReasonFailed: the workload's owner failed (Finished=True).
	ReasonFailed = "Failed"
)
