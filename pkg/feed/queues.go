package feed

import (
	"context"

	"k8s.io/apimachinery/pkg/labels"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"

	corev1 "k8s.io/api/core/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/queuemodel"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// watchQueues feeds the queue objects (ResourceFlavor, ClusterQueue,
// LocalQueue), namespaces, the admissions Workload objects record and the
// provisioning checks into the state once the queue API is served.
func (f *Feed) watchQueues(ctx context.Context) {
	api := workloadAPI{
		source:       state.QueueAPI,
		groupVersion: multislicev1alpha1.SchemeGroupVersion.String(),
		resource:     "clusterqueues",
		start: func(ctx context.Context) (toolscache.InformerSynced, error) {
			return f.startQueueInformers(ctx)
		},
		served: f.hooks.QueueAPIServed,
	}
	go f.discover(ctx, f.clients.Client.Discovery(), api)
}

// startQueueInformers starts every queue informer, and tells
// Hooks.QueuesWatched.
func (f *Feed) startQueueInformers(ctx context.Context) (toolscache.InformerSynced, error) {
	v1 := f.informers.multislice.Multislice().V1alpha1()
	st := f.state
	logger := klog.FromContext(ctx)
	// Each feed has synced once the state saw every object listed.
	var fed []toolscache.InformerSynced
	feed := func(reg toolscache.ResourceEventHandlerRegistration, err error) error {
		if err == nil {
			fed = append(fed, reg.HasSynced)
		}
		return err
	}
	// A flavor carries the levels of the Topology it names: a flavor is fed
	// with what the Topology informer holds, and a Topology's change feeds
	// again every flavor that names it. Whichever is seen first, the last
	// event leaves the flavor with the Topology as listed.
	flavors, topologies := v1.ResourceFlavors(), v1.Topologies()
	flavorOf := func(rf *multislicev1alpha1.ResourceFlavor) *quota.Flavor {
		var topo *multislicev1alpha1.Topology
		if rf.Spec.TopologyName != "" {
			topo, _ = topologies.Lister().Get(rf.Spec.TopologyName)
		}
		return queuemodel.Flavor(rf, topo)
	}
	if err := feed(feedInformer(ctx, f, flavors.Informer(),
		func(rf *multislicev1alpha1.ResourceFlavor) state.Actions { return st.Feed().SetFlavor(flavorOf(rf)) },
		func(rf *multislicev1alpha1.ResourceFlavor) state.Actions { return st.Feed().DeleteFlavor(rf.Name) })); err != nil {
		return nil, err
	}
	refeed := func(topo *multislicev1alpha1.Topology) state.Actions {
		all, err := flavors.Lister().List(labels.Everything())
		if err != nil {
			return state.Actions{}
		}
		for _, rf := range all {
			if rf.Spec.TopologyName == topo.Name {
				f.act(ctx, st.Feed().SetFlavor(flavorOf(rf)))
			}
		}
		return state.Actions{}
	}
	if err := feed(feedInformer(ctx, f, topologies.Informer(), refeed, refeed)); err != nil {
		return nil, err
	}
	if err := feed(feedInformer(ctx, f, v1.ClusterQueues().Informer(),
		func(cq *multislicev1alpha1.ClusterQueue) state.Actions {
			m, err := queuemodel.ClusterQueue(cq)
			if err != nil {
				logger.Error(err, "Ignoring an invalid ClusterQueue", "clusterQueue", cq.Name)
				f.warn(&corev1.ObjectReference{Kind: "ClusterQueue", APIVersion: multislicev1alpha1.SchemeGroupVersion.String(), Name: cq.Name, UID: cq.UID}, "InvalidClusterQueue", err.Error())
				return st.Feed().DeleteClusterQueue(cq.Name)
			}
			return st.Feed().SetClusterQueue(m)
		},
		func(cq *multislicev1alpha1.ClusterQueue) state.Actions { return st.Feed().DeleteClusterQueue(cq.Name) })); err != nil {
		return nil, err
	}
	if err := feed(feedInformer(ctx, f, v1.LocalQueues().Informer(),
		func(lq *multislicev1alpha1.LocalQueue) state.Actions {
			acts := st.Feed().SetLocalQueue(queuemodel.LocalQueue(lq))
			if f.hooks.LocalQueueSet != nil {
				f.hooks.LocalQueueSet(lq.Namespace, lq.Name)
			}
			return acts
		},
		func(lq *multislicev1alpha1.LocalQueue) state.Actions {
			return st.Feed().DeleteLocalQueue(lq.Namespace, lq.Name)
		})); err != nil {
		return nil, err
	}
	nsInformer := f.informers.kube.Core().V1().Namespaces().Informer()
	if err := feed(feedInformer(ctx, f, nsInformer,
		func(ns *corev1.Namespace) state.Actions { return st.Feed().SetNamespace(ns.Name, ns.Labels) },
		func(ns *corev1.Namespace) state.Actions { return st.Feed().DeleteNamespace(ns.Name) })); err != nil {
		return nil, err
	}
	workloads := v1.Workloads().Informer()
	// What Workload objects record of admissions is part of the state.
	if err := feed(feedInformer(ctx, f, workloads,
		func(wl *multislicev1alpha1.Workload) state.Actions { return f.feedRecordedAdmission(wl, false) },
		func(wl *multislicev1alpha1.Workload) state.Actions { return f.feedRecordedAdmission(wl, true) })); err != nil {
		return nil, err
	}
	// A request is owned by its Workload object: one written may let a
	// request waiting for it be created.
	if f.hooks.WorkloadAdded != nil {
		if _, err := workloads.AddEventHandler(toolscache.ResourceEventHandlerFuncs{AddFunc: func(any) { f.hooks.WorkloadAdded() }}); err != nil {
			return nil, err
		}
	}
	checksSynced, err := f.startCheckFeed(ctx)
	if err != nil {
		return nil, err
	}
	f.informers.multislice.Start(ctx.Done())
	// The namespaces come from the scheduler's own factory.
	f.informers.kube.Start(ctx.Done())

	fed = append(fed, checksSynced...)
	synced := func() bool {
		for _, s := range fed {
			if !s() {
				return false
			}
		}
		return true
	}
	if f.hooks.QueuesWatched != nil {
		if err := f.hooks.QueuesWatched(ctx, synced); err != nil {
			return nil, err
		}
	}
	return synced, nil
}
