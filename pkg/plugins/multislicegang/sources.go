package multislicegang

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"
	spinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cache"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// An absent workload API is looked for again, first after
// apiPollInitial and backing off to apiPollMax, so installing the JobSet or
// PodGroup CRD later needs no scheduler restart.
const (
	apiPollInitial = time.Second
	apiPollMax     = 30 * time.Second
)

// workloadAPI is one source of workloads whose CRD may or may not be served.
type workloadAPI struct {
	source       workload.Source
	groupVersion string
	resource     string
	start        func(ctx context.Context) error
}

// watchSources starts the JobSet and PodGroup informers whose APIs are
// served, and keeps looking for the others. A missing CRD is logged once and
// never stops the scheduler: pods of that kind are scheduled as plain pods.
func (pl *Plugin) watchSources(ctx context.Context, cfg *rest.Config, disc discovery.DiscoveryInterface) {
	logger := klog.FromContext(ctx)
	apis := []workloadAPI{
		{source: workload.SourceJobSet, groupVersion: jobsetv1alpha2.GroupVersion.String(), resource: "jobsets", start: func(ctx context.Context) error {
			return pl.startJobSetInformer(ctx, cfg)
		}},
		{source: workload.SourcePodGroup, groupVersion: schedv1alpha1.SchemeGroupVersion.String(), resource: "podgroups", start: func(ctx context.Context) error {
			return pl.startPodGroupInformer(ctx, cfg)
		}},
	}
	for _, api := range apis {
		go func() {
			warned := false
			interval := apiPollInitial
			for {
				served, err := resourceServed(disc, api.groupVersion, api.resource)
				switch {
				case err != nil:
					logger.Error(err, "Looking up a workload API", "api", api.groupVersion)
				case served:
					if err := api.start(ctx); err != nil {
						logger.Error(err, "Starting a workload informer", "api", api.groupVersion)
						break
					}
					logger.Info("Watching workloads", "api", api.groupVersion, "resource", api.resource)
					return
				case !warned:
					logger.Info("Workload API not served; its pods are scheduled as plain pods until it is", "api", api.groupVersion, "resource", api.resource)
					warned = true
				}
				select {
				case <-ctx.Done():
					return
				case <-time.After(interval):
				}
				interval = min(2*interval, apiPollMax)
			}
		}()
	}
}

func resourceServed(disc discovery.DiscoveryInterface, groupVersion, resource string) (bool, error) {
	list, err := disc.ServerResourcesForGroupVersion(groupVersion)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	for _, r := range list.APIResources {
		if r.Name == resource {
			return true, nil
		}
	}
	return false, nil
}

// derived is a workload source object turned into the model.
type derived struct {
	key workload.Key
	w   *workload.Workload
	err error
	ref corev1.ObjectReference
}

// feedSource keeps the cache's view of one workload source current.
// derive returns false for objects of another type.
func (pl *Plugin) feedSource(ctx context.Context, src workload.Source, informer toolscache.SharedIndexInformer, derive func(obj any) (derived, bool)) error {
	upsert := func(obj any) {
		d, ok := derive(obj)
		if !ok {
			return
		}
		if d.err != nil {
			pl.events.warn(&d.ref, "InvalidWorkload", d.err.Error())
		}
		pl.act(ctx, pl.cache.UpsertSource(d.key, d.w, d.err, d.ref))
	}
	_, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    upsert,
		UpdateFunc: func(_, obj any) { upsert(obj) },
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if d, ok := derive(obj); ok {
				pl.act(ctx, pl.cache.DeleteSource(d.key))
			}
		},
	})
	if err == nil {
		pl.cache.SetAPIServed(src, true)
	}
	return err
}

func (pl *Plugin) startJobSetInformer(ctx context.Context, cfg *rest.Config) error {
	client, err := jobsetclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := jobsetinformers.NewSharedInformerFactory(client, 0)
	err = pl.feedSource(ctx, workload.SourceJobSet, factory.Jobset().V1alpha2().JobSets().Informer(), func(obj any) (derived, bool) {
		js, ok := obj.(*jobsetv1alpha2.JobSet)
		if !ok {
			return derived{}, false
		}
		w, err := workload.FromJobSet(js, pl.args.DefaultDomainKey)
		return derived{
			key: workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name},
			w:   w, err: err,
			ref: corev1.ObjectReference{Kind: "JobSet", APIVersion: jobsetv1alpha2.GroupVersion.String(), Namespace: js.Namespace, Name: js.Name, UID: js.UID},
		}, true
	})
	if err != nil {
		return err
	}
	factory.Start(ctx.Done())
	return nil
}

func (pl *Plugin) startPodGroupInformer(ctx context.Context, cfg *rest.Config) error {
	client, err := spclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	factory := spinformers.NewSharedInformerFactory(client, 0)
	err = pl.feedSource(ctx, workload.SourcePodGroup, factory.Scheduling().V1alpha1().PodGroups().Informer(), func(obj any) (derived, bool) {
		pg, ok := obj.(*schedv1alpha1.PodGroup)
		if !ok {
			return derived{}, false
		}
		// A PodGroup does not carry its pods' shape; the planner reads it
		// from the member being scheduled.
		w, err := workload.FromPodGroup(pg, nil, pl.args.DefaultDomainKey)
		return derived{
			key: workload.Key{Source: workload.SourcePodGroup, Namespace: pg.Namespace, Name: pg.Name},
			w:   w, err: err,
			ref: corev1.ObjectReference{Kind: "PodGroup", APIVersion: schedv1alpha1.SchemeGroupVersion.String(), Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID},
		}, true
	})
	if err != nil {
		return err
	}
	factory.Start(ctx.Done())
	return nil
}

// watchPods feeds the scheduler's own pod informer into the cache.
func (pl *Plugin) watchPods(ctx context.Context) error {
	informer := pl.handle.SharedInformerFactory().Core().V1().Pods().Informer()
	_, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if pod, ok := obj.(*corev1.Pod); ok {
				pl.act(ctx, pl.cache.UpsertPod(pod))
			}
		},
		UpdateFunc: func(_, obj any) {
			if pod, ok := obj.(*corev1.Pod); ok {
				pl.act(ctx, pl.cache.UpsertPod(pod))
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if pod, ok := obj.(*corev1.Pod); ok {
				pl.sortKeys.Delete(pod.UID)
				pl.act(ctx, pl.cache.DeletePod(pod.UID))
			}
		},
	})
	return err
}

// expireLoop releases reservations past their deadline.
func (pl *Plugin) expireLoop(ctx context.Context) {
	ticker := time.NewTicker(time.Second)
	defer ticker.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-ticker.C:
			pl.act(ctx, pl.cache.Expire())
		}
	}
}

// act carries out what the cache asked for, outside its lock.
func (pl *Plugin) act(ctx context.Context, acts cache.Actions) {
	logger := klog.FromContext(ctx)
	for _, uid := range acts.Reject {
		if wp := pl.handle.GetWaitingPod(uid); wp != nil {
			wp.Reject(Name, acts.Reason)
		}
	}
	if len(acts.Activate) == 0 {
		return
	}
	lister := pl.handle.SharedInformerFactory().Core().V1().Pods().Lister()
	pods := make(map[string]*corev1.Pod, len(acts.Activate))
	for _, ref := range acts.Activate {
		pod, err := lister.Pods(ref.Namespace).Get(ref.Name)
		if err != nil || pod.UID != ref.UID {
			continue
		}
		pods[ref.Namespace+"/"+ref.Name] = pod
	}
	if len(pods) > 0 {
		pl.handle.Activate(logger, pods)
	}
}
