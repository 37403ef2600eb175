// Package builders offers fluent builders for the Kubernetes objects that
// unit, integration and benchmark tests create: accelerator node pools and pods.
package builders

import (
	"fmt"
	"maps"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// NodePoolBuilder builds the nodes of one GKE-style node pool.
type NodePoolBuilder struct {
	name     string
	nodes    int
	labels   map[string]string
	capacity corev1.ResourceList
	taints   []corev1.Taint
	notReady bool
}

// NodePool starts a pool of one node with 8 CPUs, 32Gi memory and 110 pods.
func NodePool(name string) *NodePoolBuilder {
	return &NodePoolBuilder{
		name:   name,
		nodes:  1,
		labels: map[string]string{wellknown.NodePoolLabel: name},
		capacity: corev1.ResourceList{
			corev1.ResourceCPU:    resource.MustParse("8"),
			corev1.ResourceMemory: resource.MustParse("32Gi"),
			corev1.ResourcePods:   resource.MustParse("110"),
		},
	}
}

// Nodes sets how many nodes the pool has.
func (b *NodePoolBuilder) Nodes(n int) *NodePoolBuilder { b.nodes = n; return b }

// TPU makes the pool a TPU slice: accelerator type, topology and chips per node.
func (b *NodePoolBuilder) TPU(accelerator, topology string, chipsPerNode int64) *NodePoolBuilder {
	b.labels[wellknown.TPUAcceleratorLabel] = accelerator
	b.labels[wellknown.TPUTopologyLabel] = topology
	b.capacity[wellknown.ResourceTPU] = *resource.NewQuantity(chipsPerNode, resource.DecimalSI)
	return b
}

// GPU gives every node count GPUs of the given model.
func (b *NodePoolBuilder) GPU(model string, count int64) *NodePoolBuilder {
	b.labels[wellknown.GPUAcceleratorLabel] = model
	b.capacity[wellknown.ResourceGPU] = *resource.NewQuantity(count, resource.DecimalSI)
	return b
}

// Zone sets topology.kubernetes.io/zone.
func (b *NodePoolBuilder) Zone(zone string) *NodePoolBuilder {
	b.labels[wellknown.ZoneLabel] = zone
	return b
}

// Label adds a label to every node.
func (b *NodePoolBuilder) Label(key, value string) *NodePoolBuilder {
	b.labels[key] = value
	return b
}

// Capacity sets one resource's capacity (and allocatable) per node.
func (b *NodePoolBuilder) Capacity(name corev1.ResourceName, quantity string) *NodePoolBuilder {
	b.capacity[name] = resource.MustParse(quantity)
	return b
}

// Taint adds a taint to every node.
func (b *NodePoolBuilder) Taint(t corev1.Taint) *NodePoolBuilder {
	b.taints = append(b.taints, t)
	return b
}

// NotReady marks the nodes NotReady.
func (b *NodePoolBuilder) NotReady() *NodePoolBuilder { b.notReady = true; return b }

// NodeName is the name of the i-th node of the pool.
func (b *NodePoolBuilder) NodeName(i int) string { return fmt.Sprintf("%s-node-%d", b.name, i) }

// Build returns the pool's nodes, named <pool>-node-<i>.
func (b *NodePoolBuilder) Build() []*corev1.Node {
	ready := corev1.ConditionTrue
	if b.notReady {
		ready = corev1.ConditionFalse
	}
	nodes := make([]*corev1.Node, 0, b.nodes)
	for i := range b.nodes {
		labels := maps.Clone(b.labels)
		labels[corev1.LabelHostname] = b.NodeName(i)
		nodes = append(nodes, &corev1.Node{
			ObjectMeta: metav1.ObjectMeta{Name: b.NodeName(i), Labels: labels},
			Spec:       corev1.NodeSpec{Taints: append([]corev1.Taint(nil), b.taints...)},
			Status: corev1.NodeStatus{
				Capacity:    b.capacity.DeepCopy(),
				Allocatable: b.capacity.DeepCopy(),
				Conditions: []corev1.NodeCondition{{
					Type:   corev1.NodeReady,
					Status: ready,
					Reason: "KubeletReady",
				}},
				Phase: corev1.NodeRunning,
			},
		})
	}
	return nodes
}
