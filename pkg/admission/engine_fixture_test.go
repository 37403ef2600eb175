package admission_test

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// prefilter runs pod's scheduling cycle as the engine's PreFilter does,
// on a scheduler's snapshot with no pod on any node, with a permit and a
// follower timeout of a minute, handing what the state asks for to act.
func prefilter(st *state.State, pod *corev1.Pod, act func(state.Actions)) admission.PreFilterOutcome {
	return engineOf(st, act).PreFilterOutcome(context.Background(), pod, requestedFunc(nothingRequested))
}

// engineOf is the manager of st: it leads, hands what the state asks for
// to act (nil: drops it), and drops events.
func engineOf(st *state.State, act func(state.Actions)) *admission.Engine {
	eng := admission.NewEngine(st, effects{act: act}, nopNotifier{}, "MultisliceGang")
	for _, name := range st.Reports().Schedulers() {
		eng.AddProfile(admission.Profile{Name: name, PermitTimeout: time.Minute, FollowerTimeout: time.Minute})
	}
	return eng
}

// requestedFunc is a scheduler's snapshot of nodes that says only what
// pods on a node request.
type requestedFunc func(string) (workload.Resources, bool)

func (f requestedFunc) Requested(node string) (workload.Resources, bool) { return f(node) }
func (f requestedFunc) Fits(string, workload.Resources) (bool, bool)     { return false, false }

// effects leads and carries out nothing but handing actions to act.
type effects struct{ act func(state.Actions) }

func (effects) Leading() bool { return true }
func (f effects) Act(_ context.Context, acts state.Actions) {
	if f.act != nil {
		f.act(acts)
	}
}
func (effects) AllowWaiting(types.UID, string)                                                  {}
func (effects) RecordAdmission(context.Context, workload.Key, uint64, func(state.PermitResult)) {}
func (effects) PokeProvisioning()                                                               {}
func (effects) Held(*corev1.Pod, string, string, bool)                                          {}
func (effects) HeldAll([]state.PodRef, string, string, bool)                                    {}
func (effects) HeldWaiting(*corev1.Pod, string, string)                                         {}
func (effects) Released(*corev1.Pod)                                                            {}
func (effects) Evict(context.Context, []state.PodRef, string, string)                           {}

// nopNotifier drops events.
type nopNotifier struct{}

func (nopNotifier) Normal(*corev1.ObjectReference, string, string)               {}
func (nopNotifier) Warn(*corev1.ObjectReference, string, string)                 {}
func (nopNotifier) WarnPod(*corev1.Pod, *corev1.ObjectReference, string, string) {}
