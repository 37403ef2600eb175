package controllers

import (
	"context"
	"fmt"
	"maps"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	batchv1client "k8s.io/client-go/kubernetes/typed/batch/v1"
	batchv1listers "k8s.io/client-go/listers/batch/v1"
	schedulinglisters "k8s.io/client-go/listers/scheduling/v1"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetlisters "sigs.k8s.io/jobset/client-go/listers/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Queue-managed Jobs and JobSets written for Kueue are created suspended,
// for a controller to start once they are admitted. Here admission happens
// in the scheduling cycle, pod by pod, so the scheduler starts them at
// once: their pods then exist and wait in PreEnqueue for quota and
// placement, which is where this scheduler admits them.

const (
	// unsuspendWorkers is how many objects are updated at once.
	unsuspendWorkers = 2
	// unsuspendRecheck is how long an object waits to be looked at again
	// when only the queue API, not yet known to be served, kept it
	// suspended.
	unsuspendRecheck = 15 * time.Second

	reasonUnsuspended     = "Unsuspended"
	reasonNotQueueManaged = "NotQueueManaged"
	// reasonOtherScheduler: the object names one of our LocalQueues, and
	// its pods are another scheduler's.
	reasonOtherScheduler = "SchedulerNameMismatch"
)

// unsuspendKey names an object the controller looks at.
type unsuspendKey struct {
	// kind is workload.SourceJob or workload.SourceJobSet.
	kind      workload.Source
	namespace string
	name      string
}

// unsuspendEnv is what deciding needs to know of the scheduler.
type unsuspendEnv struct {
	// queueAPI says whether the multislice.dev queue API is served.
	queueAPI state.APIStatus
	// ours reports whether pods of a schedulerName are this scheduler's.
	ours func(schedulerName string) bool
	// localQueue reports whether a LocalQueue exists in the queue API
	// (nil: none does).
	localQueue func(namespace, name string) bool
	// scheduler is the name pods must give to be this scheduler's.
	scheduler string
	// queueCheck is the provisioning check of a LocalQueue (nil: none).
	queueCheck func(namespace, queue string) *provisioning.Check
	// resolveQueue names the ClusterQueue of a LocalQueue, or the problem
	// that keeps the queue from admitting anything (nil: not known).
	resolveQueue func(namespace, queue string) (string, *quota.Problem)
	// priorityClass is the value of a PriorityClass, "" naming the global
	// default one (nil, or false: none), to rank suspended objects as
	// their pods will be.
	priorityClass func(name string) (int32, bool)
}

// startedMessage is what the Unsuspended event says of an object started
// for LocalQueue namespace/queue. Starting is not admitting: its pods now
// exist and wait, gated, for their queue. When the queue cannot admit
// anything as it stands (its ClusterQueue missing, say), the event says so
// rather than promise an admission, next to the Warning of that problem.
func startedMessage(env unsuspendEnv, namespace, queue string) string {
	if env.resolveQueue != nil {
		cq, p := env.resolveQueue(namespace, queue)
		if p != nil {
			return fmt.Sprintf("started for LocalQueue %s/%s, which admits nothing as it stands: %s (%s). "+
				"Its pods wait, gated, holding no quota and no nodes, until that is fixed", namespace, queue, p.Message, p.Reason)
		}
		if cq != "" {
			return fmt.Sprintf("started for LocalQueue %s/%s: its pods wait, gated, for quota in ClusterQueue %s, then for placement", namespace, queue, cq)
		}
	}
	return fmt.Sprintf("started for LocalQueue %s/%s: its pods wait, gated, for the queue's quota, then for placement", namespace, queue)
}

// unsuspendVerdict is what to do about one object.
type unsuspendVerdict struct {
	// unsuspend: start it (see unsuspendedJob, unsuspendedJobSet).
	unsuspend bool
	// recheck: it would be started, but the queue API is not known to be
	// served (yet): look again later.
	recheck bool
	// warning, when set, tells the user why the object is not
	// queue-managed, with reason (NotQueueManaged or
	// SchedulerNameMismatch).
	warning, reason string
	// podAnnotations go on the pod templates of an object started (see
	// firstRequestAnnotations).
	podAnnotations map[string]string
}

// otherScheduler is the verdict on an object that names queue, one of our
// LocalQueues, while the pods of its template at field are for another
// scheduler: nothing here admits them, and a suspended object would wait
// forever. The pod template's schedulerName cannot change once the object
// exists (Job and JobSet validation keep it immutable), so the user is told
// to create it again.
func otherScheduler(kind, namespace, queue, field, schedulerName string, env unsuspendEnv) unsuspendVerdict {
	if schedulerName == "" {
		schedulerName = corev1.DefaultSchedulerName + " (unset)"
	}
	return unsuspendVerdict{reason: reasonOtherScheduler, warning: fmt.Sprintf(
		"the %s names LocalQueue %s/%s, which %s admits, but its pods are for scheduler %s: nothing admits, starts or places them here. "+
			"%s cannot change once the %s exists: delete it and create it again with %s: %s",
		kind, namespace, queue, env.scheduler, schedulerName, field, kind, field, env.scheduler)}
}

// servesQueue reports whether queue is one of our LocalQueues.
func (env unsuspendEnv) servesQueue(namespace, queue string) bool {
	return env.queueAPI == state.APIServed && env.localQueue != nil && env.localQueue(namespace, queue)
}

// decideJob says what to do about a Job. A Job is started when it names a
// LocalQueue, its pods are this scheduler's, it was created suspended and
// neither we nor anyone else ever started it, and the queue API is served.
// A queue-managed Job created running gets a warning: its pods carry no
// queue name, so they run as plain pods. Jobs another controller manages
// (spec.managedBy) or a JobSet owns are theirs to start.
func decideJob(job *batchv1.Job, env unsuspendEnv) unsuspendVerdict {
	queue := workload.JobQueueName(job)
	if queue == "" || job.Labels[wellknown.JobSetNameLabel] != "" || job.DeletionTimestamp != nil ||
		ptr.Deref(job.Spec.ManagedBy, batchv1.JobControllerName) != batchv1.JobControllerName || jobEnded(job) {
		return unsuspendVerdict{}
	}
	if _, done := job.Annotations[wellknown.UnsuspendedAnnotation]; done {
		return unsuspendVerdict{}
	}
	if name := job.Spec.Template.Spec.SchedulerName; !env.ours(name) {
		if env.servesQueue(job.Namespace, queue) {
			return otherScheduler("Job", job.Namespace, queue, "spec.template.spec.schedulerName", name, env)
		}
		return unsuspendVerdict{}
	}
	if job.Spec.Suspend == nil || !*job.Spec.Suspend {
		if env.queueAPI != state.APIServed || wellknown.QueueName(job.Spec.Template.Labels, job.Spec.Template.Annotations) != "" {
			return unsuspendVerdict{}
		}
		return unsuspendVerdict{reason: reasonNotQueueManaged, warning: fmt.Sprintf(
			"the Job names LocalQueue %s but was created running: its pods do not carry %s, so they are scheduled as plain pods, "+
				"outside the queue's quota and not as one gang. Create the Job with spec.suspend: true (the scheduler starts it and "+
				"labels its pods), or put the label %s: %s on its pod template",
			queue, wellknown.QueueNameLabel, wellknown.QueueNameLabel, queue)}
	}
	if job.Status.StartTime != nil {
		// Started before and suspended since: whoever suspended it resumes it.
		return unsuspendVerdict{}
	}
	return admitToQueue(env, workload.Key{Source: workload.SourceJob, Namespace: job.Namespace, Name: job.Name}, queue)
}

// decideJobSet says what to do about a JobSet: started under the same
// rules as a Job, every replicated Job's pods being this scheduler's. One
// naming our LocalQueue whose pods are another scheduler's is warned
// about, suspended or running (seeds 000 and 002 create theirs running,
// with no schedulerName).
func decideJobSet(js *jobsetv1alpha2.JobSet, env unsuspendEnv) unsuspendVerdict {
	queue := wellknown.QueueName(js.Labels, js.Annotations)
	if queue == "" || js.DeletionTimestamp != nil || len(js.Spec.ReplicatedJobs) == 0 ||
		ptr.Deref(js.Spec.ManagedBy, jobsetv1alpha2.JobSetControllerName) != jobsetv1alpha2.JobSetControllerName {
		return unsuspendVerdict{}
	}
	if _, done := js.Annotations[wellknown.UnsuspendedAnnotation]; done {
		return unsuspendVerdict{}
	}
	if jobSetEnded(js) {
		return unsuspendVerdict{}
	}
	for i, rj := range js.Spec.ReplicatedJobs {
		if name := rj.Template.Spec.Template.Spec.SchedulerName; !env.ours(name) {
			if env.servesQueue(js.Namespace, queue) {
				field := fmt.Sprintf("spec.replicatedJobs[%d].template.spec.template.spec.schedulerName", i)
				return otherScheduler("JobSet", js.Namespace, queue, field, name, env)
			}
			return unsuspendVerdict{}
		}
	}
	if js.Spec.Suspend == nil || !*js.Spec.Suspend {
		return unsuspendVerdict{}
	}
	return admitToQueue(env, workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name}, queue)
}

