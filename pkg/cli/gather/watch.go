package gather

import (
	"context"
	"fmt"
	"io"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	schedinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
)

// Watcher keeps the objects a Need names up to date from informers, and
// makes a cli.Cluster of them on demand.
type Watcher struct {
	watched []watchedResource
}

// watchedResource is a resource and its running informer.
type watchedResource struct {
	*resource
	informer cache.SharedIndexInformer
}

// Watch starts informers on what n names and returns once they have
// synced; they run until ctx ends. changed is called (from the informers'
// goroutines) after every change of a watched object, including the
// initial listing. Whether each resource can be read is found out once, at
// the start, as List does: an optional API that is not served then, or that
// the user may not list (said on warn), is not watched.
func Watch(ctx context.Context, c *Clients, n Need, warn io.Writer, changed func()) (*Watcher, error) {
	f := &factories{
		kube:             informers.NewSharedInformerFactory(c.Kube, 0),
		kubeScoped:       informers.NewSharedInformerFactoryWithOptions(c.Kube, 0, informers.WithNamespace(n.Namespace)),
		multislice:       multisliceinformers.NewSharedInformerFactory(c.Multislice, 0),
		multisliceScoped: multisliceinformers.NewSharedInformerFactoryWithOptions(c.Multislice, 0, multisliceinformers.WithNamespace(n.Namespace)),
		jobSets:          jobsetinformers.NewSharedInformerFactory(c.JobSets, 0),
		podGroups:        schedinformers.NewSharedInformerFactory(c.PodGroups, 0),
	}
	handler := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { changed() },
		UpdateFunc: func(any, any) { changed() },
		DeleteFunc: func(any) { changed() },
	}
	w := &Watcher{}
	var synced []cache.InformerSynced
	for i := range resources {
		r := &resources[i]
		if !r.wanted(n) {
			continue
		}
		// A one-object list says whether the API is served and readable.
		var probe cli.Cluster
		if err := r.list(ctx, c, r.namespaceOf(n), metav1.ListOptions{Limit: 1}, &probe); err != nil {
			if err := r.unreadable(err, warn); err != nil {
				return nil, err
			}
			continue
		}
		inf := r.informer(f)
		if err := inf.SetTransform(dropManagedFields); err != nil {
			return nil, err
		}
		if _, err := inf.AddEventHandler(handler); err != nil {
			return nil, err
		}
		w.watched = append(w.watched, watchedResource{resource: r, informer: inf})
		synced = append(synced, inf.HasSynced)
		go inf.Run(ctx.Done())
	}
	if !cache.WaitForCacheSync(ctx.Done(), synced...) {
		return nil, fmt.Errorf("informers did not sync: %w", context.Cause(ctx))
	}
	return w, nil
}

// dropManagedFields strips what nothing here reads and what takes most of
// an object's memory.
func dropManagedFields(obj any) (any, error) {
	if a, err := meta.Accessor(obj); err == nil {
		a.SetManagedFields(nil)
	}
	return obj, nil
}

// Snapshot is the watched objects now, as a cli.Cluster listed at now. The
// objects are the informers' own: the cli functions only read them, and
// nothing else may change them.
func (w *Watcher) Snapshot(now time.Time) *cli.Cluster {
	out := &cli.Cluster{Now: now}
	for _, r := range w.watched {
		r.fromStore(r.informer.GetStore().List(), out)
	}
	return out
}

// Watching names the watched resources, in reading order.
func (w *Watcher) Watching() []string {
	names := make([]string, len(w.watched))
	for i, r := range w.watched {
		names[i] = r.name
	}
	return names
}
