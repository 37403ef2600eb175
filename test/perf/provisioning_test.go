package perf

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/pkg/scheduler"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	autoscalinglisters "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/listers/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// Provisioning: what a provisioning admission check costs admission.
//
// The same gangs go through a ClusterQueue that lists a provisioning
// admission check and through one that does not, on nodes that exist
// already. With the check the scheduler reserves a gang's quota alone,
// waits for the status writer to create its Workload object, creates a
// ProvisioningRequest owned by it, waits until the request is Provisioned,
// annotates the pods with it and only then places the gang. Here a fake
// provisioner marks every request Provisioned as soon as it sees it, so the
// difference between the variants is the scheduler's own overhead, not
// the provisioning of capacity. As for the queue drains (drain_test.go),
// the harness's node hook (perf.WithNodeUpdateFn) follows the run:
//
//   - A scheduler_perf workload with the parameter provisioningGangs (the
//     number of gangs) is followed. Its first createNodes op, which creates
//     every node, starts it (the scheduler already places JobSets as
//     gangs: jobSetProbes): the hook finds the scenario's one
//     ClusterQueue and the admission check it lists (if any), starts the
//     fake provisioner and watches the gangs' pods, their Workload objects
//     and their ProvisioningRequests. Then a queued probe gang goes through
//     that ClusterQueue (with the check, the scheduler runs it only once it
//     has discovered the ProvisioningRequest API), and the measurement
//     starts: the JobSets exist, their pods do not yet.
//   - The next createNodes op, of no nodes, is the wait: the hook blocks
//     until every gang is wholly bound, the time limit
//     (provisioningTimeoutSeconds, from the start) passes, or nothing
//     happens for provisioningStallSeconds; then it records Provisioning*
//     data items (provisioning_results_test.go), written next to the
//     harness's results as Provisioning_benchmark_<topic>_<time>.json.
//
// A gang is the pods of one namespace with the same
// perf.multislice.dev/provisioning-gang label (the JobSet's name),
// perf.multislice.dev/provisioning-pods of them; a slice is the pods of one
// jobset.sigs.k8s.io/job-key. The templates are provisioning-*.yaml.
const (
	provGangLabel    = "perf.multislice.dev/provisioning-gang"
	provPodsLabel    = "perf.multislice.dev/provisioning-pods"
	provParam        = "provisioningGangs"
	provTimeoutParam = "provisioningTimeoutSeconds"
	provStallParam   = "provisioningStallSeconds"
	// provWorkers answer ProvisioningRequests concurrently: enough that
	// none waits for a worker, as the scenario says (with 4, a request
	// waited 0.85 s for one on average, 300 gangs at once).
	provWorkers = 32
	// provProbeQueue is the probe's LocalQueue, in probeNamespace.
	provProbeQueue = "perf-provisioning-probe"
	// provNamespace is the scenario's namespace (performance-config.yaml).
	provNamespace    = "provisioning"
	provProbeTimeout = 2 * time.Minute
	// provScenario is the scenario whose apiservers serve ProvisioningRequests.
	provScenario = "Provisioning"
	provCRDFile  = "../../manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml"
)

// provisioningCRDFiles lists the CRD files installCRDs adds for the test
// case tCtx runs: the Provisioning scenarios' apiservers serve
// ProvisioningRequests, as a cluster with the cluster autoscaler does,
// in both variants alike. The other scenarios' do not, so that their
// schedulers run no provisioning controller and measure what they did
// before. (The harness's prepare hook knows the test case only by name.)
func provisioningCRDFiles(tCtx ktesting.TContext) []string {
	return provisioningCRDFilesFor(tCtx.Name())
}

// provisioningCRDFilesFor is provisioningCRDFiles for the test named
// BenchmarkPerfScheduling/<Scenario>_<Variant>/<workload>.
func provisioningCRDFilesFor(testName string) []string {
	parts := strings.Split(testName, "/")
	if len(parts) > 1 && strings.HasPrefix(parts[1], provScenario+"_") {
		return []string{provCRDFile}
	}
	return nil
}

// provisionings follows every Provisioning run and keeps what they
// measured.
type provisionings struct{ *runs[*provRun] }

func newProvisionings() provisionings { return provisionings{newRuns[*provRun]("Provisioning")} }

