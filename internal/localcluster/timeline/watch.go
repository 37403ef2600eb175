package timeline

import (
	"context"
	"fmt"
	"io"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
)

// Watch feeds a new timeline from informers on nodes and on the JobSets,
// Jobs, pods and events of namespace, until ctx ends; where the multislice.dev
// queue API is served, also on ClusterQueues and the namespace's Workload
// objects. Events that happened before the call are not reported.
func Watch(ctx context.Context, cfg *rest.Config, namespace string, out io.Writer) (*Timeline, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	jsClient, err := jobsetclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	t := New(out)
	since := time.Now()

	nodeFactory := informers.NewSharedInformerFactory(client, 0)
	nsFactory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(namespace))
	jsFactory := jobsetinformers.NewSharedInformerFactoryWithOptions(jsClient, 0, jobsetinformers.WithNamespace(namespace))

	handlers := []watched{
		{nodeFactory.Core().V1().Nodes().Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { t.Node(obj.(*corev1.Node)) },
			UpdateFunc: func(_, obj any) { t.Node(obj.(*corev1.Node)) },
			DeleteFunc: func(obj any) {
				if n, ok := unwrap(obj).(*corev1.Node); ok {
					t.NodeDeleted(n)
				}
			},
		}},
		{jsFactory.Jobset().V1alpha2().JobSets().Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { t.JobSet(obj.(*jobsetv1alpha2.JobSet)) },
			UpdateFunc: func(_, obj any) { t.JobSet(obj.(*jobsetv1alpha2.JobSet)) },
		}},
		{nsFactory.Batch().V1().Jobs().Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { t.Job(obj.(*batchv1.Job)) },
			UpdateFunc: func(_, obj any) { t.Job(obj.(*batchv1.Job)) },
			DeleteFunc: func(obj any) {
				if j, ok := unwrap(obj).(*batchv1.Job); ok {
					t.JobDeleted(j)
				}
			},
		}},
		{nsFactory.Core().V1().Pods().Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { t.Pod(obj.(*corev1.Pod)) },
			UpdateFunc: func(_, obj any) { t.Pod(obj.(*corev1.Pod)) },
			DeleteFunc: func(obj any) {
				if p, ok := unwrap(obj).(*corev1.Pod); ok {
					t.PodDeleted(p)
				}
			},
		}},
		{nsFactory.Core().V1().Events().Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				e := obj.(*corev1.Event)
				if eventTime(e).After(since) {
					t.Event(e)
				}
			},
			UpdateFunc: func(_, obj any) {
				e := obj.(*corev1.Event)
				if eventTime(e).After(since) {
					t.Event(e)
				}
			},
		}},
	}
	served, err := queueAPIServed(client)
	if err != nil {
		return nil, err
	}
	if served {
		// Custom resources speak JSON only.
		qcfg := rest.CopyConfig(cfg)
		qcfg.ContentType = runtime.ContentTypeJSON
		qcfg.AcceptContentTypes = runtime.ContentTypeJSON
		qClient, err := multisliceclient.NewForConfig(qcfg)
		if err != nil {
			return nil, err
		}
		queueFactory := multisliceinformers.NewSharedInformerFactory(qClient, 0)
		wlFactory := multisliceinformers.NewSharedInformerFactoryWithOptions(qClient, 0, multisliceinformers.WithNamespace(namespace))
		handlers = append(handlers,
			watched{queueFactory.Multislice().V1alpha1().ClusterQueues().Informer(), cache.ResourceEventHandlerFuncs{
				AddFunc:    func(obj any) { t.ClusterQueue(obj.(*multislicev1alpha1.ClusterQueue)) },
				UpdateFunc: func(_, obj any) { t.ClusterQueue(obj.(*multislicev1alpha1.ClusterQueue)) },
				DeleteFunc: func(obj any) {
					if cq, ok := unwrap(obj).(*multislicev1alpha1.ClusterQueue); ok {
						t.ClusterQueueDeleted(cq)
					}
				},
			}},
			watched{wlFactory.Multislice().V1alpha1().Workloads().Informer(), cache.ResourceEventHandlerFuncs{
				AddFunc:    func(obj any) { t.Workload(obj.(*multislicev1alpha1.Workload)) },
				UpdateFunc: func(_, obj any) { t.Workload(obj.(*multislicev1alpha1.Workload)) },
				DeleteFunc: func(obj any) {
					if wl, ok := unwrap(obj).(*multislicev1alpha1.Workload); ok {
						t.WorkloadDeleted(wl)
					}
				},
			}},
		)
	}
	// Nodes first, so pool names are known when pods are reported.
	for i, h := range handlers {
		if _, err := h.informer.AddEventHandler(h.handler); err != nil {
			return nil, err
		}
		go h.informer.Run(ctx.Done())
		if i == 0 && !cache.WaitForCacheSync(ctx.Done(), h.informer.HasSynced) {
			return nil, fmt.Errorf("node informer did not sync")
		}
	}
	for _, h := range handlers[1:] {
		if !cache.WaitForCacheSync(ctx.Done(), h.informer.HasSynced) {
			return nil, fmt.Errorf("informers did not sync")
		}
	}
	return t, nil
}

// watched is an informer and what the timeline does with its objects.
type watched struct {
	informer cache.SharedIndexInformer
	handler  cache.ResourceEventHandlerFuncs
}

// queueAPIServed reports whether the apiserver serves the multislice.dev
// queue API (ClusterQueues and Workloads).
func queueAPIServed(client kubernetes.Interface) (bool, error) {
	list, err := client.Discovery().ServerResourcesForGroupVersion(multislicev1alpha1.SchemeGroupVersion.String())
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("discovering %s: %w", multislicev1alpha1.SchemeGroupVersion, err)
	}
	var cqs, wls bool
	for _, r := range list.APIResources {
		cqs = cqs || r.Name == "clusterqueues"
		wls = wls || r.Name == "workloads"
	}
	return cqs && wls, nil
}

func unwrap(obj any) any {
	if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		return d.Obj
	}
	return obj
}

func eventTime(e *corev1.Event) time.Time {
	switch {
	case !e.LastTimestamp.IsZero():
		return e.LastTimestamp.Time
	case !e.EventTime.IsZero():
		return e.EventTime.Time
	default:
		return e.CreationTimestamp.Time
	}
}
