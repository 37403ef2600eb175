// Package wellknown names the labels, annotations and resources that users'
// existing objects (GKE nodes, JobSets, Kueue queues) already carry. Every
// other package refers to these keys through this one, so a key is spelled
// exactly once.
package wellknown

import corev1 "k8s.io/api/core/v1"

// GKE node labels.
const (
	// NodePoolLabel names the node pool a node belongs to. A multi-host TPU
	// node pool is one slice: created, failed and repaired as a unit.
	NodePoolLabel = "cloud.google.com/gke-nodepool"
	// TPUAcceleratorLabel is the TPU generation, e.g. tpu-v5-lite-podslice (v5e).
	TPUAcceleratorLabel = "cloud.google.com/gke-tpu-accelerator"
	// TPUTopologyLabel is the slice topology, e.g. 2x4 or 4x4.
	TPUTopologyLabel = "cloud.google.com/gke-tpu-topology"
	// GPUAcceleratorLabel is the GPU model of a GPU node pool.
	GPUAcceleratorLabel = "cloud.google.com/gke-accelerator"
	// ZoneLabel is the standard topology zone label.
	ZoneLabel = corev1.LabelTopologyZone
)

// Extended resources.
const (
	ResourceTPU corev1.ResourceName = "google.com/tpu"
	ResourceGPU corev1.ResourceName = "nvidia.com/gpu"
)
