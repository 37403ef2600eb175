// Package feed keeps the scheduler's state current from the cluster's
// informers, and does nothing else: informers' objects become the model
// (API objects → state), from one informer factory per API group
// (informers.go), each API watched once discovery finds it served. What
// the state answers (state.Actions) the feed hands to the Act function it
// was built with; what the controllers need to hear of (a cordoned node, a
// LocalQueue set, an API found served) it tells through Hooks. pkg/app
// builds the feed and wires it to the actuator and the controllers.
package feed

import (
	"context"
	"sync"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	toolscache "k8s.io/client-go/tools/cache"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Clients are what the feed reads the cluster with: the scheduler's own
// client and informer factory, and the clients of the custom APIs.
type Clients struct {
	Client    kubernetes.Interface
	Informers informers.SharedInformerFactory
	// Multislice reads multislice.dev, ComputeClasses and
	// ProvisioningRequests; JobSets and PodGroups, JobSets and
	// scheduler-plugins' PodGroups.
	Multislice multisliceclient.Interface
	JobSets    jobsetclient.Interface
	PodGroups  spclient.Interface
}

// Hooks tell the controllers what they watch for, as the feed sees it.
// Each may be nil.
type Hooks struct {
	// PodDeleted is called for every deleted pod, after the state forgot it.
	PodDeleted func(*corev1.Pod)
	// NodeCordoned is called when a node is seen unschedulable: it may be
	// a recycled node, whose pods move.
	NodeCordoned func()
	// JobChanged is called for every Job added or changed, after the
	// state saw it.
	JobChanged func(*batchv1.Job)
	// JobSetsServed is called once the JobSet API is served, before its
	// informer starts, with that informer.
	JobSetsServed func(jobsets jobsetinformers.SharedInformerFactory) error
	// LocalQueueSet is called for every LocalQueue added or changed.
	LocalQueueSet func(namespace, name string)
	// QueueAPIServed is called once the queue API is served and the
	// state saw its objects.
	QueueAPIServed func()
	// QueuesWatched is called once the queue informers are started, with
	// what says they have synced.
	QueuesWatched func(ctx context.Context, synced toolscache.InformerSynced) error
	// WorkloadAdded is called for every Workload object added.
	WorkloadAdded func()
	// ProvisioningServed is called once the ProvisioningRequest API is
	// served and the checks resolved again.
	ProvisioningServed func(ctx context.Context)
}

// Config is what a feed is built from.
type Config struct {
	Clients Clients
	State   *state.State
	// Act carries out what the state answers an update with.
	Act func(ctx context.Context, acts state.Actions)
	// Warn tells users of objects the model refuses (an invalid workload
	// or ClusterQueue).
	Warn             func(ref *corev1.ObjectReference, reason, message string)
	DefaultDomainKey string
	Hooks            Hooks
}

// Feed keeps one state current from the informers.
type Feed struct {
	clients          Clients
	informers        factories
	state            *state.State
	act              func(ctx context.Context, acts state.Actions)
	warn             func(ref *corev1.ObjectReference, reason, message string)
	defaultDomainKey string
	hooks            Hooks

	// composites derives CompositePodGroups with their children.
	composites composites

	mu sync.Mutex
	// pokes wake the discovery loops of the workload APIs (see Rediscover).
	pokes map[workload.Source]chan struct{}
}

// New builds a feed; nothing is watched until Start.
func New(cfg Config) *Feed {
	return &Feed{clients: cfg.Clients, informers: newFactories(cfg.Clients), state: cfg.State, act: cfg.Act, warn: cfg.Warn,
		defaultDomainKey: cfg.DefaultDomainKey, hooks: cfg.Hooks}
}

// Start registers the informers' handlers (the scheduler's own factory is
// started with the scheduler) and starts discovering the APIs that may
// not be served yet, until ctx ends.
func (f *Feed) Start(ctx context.Context) error {
	if err := f.watchPods(ctx); err != nil {
		return err
	}
	if err := f.watchNodes(ctx); err != nil {
		return err
	}
	f.watchJobs(ctx)
	f.watchSources(ctx)
	f.watchQueues(ctx)
	return nil
}

// MultisliceInformers is the feed's informer factory of multislice.dev,
// ComputeClasses and ProvisioningRequests, which the controllers read too.
func (f *Feed) MultisliceInformers() multisliceinformers.SharedInformerFactory {
	return f.informers.multislice
}

func (f *Feed) watchPods(ctx context.Context) error {
	_, err := feedInformer(ctx, f, f.informers.kube.Core().V1().Pods().Informer(), f.state.Feed().UpsertPod, func(pod *corev1.Pod) state.Actions {
		acts := f.state.Feed().DeletePod(pod)
		if f.hooks.PodDeleted != nil {
			f.hooks.PodDeleted(pod)
		}
		return acts
	})
	return err
}

// watchNodes feeds the nodes, each with its lifetime (recorded first, so
// that the node enters the state with it), and keeps lifetimes current as
// ComputeClasses change.
func (f *Feed) watchNodes(ctx context.Context) error {
	nodes := f.informers.kube.Core().V1().Nodes()
	lifetimes := &nodeLifetimes{st: f.state, nodes: nodes.Lister()}
	go f.watchComputeClasses(ctx, lifetimes)
	_, err := feedInformer(ctx, f, nodes.Informer(), func(n *corev1.Node) state.Actions {
		lifetimes.set(n)
		acts := f.state.Feed().UpsertNode(n)
		if n.Spec.Unschedulable && f.hooks.NodeCordoned != nil {
			f.hooks.NodeCordoned()
		}
		return acts
	}, func(n *corev1.Node) state.Actions {
		lifetimes.bounded.Delete(n.Name)
		return f.state.Feed().DeleteNode(n.Name)
	})
	return err
}

// feedInformer passes an informer's objects of type T to the state and
// hands on what it answers. The registration has synced once the state
// saw every object listed.
func feedInformer[T any](ctx context.Context, f *Feed, informer toolscache.SharedIndexInformer, upsert, del func(T) state.Actions) (toolscache.ResourceEventHandlerRegistration, error) {
	return informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if o, ok := obj.(T); ok {
				f.act(ctx, upsert(o))
			}
		},
		UpdateFunc: func(_, obj any) {
			if o, ok := obj.(T); ok {
				f.act(ctx, upsert(o))
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if o, ok := obj.(T); ok {
				f.act(ctx, del(o))
			}
		},
	})
}