// nodesCreated is the harness's node hook (see above).
func (ps provisionings) nodesCreated(tCtx ktesting.TContext, _ *scheduler.Scheduler, w *perf.Workload, nodes *corev1.NodeList) error {
	want, ok := intParam(w, provParam)
	if !ok {
		return nil
	}
	r, ok := ps.get(tCtx)
	if !ok {
		r, err := startProvisioning(tCtx, w, want, nodes)
		if err != nil {
			return err
		}
		ps.add(tCtx, r, r.stop)
		return nil
	}
	if len(nodes.Items) != len(r.nodePool) {
		return fmt.Errorf("provisioning: only the first createNodes op may create nodes (%d nodes, then %d)", len(r.nodePool), len(nodes.Items))
	}
	items, err := r.wait(tCtx)
	// The items are kept even when the run fails: they say how.
	ps.keep(items)
	return err
}

// provRun follows one run.
type provRun struct {
	// check is the admission check the ClusterQueue lists; "" for none.
	check          string
	wantGangs      int
	timeout, stall time.Duration
	// nodePool and nodeZone map every node to its pool and zone.
	nodePool, nodeZone map[string]string
	client             multisliceclient.Interface
	requests           autoscalinglisters.ProvisioningRequestLister
	queue              workqueue.TypedInterface[string]
	cancel             context.CancelFunc
	pods               informers.SharedInformerFactory
	objects            multisliceinformers.SharedInformerFactory
	workers            sync.WaitGroup

	// named is, per JobSet of the scenario, the request its started pod
	// templates name ("" for none): its pods, created by the harness as
	// JobSet would create them, must name the same.
	named map[string]string

	mu      sync.Mutex
	gangs   map[string]*provGang
	reqs    map[string]*provRequest
	objSeen map[string]time.Time // Workload objects, by namespace/name
	startAt time.Time
	// progress is when anything was last seen to happen.
	progress time.Time
	start    readings
	waited   bool
	err      error
}

// provGang is one gang, as seen so far.
type provGang struct {
	namespace, jobSet string
	want              int
	// clock times it from its first pod seen to its last pod seen bound,
	// the want-th (ganglatency_test.go).
	clock gangClock
	// complete: its last pod seen (the head may then be admitted);
	// annotated: its first pod seen naming a ProvisioningRequest.
	complete, annotated time.Time
	pods                map[types.UID]*provPod
}

type provPod struct {
	name, slice, node string
	// request is the ProvisioningRequest the pod named when it was seen
	// bound; boundAt is when.
	request string
	boundAt time.Time
}

func (g *provGang) key() string { return g.namespace + "/" + g.jobSet }

// workloadKey is the gang's workload, as the scheduler names it.
func (g *provGang) workloadKey() workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: g.namespace, Name: g.jobSet}
}

// created is when its first pod was seen.
func (g *provGang) created() time.Time { return g.clock.created }

// whole is when its last pod was seen bound: zero until all are.
func (g *provGang) whole() time.Time { return g.clock.wholeAt(g.want) }

func (g *provGang) bound() int { return g.clock.bound }

// provRequest is a ProvisioningRequest the fake provisioner answered:
// seen when its creation was seen; sent when the status update marking it
// Provisioned was sent, done when it returned.
type provRequest struct {
	seen, sent, done time.Time
}