// admitToQueue starts the workload key queued in queue once the queue API
// is served.
func admitToQueue(env unsuspendEnv, key workload.Key, queue string) unsuspendVerdict {
	if env.queueAPI != state.APIServed {
		// Without the queue API nothing is quota-managed here: the object
		// may be another queueing controller's to start.
		return unsuspendVerdict{recheck: true}
	}
	return unsuspendVerdict{unsuspend: true, podAnnotations: firstRequestAnnotations(env, key, queue)}
}

// firstRequestAnnotations name, on the pods of workload key queued in
// queue, the ProvisioningRequest of the first attempt of the queue's
// provisioning check, as the provisioning controller will name it: the
// autoscaler lets only pods that name a request use its capacity. Put on
// the pod templates when the object starts, they spare the provisioning
// controller a patch per pod; a later attempt's request is named on the
// pods by patching them (Provisioner.annotate). Nil when the queue has no
// provisioning check.
func firstRequestAnnotations(env unsuspendEnv, key workload.Key, queue string) map[string]string {
	if env.queueCheck == nil {
		return nil
	}
	c := env.queueCheck(key.Namespace, queue)
	if c == nil {
		return nil
	}
	return provisioning.PodAnnotations(provisioning.RequestName(key.ObjectName(), c.Name, 1), c.Class)
}

