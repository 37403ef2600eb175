package feed

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Evict marks each pod DisruptionTarget (reason, message) and deletes it,
// as the scheduler does for preemption: the owner sees why its pods went.
// Pods already gone are skipped; errors are logged. Only the leader evicts.
func (rt *Runtime) Evict(ctx context.Context, pods []state.PodRef, reason, message string) {
	rt.mu.Lock()
	handles := rt.handles
	rt.mu.Unlock()
	if len(handles) == 0 || !rt.Leading() {
		return
	}
	h := handles[0]
	logger := klog.FromContext(ctx)
	lister := h.SharedInformerFactory().Core().V1().Pods().Lister()
	cs := h.ClientSet()
	for _, ref := range pods {
		pod, err := lister.Pods(ref.Namespace).Get(ref.Name)
		if err != nil || pod.UID != ref.UID || pod.DeletionTimestamp != nil {
			continue
		}
		cond := &corev1.PodCondition{
			Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: reason, Message: pod.Spec.SchedulerName + ": " + message, LastTransitionTime: metav1.Now(),
		}
		status := pod.Status.DeepCopy()
		ReplacePodCondition(status, cond)
		if err := schedutil.PatchPodStatus(ctx, cs, pod.Name, pod.Namespace, &pod.Status, status); err != nil && !apierrors.IsNotFound(err) {
			logger.Error(err, "Could not mark an evicted pod DisruptionTarget", "pod", klog.KObj(pod), "reason", reason)
		}
		if err := schedutil.DeletePod(ctx, cs, pod); err != nil && !apierrors.IsNotFound(err) {
			logger.Error(err, "Could not delete an evicted pod", "pod", klog.KObj(pod), "reason", reason)
		}
	}
}

// ReplacePodCondition sets cond in status, replacing one of its type.
func ReplacePodCondition(status *corev1.PodStatus, cond *corev1.PodCondition) {
	for i := range status.Conditions {
		if status.Conditions[i].Type == cond.Type {
			status.Conditions[i] = *cond
			return
		}
	}
	status.Conditions = append(status.Conditions, *cond)
}
