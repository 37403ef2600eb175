package admission

import (
	"slices"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// ForcedCharge decides, on the copy state.RunningCharge took, what a
// workload found running with no record of its admission is charged:
// each slice to its queue's first flavor of each group that admits the
// node its pods run on (quota.View.Force), whether or not the quota has
// room — it runs already, and what it uses must be counted before
// anything else is admitted. A slice with no pod on a node takes each
// group's first flavor the queue has.
func ForcedCharge(rc state.RunningCharge) *quota.Charge {
	if rc.ClusterQueue == nil || rc.View == nil {
		return nil
	}
	needs := slices.Clone(rc.Needs)
	for i := range needs {
		if labels, ok := rc.NodeLabels[i]; ok {
			needs[i].Compatible = func(f *quota.Flavor) bool { return f.Matches(labels) }
		}
	}
	return rc.View.Force(rc.ClusterQueue, needs)
}