// annotatePods puts add on a pod template, unless the template names a
// ProvisioningRequest already (its user's choice stands).
func annotatePods(tmpl *corev1.PodTemplateSpec, add map[string]string) {
	if len(add) == 0 {
		return
	}
	if name, err := workload.ConsumedRequest(tmpl.Annotations); name != "" || err != nil {
		return
	}
	if tmpl.Annotations == nil {
		tmpl.Annotations = map[string]string{}
	}
	maps.Copy(tmpl.Annotations, add)
}

func jobEnded(job *batchv1.Job) bool {
	for _, c := range job.Status.Conditions {
		if (c.Type == batchv1.JobComplete || c.Type == batchv1.JobFailed) && c.Status == corev1.ConditionTrue {
			return true
		}
	}
	return false
}

// unsuspendedJob is job started by us, in one update: not suspended,
// marked with when, and its pod template naming the Job's LocalQueue, so
// that its pods are members of the Job's workload, and carrying
// podAnnotations (see firstRequestAnnotations). The API lets the
// template's labels and annotations change while a Job is suspended and
// has never started.
func unsuspendedJob(job *batchv1.Job, now time.Time, podAnnotations map[string]string) *batchv1.Job {
	out := job.DeepCopy()
	out.Spec.Suspend = ptr.To(false)
	markUnsuspended(&out.ObjectMeta, now)
	tmpl := &out.Spec.Template
	annotatePods(tmpl, podAnnotations)
	if wellknown.QueueName(tmpl.Labels, tmpl.Annotations) != "" {
		return out
	}
	queue := workload.JobQueueName(job)
	if wellknown.QueueNameFitsLabel(queue) {
		if tmpl.Labels == nil {
			tmpl.Labels = map[string]string{}
		}
		tmpl.Labels[wellknown.QueueNameLabel] = queue
		return out
	}
	// A name too long for a label value (named by an annotation): the
	// pods read it from an annotation just as well.
	if tmpl.Annotations == nil {
		tmpl.Annotations = map[string]string{}
	}
	tmpl.Annotations[wellknown.QueueNameLabel] = queue
	return out
}

// unsuspendedJobSet is js started by us: not suspended, marked with when,
// every replicated Job's pod template carrying podAnnotations (see
// firstRequestAnnotations; JobSet lets them change while suspended, and
// carries them to its Jobs as it resumes them). Its pods need nothing
// more: the JobSet's labels make them its members.
func unsuspendedJobSet(js *jobsetv1alpha2.JobSet, now time.Time, podAnnotations map[string]string) *jobsetv1alpha2.JobSet {
	out := js.DeepCopy()
	out.Spec.Suspend = ptr.To(false)
	markUnsuspended(&out.ObjectMeta, now)
	for i := range out.Spec.ReplicatedJobs {
		annotatePods(&out.Spec.ReplicatedJobs[i].Template.Spec.Template, podAnnotations)
	}
	return out
}

