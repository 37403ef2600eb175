package feed

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/queuemodel"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Status writes are rate-limited on a client of their own, so that a
// burst of Workload objects never delays the scheduler's bindings.
const (
	statusQPS      = 20
	statusBurst    = 50
	statusInterval = time.Second
)

// Admission writes use a client of their own, apart from the status
// writer's: a burst of status writes must not hold an admission back. A
// gang's admission write is part of binding it, so the client may go as
// fast as the scheduler's own (clientConnection.qps and burst), and never
// slower than these.
const (
	recordQPS   = 50
	recordBurst = 100
)

// watchQueues feeds the queue objects (ResourceFlavor, ClusterQueue,
// LocalQueue) and namespaces into the state once the queue API is served,
// and keeps their status, and the Workload objects, current.
func (rt *Runtime) watchQueues(ctx context.Context) {
	api := workloadAPI{
		source:       state.QueueAPI,
		groupVersion: multislicev1alpha1.SchemeGroupVersion.String(),
		resource:     "clusterqueues",
		start: func(ctx context.Context) (toolscache.InformerSynced, error) {
			return rt.startQueueInformers(ctx)
		},
		served: func() {
			// Jobs and JobSets seen before the queue API was known to be
			// served were decided without it: queued ones were left for
			// another queueing controller, ones for another scheduler
			// were not told. Each is looked at again.
			if un := rt.unsuspend.Load(); un != nil {
				un.QueueAll()
			}
		},
	}
	go rt.discover(ctx, rt.cluster.Client.Discovery(), api)
}

// startQueueInformers starts every queue informer, and the status writer
// once they have synced.
func (rt *Runtime) startQueueInformers(ctx context.Context) (toolscache.InformerSynced, error) {
	v1 := rt.informers.multislice.Multislice().V1alpha1()
	st := rt.state
	logger := klog.FromContext(ctx)
	// Each feed has synced once the state saw every object listed.
	var fed []toolscache.InformerSynced
	feed := func(reg toolscache.ResourceEventHandlerRegistration, err error) error {
		if err == nil {
			fed = append(fed, reg.HasSynced)
		}
		return err
	}
	if err := feed(feedInformer(ctx, rt, v1.ResourceFlavors().Informer(),
		func(rf *multislicev1alpha1.ResourceFlavor) state.Actions { return st.SetFlavor(queuemodel.Flavor(rf)) },
		func(rf *multislicev1alpha1.ResourceFlavor) state.Actions { return st.DeleteFlavor(rf.Name) })); err != nil {
		return nil, err
	}
	if err := feed(feedInformer(ctx, rt, v1.ClusterQueues().Informer(),
		func(cq *multislicev1alpha1.ClusterQueue) state.Actions {
			m, err := queuemodel.ClusterQueue(cq)
			if err != nil {
				logger.Error(err, "Ignoring an invalid ClusterQueue", "clusterQueue", cq.Name)
				rt.events.Warn(&corev1.ObjectReference{Kind: "ClusterQueue", APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Name: cq.Name, UID: cq.UID}, "InvalidClusterQueue", err.Error())
				return st.DeleteClusterQueue(cq.Name)
			}
			return st.SetClusterQueue(m)
		},
		func(cq *multislicev1alpha1.ClusterQueue) state.Actions { return st.DeleteClusterQueue(cq.Name) })); err != nil {
		return nil, err
	}
	if err := feed(feedInformer(ctx, rt, v1.LocalQueues().Informer(),
		func(lq *multislicev1alpha1.LocalQueue) state.Actions {
			acts := st.SetLocalQueue(queuemodel.LocalQueue(lq))
			if un := rt.unsuspend.Load(); un != nil {
				// Jobs and JobSets naming it are looked at again: started
				// if queued here, told what to change if not ours.
				un.LocalQueueSet(lq.Namespace, lq.Name)
			}
			return acts
		},
		func(lq *multislicev1alpha1.LocalQueue) state.Actions {
			return st.DeleteLocalQueue(lq.Namespace, lq.Name)
		})); err != nil {
		return nil, err
	}
	nsInformer := rt.informers.kube.Core().V1().Namespaces().Informer()
	if err := feed(feedInformer(ctx, rt, nsInformer,
		func(ns *corev1.Namespace) state.Actions { return st.SetNamespace(ns.Name, ns.Labels) },
		func(ns *corev1.Namespace) state.Actions { return st.DeleteNamespace(ns.Name) })); err != nil {
		return nil, err
	}
	workloads := v1.Workloads()
	// What Workload objects record of admissions is part of the state:
	// a scheduler that takes over charges running workloads as recorded.
	if err := feed(feedInformer(ctx, rt, workloads.Informer(),
		func(wl *multislicev1alpha1.Workload) state.Actions { return rt.feedRecords(wl, false) },
		func(wl *multislicev1alpha1.Workload) state.Actions { return rt.feedRecords(wl, true) })); err != nil {
		return nil, err
	}
	checksSynced, err := rt.startCheckFeed(ctx, rt.informers.kube.Core().V1().Pods().Lister(), workloads.Lister())
	if err != nil {
		return nil, err
	}
	rt.informers.multislice.Start(ctx.Done())
	// The namespaces come from the scheduler's own factory.
	rt.informers.kube.Start(ctx.Done())

	cfg := jsonConfig(rt.cluster.KubeConfig)
	statusCfg := rest.CopyConfig(cfg)
	statusCfg.QPS, statusCfg.Burst = statusQPS, statusBurst
	statusClient, err := multisliceclient.NewForConfig(statusCfg)
	if err != nil {
		return nil, err
	}
	recordCfg := rest.CopyConfig(cfg)
	recordCfg.QPS, recordCfg.Burst = max(recordQPS, cfg.QPS), max(recordBurst, cfg.Burst)
	recordClient, err := multisliceclient.NewForConfig(recordCfg)
	if err != nil {
		return nil, err
	}
	rt.workloads.Start(recordClient, workloads.Lister())
	fed = append(fed, checksSynced...)
	synced := func() bool {
		for _, s := range fed {
			if !s() {
				return false
			}
		}
		return true
	}
	w := controllers.NewStatusWriter(statusClient, recordClient, st, v1.ClusterQueues().Lister(), v1.LocalQueues().Lister(),
		v1.AdmissionChecks().Lister(), workloads.Lister())
	rt.statusWriter.Store(w)
	rt.WhileLeading(ctx, func(ctx context.Context) {
		if toolscache.WaitForCacheSync(ctx.Done(), synced) {
			w.Run(ctx, statusInterval)
		}
	})
	return synced, nil
}
