package admission

import "github.com/multislice-scheduler/multislice-scheduler/pkg/state"

// decideVictim is the rule for a plain pod's preemption, pod by pod, on
// its copy c alone: it never evicts a gang's pod (gang: only a whole
// workload's preemption may, and that is decided elsewhere), and never
// takes a node of a domain reserved for a slice other than the
// preemptor's own.
func decideVictim(c state.VictimCycle) (ok, gang bool) {
	if c.GangVictim {
		return false, true
	}
	if c.Reserved && !(c.Gang && c.Key == c.ReservedFor && c.Slice == c.ReservedSlice) {
		return false, false
	}
	return true, false
}
