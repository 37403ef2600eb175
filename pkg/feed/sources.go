package feed

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/discovery"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// An API not known to be served is looked for again, first after
// apiPollInitial and backing off to apiPollMax, and at once when a new pod
// names it (see rediscover), so installing the JobSet or PodGroup CRD later
// needs no scheduler restart.
const (
	apiPollInitial = time.Second
	apiPollMax     = 30 * time.Second
)

// workloadAPI is one API (workloads, queues) whose CRD may or may not be
// served. start starts its informers and returns when they have synced.
type workloadAPI struct {
	source       workload.Source
	groupVersion string
	resource     string
	start        func(ctx context.Context) (synced toolscache.InformerSynced, err error)
	// served, when set, runs once the API's informers have synced and the
	// state knows the API is served: what was decided without it is
	// decided again.
	served func()
	// initial and max bound the polling interval (zero: apiPollInitial and
	// apiPollMax).
	initial, max time.Duration
}

// rediscoverEvery bounds how often pods naming an API not served make it be
// looked up again: a JobSet of a thousand pods causes one lookup, not a
// thousand.
const rediscoverEvery = time.Second

// pokeOf returns the channel that asks source's discovery loop to look
// again now (buffered: pokes while a lookup is pending merge).
func (f *Feed) pokeOf(source workload.Source) chan struct{} {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.pokes == nil {
		f.pokes = map[workload.Source]chan struct{}{}
	}
	c := f.pokes[source]
	if c == nil {
		c = make(chan struct{}, 1)
		f.pokes[source] = c
	}
	return c
}

// Rediscover asks the discovery loops of sources to look again now.
func (f *Feed) Rediscover(sources []workload.Source) {
	for _, src := range sources {
		select {
		case f.pokeOf(src) <- struct{}{}:
		default:
		}
	}
}

// watchSources starts the JobSet, PodGroup (scheduler-plugins' and
// Kubernetes'), and ProvisioningRequest informers whose APIs are served, and keeps looking for the others. Only a
// definite answer that an API is not served lets its pods be scheduled as
// plain pods; while
// discovery fails (throttling, server errors, timeouts) they wait.
func (f *Feed) watchSources(ctx context.Context) {
	disc := f.clients.Client.Discovery()
	apis := []workloadAPI{
		{source: workload.SourceJobSet, groupVersion: jobsetv1alpha2.GroupVersion.String(), resource: "jobsets", start: f.startJobSetInformer},
		{source: workload.SourcePodGroup, groupVersion: schedv1alpha1.SchemeGroupVersion.String(), resource: "podgroups", start: f.startPodGroupInformer},
		{source: workload.SourceInTreePodGroup, groupVersion: inTreePodGroupAPI.groupVersion, resource: inTreePodGroupAPI.resource, start: f.startInTreePodGroupInformer},
		{source: workload.SourceCompositePodGroup, groupVersion: compositeAPI.groupVersion, resource: compositeAPI.resource, start: f.startCompositeInformer},
		{source: workload.SourceProvisioningRequest, groupVersion: provisioningAPI.groupVersion, resource: provisioningAPI.resource, start: f.startConsumedRequestInformer},
	}
	for _, api := range apis {
		go f.discover(ctx, disc, api)
	}
}