// startProvisioning checks that the scheduler is ready for the run, starts
// the fake provisioner and the watches, and sends a probe through the
// scenario's ClusterQueue.
func startProvisioning(tCtx ktesting.TContext, w *perf.Workload, want int, nodes *corev1.NodeList) (*provRun, error) {
	if want <= 0 {
		return nil, fmt.Errorf("%s must be positive, got %d", provParam, want)
	}
	timeout, ok := intParam(w, provTimeoutParam)
	if !ok || timeout <= 0 {
		return nil, fmt.Errorf("%s must be set and positive", provTimeoutParam)
	}
	stall, ok := intParam(w, provStallParam)
	if !ok || stall <= 0 {
		return nil, fmt.Errorf("%s must be set and positive", provStallParam)
	}
	cfg := jsonConfig(tCtx)
	jobsets, err := jobsetclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	client, err := multisliceclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	cq, err := scenarioClusterQueue(tCtx, client)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &provRun{
		wantGangs: want, client: client, cancel: cancel,
		timeout: time.Duration(timeout) * time.Second, stall: time.Duration(stall) * time.Second,
		nodePool: map[string]string{}, nodeZone: map[string]string{},
		queue: workqueue.NewTyped[string](),
		gangs: map[string]*provGang{}, reqs: map[string]*provRequest{}, objSeen: map[string]time.Time{},
	}
	if checks := cq.Spec.CheckNames(); len(checks) > 0 {
		r.check = checks[0]
	}
	for _, n := range nodes.Items {
		r.nodePool[n.Name] = n.Labels[wellknown.NodePoolLabel]
		r.nodeZone[n.Name] = n.Labels[wellknown.ZoneLabel]
	}
	if err := r.watch(tCtx, ctx); err != nil {
		r.stop()
		return nil, err
	}
	if err := r.probe(tCtx, jobsets, client, cq.Name); err != nil {
		r.stop()
		return nil, err
	}
	if err := r.waitStarted(tCtx, jobsets); err != nil {
		r.stop()
		return nil, err
	}
	if r.start, err = read(); err != nil {
		r.stop()
		return nil, err
	}
	r.mu.Lock()
	r.startAt = time.Now()
	r.progress = r.startAt
	r.mu.Unlock()
	via := "ClusterQueue " + cq.Name + " without an admission check"
	if r.check != "" {
		via = fmt.Sprintf("ClusterQueue %s with admission check %s (every ProvisioningRequest Provisioned at once)", cq.Name, r.check)
	}
	tCtx.Logf("Provisioning: %d nodes, %d gangs through %s; limit %s, stall %s", len(nodes.Items), want, via, r.timeout, r.stall)
	return r, nil
}

// scenarioClusterQueue returns the scenario's ClusterQueue: there must be
// exactly one, listing at most one admission check.
func scenarioClusterQueue(tCtx ktesting.TContext, client multisliceclient.Interface) (*multislicev1alpha1.ClusterQueue, error) {
	cqs, err := client.MultisliceV1alpha1().ClusterQueues().List(tCtx, metav1.ListOptions{})
	if err != nil {
		return nil, err
	}
	if len(cqs.Items) != 1 {
		return nil, fmt.Errorf("provisioning: the scenario needs exactly one ClusterQueue, found %d", len(cqs.Items))
	}
	cq := &cqs.Items[0]
	if checks := cq.Spec.CheckNames(); len(checks) > 1 {
		return nil, fmt.Errorf("provisioning: ClusterQueue %s lists %d admission checks; the scenario runs one or none", cq.Name, len(checks))
	}
	return cq, nil
}

// watch starts the fake provisioner and the informers on the gangs' pods,
// Workload objects and ProvisioningRequests, and returns once their
// caches have synced.
func (r *provRun) watch(tCtx ktesting.TContext, ctx context.Context) error {
	r.objects = multisliceinformers.NewSharedInformerFactory(r.client, 0)
	requests := r.objects.Autoscaling().V1().ProvisioningRequests()
	r.requests = requests.Lister()
	if _, err := requests.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc: r.requestSeen,
		// A status update that failed is answered again.
		UpdateFunc: func(_, obj any) { r.requestSeen(obj) },
	}); err != nil {
		return err
	}
	objects := r.objects.Multislice().V1alpha1().Workloads()
	if _, err := objects.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{AddFunc: r.workloadObjectSeen}); err != nil {
		return err
	}
	r.objects.Start(ctx.Done())
	if !toolscache.WaitForCacheSync(tCtx.Done(), requests.Informer().HasSynced, objects.Informer().HasSynced) {
		return context.Cause(tCtx)
	}
	for range provWorkers {
		r.workers.Go(func() {
			for {
				key, quit := r.queue.Get()
				if quit {
					return
				}
				r.provision(ctx, key)
				r.queue.Done(key)
			}
		})
	}
	var err error
	r.pods, err = watchPods(tCtx, ctx, provGangLabel, r.observe, r.forget)
	return err
}

func (r *provRun) stop() {
	r.cancel()
	r.queue.ShutDown()
	r.workers.Wait()
	if r.objects != nil {
		r.objects.Shutdown()
	}
	if r.pods != nil {
		r.pods.Shutdown()
	}
}

