package admission

import (
	"fmt"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// EndsEarly says when a reservation planned on sn puts pods on a node that
// goes away before the workload's maximum run ends, which the plan only
// does when no node that lasts fits (planner.Request.Until): the workload
// runs, and is cut short then. "" when every node lasts, or the run
// length is not known.
func EndsEarly(sn *state.Snapshot, r *state.Reservation) string {
	if sn.RunUntil.IsZero() {
		return ""
	}
	var first time.Time
	var node string
	for _, sr := range r.Slices {
		for _, slot := range sr.Slots {
			n := sn.Nodes[slot.Node]
			if n == nil {
				continue
			}
			if end := n.Node.Lifetime.End; !end.IsZero() && end.Before(sn.RunUntil) && (first.IsZero() || end.Before(first)) {
				first, node = end, slot.Node
			}
		}
	}
	if first.IsZero() {
		return ""
	}
	return fmt.Sprintf("no capacity outlives its maximum run (until %s): node %s goes away at %s, %s into the run, and its pods with it",
		sn.RunUntil.UTC().Format(time.RFC3339), node, first.UTC().Format(time.RFC3339), first.Sub(sn.Now).Round(time.Second))
}
