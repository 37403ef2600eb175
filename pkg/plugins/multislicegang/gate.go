package multislicegang

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
)

// GateName is the gate's name in KubeSchedulerConfiguration. Every profile
// that enables MultisliceGang enables it too (a startup error says so).
const GateName = "MultisliceGate"

// Gate holds pods back in PreEnqueue until their workload may be
// scheduled: a gang until every member that can exist yet exists and its
// head has a reservation, a queued workload until its queue admits it, a
// workload of a provisioning queue until its capacity is provisioned. The
// state activates exactly the pods a change lets go.
//
// It is a plugin of its own, not MultisliceGang's PreEnqueue, because the
// scheduling queue re-evaluates a gated pod on every event its gating
// plugin registers. MultisliceGang registers pod deletions and node
// changes, to retry a gang waiting for room through its head; with queues,
// thousands of pods wait gated, and each pod that ended would have the
// queue ask about every one of them. The gate registers only the event
// that can unblock a pod it holds and that the state does not see for it:
// the pod's own labels fixed.
type Gate struct {
	m admission.Manager
}

var (
	_ fwk.PreEnqueuePlugin  = &Gate{}
	_ fwk.EnqueueExtensions = &Gate{}
)

// GateFactory returns the gate's factory for one scheduler.
func GateFactory(m admission.Manager, reg Registrar) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		reg.AttachGate(h.ProfileName())
		return &Gate{m: m}, nil
	}
}

// Name implements fwk.Plugin.
func (g *Gate) Name() string { return GateName }

// PreEnqueue keeps a gang pod out of the active queue until every member
// that can exist yet exists, so incomplete gangs are not retried in a loop,
// and a queued workload out until its queue admits it.
func (g *Gate) PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status {
	return toStatus(g.m.PreEnqueue(ctx, pod))
}

// EventsToRegister implements fwk.EnqueueExtensions: see Gate.
func (g *Gate) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: hintOwnLabels},
	}, nil
}
