package app

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/events"
	fwk "k8s.io/kube-scheduler/framework"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Scheduler is what our runtime is built from: one scheduler's client,
// configuration, informer factory and event recorders (one per profile),
// its profiles, and whether it runs leader election.
type Scheduler struct {
	Client         kubernetes.Interface
	KubeConfig     *rest.Config
	Informers      informers.SharedInformerFactory
	Recorder       func(profile string) events.EventRecorder
	Profiles       []schedulerconfig.KubeSchedulerProfile
	LeaderElection bool
}

// Runtime is what every plugin and profile of one scheduler shares: one
// state, kept current by one feed, the actuator that carries out what the
// state and the admission engine ask for (actuator.go), the controllers
// that write to the API while this replica leads (controllers.go), and
// the profiles' handles.
type Runtime struct {
	mu    sync.Mutex
	state *state.State
	feed  *feed.Feed
	// client, kubeConfig and informers are the scheduler's own.
	client     kubernetes.Interface
	kubeConfig *rest.Config
	informers  informers.SharedInformerFactory
	// multislice and jobSets are the custom APIs' clients (JSON).
	multislice multisliceclient.Interface
	jobSets    jobsetclient.Interface
	handles    []fwk.Handle
	events     *controllers.EventSink
	// settings are every profile's: the workload model and the queues
	// depend on them, and there is one of each.
	settings admission.Settings
	onDelete []func(*corev1.Pod)
	// lead gates every writer on this replica leading.
	lead leadership
	// provisioning wakes the provisioning controller (nil until it runs).
	provisioning atomic.Pointer[controllers.Provisioner]
	// statusWriter creates the Workload objects that requests are owned
	// by (nil until it runs).
	statusWriter atomic.Pointer[controllers.StatusWriter]
	// attached and gated name the profiles whose MultisliceGang and
	// MultisliceGate plugins were built on this runtime.
	attached, gated map[string]bool
	// evict carries out evictions (nil until first used).
	evict *controllers.Evictor
	// migrate moves pods off nodes being recycled.
	migrate *controllers.Migrator
	// workloads writes admissions, and what users must be told, on
	// Workload objects.
	workloads controllers.WorkloadWriter
	// held tells the pods the gate holds why (see controllers.HeldPods).
	held *controllers.HeldPods
	// unsuspend is the controller that starts queued Jobs and JobSets.
	unsuspend *controllers.Unsuspender
}

// NewRuntime builds our runtime (state, feed, actuator, controllers) for
// s, from the settings of its profiles, its events recorded as the
// profile the settings came from: Setup builds it so, and the
// scheduler_perf benchmarks, whose harness builds the scheduler itself,
// through this same function. Its informers are registered now and start
// with the scheduler's; with leader election on, its writers wait until
// Lead.
func NewRuntime(ctx context.Context, s Scheduler) (*Runtime, error) {
	set, owner, err := Settings(s.Profiles)
	if err != nil {
		return nil, err
	}
	crd := jsonConfig(s.KubeConfig)
	clients := feed.Clients{Client: s.Client, Informers: s.Informers}
	if clients.Multislice, err = multisliceclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if clients.JobSets, err = jobsetclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	if clients.PodGroups, err = spclient.NewForConfig(crd); err != nil {
		return nil, err
	}
	rt := &Runtime{client: s.Client, kubeConfig: s.KubeConfig, informers: s.Informers, multislice: clients.Multislice,
		jobSets: clients.JobSets, settings: set}
	if s.LeaderElection {
		rt.awaitLeadership()
	}
	rt.state = state.New(state.Options{
		DefaultDomainKey:  set.DefaultDomainKey,
		DefaultLocalQueue: set.DefaultLocalQueue,
		QuotaStarvation:   set.QuotaStarvation,
		RestartHold:       set.RestartHold,
		Observer:          metrics.Observer(),
		RecordAdmissions:  true,
	})
	rt.events = controllers.NewEventSink(s.Recorder(owner), rt.state.Clock())
	rt.held = controllers.NewHeldPods(rt.state.Clock(), rt.events)
	rt.onDelete = append(rt.onDelete, rt.Released)
	rt.feed = feed.New(feed.Config{
		Clients: clients, State: rt.state, Act: rt.Act, Warn: rt.events.Warn,
		DefaultDomainKey: set.DefaultDomainKey, Hooks: rt.hooks(),
	})
	rt.startControllers(ctx)
	if err := rt.feed.Start(ctx); err != nil {
		return nil, err
	}
	return rt, nil
}

