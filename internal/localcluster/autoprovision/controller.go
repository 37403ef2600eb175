package autoprovision

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	batchlisters "k8s.io/client-go/listers/batch/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/passes"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	ccinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	cloudlisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/cloud/v1"
)

// fieldManager names the auto-provisioning in managedFields and events.
const fieldManager = "localcluster-node-auto-provisioning"

// nodeNameIndex indexes pods by the node they are bound to.
const nodeNameIndex = "nodeName"

// Options configure a Controller.
type Options struct {
	// Client reads pods and Jobs, and creates, updates and deletes nodes.
	Client kubernetes.Interface
	// ClassClient reads ComputeClasses.
	ClassClient versioned.Interface
	Config      *Config
	// Clock is the real one when nil.
	Clock clock.Clock
	// Log receives one line per thing it does; nothing is logged when nil.
	Log func(format string, args ...any)
	// Recorder receives an event on the pod or node of each step the log
	// tells of; none are recorded when nil. NewForConfig records them
	// through the cluster's events API.
	Recorder events.EventRecorder
}

// Controller is the simulated node auto-provisioning. What the API cannot
// tell again it keeps in memory: its node pools (rebuilt from their nodes'
// labels when it starts), the nodes queued and not yet created, when each
// zone last obtained a flex-start node, since when each node has been
// unneeded, and what each group was last told.
type Controller struct {
	client      kubernetes.Interface
	clock       clock.Clock
	logf        func(format string, args ...any)
	recorder    events.EventRecorder
	broadcaster events.EventBroadcaster

	factory      informers.SharedInformerFactory
	nodeFactory  informers.SharedInformerFactory
	classFactory ccinformers.SharedInformerFactory
	classes      cloudlisters.ComputeClassLister
	jobs         batchlisters.JobLister
	nodes        corelisters.NodeLister
	pods         cache.Indexer
	synced       []cache.InformerSynced
	trigger      chan struct{}

	configMu sync.Mutex
	cfg      *Config

	pools    map[string]*pool
	queue    []*request
	seq      uint64
	obtained map[capKey]time.Time    // when a zone last gave a flex-start node of a machine type
	unneeded map[string]time.Time    // node → since when no pod uses it
	told     map[string]string       // group or class → what it was last told
	created  map[string]*corev1.Node // created, until the node informer has them
	deleting map[string]bool         // deleted, until the node informer drops them
	cordoned map[string]time.Time    // cordoned for recycling, until the node informer shows it
	// removed maps the nodes it deleted to their pools while pods bound to
	// them remain: until the pod garbage collector deletes those, their
	// workload is still on the pool, and its other nodes are kept for it.
	removed map[string]string
}

// NewForConfig builds a Controller on a cluster's REST config. The
// ComputeClass client speaks JSON: custom resources have no protobuf
// encoding.
func NewForConfig(cfg *rest.Config, config *Config, log func(format string, args ...any)) (*Controller, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	jsonCfg := rest.CopyConfig(cfg)
	jsonCfg.ContentType = runtime.ContentTypeJSON
	jsonCfg.AcceptContentTypes = runtime.ContentTypeJSON
	classClient, err := versioned.NewForConfig(jsonCfg)
	if err != nil {
		return nil, err
	}
	broadcaster, recorder := newEventBroadcaster(client)
	c, err := New(Options{Client: client, ClassClient: classClient, Config: config, Log: log, Recorder: recorder})
	if err != nil {
		return nil, err
	}
	c.broadcaster = broadcaster
	return c, nil
}

