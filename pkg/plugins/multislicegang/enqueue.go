package multislicegang

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PreEnqueue keeps a gang pod out of the active queue until every member
// that can exist yet exists, so incomplete gangs are not retried in a loop.
// The state activates the members once, when the last one arrives.
func (pl *Plugin) PreEnqueue(_ context.Context, pod *corev1.Pod) *fwk.Status {
	v := pl.state.Admit(pod)
	if v.Gang && !v.Wait && !v.Unresolvable {
		// A head whose queue provisions capacity first reserves its quota
		// here, and waits gated for the capacity: it never goes through a
		// scheduling cycle (nor is reported unschedulable, which would
		// send an autoscaler provisioning for it a second way) before it
		// can be placed.
		done, msg, problem := pl.state.ReserveForCheck(pod)
		if !done {
			return nil
		}
		reason := "QuotaReserved"
		if problem != nil {
			reason = problem.Reason
		} else {
			pl.rt.PokeProvisioning()
		}
		pl.rt.Events().Normal(&v.Ref, reason, msg)
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, msg)
	}
	if !v.Gang {
		return nil
	}
	switch {
	case v.Unresolvable:
		pl.rt.Events().WarnPod(pod, &v.Ref, "GangBlocked", v.Message)
	case v.QueueReason != "":
		// Once per workload and message: why its queue keeps it waiting.
		pl.rt.Events().Normal(&v.Ref, v.QueueReason, v.Message)
		metrics.QueueRejections.WithLabelValues(v.QueueReason).Inc()
	}
	return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, v.Message)
}

// EventsToRegister lists the cluster events that can make a pod this plugin
// rejected schedulable. Members arriving, JobSet/PodGroup changes and
// reservations ending are not cluster events the framework watches, and
// would wake far more pods than they concern: for those the state activates
// exactly the affected pods.
func (pl *Plugin) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// A pod leaving a node frees room, and maybe a whole domain.
		{Event: fwk.ClusterEvent{Resource: fwk.AssignedPod, ActionType: fwk.Delete}, QueueingHintFn: pl.hintPodDeleted},
		// New or changed nodes can form a domain that was missing.
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable | fwk.UpdateNodeTaint | fwk.UpdateNodeCondition}, QueueingHintFn: pl.hintNodeChanged},
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: pl.hintOwnLabels},
	}, nil
}

// hintPodDeleted: a waiting gang retries through its one head pod; its
// other members come back when the head gets a reservation. A gang its
// queue keeps waiting is not retried for capacity: quota released wakes it. Plain pods are
// only ever rejected here for reservations, which a deleted pod does not end.
func (pl *Plugin) hintPodDeleted(logger klog.Logger, pod *corev1.Pod, oldObj, _ any) (fwk.QueueingHint, error) {
	deleted, ok := oldObj.(*corev1.Pod)
	if !ok {
		return fwk.Queue, nil
	}
	if deleted.Spec.NodeName == "" {
		return fwk.QueueSkip, nil
	}
	if pl.state.WaitsForCapacity(pod) {
		logger.V(5).Info("Room freed for a waiting gang", "pod", klog.KObj(pod), "deleted", klog.KObj(deleted))
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

func (pl *Plugin) hintNodeChanged(_ klog.Logger, pod *corev1.Pod, _, _ any) (fwk.QueueingHint, error) {
	if pl.state.WaitsForCapacity(pod) {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

func (pl *Plugin) hintOwnLabels(_ klog.Logger, _ *corev1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	oldPod, ok1 := oldObj.(*corev1.Pod)
	newPod, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 {
		return fwk.Queue, nil
	}
	oldM, _, oldErr := workload.MemberOf(oldPod)
	newM, _, newErr := workload.MemberOf(newPod)
	if (oldErr != nil && newErr == nil) || (newErr == nil && oldM != newM) {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}
