package multislicegang

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// WaitingForLeadership is why a standby replica holds every pod back.
const WaitingForLeadership = "waiting for this scheduler replica to lead (it is a standby)"

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
	rt    sharedRuntime
	state *state.State
	// permitTimeout is the profile's MultisliceGang permit timeout.
	permitTimeout func() time.Duration
}

var (
	_ fwk.PreEnqueuePlugin  = &Gate{}
	_ fwk.EnqueueExtensions = &Gate{}
)

// GateFactory returns the gate's factory for one scheduler.
func GateFactory(rt *feed.Runtime) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		profile := h.ProfileName()
		rt.AttachGate(profile)
		return &Gate{rt: rt, state: rt.State(), permitTimeout: func() time.Duration { return rt.PermitTimeout(profile) }}, nil
	}
}

// Name implements fwk.Plugin.
func (g *Gate) Name() string { return GateName }

// PreEnqueue keeps a gang pod out of the active queue until every member
// that can exist yet exists, so incomplete gangs are not retried in a loop,
// and a queued workload out until its queue admits it.
func (g *Gate) PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status {
	if !g.rt.Leading() {
		// A standby decides nothing: it neither charges quota nor lets a
		// head plan, and says nothing about decisions it did not take.
		// Its pods are activated once it leads, and decided then on what
		// the API shows (see feed.Runtime.Attach).
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, WaitingForLeadership)
	}
	out := admission.PreEnqueue(g.state, pod, g.permitTimeout())
	if !out.Later.Empty() {
		// PreEnqueue runs under the scheduling queue's lock, which
		// activating takes: act once this call has returned.
		go g.rt.Act(context.WithoutCancel(ctx), out.Later)
	}
	if out.Pass {
		g.rt.Released(pod)
		return nil
	}
	if out.ProvisioningReserved {
		g.rt.PokeProvisioning()
	}
	if e := out.Event; e.Reason != "" {
		// The sink drops repeats.
		switch {
		case out.OnPod:
			g.rt.Events().WarnPod(pod, &out.Ref, e.Reason, e.Message)
		case e.Warning:
			g.rt.Events().Warn(&out.Ref, e.Reason, e.Message)
		default:
			g.rt.Events().Normal(&out.Ref, e.Reason, e.Message)
		}
	}
	if out.QueueRejection != "" {
		metrics.QueueRejections.WithLabelValues(out.QueueRejection).Inc()
	}
	// The pod itself says why it waits, where kubectl describe pod shows
	// it: no scheduling cycle will.
	switch h := out.Hold; {
	case out.HoldAll != nil:
		g.rt.HeldAll(out.HoldAll, h.Reason, h.Message, h.Warning)
	case out.HoldWeak:
		g.rt.HeldWaiting(pod, h.Reason, h.Message)
	default:
		g.rt.Held(pod, h.Reason, h.Message, h.Warning)
	}
	return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, out.Message)
}

// EventsToRegister implements fwk.EnqueueExtensions: see Gate.
func (g *Gate) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: hintOwnLabels},
	}, nil
}
