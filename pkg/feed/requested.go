package feed

import (
	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// SnapshotRequested reads what the scheduling cycle's snapshot says pods on
// a node request: decisions size free room as the scheduler's own filters
// do, assumed pods included.
func SnapshotRequested(h fwk.Handle) state.Requested {
	return func(node string) (workload.Resources, bool) {
		ni, err := h.SnapshotSharedLister().NodeInfos().Get(node)
		if err != nil || ni.Node() == nil {
			return nil, false
		}
		return RequestedOf(ni), true
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

// PlanSnapshotKey is the cycle state key under which MultisliceGang's
// PreFilter leaves the snapshot a gang's failed plan was made on, for the
// PostFilter of the same cycle to preempt on instead of taking another.
const PlanSnapshotKey fwk.StateKey = "multislice.dev/plan-snapshot"

// PlanSnapshot is the cycle state entry under PlanSnapshotKey. Plan leaves
// a snapshot as it found it, so the entry is shared, never copied.
type PlanSnapshot struct{ Snapshot *state.Snapshot }

// Clone implements fwk.StateData.
func (p *PlanSnapshot) Clone() fwk.StateData { return p }
