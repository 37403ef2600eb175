package multislicegang

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// EventsToRegister lists the cluster events that can make a pod this plugin
// rejected (in PreFilter, Filter or Permit; the gate holds pods back before
// that) schedulable. Members arriving, JobSet/PodGroup changes and
// reservations ending are not cluster events the framework watches, and
// would wake far more pods than they concern: for those the state activates
// exactly the affected pods. Capacity freed is registered as well although
// the state wakes waiting heads itself: the scheduler's cache, which the
// head's next plan reads, may not have caught up when the state does; the
// framework's own event comes after its cache.
func (pl *Plugin) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// A pod leaving a node frees room, and maybe a whole domain.
		{Event: fwk.ClusterEvent{Resource: fwk.AssignedPod, ActionType: fwk.Delete}, QueueingHintFn: pl.hintPodDeleted},
		// New or changed nodes can form a domain that was missing.
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable | fwk.UpdateNodeTaint | fwk.UpdateNodeCondition}, QueueingHintFn: pl.hintNodeChanged},
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: hintOwnLabels},
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
	if pl.m.WaitsForCapacity(pod) {
		logger.V(5).Info("Room freed for a waiting gang", "pod", klog.KObj(pod), "deleted", klog.KObj(deleted))
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

// hintNodeChanged: a node that joined or changed may be the room a waiting
// head needs, or a node its reservation planned on that the scheduler's
// cache did not hold when the pod last tried (see PostFilter).
func (pl *Plugin) hintNodeChanged(_ klog.Logger, pod *corev1.Pod, _, newObj any) (fwk.QueueingHint, error) {
	if pl.m.WaitsForCapacity(pod) {
		return fwk.Queue, nil
	}
	if node, ok := newObj.(*corev1.Node); ok && pl.m.PlansOn(pod, node.Name) {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

// hintOwnLabels: a pod whose membership labels were malformed, or now name
// another workload, is worth retrying.
func hintOwnLabels(_ klog.Logger, _ *corev1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
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
