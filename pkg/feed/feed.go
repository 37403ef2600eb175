// Package feed builds the scheduler's one shared runtime and keeps its
// state current: pkg/app builds it (New) before any plugin factory runs,
// and every plugin of every profile attaches to it, so all of them share
// one state and one set of informers, from one factory per API group
// (informers.go). Informers' objects become the model here (API objects →
// state); what the state asks for (activating pods, rejecting waiting
// pods, events) is carried out with the framework's handles. The API
// writers, and the loops that act on the state over time (expiry, usage
// reconcile), are pkg/controllers', started from here while this replica
// leads.
package feed

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/utils/clock"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Runtime is the state shared by every plugin and profile of one scheduler.
type Runtime struct {
	mu      sync.Mutex
	cluster Cluster
	// informers are the factories of the informers the runtime asks for
	// itself, one per API group.
	informers factories
	state     *state.State
	handles   []fwk.Handle
	events    *controllers.EventSink
	// settings are every profile's: the workload model and the queues
	// depend on them, and there is one of each.
	settings admission.Settings
	// defaultDomainKey is settings.DefaultDomainKey.
	defaultDomainKey string
	onDelete         []func(*corev1.Pod)
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
	// pokes wake the discovery loops of the workload APIs (see rediscover).
	pokes map[workload.Source]chan struct{}
	// evict carries out evictions (nil until first used).
	evict *controllers.Evictor
	// migrate moves pods off nodes being recycled (nil until the pod
	// informer is known).
	migrate *controllers.Migrator
	// workloads writes admissions, and what users must be told, on
	// Workload objects.
	workloads controllers.WorkloadWriter
	// held tells the pods the gate holds why (see controllers.HeldPods).
	held *controllers.HeldPods
	// unsuspend is the controller that starts queued Jobs and JobSets
	// (nil until the Job informer is set up).
	unsuspend atomic.Pointer[controllers.Unsuspender]
}

// OnPodDeleted registers a function called for every deleted pod, after
// the state forgot it.
func (rt *Runtime) OnPodDeleted(f func(*corev1.Pod)) {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	rt.onDelete = append(rt.onDelete, f)
}

// Cluster is what one scheduler's runtime reads and writes the cluster
// with: the scheduler's own client, configuration, informer factory and
// event recorder, which every framework handle of that scheduler returns,
// and the clients of the custom APIs, which pkg/app makes (speaking JSON:
// custom resources speak nothing else).
type Cluster struct {
	Client     kubernetes.Interface
	KubeConfig *rest.Config
	Informers  informers.SharedInformerFactory
	Recorder   events.EventRecorder
	// Multislice reads and writes multislice.dev, ComputeClasses and
	// ProvisioningRequests; JobSets and PodGroups, JobSets and
	// scheduler-plugins' PodGroups.
	Multislice multisliceclient.Interface
	JobSets    jobsetclient.Interface
	PodGroups  spclient.Interface
}

// Config is what a runtime is built from.
type Config struct {
	Cluster  Cluster
	Settings admission.Settings
	// AwaitLeadership makes the writers wait until Lead (leader election
	// is on). Otherwise the runtime leads from the start, as a scheduler
	// without leader election does.
	AwaitLeadership bool
}

