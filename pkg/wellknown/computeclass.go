package wellknown

// GKE's ComputeClass (cloud.google.com/v1) and the labels of the nodes GKE
// creates for a class (seed 001).
const (
	// ComputeClassLabel selects a class, as a pod's node selector
	// (cloud.google.com/compute-class: <name>), and names the class a node
	// was created for.
	ComputeClassLabel = "cloud.google.com/compute-class"
	// SpotLabel is "true" on Spot VMs, which Compute Engine may preempt.
	SpotLabel = "cloud.google.com/gke-spot"
	// FlexStartLabel is "true" on flex-start VMs, which run for a bounded
	// time (maxRunDurationSeconds, 7 days by default).
	FlexStartLabel = "cloud.google.com/gke-flex-start"
	// MachineFamilyLabel is a node's Compute Engine machine series, e.g. g2.
	MachineFamilyLabel = "cloud.google.com/machine-family"
)
