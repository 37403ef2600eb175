package admission

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// PlanMove decides whether unit u, a slice on nodes being recycled, can
// be placed again now were its pods evicted: Plan, the rule every gang is
// placed by (a distinct free domain per confined slice, room on nodes for
// every pod, quota), made on the workload as it would stand without the
// slice's pods and with the nodes that do not last left out
// (state.SnapshotForMove). The other slices stay where they are and hold
// their domains; the slice may go back to its own domain (its recycled
// nodes' replacements join it) or to another. It returns where the slice
// would go, or why it cannot move now. A plain pod is not planned here:
// the scheduler's own filters place it.
// sn is the copy the plan is made on (State.SnapshotForMove; unread for a
// plain pod); where the slice goes is held for it by State.Apply
// (Decision.Hold), which refuses it if the state moved meanwhile.
func PlanMove(sn *state.Snapshot, u state.MigrationUnit) (*state.Reservation, *placement.Failure) {
	if u.Plain() {
		return &state.Reservation{}, nil
	}
	return Plan(sn)
}
