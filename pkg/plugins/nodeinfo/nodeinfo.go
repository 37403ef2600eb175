// Package nodeinfo reads the scheduling cycle's snapshot of nodes in the
// model's units: what pods on a node request, and whether one more pod
// fits, as the scheduler's own resource filter counts them.
package nodeinfo

import (
	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Snapshot is the scheduling cycle's snapshot of nodes as decisions read
// it: they size free room as the scheduler's own filters do, assumed pods
// included.
type Snapshot struct {
	// NodeInfo reads a node (nil: no such node).
	NodeInfo func(name string) fwk.NodeInfo
}

var _ admission.NodeSnapshot = Snapshot{}

// SnapshotOf is the snapshot of h's scheduling cycles.
func SnapshotOf(h fwk.Handle) Snapshot { return Snapshot{NodeInfo: SnapshotNodeInfo(h)} }

// Requested implements admission.NodeSnapshot.
func (s Snapshot) Requested(node string) (workload.Resources, bool) {
	ni := s.NodeInfo(node)
	if ni == nil || ni.Node() == nil {
		return nil, false
	}
	if len(ni.GetPods()) == 0 {
		return nil, true // nothing requested: most nodes of an idle fleet
	}
	return RequestedOf(ni), true
}

// Fits implements admission.NodeSnapshot.
func (s Snapshot) Fits(node string, request workload.Resources) (known, fits bool) {
	ni := s.NodeInfo(node)
	if ni == nil || ni.Node() == nil {
		return false, false
	}
	return true, HasRoom(ni, request)
}

// SnapshotNodeInfo reads a node from the scheduling cycle's snapshot (nil
// when it has no such node).
func SnapshotNodeInfo(h fwk.Handle) func(name string) fwk.NodeInfo {
	return func(name string) fwk.NodeInfo {
		ni, err := h.SnapshotSharedLister().NodeInfos().Get(name)
		if err != nil {
			return nil
		}
		return ni
	}
}

// RequestedOf converts a NodeInfo's requests into the model's units.
func RequestedOf(ni fwk.NodeInfo) workload.Resources {
	req := ni.GetRequested()
	r := workload.Resources{
		corev1.ResourceCPU:              req.GetMilliCPU(),
		corev1.ResourceMemory:           req.GetMemory() * 1000,
		corev1.ResourceEphemeralStorage: req.GetEphemeralStorage() * 1000,
		corev1.ResourcePods:             int64(len(ni.GetPods())) * 1000,
	}
	for name, v := range req.GetScalarResources() {
		r[name] = v * 1000
	}
	return r
}

// HasRoom reports whether one more pod asking for request fits in what the
// node has left, by the NodeInfo's allocatable and requested resources as
// the scheduler's resource filter counts them. It allocates nothing: it is
// asked about every node of a flavor in one cycle.
func HasRoom(ni fwk.NodeInfo, request workload.Resources) bool {
	alloc, req := ni.GetAllocatable(), ni.GetRequested()
	for name, want := range request {
		if want <= 0 {
			continue
		}
		var left int64
		switch name {
		case corev1.ResourceCPU:
			left = alloc.GetMilliCPU() - req.GetMilliCPU()
		case corev1.ResourceMemory:
			left = (alloc.GetMemory() - req.GetMemory()) * 1000
		case corev1.ResourceEphemeralStorage:
			left = (alloc.GetEphemeralStorage() - req.GetEphemeralStorage()) * 1000
		case corev1.ResourcePods:
			left = int64(alloc.GetAllowedPodNumber()-len(ni.GetPods())) * 1000
		default:
			left = (alloc.GetScalarResources()[name] - req.GetScalarResources()[name]) * 1000
		}
		if left < want {
			return false
		}
	}
	return true
}