// requestSeen queues a ProvisioningRequest that is not Provisioned yet for
// the fake provisioner, and notes when each was first seen (the probe's
// are answered, not followed).
func (r *provRun) requestSeen(obj any) {
	req, ok := obj.(*autoscalingv1.ProvisioningRequest)
	if !ok || apimeta.IsStatusConditionTrue(req.Status.Conditions, autoscalingv1.Provisioned) {
		return
	}
	key := req.Namespace + "/" + req.Name
	if req.Namespace != probeNamespace {
		now := time.Now()
		r.mu.Lock()
		if r.reqs[key] == nil {
			r.reqs[key] = &provRequest{seen: now}
			r.progress = now
		}
		r.mu.Unlock()
	}
	r.queue.Add(key)
}

// provision marks a request Accepted and Provisioned in one status update:
// the capacity exists already, and the scenario measures the scheduler.
func (r *provRun) provision(ctx context.Context, key string) {
	ns, name, _ := toolscache.SplitMetaNamespaceKey(key)
	req, err := r.requests.ProvisioningRequests(ns).Get(name)
	for attempt := 0; err == nil; attempt++ {
		if apimeta.IsStatusConditionTrue(req.Status.Conditions, autoscalingv1.Provisioned) {
			return
		}
		req = req.DeepCopy()
		now := metav1.Now()
		apimeta.SetStatusCondition(&req.Status.Conditions, metav1.Condition{Type: autoscalingv1.Accepted, Status: metav1.ConditionTrue,
			Reason: "Accepted", Message: "accepted by the benchmark's provisioner", LastTransitionTime: now})
		apimeta.SetStatusCondition(&req.Status.Conditions, metav1.Condition{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue,
			Reason: "Provisioned", Message: "the capacity exists already", LastTransitionTime: now})
		sent := time.Now()
		_, err = r.client.AutoscalingV1().ProvisioningRequests(ns).UpdateStatus(ctx, req, metav1.UpdateOptions{})
		if err == nil {
			done := time.Now()
			r.mu.Lock()
			if q := r.reqs[key]; q != nil {
				q.sent, q.done = sent, done
				r.progress = done
			}
			r.mu.Unlock()
			return
		}
		if !apierrors.IsConflict(err) || attempt >= 5 {
			break
		}
		req, err = r.client.AutoscalingV1().ProvisioningRequests(ns).Get(ctx, name, metav1.GetOptions{})
	}
	if err != nil && !apierrors.IsNotFound(err) && ctx.Err() == nil {
		r.mu.Lock()
		r.failLocked(fmt.Errorf("provisioning: marking ProvisioningRequest %s Provisioned: %w", key, err))
		r.mu.Unlock()
	}
}

