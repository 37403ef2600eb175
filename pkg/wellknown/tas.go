package wellknown

// Kueue's topology-aware scheduling annotations, which users put on the pod
// template of each pod set (a replicated Job, a leader or worker template).
// We read them as Kueue users write them.
const (
	// RequiredTopologyAnnotation names the level one domain of which must hold all of a pod set's pods.
	RequiredTopologyAnnotation = "kueue.x-k8s.io/podset-required-topology"
	// PreferredTopologyAnnotation names the level to try first; higher levels are tried when it cannot hold the pod set.
	PreferredTopologyAnnotation = "kueue.x-k8s.io/podset-preferred-topology"
	// UnconstrainedTopologyAnnotation, "true", places a pod set anywhere, packed into as few domains as fit.
	UnconstrainedTopologyAnnotation = "kueue.x-k8s.io/podset-unconstrained-topology"
	// SliceRequiredTopologyAnnotation names the level one domain of which must hold each slice of a pod set.
	SliceRequiredTopologyAnnotation = "kueue.x-k8s.io/podset-slice-required-topology"
	// SliceSizeAnnotation is the number of pods in each slice of a pod set.
	SliceSizeAnnotation = "kueue.x-k8s.io/podset-slice-size"
	// SliceTopologyConstraintsAnnotation lists slice levels and sizes for several layers at once (JSON); we refuse it rather than ignore it.
	SliceTopologyConstraintsAnnotation = "kueue.x-k8s.io/podset-slice-required-topology-constraints"
	// PodSetGroupNameAnnotation names a group of pod sets of one workload (a leader and its workers) placed as one.
	PodSetGroupNameAnnotation = "kueue.x-k8s.io/podset-group-name"
)

// GKE's node labels for the physical topology of GPU fleets, highest level
// first: a block holds subblocks, a subblock holds hosts.
const (
	// GCETopologyBlockLabel is the block of a node: the coarsest level, a group of subblocks.
	GCETopologyBlockLabel = "cloud.google.com/gce-topology-block"
	// GCETopologySubblockLabel is the subblock of a node: a group of hosts within one block.
	GCETopologySubblockLabel = "cloud.google.com/gce-topology-subblock"
	// GCETopologyHostLabel is the physical host of a node: the finest level.
	GCETopologyHostLabel = "cloud.google.com/gce-topology-host"
)
