package multislicegang

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// EventsToRegister lists the cluster events that can make a pod this plugin
// rejected schedulable. Changes to JobSets and PodGroups, and reservations
// being released, are not cluster events the framework watches: for those
// the plugin activates exactly the affected pods itself.
func (pl *Plugin) EventsToRegister(_ context.Context) ([]fwk.ClusterEventWithHint, error) {
	return []fwk.ClusterEventWithHint{
		// A new member may complete the set a gated pod waits for.
		{Event: fwk.ClusterEvent{Resource: fwk.UnscheduledPod, ActionType: fwk.Add}, QueueingHintFn: pl.hintMemberAdded},
		// A pod leaving a node frees capacity, and maybe a whole domain.
		{Event: fwk.ClusterEvent{Resource: fwk.AssignedPod, ActionType: fwk.Delete}, QueueingHintFn: pl.hintPodDeleted},
		// New or changed nodes can form a domain that was missing.
		{Event: fwk.ClusterEvent{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable | fwk.UpdateNodeTaint | fwk.UpdateNodeCondition}, QueueingHintFn: pl.hintNodeChanged},
		// Fixing a pod's malformed membership labels unblocks it.
		{Event: fwk.ClusterEvent{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel}, QueueingHintFn: pl.hintOwnLabels},
	}, nil
}

func (pl *Plugin) hintMemberAdded(logger klog.Logger, pod *corev1.Pod, _, newObj any) (fwk.QueueingHint, error) {
	added, ok := newObj.(*corev1.Pod)
	if !ok {
		return fwk.Queue, nil
	}
	target, isMember, err := workload.MemberOf(pod)
	if !isMember || err != nil {
		return fwk.QueueSkip, nil
	}
	other, isMember, err := workload.MemberOf(added)
	if isMember && err == nil && other.Key == target.Key {
		logger.V(5).Info("A member of the gang was created", "pod", klog.KObj(pod), "member", klog.KObj(added))
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

func (pl *Plugin) hintPodDeleted(_ klog.Logger, _ *corev1.Pod, oldObj, _ any) (fwk.QueueingHint, error) {
	deleted, ok := oldObj.(*corev1.Pod)
	if !ok || deleted.Spec.NodeName != "" {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}

func (pl *Plugin) hintNodeChanged(_ klog.Logger, pod *corev1.Pod, _, _ any) (fwk.QueueingHint, error) {
	// Plain pods are only ever rejected here for reserved domains, which
	// node changes do not release.
	if _, isMember, err := workload.MemberOf(pod); !isMember || err != nil {
		return fwk.QueueSkip, nil
	}
	return fwk.Queue, nil
}

func (pl *Plugin) hintOwnLabels(_ klog.Logger, _ *corev1.Pod, oldObj, newObj any) (fwk.QueueingHint, error) {
	oldPod, ok1 := oldObj.(*corev1.Pod)
	newPod, ok2 := newObj.(*corev1.Pod)
	if !ok1 || !ok2 {
		return fwk.Queue, nil
	}
	_, _, oldErr := workload.MemberOf(oldPod)
	_, _, newErr := workload.MemberOf(newPod)
	if oldErr != nil && newErr == nil {
		return fwk.Queue, nil
	}
	return fwk.QueueSkip, nil
}