// workloadObjectSeen notes when each Workload object was first seen: with
// the check, a gang's request cannot be created before it.
func (r *provRun) workloadObjectSeen(obj any) {
	wl, ok := obj.(*multislicev1alpha1.Workload)
	if !ok || wl.Namespace == probeNamespace {
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seen := r.objSeen[wl.Namespace+"/"+wl.Name]; !seen {
		r.objSeen[wl.Namespace+"/"+wl.Name] = now
		r.progress = now
	}
}

// observe records a pod's arrival, its annotation with a
// ProvisioningRequest, and its binding.
func (r *provRun) observe(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	now := time.Now()
	r.mu.Lock()
	defer r.mu.Unlock()
	g := r.gangLocked(pod)
	if g == nil {
		return
	}
	p := g.pods[pod.UID]
	if p == nil {
		if got, want := pod.Annotations[wellknown.ConsumeProvisioningRequestAnnotation], r.named[g.jobSet]; got != want {
			r.failLocked(fmt.Errorf("provisioning: pod %s/%s was created naming ProvisioningRequest %q, but the pod templates of its started JobSet name %q",
				pod.Namespace, pod.Name, got, want))
		}
		p = &provPod{name: pod.Name, slice: pod.Labels[wellknown.JobKeyLabel]}
		g.pods[pod.UID] = p
		r.progress = now
		g.clock.memberCreated(now)
		if len(g.pods) == g.want {
			g.complete = now
		}
	}
	request := pod.Annotations[wellknown.ConsumeProvisioningRequestAnnotation]
	if request != "" && g.annotated.IsZero() {
		g.annotated = now
		r.progress = now
	}
	if pod.Spec.NodeName == "" || p.node != "" {
		return
	}
	p.node, p.request, p.boundAt = pod.Spec.NodeName, request, now
	r.progress = now
	g.clock.memberBound(now)
}

// gangLocked returns the pod's gang, made on its first pod.
func (r *provRun) gangLocked(pod *corev1.Pod) *provGang {
	key := pod.Namespace + "/" + pod.Labels[provGangLabel]
	if g := r.gangs[key]; g != nil {
		return g
	}
	want, err := strconv.Atoi(pod.Labels[provPodsLabel])
	jobSet := pod.Labels[wellknown.JobSetNameLabel]
	if err != nil || want <= 0 || jobSet != pod.Labels[provGangLabel] {
		r.failLocked(fmt.Errorf("pod %s/%s: labels %s=%q, %s=%q, %s=%q: want a positive pod count and the gang named after its JobSet",
			pod.Namespace, pod.Name, provPodsLabel, pod.Labels[provPodsLabel], provGangLabel, pod.Labels[provGangLabel], wellknown.JobSetNameLabel, jobSet))
		return nil
	}
	g := &provGang{namespace: pod.Namespace, jobSet: jobSet, want: want, pods: map[types.UID]*provPod{}}
	r.gangs[key] = g
	return g
}

// forget fails the run: nothing deletes the scenario's pods, so a deleted
// one means the scheduler evicted it.
func (r *provRun) forget(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	if pod, ok := obj.(*corev1.Pod); ok {
		r.mu.Lock()
		r.failLocked(fmt.Errorf("provisioning: pod %s/%s was deleted during the run", pod.Namespace, pod.Name))
		r.mu.Unlock()
	}
}

func (r *provRun) failLocked(err error) {
	if r.err == nil {
		r.err = err
	}
}

// probe sends a queued JobSet of one pod through the scenario's
// ClusterQueue cq, from a LocalQueue in probeNamespace, and waits until it
// is placed: the scheduler then serves the queue (and, with the check, has
// discovered the ProvisioningRequest API, without which the probe waits
// AdmissionCheckNotReady). With the check, its pod must name its request.
// The probe is deleted, its quota and pool freed, before the measurement.
func (r *provRun) probe(tCtx ktesting.TContext, jobsets jobsetclient.Interface, client multisliceclient.Interface, cq string) error {
	lq := &multislicev1alpha1.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: probeNamespace, Name: provProbeQueue},
		Spec: multislicev1alpha1.LocalQueueSpec{ClusterQueue: cq}}
	if _, err := client.MultisliceV1alpha1().LocalQueues(probeNamespace).Create(tCtx, lq, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	if _, err := waitQueuesActive(tCtx, client); err != nil {
		return err
	}
	js := builders.JobSet(probeNamespace, "queued-probe").Exclusive(wellknown.NodePoolLabel).Annotation(wellknown.QueueNameLabel, provProbeQueue).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 1, 1).Obj()
	pods, err := createProbe(tCtx, jobsets, js)
	if err != nil {
		return err
	}
	began := time.Now()
	var last *corev1.Pod
	err = wait.PollUntilContextTimeout(tCtx, 100*time.Millisecond, provProbeTimeout, true, func(ctx context.Context) (bool, error) {
		for _, p := range pods {
			got, err := tCtx.Client().CoreV1().Pods(probeNamespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil || got.Spec.NodeName == "" {
				last = got
				return false, nil
			}
			last = got
		}
		return true, nil
	})
	if err != nil {
		why := "never attempted (gated)"
		if last != nil {
			if c := podCondition(last, corev1.PodScheduled); c != nil {
				why = c.Reason + ": " + c.Message
			}
		}
		return fmt.Errorf("provisioning: the queued probe was not placed through ClusterQueue %s within %s (%s): %w", cq, provProbeTimeout, why, err)
	}
	if r.check != "" {
		key := workload.Key{Source: workload.SourceJobSet, Namespace: probeNamespace, Name: js.Name}
		want := provisioning.RequestName(key.ObjectName(), r.check, 1)
		if got := last.Annotations[wellknown.ConsumeProvisioningRequestAnnotation]; got != want {
			return fmt.Errorf("provisioning: the probe was placed through admission check %s but names ProvisioningRequest %q, want %q", r.check, got, want)
		}
	}
	tCtx.Logf("Provisioning: a queued probe was placed through ClusterQueue %s in %s", cq, time.Since(began).Round(time.Millisecond))
	return deleteProbe(tCtx, jobsets, js.Name, pods)
}

