// Package builders offers fluent builders for the Kubernetes objects that
// unit, integration and benchmark tests create: accelerator node pools,
// pods, JobSets and their pods, and PodGroups.
package builders

import (
	"fmt"
	"strconv"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// NodeBuilder builds one node.
type NodeBuilder struct {
	node *corev1.Node
}

// Node starts a Ready node of no pool with 8 CPUs, 32Gi memory and 110 pods.
func Node(name string) *NodeBuilder {
	capacity := corev1.ResourceList{
		corev1.ResourceCPU:    resource.MustParse("8"),
		corev1.ResourceMemory: resource.MustParse("32Gi"),
		corev1.ResourcePods:   resource.MustParse("110"),
	}
	b := &NodeBuilder{node: &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{corev1.LabelHostname: name}},
		Status: corev1.NodeStatus{
			Capacity:    capacity,
			Allocatable: capacity.DeepCopy(),
			Phase:       corev1.NodeRunning,
		},
	}}
	return b.Ready(corev1.ConditionTrue)
}

// TPU makes the node a host of a TPU slice: accelerator type, topology and
// chips.
func (b *NodeBuilder) TPU(accelerator, topology string, chips int64) *NodeBuilder {
	b.node.Labels[wellknown.TPUAcceleratorLabel] = accelerator
	b.node.Labels[wellknown.TPUTopologyLabel] = topology
	return b.quantity(wellknown.ResourceTPU, *resource.NewQuantity(chips, resource.DecimalSI))
}

// GPU gives the node count GPUs of the given model.
func (b *NodeBuilder) GPU(model string, count int64) *NodeBuilder {
	b.node.Labels[wellknown.GPUAcceleratorLabel] = model
	return b.quantity(wellknown.ResourceGPU, *resource.NewQuantity(count, resource.DecimalSI))
}

// Zone sets topology.kubernetes.io/zone.
func (b *NodeBuilder) Zone(zone string) *NodeBuilder { return b.Label(wellknown.ZoneLabel, zone) }

// Label adds a label.
func (b *NodeBuilder) Label(key, value string) *NodeBuilder {
	b.node.Labels[key] = value
	return b
}

// Capacity sets one resource's capacity (and allocatable).
func (b *NodeBuilder) Capacity(name corev1.ResourceName, quantity string) *NodeBuilder {
	return b.quantity(name, resource.MustParse(quantity))
}

func (b *NodeBuilder) quantity(name corev1.ResourceName, q resource.Quantity) *NodeBuilder {
	b.node.Status.Capacity[name] = q
	b.node.Status.Allocatable[name] = q.DeepCopy()
	return b
}

// Taint adds a taint.
func (b *NodeBuilder) Taint(t corev1.Taint) *NodeBuilder {
	b.node.Spec.Taints = append(b.node.Spec.Taints, t)
	return b
}

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *NodeBuilder) Created(t time.Time) *NodeBuilder {
	b.node.CreationTimestamp = metav1.NewTime(t)
	return b
}

// Unschedulable cordons the node.
func (b *NodeBuilder) Unschedulable() *NodeBuilder {
	b.node.Spec.Unschedulable = true
	return b
}

// Ready sets the status of the node's Ready condition, as its kubelet (or,
// for Unknown, the node lifecycle controller) reports it.
func (b *NodeBuilder) Ready(status corev1.ConditionStatus) *NodeBuilder {
	reason := "KubeletReady"
	if status != corev1.ConditionTrue {
		reason = "KubeletNotReady"
	}
	b.node.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status, Reason: reason}}
	return b
}

// NotReady marks the node NotReady.
func (b *NodeBuilder) NotReady() *NodeBuilder { return b.Ready(corev1.ConditionFalse) }

// Heartbeat changes only what a kubelet's status heartbeat at time at
// changes: the conditions' heartbeat time, and so the resource version.
func (b *NodeBuilder) Heartbeat(at time.Time) *NodeBuilder {
	b.node.ResourceVersion = strconv.FormatInt(at.Unix(), 10)
	for i := range b.node.Status.Conditions {
		b.node.Status.Conditions[i].LastHeartbeatTime = metav1.NewTime(at)
	}
	return b
}