// jsonConfig is cfg speaking JSON: custom resources speak nothing else,
// and the scheduler's own config asks for protobuf (reads would fall back
// to JSON, writes would not).
func jsonConfig(cfg *rest.Config) *rest.Config {
	cfg = rest.CopyConfig(cfg)
	cfg.ContentType = apiruntime.ContentTypeJSON
	cfg.AcceptContentTypes = apiruntime.ContentTypeJSON
	return cfg
}

// State returns the shared state.
func (rt *Runtime) State() *state.State { return rt.state }

// Events returns the shared event sink.
func (rt *Runtime) Events() *controllers.EventSink { return rt.events }

// OnPodDeleted registers a function called for every deleted pod, after
// the state forgot it.
func (rt *Runtime) OnPodDeleted(f func(*corev1.Pod)) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.onDelete = append(rt.onDelete, f)
}

// podDeleted calls the functions registered with OnPodDeleted.
func (rt *Runtime) podDeleted(pod *corev1.Pod) {
	rt.mu.Lock()
	fs := rt.onDelete
	rt.mu.Unlock()
	for _, f := range fs {
		f(pod)
	}
}

// Attach registers a profile's handle, through which the runtime
// activates and lets through that profile's pods. Every profile must
// agree with the settings the runtime was built with.
func (rt *Runtime) Attach(h fwk.Handle, set admission.Settings) error {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if err := rt.agree(h.ProfileName(), set); err != nil {
		return err
	}
	if rt.attached == nil {
		rt.attached = map[string]bool{}
	}
	rt.attached[h.ProfileName()] = true
	rt.handles = append(rt.handles, h)
	return nil
}

// agree checks a profile's settings against the runtime's.
func (rt *Runtime) agree(profile string, set admission.Settings) error {
	for _, f := range []struct {
		field     string
		got, want any
	}{
		{"defaultDomainKey", set.DefaultDomainKey, rt.settings.DefaultDomainKey},
		{"defaultLocalQueue", set.DefaultLocalQueue, rt.settings.DefaultLocalQueue},
		{"quotaStarvationTimeoutSeconds", int64(set.QuotaStarvation / time.Second), int64(rt.settings.QuotaStarvation / time.Second)},
		{"quotaReconcileSeconds", int64(set.QuotaReconcile / time.Second), int64(rt.settings.QuotaReconcile / time.Second)},
		{"restartHoldSeconds", int64(set.RestartHold / time.Second), int64(rt.settings.RestartHold / time.Second)},
		{"queuedStartDepth", set.QueuedStartDepth, rt.settings.QueuedStartDepth},
	} {
		if f.got != f.want {
			return fmt.Errorf("MultisliceGangArgs.%s: profile %q sets %v, but another profile sets %v; every profile shares one state and must set the same value",
				f.field, profile, f.got, f.want)
		}
	}
	return nil
}

// AttachGate records that profile runs the gate, which holds pods back
// with the state a MultisliceGang plugin attaches.
func (rt *Runtime) AttachGate(profile string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.gated == nil {
		rt.gated = map[string]bool{}
	}
	rt.gated[profile] = true
}

// Unpaired lists, sorted, the profiles that run MultisliceGang without the
// gate (gangOnly) and the gate without MultisliceGang (gateOnly), once
// every profile's plugins are built.
func (rt *Runtime) Unpaired() (gangOnly, gateOnly []string) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	for p := range rt.attached {
		if !rt.gated[p] {
			gangOnly = append(gangOnly, p)
		}
	}
	for p := range rt.gated {
		if !rt.attached[p] {
			gateOnly = append(gateOnly, p)
		}
	}
	slices.Sort(gangOnly)
	slices.Sort(gateOnly)
	return gangOnly, gateOnly
}
