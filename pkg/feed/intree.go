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
// is none (its pods are plain pods). A child of a CompositePodGroup is
// derived with its composite (syncComposite). They come from the
// scheduler's own informer factory, which holds the other groups
// Kubernetes serves.
func (f *Feed) startInTreePodGroupInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	informer, err := f.podGroupInformer()
	if err != nil {
		return nil, err
	}
	group := func(obj any) *schedv1beta1.PodGroup {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		pg, _ := obj.(*schedv1beta1.PodGroup)
		return pg
	}
	upsert := func(obj any) {
		pg := group(obj)
		if pg == nil {
			return
		}
		if parent, ok := workload.CompositeParent(pg); ok {
			f.syncComposite(ctx, parent.Namespace, parent.Name)
			return
		}
		f.upsertInTree(ctx, pg)
	}
	reg, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    upsert,
		UpdateFunc: func(_, obj any) { upsert(obj) },
		DeleteFunc: func(obj any) {
			pg := group(obj)
			if pg == nil {
				return
			}
			f.act(ctx, f.state.Feed().DeleteSource(inTreeKey(pg)))
			if parent, ok := workload.CompositeParent(pg); ok {
				f.syncComposite(ctx, parent.Namespace, parent.Name)
			}
		},
	})
	if err != nil {
		return nil, err
	}
	f.informers.kubeWorkloads.Start(ctx.Done())
	return reg.HasSynced, nil
}

// upsertInTree feeds one Kubernetes PodGroup as a workload of its own. As
// for scheduler-plugins PodGroups, each member is sized from its own spec
// when the group is planned.
func (f *Feed) upsertInTree(ctx context.Context, pg *schedv1beta1.PodGroup) {
	w, err := workload.FromInTreePodGroup(pg, nil, f.defaultDomainKey)
	ref := inTreeRef(pg)
	if err != nil {
		f.warn(&ref, "InvalidWorkload", err.Error())
	}
	f.act(ctx, f.state.Feed().UpsertSource(inTreeKey(pg), w, err, ref))
}

func inTreeKey(pg *schedv1beta1.PodGroup) workload.Key {
	return workload.Key{Source: workload.SourceInTreePodGroup, Namespace: pg.Namespace, Name: pg.Name}
}

func inTreeRef(pg *schedv1beta1.PodGroup) corev1.ObjectReference {
	return corev1.ObjectReference{Kind: "PodGroup", APIVersion: inTreePodGroupAPI.groupVersion, Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID}
}
