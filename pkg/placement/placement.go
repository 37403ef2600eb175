// Package placement holds the values a placement decision is made of,
// shared by the planner that makes them, the admission decisions that use
// them, and the state that records them: room planned on a node (Slot),
// and why a workload cannot be placed (Failure).
package placement

// Slot is room for Count pods of one shape on one node.
type Slot struct {
	Node  string
	Shape int
	Count int
}

// Failure explains why a workload cannot be placed, or admitted.
type Failure struct {
	// Unresolvable is true when no change in other workloads can help: the
	// cluster has too few domains that could ever hold these slices, or
	// only a change to the workload or the queue objects can.
	Unresolvable bool
	Message      string
	// Reason classifies failures decided outside the planner (quota,
	// admission checks); "" for placement failures.
	Reason string
}

func (f *Failure) Error() string { return f.Message }

// RejectedPrefix starts why a domain is unavailable to a workload whose
// pods the scheduler's other filters rejected there.
const RejectedPrefix = "rejected the slice's pods: "