// waitStarted waits until the scheduler has started every JobSet of the
// scenario, created suspended as Kueue users create them, and records the
// request each one's pod templates name: with the check, the first
// attempt's request, named when the JobSet was started (see
// controllers.firstRequestAnnotations); without, none. scheduler_perf runs
// no JobSet controller: the harness creates the pods as it would, from
// the started templates, and observe checks that they match.
func (r *provRun) waitStarted(tCtx ktesting.TContext, jobsets jobsetclient.Interface) error {
	var waiting []string
	err := wait.PollUntilContextTimeout(tCtx, 200*time.Millisecond, provProbeTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := jobsets.JobsetV1alpha2().JobSets(provNamespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		waiting = waiting[:0]
		named := map[string]string{}
		for i := range list.Items {
			js := &list.Items[i]
			if js.Spec.Suspend == nil || *js.Spec.Suspend {
				waiting = append(waiting, js.Name)
				continue
			}
			for _, rj := range js.Spec.ReplicatedJobs {
				named[js.Name] = rj.Template.Spec.Template.Annotations[wellknown.ConsumeProvisioningRequestAnnotation]
			}
		}
		if len(waiting) > 0 || len(list.Items) == 0 {
			return false, nil
		}
		r.named = named
		return true, nil
	})
	if err != nil {
		return fmt.Errorf("provisioning: %d JobSets not started by the scheduler within %s (%v): %w", len(waiting), provProbeTimeout, waiting[:min(len(waiting), 5)], err)
	}
	for name, got := range r.named {
		want := ""
		if r.check != "" {
			key := workload.Key{Source: workload.SourceJobSet, Namespace: provNamespace, Name: name}
			want = provisioning.RequestName(key.ObjectName(), r.check, 1)
		}
		if got != want {
			return fmt.Errorf("provisioning: JobSet %s/%s was started with pod templates naming ProvisioningRequest %q, want %q", provNamespace, name, got, want)
		}
	}
	tCtx.Logf("Provisioning: the scheduler started %d JobSets", len(r.named))
	return nil
}

// wait blocks until every gang is wholly bound, or the time limit passes,
// or nothing happened for the stall time, and returns the data items.
func (r *provRun) wait(tCtx ktesting.TContext) ([]perf.DataItem, error) {
	r.mu.Lock()
	if r.waited {
		r.mu.Unlock()
		return nil, fmt.Errorf("provisioning: a createNodes op after the wait; the workload template has one wait")
	}
	r.waited = true
	deadline := r.startAt.Add(r.timeout)
	r.mu.Unlock()
	tCtx.Logf("Provisioning: waiting for %d gangs to be wholly bound", r.wantGangs)
	ticker := time.NewTicker(50 * time.Millisecond)
	defer ticker.Stop()
	lastLog := time.Now()
	ended := ""
	for ended == "" {
		select {
		case <-tCtx.Done():
			return nil, context.Cause(tCtx)
		case <-ticker.C:
		}
		r.mu.Lock()
		whole, err, progress := 0, r.err, r.progress
		for _, g := range r.gangs {
			if !g.whole().IsZero() {
				whole++
			}
		}
		r.mu.Unlock()
		now := time.Now()
		switch {
		case err != nil:
			return nil, err
		case whole >= r.wantGangs:
			ended = "done"
		case now.After(deadline):
			ended = fmt.Sprintf("time limit of %s reached", r.timeout)
		case now.Sub(progress) > r.stall:
			ended = fmt.Sprintf("nothing happened for %s", r.stall)
		}
		if now.Sub(lastLog) >= 10*time.Second {
			tCtx.Logf("Provisioning: %d of %d gangs wholly bound", whole, r.wantGangs)
			lastLog = now
		}
	}
	end, err := read()
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	res := provisioningResult{
		provCounts: accountProvisioning(r.gangs, r.reqs, r.objSeen, r.check, r.nodePool, r.nodeZone),
		check:      r.check,
		timedOut:   ended != "done",
		attempts:   map[string]float64{},
		admissions: end.admissions - r.start.admissions,
	}
	err = r.err
	r.mu.Unlock()
	for result, v := range end.attempts {
		res.attempts[result] = v - r.start.attempts[result]
	}
	tCtx.Logf("Provisioning: %s; %s", ended, res.summary())
	items := res.items(tCtx)
	if err == nil {
		err = res.verify(r.wantGangs)
	}
	return items, err
}
