package timeline

import (
	"context"
	"fmt"
	"io"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
)

// Watch feeds a new timeline from informers on nodes and on the JobSets,
// pods and events of namespace, until ctx ends. Events that happened before
// the call are not reported.
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

	handlers := []struct {
		informer cache.SharedIndexInformer
		handler  cache.ResourceEventHandlerFuncs
	}{
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