func (f *Feed) discover(ctx context.Context, disc discovery.DiscoveryInterface, api workloadAPI) {
	logger := klog.FromContext(ctx)
	warned := false
	initial, most := api.initial, api.max
	if initial == 0 {
		initial, most = apiPollInitial, apiPollMax
	}
	interval := initial
	poke := f.pokeOf(api.source)
	for {
		looked := time.Now()
		status, err := resourceServed(disc, api.groupVersion, api.resource)
		switch {
		case err != nil:
			logger.Error(err, "Looking up a workload API; its pods wait until it answers", "api", api.groupVersion)
		case status == state.APIServed:
			hasSynced, err := api.start(ctx)
			if err != nil {
				logger.Error(err, "Starting informers", "api", api.groupVersion)
				break
			}
			if !toolscache.WaitForCacheSync(ctx.Done(), hasSynced) {
				return
			}
			f.act(ctx, f.state.Feed().SetAPI(api.source, state.APIServed))
			if api.served != nil {
				api.served()
			}
			logger.Info("Watching workloads", "api", api.groupVersion, "resource", api.resource)
			return
		default:
			f.act(ctx, f.state.Feed().SetAPI(api.source, state.APINotServed))
			if !warned {
				logger.Info("Workload API not served; its pods are scheduled as plain pods until it is", "api", api.groupVersion, "resource", api.resource)
				warned = true
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-time.After(interval):
			interval = min(2*interval, most)
		case <-poke:
			if wait := rediscoverEvery - time.Since(looked); wait > 0 {
				select {
				case <-ctx.Done():
					return
				case <-time.After(wait):
				}
			}
		}
	}
}

// resourceServed answers definitely (served or not) or with an error.
func resourceServed(disc discovery.DiscoveryInterface, groupVersion, resource string) (state.APIStatus, error) {
	list, err := disc.ServerResourcesForGroupVersion(groupVersion)
	if apierrors.IsNotFound(err) {
		return state.APINotServed, nil
	}
	if err != nil {
		return state.APIUnknown, err
	}
	for _, r := range list.APIResources {
		if r.Name == resource {
			return state.APIServed, nil
		}
	}
	return state.APINotServed, nil
}

// derived is a workload source object turned into the model.
type derived struct {
	key workload.Key
	w   *workload.Workload
	err error
	ref corev1.ObjectReference
}

// feedSource keeps the state's view of one workload source current.
// derive returns false for objects of another type. The registration
// has synced once the state saw every object listed.
func (f *Feed) feedSource(ctx context.Context, informer toolscache.SharedIndexInformer, derive func(obj any) (derived, bool)) (toolscache.ResourceEventHandlerRegistration, error) {
	upsert := func(obj any) {
		d, ok := derive(obj)
		if !ok {
			return
		}
		if d.err != nil {
			f.warn(&d.ref, "InvalidWorkload", d.err.Error())
		}
		f.act(ctx, f.state.Feed().UpsertSource(d.key, d.w, d.err, d.ref))
	}
	return informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    upsert,
		UpdateFunc: func(_, obj any) { upsert(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if d, ok := derive(obj); ok {
				f.act(ctx, f.state.Feed().DeleteSource(d.key))
			}
		},
	})
}

// startJobSetInformer feeds JobSets to the state, and tells
// Hooks.JobSetsServed before their informer starts.
func (f *Feed) startJobSetInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	jobsets := f.informers.jobsets.Jobset().V1alpha2().JobSets()
	informer := jobsets.Informer()
	reg, err := f.feedSource(ctx, informer, func(obj any) (derived, bool) {
		js, ok := obj.(*jobsetv1alpha2.JobSet)
		if !ok {
			return derived{}, false
		}
		w, err := workload.FromJobSet(js, f.defaultDomainKey)
		return derived{
			key: workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name},
			w:   w, err: err,
			ref: corev1.ObjectReference{Kind: "JobSet", APIVersion: jobsetv1alpha2.GroupVersion.String(), Namespace: js.Namespace, Name: js.Name, UID: js.UID},
		}, true
	})
	if err != nil {
		return nil, err
	}
	if f.hooks.JobSetsServed != nil {
		if err := f.hooks.JobSetsServed(f.informers.jobsets); err != nil {
			return nil, err
		}
	}
	f.informers.jobsets.Start(ctx.Done())
	return reg.HasSynced, nil
}

func (f *Feed) startPodGroupInformer(ctx context.Context) (toolscache.InformerSynced, error) {
	informer := f.informers.podGroups.Scheduling().V1alpha1().PodGroups().Informer()
	reg, err := f.feedSource(ctx, informer, func(obj any) (derived, bool) {
		pg, ok := obj.(*schedv1alpha1.PodGroup)
		if !ok {
			return derived{}, false
		}
		// A PodGroup does not carry its pods' shape; each member is sized
		// from its own spec when the group is planned.
		w, err := workload.FromPodGroup(pg, nil, f.defaultDomainKey)
		return derived{
			key: workload.Key{Source: workload.SourcePodGroup, Namespace: pg.Namespace, Name: pg.Name},
			w:   w, err: err,
			ref: corev1.ObjectReference{Kind: "PodGroup", APIVersion: schedv1alpha1.SchemeGroupVersion.String(), Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID},
		}, true
	})
	if err != nil {
		return nil, err
	}
	f.informers.podGroups.Start(ctx.Done())
	return reg.HasSynced, nil
}
