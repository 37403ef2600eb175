package app

import (
	"context"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/client-go/rest"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
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

// startControllers builds the controllers (pkg/controllers) and starts
// the loops that write while this replica leads: the unsuspender, the
// expirer, the usage reconciler, held pods' conditions, the migrator and
// evictions. The status writer and the provisioning controller start once
// the feed finds their APIs served (hooks).
func (rt *Runtime) startControllers(ctx context.Context) {
	pods := rt.informers.Core().V1().Pods()
	rt.migrate = controllers.NewMigrator(rt.state, rt.evictions(), rt.events, pods.Lister(), rt.Leading)
	jobs := rt.informers.Batch().V1().Jobs()
	classes := rt.informers.Scheduling().V1().PriorityClasses()
	rt.unsuspend = controllers.NewUnsuspender(rt.state, rt.events, rt.client.BatchV1(), jobs.Lister(), rt.settings.DefaultDomainKey, rt.workloads.Write)
	rt.unsuspend.StartWindow(rt.settings.QueuedStartDepth, classes.Lister())
	context.AfterFunc(ctx, rt.unsuspend.ShutDown)
	rt.WhileLeading(ctx, func(ctx context.Context) {
		rt.unsuspend.Run(ctx, jobs.Informer().HasSynced, classes.Informer().HasSynced)
	})
	expiry := controllers.NewExpirer(rt.state, rt.Act, rt.client, rt.jobSets, rt.evictions(), clock.RealClock{}, time.Second)
	rt.WhileLeading(ctx, expiry.Run)
	usage := controllers.NewUsageReconciler(rt.state, rt.Act, rt.events, pods.Lister(), clock.RealClock{}, rt.settings.QuotaReconcile)
	rt.WhileLeading(ctx, func(ctx context.Context) {
		if !toolscache.WaitForCacheSync(ctx.Done(), pods.Informer().HasSynced) {
			return
		}
		// A standby held every pod back in PreEnqueue (MultisliceGate):
		// decide on all of them now, from the state its informers built,
		// once what runs with no record of its admission is charged.
		controllers.ChargeAllRunning(rt.state)
		rt.Act(ctx, state.Actions{Activate: rt.state.Reports().PendingPods()})
		go rt.held.Run(ctx, controllers.HeldPodsClient(rt.kubeConfig, rt.client), pods.Lister())
		go usage.Run(ctx)
		go rt.migrate.Run(ctx)
		rt.evictions().Run(ctx, rt.state, rt.client, pods.Lister())
	})
}

// hooks tell the controllers what the feed sees.
func (rt *Runtime) hooks() feed.Hooks {
	return feed.Hooks{
		PodDeleted: rt.podDeleted,
		// A cordon may be a recycled node's: its pods move now.
		NodeCordoned: func() { rt.migrate.Kick() },
		JobChanged:   func(job *batchv1.Job) { rt.unsuspend.JobChanged(job) },
		JobSetsServed: func(f jobsetinformers.SharedInformerFactory) error {
			jobsets := f.Jobset().V1alpha2().JobSets()
			rt.unsuspend.WatchJobSets(jobsets.Lister(), rt.jobSets)
			_, err := jobsets.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
				AddFunc: func(obj any) {
					if js, ok := obj.(*jobsetv1alpha2.JobSet); ok {
						rt.unsuspend.JobSetChanged(js)
					}
				},
				UpdateFunc: func(_, obj any) {
					if js, ok := obj.(*jobsetv1alpha2.JobSet); ok {
						rt.unsuspend.JobSetChanged(js)
					}
				},
			})
			return err
		},
		// Jobs and JobSets naming it are looked at again: started if
		// queued here, told what to change if not ours.
		LocalQueueSet: func(ns, name string) { rt.unsuspend.LocalQueueSet(ns, name) },
		// Jobs and JobSets seen before the queue API was known to be
		// served were decided without it: queued ones were left for
		// another queueing controller, ones for another scheduler were
		// not told. Each is looked at again.
		QueueAPIServed: func() { rt.unsuspend.QueueAll() },
		QueuesWatched:  rt.startWorkloadWriters,
		// A request is owned by its Workload object: one written may let
		// a request waiting for it be created. Only the provisioning
		// controller is woken: the status writer, which wrote it, has
		// nothing to create.
		WorkloadAdded:      rt.pokeProvisioner,
		ProvisioningServed: rt.startProvisioner,
	}
}

// startWorkloadWriters lets the WorkloadWriter write admissions, and
// starts the status writer once the queue informers have synced, each on
// a client of its own.
func (rt *Runtime) startWorkloadWriters(ctx context.Context, synced toolscache.InformerSynced) error {
	cfg := jsonConfig(rt.kubeConfig)
	statusCfg := rest.CopyConfig(cfg)
	statusCfg.QPS, statusCfg.Burst = statusQPS, statusBurst
	statusClient, err := multisliceclient.NewForConfig(statusCfg)
	if err != nil {
		return err
	}
	recordCfg := rest.CopyConfig(cfg)
	recordCfg.QPS, recordCfg.Burst = max(recordQPS, cfg.QPS), max(recordBurst, cfg.Burst)
	recordClient, err := multisliceclient.NewForConfig(recordCfg)
	if err != nil {
		return err
	}
	v1 := rt.feed.MultisliceInformers().Multislice().V1alpha1()
	workloads := v1.Workloads().Lister()
	rt.workloads.Start(recordClient, workloads)
	w := controllers.NewStatusWriter(statusClient, recordClient, rt.state, v1.ClusterQueues().Lister(), v1.LocalQueues().Lister(),
		v1.AdmissionChecks().Lister(), workloads)
	rt.statusWriter.Store(w)
	rt.WhileLeading(ctx, func(ctx context.Context) {
		if toolscache.WaitForCacheSync(ctx.Done(), synced) {
			w.Run(ctx, statusInterval)
		}
	})
	return nil
}

// startProvisioner starts the provisioning controller, once the
// ProvisioningRequest API is served, on the feed's informers.
func (rt *Runtime) startProvisioner(ctx context.Context) {
	informers := rt.feed.MultisliceInformers()
	v1 := informers.Multislice().V1alpha1()
	c := controllers.NewProvisioner(rt.state, rt.Act, rt.events, rt.evictions(), rt.multislice, rt.client,
		rt.informers.Core().V1().Pods().Lister(), v1.Workloads().Lister())
	// The consumed-request feed's informer, which this one shares.
	requests := informers.Autoscaling().V1().ProvisioningRequests()
	err := c.Start(ctx, requests, rt.WhileLeading)
	informers.Start(ctx.Done())
	if err != nil {
		klog.FromContext(ctx).Error(err, "Starting the provisioning controller")
		return
	}
	rt.provisioning.Store(c)
	klog.FromContext(ctx).Info("Running provisioning admission checks", "api", autoscalingv1.SchemeGroupVersion.String())
}
