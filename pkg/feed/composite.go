package feed

import (
	"context"
	"sync"

	corev1 "k8s.io/api/core/v1"
	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	schedlisters "k8s.io/client-go/listers/scheduling/v1alpha3"
	toolscache "k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// compositeAPI is Kubernetes' CompositePodGroup API, served only when the
// apiserver runs with the CompositePodGroup feature gate and
// scheduling.k8s.io/v1alpha3 enabled: like a CRD, it is discovered.
var compositeAPI = struct{ groupVersion, resource string }{schedv1alpha3.SchemeGroupVersion.String(), "compositepodgroups"}

// byParent indexes Kubernetes PodGroups by the CompositePodGroup they name.
const byParent = "parentCompositePodGroup"

// composites derives the workloads of CompositePodGroups. A composite's
// workload is read from it and from its child PodGroups, which come from
// two informers: every change to either derives the composite again from
// both caches, one composite at a time, so the last derivation reads the
// newest of both.
type composites struct {
	mu sync.Mutex
	// index adds the byParent index to the PodGroup informer once;
	// indexErr is what adding it returned.
	index    sync.Once
	indexErr error
	// lister reads CompositePodGroups once their API is served (nil
	// before: a child's composite is then not known yet).
	lister schedlisters.CompositePodGroupLister
}

// startCompositeInformer feeds CompositePodGroups to the state (see
// syncComposite); it has synced once the composites and the PodGroups
// their children are have.
func (f *Feed) startCompositeInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	cpgs := f.informers.kubeWorkloads.Scheduling().V1alpha3().CompositePodGroups()
	informer := cpgs.Informer()
	groups, err := f.podGroupInformer()
	if err != nil {
		return nil, err
	}
	f.composites.mu.Lock()
	f.composites.lister = cpgs.Lister()
	f.composites.mu.Unlock()
	sync := func(obj any) {
		if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if cpg, ok := obj.(*schedv1alpha3.CompositePodGroup); ok {
			f.syncComposite(ctx, cpg.Namespace, cpg.Name)
		}
	}
	reg, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    sync,
		UpdateFunc: func(_, obj any) { sync(obj) },
		DeleteFunc: sync,
	})
	if err != nil {
		return nil, err
	}
	f.informers.kubeWorkloads.Start(ctx.Done())
	return func() bool { return reg.HasSynced() && groups.HasSynced() }, nil
}

// podGroupInformer is the informer of Kubernetes PodGroups, indexed by
// their parent composite. The factory is the feed's own and both of its
// users ask for the informer before they start the factory, so the index
// is added before the informer runs (an error says otherwise).
func (f *Feed) podGroupInformer() (toolscache.SharedIndexInformer, error) {
	informer := f.informers.kubeWorkloads.Scheduling().V1beta1().PodGroups().Informer()
	f.composites.index.Do(func() {
		f.composites.indexErr = informer.AddIndexers(toolscache.Indexers{byParent: func(obj any) ([]string, error) {
			if pg, ok := obj.(*schedv1beta1.PodGroup); ok {
				if parent, ok := workload.CompositeParent(pg); ok {
					return []string{parent.Namespace + "/" + parent.Name}, nil
				}
			}
			return nil, nil
		}})
	})
	return informer, f.composites.indexErr
}

// childrenOf lists the PodGroups that name namespace/name as their parent.
func (f *Feed) childrenOf(namespace, name string) []*schedv1beta1.PodGroup {
	informer := f.informers.kubeWorkloads.Scheduling().V1beta1().PodGroups().Informer()
	objs, _ := informer.GetIndexer().ByIndex(byParent, namespace+"/"+name)
	out := make([]*schedv1beta1.PodGroup, 0, len(objs))
	for _, obj := range objs {
		if pg, ok := obj.(*schedv1beta1.PodGroup); ok {
			out = append(out, pg)
		}
	}
	return out
}

// syncComposite derives the CompositePodGroup namespace/name and its
// children again, from the caches as they are now:
//   - a gang composite is a workload whose slices are its children, which
//     are no workloads of their own (their pods are the composite's);
//   - a basic composite is none: each child is a workload of its own;
//   - a malformed composite, and each of its children, carry its error,
//     so that every pod of it says why it waits;
//   - a composite not known (yet, or any more) leaves its children's pods
//     waiting for it.
func (f *Feed) syncComposite(ctx context.Context, namespace, name string) {
	c := &f.composites
	c.mu.Lock()
	defer c.mu.Unlock()
	key := workload.Key{Source: workload.SourceCompositePodGroup, Namespace: namespace, Name: name}
	children := f.childrenOf(namespace, name)
	var cpg *schedv1alpha3.CompositePodGroup
	if c.lister != nil {
		cpg, _ = c.lister.CompositePodGroups(namespace).Get(name)
	}
	feed := f.state.Feed()
	if cpg == nil {
		f.act(ctx, feed.DeleteSource(key))
		for _, pg := range children {
			f.act(ctx, feed.DeleteSource(inTreeKey(pg)))
		}
		return
	}
	ref := corev1.ObjectReference{Kind: "CompositePodGroup", APIVersion: compositeAPI.groupVersion, Namespace: namespace, Name: name, UID: cpg.UID}
	w, err := workload.FromCompositePodGroup(cpg, children, f.defaultDomainKey)
	switch {
	case err != nil:
		f.warn(&ref, "InvalidWorkload", err.Error())
		f.act(ctx, feed.UpsertSource(key, nil, err, ref))
		for _, pg := range children {
			f.act(ctx, feed.UpsertSource(inTreeKey(pg), nil, err, inTreeRef(pg)))
		}
	case w == nil:
		f.act(ctx, feed.DeleteSource(key))
		for _, pg := range children {
			f.upsertInTree(ctx, pg)
		}
	default:
		f.act(ctx, feed.UpsertSource(key, w, nil, ref))
		for _, pg := range children {
			f.act(ctx, feed.DeleteSource(inTreeKey(pg)))
		}
	}
}
