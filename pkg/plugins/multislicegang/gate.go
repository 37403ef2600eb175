package multislicegang

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
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
	rt *feed.Runtime
	// state is the shared state; nil until MultisliceGang attached it.
	state func() *state.State
	// permitTimeout is the profile's MultisliceGang permit timeout.
	permitTimeout func() time.Duration
}

var (
	_ fwk.PreEnqueuePlugin  = &Gate{}
	_ fwk.EnqueueExtensions = &Gate{}
)

// GateFactory returns the gate's factory for one scheduler; it reads the
// state MultisliceGang's factory builds on the same runtime.
func GateFactory(rt *feed.Runtime) frameworkruntime.PluginFactory {
	return func(_ context.Context, _ runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		profile := h.ProfileName()
		rt.AttachGate(profile)
		return &Gate{rt: rt, state: rt.State, permitTimeout: func() time.Duration { return rt.PermitTimeout(profile) }}, nil
	}
}

// Name implements fwk.Plugin.
func (g *Gate) Name() string { return GateName }

// PreEnqueue keeps a gang pod out of the active queue until every member
// that can exist yet exists, so incomplete gangs are not retried in a loop,
// and a queued workload out until its queue admits it.
func (g *Gate) PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status {
	st := g.state()
	if st == nil {
		// Unreachable once started: Setup refuses a profile with the gate
		// and without MultisliceGang.
		return nil
	}
	if !g.rt.Leading() {
		// A standby decides nothing: it neither charges quota nor lets a
		// head plan, and says nothing about decisions it did not take.
		// Its pods are activated once it leads, and decided then on what
		// the API shows (see feed.Runtime.Attach).
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, WaitingForLeadership)
	}
	v := st.Admit(pod)
	if v.Gang && !v.Wait && !v.Unresolvable {
		// A head whose queue provisions capacity first reserves its quota
		// here, and waits gated for the capacity: it never goes through a
		// scheduling cycle (nor is reported unschedulable, which would
		// send an autoscaler provisioning for it a second way) before it
		// can be placed.
		done, msg, problem := st.ReserveForCheck(pod)
		if !done {
			if v.Member.Key.Source == workload.SourcePod {
				g.admitAlone(ctx, st, pod)
			}
			g.rt.Released(pod)
			return nil
		}
		reason := "QuotaReserved"
		if problem != nil {
			reason = problem.Reason
		} else {
			g.rt.PokeProvisioning()
		}
		g.rt.Events().Normal(&v.Ref, reason, msg)
		g.rt.Held(pod, reason, msg, false)
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, msg)
	}
	if !v.Gang {
		g.rt.Released(pod)
		return nil
	}
	switch {
	case v.Unresolvable:
		g.rt.Events().WarnPod(pod, &v.Ref, state.ReasonGangBlocked, v.Message)
	case v.QueueReason != "":
		// Why its queue keeps it waiting (the sink drops repeats): a
		// Warning when only the user can fix it (a LocalQueue missing, a
		// workload larger than its queue can ever hold), Normal when it
		// waits its turn.
		if v.QueueNeedsAction {
			g.rt.Events().Warn(&v.Ref, v.QueueReason, v.Message)
		} else {
			g.rt.Events().Normal(&v.Ref, v.QueueReason, v.Message)
		}
		metrics.QueueRejections.WithLabelValues(v.QueueReason).Inc()
	}
	if len(v.Wake) > 0 {
		// PreEnqueue runs under the scheduling queue's lock, which
		// activating takes: activate once this call has returned.
		go g.rt.Act(context.WithoutCancel(ctx), state.Actions{Activate: v.Wake})
	}
	// The pod itself says why it waits, where kubectl describe pod shows
	// it: no scheduling cycle will.
	switch {
	case v.Unresolvable:
		g.rt.Held(pod, state.ReasonGangBlocked, v.Message, true)
	case v.QueueReason != "":
		// The head speaks for its gang: every member waits for the same.
		g.rt.HeldAll(st.PendingMembers(v.Member.Key), v.QueueReason, v.Message, v.QueueNeedsAction)
	default:
		g.rt.HeldWaiting(pod, state.ReasonWaitingForGang, v.Message)
	}
	return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, v.Message)
}

// admitAlone charges a queued plain pod's quota as the pod passes the
// gate, not in its scheduling cycle: otherwise every pod created while
// quota is free passes, since none of them is charged yet, and those
// beyond the quota each spend a cycle to learn it and wait in the
// unschedulable queue instead of gated. The reservation lasts the permit
// timeout, as one made in PreFilter; a pod that waits longer in the active
// queue is charged again in its cycle. When the charge fails (the verdict
// let the pod through to preempt, or a concurrent change took the quota)
// the pod goes on, and its cycle says why.
func (g *Gate) admitAlone(ctx context.Context, st *state.State, pod *corev1.Pod) {
	timeout := g.permitTimeout()
	if timeout <= 0 {
		// Unreachable once started: every profile with the gate builds
		// MultisliceGang too. Its cycle charges it instead.
		return
	}
	_, _, acts := st.AdmitAlone(pod, timeout)
	if !acts.Empty() {
		// Under the scheduling queue's lock: see PreEnqueue.
		go g.rt.Act(context.WithoutCancel(ctx), acts)
	}
}

// EventsToRegister implements fwk.EnqueueExtensions: see Gate.
func (g *Gate) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: hintOwnLabels},
	}, nil
}
