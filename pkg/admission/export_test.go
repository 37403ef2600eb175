package admission

import (
	"context"
	"time"

	"k8s.io/apimachinery/pkg/util/sets"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// PreFilterOutcome runs a pod's cycle as PreFilter does and returns the
// whole outcome, for the tests to read what PreFilter maps to a status.
func (e *Engine) PreFilterOutcome(ctx context.Context, pod *corev1.Pod, nodes NodeSnapshot) PreFilterOutcome {
	return e.preFilter(ctx, pod, nodes)
}

// DecideGate is the gate's rule on a copy, for the table tests.
func DecideGate(c state.PodCycle, behindHead bool) (state.Verdict, *quota.Problem) {
	return decideGate(c, behindHead)
}

// DecidePreEnqueue is the gate's whole decision on a copy, for the table
// tests; Settle completes its outcome with what Apply did.
func DecidePreEnqueue(c state.PodCycle, permitTimeout time.Duration) (PreEnqueueOutcome, state.Decision) {
	return decidePreEnqueue(&c, permitTimeout)
}

func (out *PreEnqueueOutcome) Settle(d state.Decision, a state.Applied) { out.settle(d, a) }

// ReservedNodes is where a member may go under reservation r, for the
// table tests.
func ReservedNodes(r *state.Reservation, pod *state.Pod, domain []string) []string {
	return sets.List(reservedNodes(r, pod, domain))
}
