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
func PlanMove(st *state.State, u state.MigrationUnit) (*state.Reservation, *placement.Failure) {
	if u.Plain() {
		return &state.Reservation{}, nil
	}
	return Plan(st.SnapshotForMove(u.Key, u.Slice))
}
