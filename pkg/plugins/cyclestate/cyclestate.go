// Package cyclestate carries what the manager decided in a pod's
// PreFilter (an admission.Cycle, immutable) through the framework's cycle
// state to the later extension points of the same cycle, in whichever
// plugin they run: the gang plugin writes it, the preemption plugin reads
// it, and neither imports the other.
package cyclestate

import (
	"fmt"

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

// Read returns the cycle PreFilter recorded in cs. The error wraps
// fwk.ErrNotFound when MultisliceGang's PreFilter did not run in this
// cycle: after Filter that is a broken invariant (the framework runs
// every PreFilter before any Filter, and Filter only when none rejected
// the pod), while PostFilter also runs after another plugin's PreFilter
// rejected the pod, before ours ran.
func Read(cs fwk.CycleState) (*admission.Cycle, error) {
	data, err := cs.Read(key)
	if err != nil {
		return nil, fmt.Errorf("reading %q from the cycle state: %w (MultisliceGang's PreFilter did not run in this cycle)", key, err)
	}
	e, ok := data.(*entry)
	if !ok {
		return nil, fmt.Errorf("reading %q from the cycle state: got %T, want the cycle MultisliceGang's PreFilter writes", key, data)
	}
	return e.c, nil
}
