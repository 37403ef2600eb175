package admission

import (
	"context"

	corev1 "k8s.io/api/core/v1"
)

// PreFilterOutcome runs a pod's cycle as PreFilter does and returns the
// whole outcome, for the tests to read what PreFilter maps to a status.
func (e *Engine) PreFilterOutcome(ctx context.Context, pod *corev1.Pod, nodes NodeSnapshot) PreFilterOutcome {
	return e.preFilter(ctx, pod, nodes)
}
