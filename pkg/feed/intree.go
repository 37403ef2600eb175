package feed

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// inTreePodGroupAPI is Kubernetes' own PodGroup API, served only when the
// apiserver runs with the GenericWorkload feature gate and
// scheduling.k8s.io/v1beta1 enabled: like a CRD, it is discovered.
var inTreePodGroupAPI = struct{ groupVersion, resource string }{schedv1beta1.SchemeGroupVersion.String(), "podgroups"}

// startInTreePodGroupInformer feeds Kubernetes PodGroups to the state: a
// gang group is a workload of one slice of minCount pods; a basic group
// is none (its pods are plain pods). They come from the scheduler's own
// informer factory, which holds the other groups Kubernetes serves.
func (f *Feed) startInTreePodGroupInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	informer := f.informers.kube.Scheduling().V1beta1().PodGroups().Informer()
	reg, err := f.feedSource(ctx, informer, func(obj any) (derived, bool) {
		pg, ok := obj.(*schedv1beta1.PodGroup)
		if !ok {
			return derived{}, false
		}
		// As for scheduler-plugins PodGroups, each member is sized from
		// its own spec when the group is planned.
		w, err := workload.FromInTreePodGroup(pg, nil, f.defaultDomainKey)
		return derived{
			key: workload.Key{Source: workload.SourceInTreePodGroup, Namespace: pg.Namespace, Name: pg.Name},
			w:   w, err: err,
			ref: corev1.ObjectReference{Kind: "PodGroup", APIVersion: inTreePodGroupAPI.groupVersion, Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID},
		}, true
	})
	if err != nil {
		return nil, err
	}
	f.informers.kube.Start(ctx.Done())
	return reg.HasSynced, nil
}