// New builds one scheduler's runtime: its state, fed by the cluster's
// informers (registered now, started with the scheduler's), and the
// controllers that write what it decides while this replica leads.
// pkg/app builds it before any plugin factory runs, so that every plugin
// of every profile finds the same whole runtime.
func New(ctx context.Context, cfg Config) (*Runtime, error) {
	set, c := cfg.Settings, cfg.Cluster
	rt := &Runtime{cluster: c, informers: newFactories(c), settings: set, defaultDomainKey: set.DefaultDomainKey}
	if cfg.AwaitLeadership {
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
	rt.events = controllers.NewEventSink(c.Recorder, rt.state.Clock())
	rt.held = controllers.NewHeldPods(rt.state.Clock(), rt.events)
	rt.onDelete = append(rt.onDelete, rt.Released)
	if err := rt.watchPods(ctx); err != nil {
		return nil, err
	}
	podInformer := c.Informers.Core().V1().Pods()
	rt.migrate = controllers.NewMigrator(rt.state, rt.evictions(), rt.events, podInformer.Lister(), rt.Leading)
	if err := rt.watchNodes(ctx); err != nil {
		return nil, err
	}
	un := rt.watchJobs(ctx)
	rt.unsuspend.Store(un)
	rt.watchSources(ctx, un)
	rt.watchQueues(ctx)
	expiry := controllers.NewExpirer(rt.state, rt.Act, c.Client, c.JobSets, rt.evictions(), clock.RealClock{}, time.Second)
	rt.WhileLeading(ctx, expiry.Run)
	usage := controllers.NewUsageReconciler(rt.state, rt.Act, rt.events, podInformer.Lister(), clock.RealClock{}, set.QuotaReconcile)
	rt.WhileLeading(ctx, func(ctx context.Context) {
		if !toolscache.WaitForCacheSync(ctx.Done(), podInformer.Informer().HasSynced) {
			return
		}
		// A standby held every pod back in PreEnqueue (MultisliceGate):
		// decide on all of them now, from the state its informers built,
		// once what runs with no record of its admission is charged.
		controllers.ChargeAllRunning(rt.state)
		rt.Act(ctx, state.Actions{Activate: rt.state.PendingPods()})
		go rt.held.Run(ctx, controllers.HeldPodsClient(c.KubeConfig, c.Client), podInformer.Lister())
		go usage.Run(ctx)
		go rt.migrate.Run(ctx)
		rt.evictions().Run(ctx, rt.state, c.Client, podInformer.Lister())
	})
	return rt, nil
}

// Attach registers a profile's handle, through which the runtime
// activates and lets through that profile's pods. Every profile must agree with the settings the runtime was built
// with.
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

// State returns the shared state.
func (rt *Runtime) State() *state.State { return rt.state }

// Events returns the shared event sink.
func (rt *Runtime) Events() *controllers.EventSink { return rt.events }

func (rt *Runtime) watchPods(ctx context.Context) error {
	_, err := feedInformer(ctx, rt, rt.informers.kube.Core().V1().Pods().Informer(), rt.state.UpsertPod, func(pod *corev1.Pod) state.Actions {
		acts := rt.state.DeletePod(pod)
		rt.mu.Lock()
		fs := rt.onDelete
		rt.mu.Unlock()
		for _, f := range fs {
			f(pod)
		}
		return acts
	})
	return err
}

// watchNodes feeds the nodes, each with its lifetime (recorded first, so
// that the node enters the state with it), and keeps lifetimes current as
// ComputeClasses change.
func (rt *Runtime) watchNodes(ctx context.Context) error {
	nodes := rt.informers.kube.Core().V1().Nodes()
	lifetimes := &nodeLifetimes{st: rt.state, nodes: nodes.Lister()}
	go rt.watchComputeClasses(ctx, lifetimes)
	_, err := feedInformer(ctx, rt, nodes.Informer(), func(n *corev1.Node) state.Actions {
		lifetimes.set(n)
		acts := rt.state.UpsertNode(n)
		if n.Spec.Unschedulable {
			// A cordon may be a recycled node's: its pods move now.
			rt.migrate.Kick()
		}
		return acts
	}, func(n *corev1.Node) state.Actions {
		lifetimes.bounded.Delete(n.Name)
		return rt.state.DeleteNode(n.Name)
	})
	return err
}

// feedInformer passes an informer's objects of type T to the state and
// carries out what it answers. The registration has synced once the
// state saw every object listed.
func feedInformer[T any](ctx context.Context, rt *Runtime, informer toolscache.SharedIndexInformer, upsert, del func(T) state.Actions) (toolscache.ResourceEventHandlerRegistration, error) {
	return informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			if o, ok := obj.(T); ok {
				rt.Act(ctx, upsert(o))
			}
		},
		UpdateFunc: func(_, obj any) {
			if o, ok := obj.(T); ok {
				rt.Act(ctx, upsert(o))
			}
		},
		DeleteFunc: func(obj any) {
			if d, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
				obj = d.Obj
			}
			if o, ok := obj.(T); ok {
				rt.Act(ctx, del(o))
			}
		},
	})
}

