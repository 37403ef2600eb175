package feed

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// reconcileUsage compares, every interval while this replica leads, what
// the ClusterQueues are charged with what the API shows (state.Reconcile),
// and reports each difference: the metric multislice_quota_drift_total,
// a log line and a QuotaDrift warning on the ClusterQueue. The state
// corrects what it can.
func (rt *Runtime) reconcileUsage(ctx context.Context, pods corelisters.PodLister, every time.Duration) {
	if every <= 0 {
		return
	}
	logger := klog.FromContext(ctx)
	ticker := time.NewTicker(every)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
		}
		if rt.state.API(state.QueueAPI) != state.APIServed {
			continue
		}
		list, err := pods.List(labels.Everything())
		if err != nil {
			continue
		}
		found, acts := rt.state.Reconcile(list)
		metrics.QuotaReconciles.Inc()
		for _, d := range found {
			metrics.QuotaDrift.WithLabelValues(string(d.Kind)).Inc()
			logger.Info("Quota usage differed from the API", "workload", d.Key, "kind", d.Kind, "clusterQueue", d.ClusterQueue, "corrected", d.Fixed, "detail", d.Message)
			if d.ClusterQueue != "" {
				ref := &corev1.ObjectReference{Kind: "ClusterQueue", APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Name: d.ClusterQueue}
				msg := d.Message
				if d.Fixed {
					msg += "; corrected"
				}
				rt.events.Warn(ref, "QuotaDrift", msg)
			}
		}
		rt.Act(ctx, acts)
	}
}
