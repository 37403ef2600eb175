package admission

import (
	"context"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// PreemptOutcome runs a gang member's preemption as Preempt does, and
// returns what it decided.
func (e *Engine) PreemptOutcome(ctx context.Context, pod *corev1.Pod, planned *state.Snapshot, requested state.Requested) PreemptionOutcome {
	return e.preemptFor(ctx, pod, Classify(e.st, pod), planned, requested)
}

// PostFilterOutcome runs PostFilter as the Manager does, and returns what
// it decided.
func (e *Engine) PostFilterOutcome(ctx context.Context, pod *corev1.Pod, f FilterFailure) PostFilterOutcome {
	return e.postFilter(ctx, pod, f)
}
