package controllers

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// suspendPatch suspends an owner for good: the unsuspend annotation says
// the scheduler has started it once already, so it never does again.
func suspendPatch(now time.Time) []byte {
	return []byte(fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}},"spec":{"suspend":true}}`, wellknown.UnsuspendedAnnotation, now.UTC().Format(time.RFC3339)))
}

// EndOverrun ends a workload past its maximum run duration. A Job is
// suspended with kube, a JobSet with a client from jobsets: its controller
// removes the pods, and nothing restarts it (the scheduler unsuspends an
// object once only). Other owners' pods are evicted, as are a Job's or
// JobSet's when suspending it fails.
func EndOverrun(ctx context.Context, kube kubernetes.Interface, jobsets func() (jobsetclient.Interface, error), ev *Evictor, e state.Expiry) {
	if !ev.leading() {
		return
	}
	logger := klog.FromContext(ctx)
	msg := fmt.Sprintf("%s exceeded its maximum run duration of %s", e.Key, e.Limit)
	var err error
	switch e.Ref.Kind {
	case "Job":
		_, err = kube.BatchV1().Jobs(e.Ref.Namespace).Patch(ctx, e.Ref.Name, types.MergePatchType, suspendPatch(e.At), metav1.PatchOptions{})
	case "JobSet":
		var cs jobsetclient.Interface
		if cs, err = jobsets(); err == nil {
			_, err = cs.JobsetV1alpha2().JobSets(e.Ref.Namespace).Patch(ctx, e.Ref.Name, types.MergePatchType, suspendPatch(e.At), metav1.PatchOptions{})
		}
	default:
		ev.Evict(ctx, e.Pods, ReasonMaximumRunDurationExceeded, msg)
		return
	}
	if err != nil && !apierrors.IsNotFound(err) {
		logger.Error(err, "Suspending a workload past its maximum run duration; evicting its pods instead", "workload", e.Key)
		ev.Evict(ctx, e.Pods, ReasonMaximumRunDurationExceeded, msg)
	}
}
