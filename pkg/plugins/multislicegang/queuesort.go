package multislicegang

import (
	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
)

// Less implements fwk.QueueSortPlugin: higher priority first, then older
// workloads (a plain pod is a workload of one, dated by when it was
// queued), keeping a workload's pods together, then a stable name order.
// The manager memoises each pod's key, so the order of two queued pods
// never changes while they are queued.
func (pl *Plugin) Less(a, b fwk.QueuedEntityInfo) bool {
	return pl.keyOf(a).Less(pl.keyOf(b))
}

type podGetter interface{ GetPod() *corev1.Pod }

func (pl *Plugin) keyOf(e fwk.QueuedEntityInfo) admission.SortKey {
	pg, ok := e.(podGetter)
	if !ok || pg.GetPod() == nil {
		return admission.SortKey{Priority: e.GetPriority(), Since: e.GetTimestamp(), Group: string(e.Type())}
	}
	return pl.m.SortKey(pg.GetPod(), e.GetPriority(), e.GetTimestamp())
}