// Act carries out what the state asked for, outside its lock.
func (rt *Runtime) Act(ctx context.Context, acts state.Actions) {
	if acts.Empty() {
		return
	}
	if rt.Leading() {
		// What running workloads with no record are charged, and which
		// waiting workloads freed quota admits, are decided here, on
		// copies taken now, not by the state that reported them; the
		// charges first, so that the wakes count them.
		controllers.ChargeRunning(rt.state, acts.Uncharged)
		admission.WakeAll(&acts, rt.state.WakeRound)
	}
	// A standby decides neither: it charges only what Workload objects
	// record and holds every pod back in PreEnqueue; once it leads it
	// charges what runs uncharged, then activates every pod.
	acts.Uncharged, acts.Wake = nil, nil
	rt.rediscover(acts.Rediscover)
	rt.mu.Lock()
	handles := rt.handles
	rt.mu.Unlock()
	for _, uid := range acts.Reject {
		rejectWaiting(handles, uid, acts.Reason)
	}
	if !rt.Leading() {
		// Events tell users about decisions, which only the leader takes.
		acts.Events = nil
	}
	for _, e := range acts.Events {
		if e.Warning {
			rt.events.Warn(&e.Ref, e.Reason, e.Message)
		} else {
			rt.events.Normal(&e.Ref, e.Reason, e.Message)
		}
	}
	if len(acts.Activate) == 0 || len(handles) == 0 {
		return
	}
	lister := rt.informers.kube.Core().V1().Pods().Lister()
	pods := make(map[string]*corev1.Pod, len(acts.Activate))
	for _, ref := range acts.Activate {
		pod, err := lister.Pods(ref.Namespace).Get(ref.Name)
		if err != nil || pod.UID != ref.UID {
			continue
		}
		pods[ref.Namespace+"/"+ref.Name] = pod
	}
	if len(pods) > 0 {
		handles[0].Activate(klog.FromContext(ctx), pods)
	}
}

// rejectWaiting rejects a pod waiting in Permit in whichever profile holds it.
func rejectWaiting(handles []fwk.Handle, uid types.UID, reason string) {
	for _, h := range handles {
		if wp := h.GetWaitingPod(uid); wp != nil {
			wp.Reject("MultisliceGang", reason)
			return
		}
	}
}

// AllowWaiting lets a pod waiting in Permit through, in whichever profile holds it.
func (rt *Runtime) AllowWaiting(uid types.UID, plugin string) {
	rt.mu.Lock()
	handles := rt.handles
	rt.mu.Unlock()
	for _, h := range handles {
		if wp := h.GetWaitingPod(uid); wp != nil {
			wp.Allow(plugin)
			return
		}
	}
}

// Evict evicts whole workloads' pods (see controllers.Evictor.Evict); a
// standby's call is dropped.
func (rt *Runtime) Evict(ctx context.Context, pods []state.PodRef, reason, message string) {
	rt.evictions().Evict(ctx, pods, reason, message)
}

// evictions returns the runtime's evictor, made on first use.
func (rt *Runtime) evictions() *controllers.Evictor {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.evict == nil {
		rt.evict = controllers.NewEvictor(rt.Leading)
	}
	return rt.evict
}

// Held records that the gate holds pod for reason, with message; warn
// when only the user can unblock it (see controllers.HeldPods).
func (rt *Runtime) Held(pod *corev1.Pod, reason, message string, warn bool) {
	rt.held.Held(pod, reason, message, warn)
}

// HeldAll records that every pod of pods is held for reason.
func (rt *Runtime) HeldAll(pods []state.PodRef, reason, message string, warn bool) {
	rt.held.HeldAll(pods, reason, message, warn)
}

// HeldWaiting records that pod waits for its gang, unless a reason of its
// whole workload was recorded for it already.
func (rt *Runtime) HeldWaiting(pod *corev1.Pod, reason, message string) {
	rt.held.HeldWaiting(pod, reason, message)
}

// Released records that the gate let pod go (or it is gone).
func (rt *Runtime) Released(pod *corev1.Pod) { rt.held.Released(pod) }
