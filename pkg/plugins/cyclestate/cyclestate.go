// Package cyclestate carries what the manager decided in a pod's
// PreFilter (an admission.Cycle, immutable) through the framework's cycle
// state to the later extension points of the same cycle, in whichever
// plugin they run: the gang plugin writes it, the preemption plugin reads
// it, and neither imports the other.
package cyclestate

import (
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
)

// key names the entry.
const key fwk.StateKey = "multislice.dev/cycle"

// entry wraps the cycle. The cycle is never changed once written, so a
// clone of the framework's cycle state shares it.
type entry struct{ c *admission.Cycle }

// Clone implements fwk.StateData.
func (e *entry) Clone() fwk.StateData { return e }

// Write records c in cs.
func Write(cs fwk.CycleState, c *admission.Cycle) { cs.Write(key, &entry{c: c}) }

// Read returns the cycle PreFilter recorded in cs (nil: none).
func Read(cs fwk.CycleState) *admission.Cycle {
	if data, err := cs.Read(key); err == nil {
		if e, ok := data.(*entry); ok {
			return e.c
		}
	}
	return nil
}