// Obj returns the node.
func (b *NodeBuilder) Obj() *corev1.Node { return b.node.DeepCopy() }

// NodePoolBuilder builds the nodes of one GKE-style node pool: alike but
// for their names.
type NodePoolBuilder struct {
	name  string
	nodes int
	node  *NodeBuilder
}

// NodePool starts a pool of one node as Node starts it, in the pool.
func NodePool(name string) *NodePoolBuilder {
	return &NodePoolBuilder{name: name, nodes: 1, node: Node("").Label(wellknown.NodePoolLabel, name)}
}

// Nodes sets how many nodes the pool has.
func (b *NodePoolBuilder) Nodes(n int) *NodePoolBuilder { b.nodes = n; return b }

// TPU makes the pool a TPU slice: accelerator type, topology and chips per node.
func (b *NodePoolBuilder) TPU(accelerator, topology string, chipsPerNode int64) *NodePoolBuilder {
	b.node.TPU(accelerator, topology, chipsPerNode)
	return b
}

// GPU gives every node count GPUs of the given model.
func (b *NodePoolBuilder) GPU(model string, count int64) *NodePoolBuilder {
	b.node.GPU(model, count)
	return b
}

// Zone sets topology.kubernetes.io/zone.
func (b *NodePoolBuilder) Zone(zone string) *NodePoolBuilder { b.node.Zone(zone); return b }

// Label adds a label to every node.
func (b *NodePoolBuilder) Label(key, value string) *NodePoolBuilder {
	b.node.Label(key, value)
	return b
}

// Capacity sets one resource's capacity (and allocatable) per node.
func (b *NodePoolBuilder) Capacity(name corev1.ResourceName, quantity string) *NodePoolBuilder {
	b.node.Capacity(name, quantity)
	return b
}

// Taint adds a taint to every node.
func (b *NodePoolBuilder) Taint(t corev1.Taint) *NodePoolBuilder { b.node.Taint(t); return b }

// Unschedulable cordons the nodes.
func (b *NodePoolBuilder) Unschedulable() *NodePoolBuilder { b.node.Unschedulable(); return b }

// Ready sets the status of the nodes' Ready condition.
func (b *NodePoolBuilder) Ready(status corev1.ConditionStatus) *NodePoolBuilder {
	b.node.Ready(status)
	return b
}

// NotReady marks the nodes NotReady.
func (b *NodePoolBuilder) NotReady() *NodePoolBuilder { b.node.NotReady(); return b }

// Heartbeat gives the nodes a kubelet status heartbeat at time at.
func (b *NodePoolBuilder) Heartbeat(at time.Time) *NodePoolBuilder { b.node.Heartbeat(at); return b }

// NodeName is the name of the i-th node of the pool.
func (b *NodePoolBuilder) NodeName(i int) string { return fmt.Sprintf("%s-node-%d", b.name, i) }

// NodeNames are the names of the pool's nodes, in order.
func (b *NodePoolBuilder) NodeNames() []string {
	out := make([]string, 0, b.nodes)
	for i := range b.nodes {
		out = append(out, b.NodeName(i))
	}
	return out
}

// Node returns the i-th node of the pool, named NodeName(i), whether or
// not i is below the pool's size.
func (b *NodePoolBuilder) Node(i int) *corev1.Node {
	n := b.node.Obj()
	n.Name = b.NodeName(i)
	n.Labels[corev1.LabelHostname] = n.Name
	return n
}

// Build returns the pool's nodes, named <pool>-node-<i>.
func (b *NodePoolBuilder) Build() []*corev1.Node {
	nodes := make([]*corev1.Node, 0, b.nodes)
	for i := range b.nodes {
		nodes = append(nodes, b.Node(i))
	}
	return nodes
}
