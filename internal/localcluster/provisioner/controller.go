package provisioner

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/passes"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	provinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	autoscalinglisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/autoscaling/v1"
)

// fieldManager names the provisioner in managedFields.
const fieldManager = "localcluster-queued-provisioner"

// retryAfter is how soon a pass that hit an API error is repeated.
const retryAfter = 2 * time.Second

// consumersIndex indexes pods by the request they consume,
// <namespace>/<name>.
const consumersIndex = "provisioningRequest"

// Options configure a Controller.
type Options struct {
	// Client reads PodTemplates and pods, and creates and deletes nodes.
	Client kubernetes.Interface
	// RequestClient reads and updates ProvisioningRequests.
	RequestClient versioned.Interface
	Config        *Config
	// Clock is the real one when nil.
	Clock clock.Clock
	// Log receives one line per thing the provisioner does; nothing is
	// logged when nil.
	Log func(format string, args ...any)
	// Recorder receives an event on the request for each step the log
	// tells of it (see the Event* reasons); none are recorded when nil.
	// NewForConfig records them through the cluster's events API.
	Recorder events.EventRecorder
}

// Controller provisions nodes for queued-provisioning.gke.io
// ProvisioningRequests. Its decisions are the pure functions of this
// package; it keeps in memory only what the API cannot tell again: the
// conditions it wrote (informers lag behind its own writes), the nodes it
// created or deleted and not yet seen, and whether a request's pods ever
// ran.
type Controller struct {
	client        kubernetes.Interface
	requestClient versioned.Interface
	clock         clock.Clock
	logf          func(format string, args ...any)
	recorder      events.EventRecorder
	// broadcaster, when set, sends the recorder's events to the API while
	// Run runs.
	broadcaster events.EventBroadcaster

	factory        informers.SharedInformerFactory
	nodeFactory    informers.SharedInformerFactory
	requestFactory provinformers.SharedInformerFactory
	requests       autoscalinglisters.ProvisioningRequestLister
	templates      corelisters.PodTemplateLister
	nodes          corelisters.NodeLister
	pods           cache.Indexer
	synced         []cache.InformerSynced
	trigger        chan struct{}
	configMu       sync.Mutex
	cfg            *Config
	tracked        map[types.UID]*tracked
	created        map[string]createdNode // nodes created, until the node informer has them
	deleting       map[string]bool        // nodes deleted, until the node informer drops them
}

// NewForConfig builds a Controller on a cluster's REST config. The
// ProvisioningRequest client speaks JSON: custom resources have no
// protobuf encoding.
func NewForConfig(cfg *rest.Config, config *Config, log func(format string, args ...any)) (*Controller, error) {
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	jsonCfg := rest.CopyConfig(cfg)
	jsonCfg.ContentType = runtime.ContentTypeJSON
	jsonCfg.AcceptContentTypes = runtime.ContentTypeJSON
	requestClient, err := versioned.NewForConfig(jsonCfg)
	if err != nil {
		return nil, err
	}
	broadcaster, recorder := newEventBroadcaster(client)
	c, err := New(Options{Client: client, RequestClient: requestClient, Config: config, Log: log, Recorder: recorder})
	if err != nil {
		return nil, err
	}
	c.broadcaster = broadcaster
	return c, nil
}

// New builds a Controller; Run starts it.
func New(opts Options) (*Controller, error) {
	if opts.Client == nil || opts.RequestClient == nil || opts.Config == nil {
		return nil, errors.New("provisioner: Client, RequestClient and Config are required")
	}
	c := &Controller{
		client:        opts.Client,
		requestClient: opts.RequestClient,
		clock:         opts.Clock,
		logf:          opts.Log,
		recorder:      opts.Recorder,
		cfg:           opts.Config,
		trigger:       make(chan struct{}, 1),
		tracked:       map[types.UID]*tracked{},
		created:       map[string]createdNode{},
		deleting:      map[string]bool{},
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
		o.LabelSelector = nodepools.ProvisionedLabel
	}))
	c.requestFactory = provinformers.NewSharedInformerFactory(opts.RequestClient, 0)

	requests := c.requestFactory.Autoscaling().V1().ProvisioningRequests()
	templates := c.factory.Core().V1().PodTemplates()
	nodes := c.nodeFactory.Core().V1().Nodes()
	pods := c.factory.Core().V1().Pods()
	if err := pods.Informer().AddIndexers(cache.Indexers{consumersIndex: indexByConsumedRequest}); err != nil {
		return nil, err
	}
	for _, inf := range []cache.SharedIndexInformer{requests.Informer(), templates.Informer(), nodes.Informer()} {
		if _, err := inf.AddEventHandler(poke); err != nil {
			return nil, err
		}
		c.synced = append(c.synced, inf.HasSynced)
	}
	// Only pods that consume a request matter.
	if _, err := pods.Informer().AddEventHandler(cache.FilteringResourceEventHandler{
		FilterFunc: func(obj any) bool {
			if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			p, ok := obj.(*corev1.Pod)
			return ok && ConsumedRequest(p) != ""
		},
		Handler: poke,
	}); err != nil {
		return nil, err
	}
	c.synced = append(c.synced, pods.Informer().HasSynced)
	c.requests = requests.Lister()
	c.templates = templates.Lister()
	c.nodes = nodes.Lister()
	c.pods = pods.Informer().GetIndexer()
	return c, nil
}

func indexByConsumedRequest(obj any) ([]string, error) {
	p, ok := obj.(*corev1.Pod)
	if !ok {
		return nil, nil
	}
	if name := ConsumedRequest(p); name != "" {
		return []string{p.Namespace + "/" + name}, nil
	}
	return nil, nil
}

// SetConfig replaces the configuration (an edit of the node pool file).
// Nodes already provisioned keep their shape; new ones get the new one.
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

// Run serves requests until ctx ends. Each pass looks at every request;
// one runs whenever a watched object changes and whenever a deadline the
// last pass found (a delay, a booking, a maximum run time) passes.
func (c *Controller) Run(ctx context.Context) error {
	if c.broadcaster != nil {
		if err := c.broadcaster.StartRecordingToSinkWithContext(ctx); err != nil {
			return fmt.Errorf("provisioner: recording events: %w", err)
		}
		defer c.broadcaster.Shutdown()
	}
	c.factory.Start(ctx.Done())
	c.nodeFactory.Start(ctx.Done())
	c.requestFactory.Start(ctx.Done())
	defer func() {
		c.factory.Shutdown()
		c.nodeFactory.Shutdown()
		c.requestFactory.Shutdown()
	}()
	if !cache.WaitForCacheSync(ctx.Done(), c.synced...) {
		if ctx.Err() != nil {
			return nil
		}
		return fmt.Errorf("provisioner: informers did not sync")
	}
	passes.Run(ctx, c.clock, c.trigger, c.pass)
	return nil
}