func markUnsuspended(meta *metav1.ObjectMeta, now time.Time) {
	if meta.Annotations == nil {
		meta.Annotations = map[string]string{}
	}
	meta.Annotations[wellknown.UnsuspendedAnnotation] = now.UTC().Format(time.RFC3339)
}

// jobSetAccess reads and writes JobSets; absent until the JobSet API is
// served.
type jobSetAccess struct {
	lister jobsetlisters.JobSetLister
	update func(ctx context.Context, js *jobsetv1alpha2.JobSet) (*jobsetv1alpha2.JobSet, error)
}

// Unsuspender starts queue-managed Jobs and JobSets created suspended. It
// is glue around decideJob and decideJobSet: informers feed it keys, and
// while this replica leads, workers decide and update. Conflicting updates
// are retried from the informers' newer copy; the marking annotation makes
// a retry after a lost response harmless.
type Unsuspender struct {
	events *EventSink
	clock  clock.PassiveClock
	env    func() unsuspendEnv
	queue  workqueue.TypedRateLimitingInterface[unsuspendKey]

	jobs      batchv1client.JobsGetter
	jobLister batchv1listers.JobLister
	// workloads writes a Workload object as a report describes it (nil:
	// none is written).
	workloads func(ctx context.Context, r *state.WorkloadReport) error
	// defaultDomainKey models the objects as the state does.
	defaultDomainKey string
	// depth is each ClusterQueue's start window (see startwindow.go; 0:
	// every queued object starts at once), and awaiting reports which
	// started workloads still wait to be admitted (nil: all do).
	depth           int
	awaiting        func([]workload.Key) []bool
	priorityClasses schedulinglisters.PriorityClassLister
	// told are the held objects told why they wait (Queued), as of the
	// last round; rounds run one at a time.
	told map[types.UID]bool

	mu      sync.Mutex
	jobSets *jobSetAccess
}

// NewUnsuspender returns the controller for the scheduler whose state is
// st. It writes Jobs with jobs and reads them from jobLister; a Workload
// object that must tell the user something is written with workloads
// (nil: none is); objects are modelled with defaultDomainKey, as the
// state models them.
func NewUnsuspender(st *state.State, events *EventSink, jobs batchv1client.JobsGetter, jobLister batchv1listers.JobLister,
	defaultDomainKey string, workloads func(context.Context, *state.WorkloadReport) error) *Unsuspender {
	u := newUnsuspender(events, st.Clock(), func() unsuspendEnv {
		env := unsuspendEnv{queueAPI: st.Reports().API(state.QueueAPI), ours: st.Reports().HasScheduler, localQueue: st.Reports().HasLocalQueue,
			queueCheck: st.Reports().QueueCheck, resolveQueue: st.Reports().ResolveQueue}
		if names := st.Reports().Schedulers(); len(names) > 0 {
			env.scheduler = names[0]
		}
		return env
	}, jobs, jobLister)
	u.defaultDomainKey, u.workloads, u.awaiting = defaultDomainKey, workloads, st.Reports().AwaitingAdmission
	return u
}

// StartWindow bounds each ClusterQueue's started, not yet admitted
// workloads to depth (see startwindow.go; 0: no bound), ranking suspended
// objects by the PriorityClasses of classes. Called before Run.
func (u *Unsuspender) StartWindow(depth int, classes schedulinglisters.PriorityClassLister) {
	u.depth = depth
	u.priorityClasses = classes
}

// ShutDown stops the controller for good: Run returns and keys are no
// longer taken.
func (u *Unsuspender) ShutDown() { u.queue.ShutDown() }

func newUnsuspender(events *EventSink, clk clock.PassiveClock, env func() unsuspendEnv, jobs batchv1client.JobsGetter, jobLister batchv1listers.JobLister) *Unsuspender {
	return &Unsuspender{
		events: events, clock: clk, env: env, jobs: jobs, jobLister: jobLister,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[unsuspendKey](),
			workqueue.TypedRateLimitingQueueConfig[unsuspendKey]{Name: "multislice_unsuspend"}),
	}
}