// New builds a Controller; Run starts it.
func New(opts Options) (*Controller, error) {
	if opts.Client == nil || opts.ClassClient == nil || opts.Config == nil {
		return nil, errors.New("autoprovision: Client, ClassClient and Config are required")
	}
	c := &Controller{
		client:   opts.Client,
		clock:    opts.Clock,
		logf:     opts.Log,
		recorder: opts.Recorder,
		cfg:      opts.Config,
		trigger:  make(chan struct{}, 1),
		pools:    map[string]*pool{},
		obtained: map[capKey]time.Time{},
		unneeded: map[string]time.Time{},
		told:     map[string]string{},
		created:  map[string]*corev1.Node{},
		deleting: map[string]bool{},
		cordoned: map[string]time.Time{},
		removed:  map[string]string{},
	}
	if c.clock == nil {
		c.clock = clock.RealClock{}
	}
	if c.logf == nil {
		c.logf = func(string, ...any) {}
	}
	poke := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { c.poke() },
		UpdateFunc: func(any, any) { c.poke() },
		DeleteFunc: func(any) { c.poke() },
	}
	c.factory = informers.NewSharedInformerFactory(opts.Client, 0)
	c.nodeFactory = informers.NewSharedInformerFactoryWithOptions(opts.Client, 0, informers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.LabelSelector = nodepools.AutoProvisionedLabel
	}))
	c.classFactory = ccinformers.NewSharedInformerFactory(opts.ClassClient, 0)

	classes := c.classFactory.Cloud().V1().ComputeClasses()
	nodes := c.nodeFactory.Core().V1().Nodes()
	jobs := c.factory.Batch().V1().Jobs()
	pods := c.factory.Core().V1().Pods()
	if err := pods.Informer().AddIndexers(cache.Indexers{nodeNameIndex: indexByNodeName}); err != nil {
		return nil, err
	}
	for _, inf := range []cache.SharedIndexInformer{classes.Informer(), nodes.Informer(), jobs.Informer()} {
		if _, err := inf.AddEventHandler(poke); err != nil {
			return nil, err
		}
		c.synced = append(c.synced, inf.HasSynced)
	}
	// Pods that select a class are demand; any pod bound to a node may be
	// on one of ours.
	if _, err := pods.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			p, ok := obj.(*corev1.Pod)
			return ok && (p.Spec.NodeName != "" || len(p.Spec.NodeSelector) > 0)
		},
		Handler: poke,
	}); err != nil {
		return nil, err
	}
	c.synced = append(c.synced, pods.Informer().HasSynced)
	c.classes = classes.Lister()
	c.nodes = nodes.Lister()
	c.jobs = jobs.Lister()
	c.pods = pods.Informer().GetIndexer()
	return c, nil
}

func indexByNodeName(obj any) ([]string, error) {
	if p, ok := obj.(*corev1.Pod); ok && p.Spec.NodeName != "" {
		return []string{p.Spec.NodeName}, nil
	}
	return nil, nil
}

// SetConfig replaces the configuration (an edit of the node pool file):
// nodes already there keep their shape, new ones get the new one, and a
// spot capacity lowered below the spot nodes there are preempts the
// difference.
func (c *Controller) SetConfig(cfg *Config) {
	c.configMu.Lock()
	c.cfg = cfg
	c.configMu.Unlock()
	c.poke()
}

func (c *Controller) config() *Config {
	c.configMu.Lock()
	defer c.configMu.Unlock()
	return c.cfg
}

// poke asks for a pass; passes asked for while one runs collapse into one.
func (c *Controller) poke() {
	select {
	case c.trigger <- struct{}{}:
	default:
	}
}

// jobLookup reads Jobs from the informer.
func (c *Controller) jobLookup(namespace, name string) (*batchv1.Job, bool) {
	j, err := c.jobs.Jobs(namespace).Get(name)
	return j, err == nil
}

// Run provisions until ctx ends. A pass runs whenever a watched object
// changes and whenever a time the last pass found (a delay, a flex-start
// interval, a recycling, an end of life, a drain, a scale-down) comes.
func (c *Controller) Run(ctx context.Context) error {
	if c.broadcaster != nil {
		if err := c.broadcaster.StartRecordingToSinkWithContext(ctx); err != nil {
			return fmt.Errorf("autoprovision: recording events: %w", err)
		}
		defer c.broadcaster.Shutdown()
	}
	c.factory.Start(ctx.Done())
	c.nodeFactory.Start(ctx.Done())
	c.classFactory.Start(ctx.Done())
	defer func() {
		c.factory.Shutdown()
		c.nodeFactory.Shutdown()
		c.classFactory.Shutdown()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("autoprovision: informers did not sync")
	}
	passes.Run(ctx, c.clock, c.trigger, c.pass)
	return nil
}
