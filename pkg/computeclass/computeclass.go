// Package computeclass is the rule of GKE's ComputeClass (seed 001), in
// one place for the scheduler and the local cluster's simulated node
// auto-provisioning: which priority of a class a node was created from,
// judged by the node's labels; how long a node lives (its end of life and,
// for flex-start nodes with node recycling, when its replacement starts);
// and whether a class is valid. It is framework-free: functions of the
// objects and of the time they are given.
package computeclass

import (
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Capacity is the kind of VM a priority asks for, or a node is.
type Capacity string

// The kinds of capacity.
const (
	// OnDemand VMs run until deleted (or for maxRunDurationSeconds).
	OnDemand Capacity = "on-demand"
	// Spot VMs may be preempted at any time.
	Spot Capacity = "spot"
	// FlexStart VMs are obtained as capacity becomes available, one by
	// one, and run for a bounded time.
	FlexStart Capacity = "flex-start"
)

// DefaultFlexStartMaxRunDuration is how long a flex-start node runs when
// its priority sets no maxRunDurationSeconds, and the longest it may.
const DefaultFlexStartMaxRunDuration = 7 * 24 * time.Hour

// maxDuration bounds the durations a class may ask for (100 years), so
// that adding one to a time cannot overflow.
const maxDuration = 100 * 365 * 24 * time.Hour

// PriorityCapacity is the kind of VM a priority asks for.
func PriorityCapacity(p *cloudv1.Priority) Capacity {
	switch {
	case p.FlexStart != nil && p.FlexStart.Enabled:
		return FlexStart
	case p.Spot != nil && *p.Spot:
		return Spot
	default:
		return OnDemand
	}
}

// NodeCapacity is the kind of VM a node is, from GKE's labels.
func NodeCapacity(node *corev1.Node) Capacity {
	switch {
	case node.Labels[wellknown.FlexStartLabel] == "true":
		return FlexStart
	case node.Labels[wellknown.SpotLabel] == "true":
		return Spot
	default:
		return OnDemand
	}
}

// NodeClass is the class a node was created for; "" for none.
func NodeClass(node *corev1.Node) string { return node.Labels[wellknown.ComputeClassLabel] }

// PodClass is the class a pod selects through its node selector; "" for
// none.
func PodClass(pod *corev1.Pod) string { return pod.Spec.NodeSelector[wellknown.ComputeClassLabel] }

// MachineFamily is the Compute Engine machine series of a machine type:
// what comes before its first dash (g2-standard-24 → g2).
func MachineFamily(machineType string) string {
	family, _, _ := strings.Cut(machineType, "-")
	return family
}

// seconds converts a number of seconds of a class into a duration,
// bounded by maxDuration; ok is false for nil.
func seconds(s *int64) (time.Duration, bool) {
	if s == nil {
		return 0, false
	}
	switch {
	case *s <= 0:
		return 0, true
	case *s > int64(maxDuration/time.Second):
		return maxDuration, true
	}
	return time.Duration(*s) * time.Second, true
}

// MaxRunDuration is how long a node of a priority may run: its
// maxRunDurationSeconds, else DefaultFlexStartMaxRunDuration for
// flex-start; zero for none (spot and on-demand nodes without the field).
func MaxRunDuration(p *cloudv1.Priority) time.Duration {
	if d, ok := seconds(p.MaxRunDurationSeconds); ok && d > 0 {
		return d
	}
	if PriorityCapacity(p) == FlexStart {
		return DefaultFlexStartMaxRunDuration
	}
	return 0
}

// LeadTime is how long before a node's end of life its replacement is
// started: flexStart.nodeRecycling.leadTimeSeconds. ok is false when the
// priority's nodes are not recycled (not flex-start, or no nodeRecycling
// with a lead time).
func LeadTime(p *cloudv1.Priority) (lead time.Duration, ok bool) {
	if PriorityCapacity(p) != FlexStart || p.FlexStart.NodeRecycling == nil {
		return 0, false
	}
	return seconds(p.FlexStart.NodeRecycling.LeadTimeSeconds)
}

// NodeLabels are the labels GKE gives a node it creates for priority p of
// class on machineType (the priority's own when it names one): the class,
// the kind of VM, the machine type and family, and the accelerator's.
func NodeLabels(class string, p *cloudv1.Priority, machineType string) map[string]string {
	labels := map[string]string{wellknown.ComputeClassLabel: class}
	switch PriorityCapacity(p) {
	case Spot:
		labels[wellknown.SpotLabel] = "true"
	case FlexStart:
		labels[wellknown.FlexStartLabel] = "true"
	}
	if machineType == "" {
		machineType = p.MachineType
	}
	if machineType != "" {
		labels[corev1.LabelInstanceTypeStable] = machineType
		labels[wellknown.MachineFamilyLabel] = MachineFamily(machineType)
	} else if p.MachineFamily != "" {
		labels[wellknown.MachineFamilyLabel] = p.MachineFamily
	}
	if p.GPU != nil && p.GPU.Type != "" {
		labels[wellknown.GPUAcceleratorLabel] = p.GPU.Type
	}
	if p.TPU != nil {
		if p.TPU.Type != "" {
			labels[wellknown.TPUAcceleratorLabel] = p.TPU.Type
		}
		if p.TPU.Topology != "" {
			labels[wellknown.TPUTopologyLabel] = p.TPU.Topology
		}
	}
	return labels
}

// Matches reports whether node could have been created for priority p of
// class: it carries the class's label, is of the priority's kind of VM,
// and its machine type, family, accelerator and cores are what the
// priority asks for.
func Matches(class *cloudv1.ComputeClass, p *cloudv1.Priority, node *corev1.Node) bool {
	l := node.Labels
	if l[wellknown.ComputeClassLabel] != class.Name || NodeCapacity(node) != PriorityCapacity(p) {
		return false
	}
	machineType := l[corev1.LabelInstanceTypeStable]
	if p.MachineType != "" && machineType != p.MachineType {
		return false
	}
	if p.MachineFamily != "" {
		family := l[wellknown.MachineFamilyLabel]
		if family == "" {
			family = MachineFamily(machineType)
		}
		if family != p.MachineFamily {
			return false
		}
	}
	if p.GPU != nil && p.GPU.Type != "" && l[wellknown.GPUAcceleratorLabel] != p.GPU.Type {
		return false
	}
	if p.TPU != nil {
		if p.TPU.Type != "" && l[wellknown.TPUAcceleratorLabel] != p.TPU.Type {
			return false
		}
		if p.TPU.Topology != "" && l[wellknown.TPUTopologyLabel] != p.TPU.Topology {
			return false
		}
	}
	if p.MinCores != nil && *p.MinCores > 0 {
		if cpu, ok := node.Status.Capacity[corev1.ResourceCPU]; ok && cpu.Cmp(*resource.NewQuantity(int64(*p.MinCores), resource.DecimalSI)) < 0 {
			return false
		}
	}
	return true
}

// MatchPriority is the index of the first priority of class that node
// could have been created for (Matches), or -1.
func MatchPriority(class *cloudv1.ComputeClass, node *corev1.Node) int {
	if class == nil {
		return -1
	}
	for i := range class.Spec.Priorities {
		if Matches(class, &class.Spec.Priorities[i], node) {
			return i
		}
	}
	return -1
}