// jobChanged queues a Job that may need starting, or a warning. Jobs
// already started by us, JobSets' Jobs and Jobs of no queue never do.
func (u *Unsuspender) JobChanged(job *batchv1.Job) {
	if job.Labels[wellknown.JobSetNameLabel] != "" || workload.JobQueueName(job) == "" {
		return
	}
	if _, done := job.Annotations[wellknown.UnsuspendedAnnotation]; done {
		u.startedChanged()
		return
	}
	u.queue.Add(unsuspendKey{kind: workload.SourceJob, namespace: job.Namespace, name: job.Name})
}

// jobSetChanged queues a JobSet that may need starting, or a warning.
func (u *Unsuspender) JobSetChanged(js *jobsetv1alpha2.JobSet) {
	if wellknown.QueueName(js.Labels, js.Annotations) == "" {
		return
	}
	if _, done := js.Annotations[wellknown.UnsuspendedAnnotation]; done {
		u.startedChanged()
		return
	}
	u.queue.Add(unsuspendKey{kind: workload.SourceJobSet, namespace: js.Namespace, name: js.Name})
}

// startedChanged asks for a round of the start window: an object the
// scheduler started changed (it may have ended, freeing a place).
func (u *Unsuspender) startedChanged() {
	if u.depth > 0 {
		u.queue.AddAfter(windowKey, windowBatch)
	}
}

// localQueueSet queues the Jobs and JobSets of namespace that name
// LocalQueue name, which now exists (or changed): what to do about them
// depends on it.
func (u *Unsuspender) LocalQueueSet(namespace, name string) {
	u.queueWhere(namespace, func(queue string) bool { return queue == name })
}

// queueAll queues every Job and JobSet that names a LocalQueue: the queue
// API is now served, and what to do about each depends on it.
func (u *Unsuspender) QueueAll() {
	u.queueWhere(metav1.NamespaceAll, func(queue string) bool { return queue != "" })
}

// queueWhere queues the Jobs and JobSets of namespace (all namespaces:
// metav1.NamespaceAll) whose LocalQueue name satisfies named.
func (u *Unsuspender) queueWhere(namespace string, named func(queue string) bool) {
	if jobs, err := u.jobLister.Jobs(namespace).List(labels.Everything()); err == nil {
		for _, job := range jobs {
			if named(workload.JobQueueName(job)) {
				u.JobChanged(job)
			}
		}
	}
	if access := u.jobSetAccess(); access != nil {
		if jss, err := access.lister.JobSets(namespace).List(labels.Everything()); err == nil {
			for _, js := range jss {
				if named(wellknown.QueueName(js.Labels, js.Annotations)) {
					u.JobSetChanged(js)
				}
			}
		}
	}
}

// WatchJobSets lets the controller read JobSets from lister and update
// them with client, once the JobSet API is served; the JobSet informer
// then feeds it through JobSetChanged.
func (u *Unsuspender) WatchJobSets(lister jobsetlisters.JobSetLister, client jobsetclient.Interface) {
	u.setJobSets(&jobSetAccess{lister: lister, update: func(ctx context.Context, js *jobsetv1alpha2.JobSet) (*jobsetv1alpha2.JobSet, error) {
		return client.JobsetV1alpha2().JobSets(js.Namespace).Update(ctx, js, metav1.UpdateOptions{})
	}})
}

func (u *Unsuspender) setJobSets(a *jobSetAccess) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.jobSets = a
}

func (u *Unsuspender) jobSetAccess() *jobSetAccess {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.jobSets
}

// run works the queue once the informers have synced, until ctx ends.
func (u *Unsuspender) Run(ctx context.Context, synced ...toolscache.InformerSynced) {
	if !toolscache.WaitForCacheSync(ctx.Done(), synced...) {
		return
	}
	var wg sync.WaitGroup
	for range unsuspendWorkers {
		wg.Go(func() {
			wait.UntilWithContext(ctx, func(ctx context.Context) {
				for u.processNext(ctx) {
				}
			}, time.Second)
		})
	}
	wg.Wait()
}

// processNext handles one key; false once the queue shuts down.
func (u *Unsuspender) processNext(ctx context.Context) bool {
	key, quit := u.queue.Get()
	if quit {
		return false
	}
	defer u.queue.Done(key)
	recheck, err := u.sync(ctx, key)
	switch {
	case err != nil:
		if !apierrors.IsConflict(err) {
			klog.FromContext(ctx).Error(err, "Unsuspending a queue-managed workload; retrying", "kind", key.kind, "namespace", key.namespace, "name", key.name)
		}
		u.queue.AddRateLimited(key)
	case recheck && key == windowKey:
		u.queue.Forget(key)
		u.queue.AddAfter(key, windowRecheck)
	case recheck:
		u.queue.Forget(key)
		u.queue.AddAfter(key, unsuspendRecheck)
	default:
		u.queue.Forget(key)
	}
	return true
}

// sync decides about one object and carries the decision out. recheck
// asks for the object to be looked at again later.
func (u *Unsuspender) sync(ctx context.Context, key unsuspendKey) (recheck bool, err error) {
	switch key.kind {
	case workload.SourceJob:
		return u.syncJob(ctx, key)
	case workload.SourceJobSet:
		return u.syncJobSet(ctx, key)
	case windowSource:
		return u.syncWindow(ctx)
	}
	return false, nil
}

func (u *Unsuspender) syncJob(ctx context.Context, key unsuspendKey) (bool, error) {
	job, err := u.jobLister.Jobs(key.namespace).Get(key.name)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	env := u.env()
	v := decideJob(job, env)
	ref := &corev1.ObjectReference{Kind: "Job", APIVersion: batchv1.SchemeGroupVersion.String(), Namespace: job.Namespace, Name: job.Name, UID: job.UID}
	if v.warning != "" {
		u.events.Warn(ref, v.reason, v.warning)
	}
	if v.reason == reasonOtherScheduler {
		model, err := workload.FromJob(job, u.defaultDomainKey)
		key := workload.Key{Source: workload.SourceJob, Namespace: job.Namespace, Name: job.Name}
		return false, u.tellWorkload(ctx, key, *ref, workload.JobQueueName(job), model, err, v.warning)
	}
	if !v.unsuspend {
		return v.recheck, nil
	}
	if u.depth > 0 {
		u.queue.AddAfter(windowKey, windowBatch)
		return false, nil
	}
	return false, u.start(ctx, env, heldObject{queue: workload.JobQueueName(job), verdict: v, job: job})
}

func (u *Unsuspender) syncJobSet(ctx context.Context, key unsuspendKey) (bool, error) {
	access := u.jobSetAccess()
	if access == nil {
		// Queued only by the JobSet informer, which sets access first.
		return false, nil
	}
	js, err := access.lister.JobSets(key.namespace).Get(key.name)
	if apierrors.IsNotFound(err) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	env := u.env()
	v := decideJobSet(js, env)
	ref := &corev1.ObjectReference{Kind: "JobSet", APIVersion: jobsetv1alpha2.GroupVersion.String(), Namespace: js.Namespace, Name: js.Name, UID: js.UID}
	if v.warning != "" {
		u.events.Warn(ref, v.reason, v.warning)
	}
	if v.reason == reasonOtherScheduler {
		model, err := workload.FromJobSet(js, u.defaultDomainKey)
		key := workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name}
		return false, u.tellWorkload(ctx, key, *ref, wellknown.QueueName(js.Labels, js.Annotations), model, err, v.warning)
	}
	if !v.unsuspend {
		return v.recheck, nil
	}
	if u.depth > 0 {
		u.queue.AddAfter(windowKey, windowBatch)
		return false, nil
	}
	return false, u.start(ctx, env, heldObject{queue: wellknown.QueueName(js.Labels, js.Annotations), verdict: v, jobSet: js})
}

// tellWorkload writes the Workload object of a workload that names one of
// our LocalQueues while its pods are for another scheduler: QuotaReserved
// False, reason SchedulerNameMismatch, with what to change — where `kubectl
// get wl` and `kubectl describe wl` show it, beside the
// event on the object itself. A model that cannot be derived has no
// Workload object to show (the object's own event says why).
func (u *Unsuspender) tellWorkload(ctx context.Context, key workload.Key, ref corev1.ObjectReference, queue string, model *workload.Workload, modelErr error, message string) error {
	if u.workloads == nil || modelErr != nil || model == nil {
		return nil
	}
	// What the user must read is the mismatch, not the suspension it
	// leaves the object in (a suspended Job is modelled as finished too).
	shown := *model
	shown.Suspended, shown.Finished = false, false
	return ignoreNotFound(u.workloads(ctx, &state.WorkloadReport{Key: key, Ref: ref, Model: &shown, Queue: queue,
		Problem: &quota.Problem{Reason: reasonOtherScheduler, Message: message, Config: true}}))
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
