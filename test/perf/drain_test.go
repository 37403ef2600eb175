package perf

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/scheduler"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"k8s.io/utils/ptr"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Queue drains.
//
// The quota scenarios queue far more workloads than their ClusterQueues
// admit at once and delete every workload as soon as it is admitted (all
// its pods bound), so that the queues drain through the quota. The
// scheduler_perf harness has no op for that, nor for waiting until a run
// has drained: its waits count pods that are bound and still exist, and a
// drained workload's pods are gone. The harness's node hook
// (perf.WithNodeUpdateFn), which it calls synchronously at the end of every
// createNodes op, adds both:
//
//   - A scheduler_perf workload with the parameter drainWorkloads is
//     drained. At its first createNodes op the hook checks that the
//     scheduler serves what the run depends on: the JobSet API (a probe
//     gang must be placed as a gang) and the LocalQueues, if any exist (the
//     scheduler must have written them Active); then it starts deleting
//     admitted workloads. At every createNodes op that creates nodes it
//     takes the readings the results start from (the scheduler's counters,
//     the peak RSS).
//   - A later createNodes op that creates no node is the drain point: the
//     hook blocks until drainWorkloads workloads were admitted and deleted,
//     and records what the drain measured as QueueDrain* data items, which
//     BenchmarkPerfScheduling writes next to the harness's results. A run
//     fails if it stalls, if a gang is not placed as one (each slice whole
//     on a pool of its own), or if, with LocalQueues, any workload was
//     admitted other than through its queue.
//   - With the parameter jobSetController set to 1, the harness also plays
//     the JobSet and Job controllers from the first createNodes op on: it
//     creates the pods of the JobSets of namespace queued as they are
//     started (jobsetcontroller_test.go).
//
// A drained workload is the pods of one namespace with the same
// perf.multislice.dev/workload label, as many as their
// perf.multislice.dev/pods label says. Once all of them are bound it is
// deleted as a finished workload goes away: its pods first, with no grace
// period, as a kubelet removes pods that have stopped, then its JobSet
// (jobset.sigs.k8s.io/jobset-name), if any. (Deleting the JobSet first
// would free its quota while its pods still hold their pools: the
// scheduler releases a workload's charge when its object goes.)
const (
	drainWorkloadLabel = "perf.multislice.dev/workload"
	drainPodsLabel     = "perf.multislice.dev/pods"
	// drainClassLabel and drainRuntimeLabel (optional): the workload's
	// class, by which its time to admission is reported, and how long it
	// runs once admitted before it is deleted (milliseconds; none: deleted
	// at once). See drain_topology_test.go.
	drainClassLabel   = "perf.multislice.dev/class"
	drainRuntimeLabel = "perf.multislice.dev/runtime-ms"
	drainParam        = "drainWorkloads"
	// drainWorkers delete admitted workloads concurrently.
	drainWorkers = 8
	// drainStall fails a drain in which no workload was admitted for so long.
	drainStall = 3 * time.Minute
	// probeNamespace holds the probe gang.
	probeNamespace = "perf-probe"
)

// drains tracks the drain of each scheduler_perf workload being run, and
// keeps what the drains measured.
type drains struct{ *runs[*drain] }

func newDrains() drains { return drains{newRuns[*drain]("QueueDrain")} }

// nodesCreated is the harness's node hook (see above).
func (ds drains) nodesCreated(tCtx ktesting.TContext, _ *scheduler.Scheduler, w *perf.Workload, nodes *corev1.NodeList) error {
	want, ok := intParam(w, drainParam)
	if !ok {
		return nil
	}
	if want <= 0 {
		return fmt.Errorf("%s must be positive, got %d", drainParam, want)
	}
	d, ok := ds.get(tCtx)
	switch {
	case !ok:
		controller, _ := intParam(w, jobSetControllerParam)
		if controller != 0 && controller != 1 {
			return fmt.Errorf("%s must be 0 or 1, got %d", jobSetControllerParam, controller)
		}
		d, err := startDrain(tCtx, want)
		if err != nil {
			return err
		}
		d.nodes = len(nodes.Items)
		ds.add(tCtx, d, d.stop)
		if err := d.baseline(nodes); err != nil {
			return err
		}
		if controller == 1 {
			// After the baseline: the JobSets the scheduler started
			// already get their pods at once, and are admitted.
			return d.playJobSets(tCtx)
		}
		return nil
	case len(nodes.Items) != d.nodes:
		d.nodes = len(nodes.Items)
		return d.baseline(nodes)
	default:
		items, err := d.wait(tCtx)
		if err != nil {
			return err
		}
		ds.keep(items)
		return nil
	}
}

// intParam reads an integer workload parameter, false if it is not set.
// The harness's accessor panics on a workload without any parameters.
func intParam(w *perf.Workload, key string) (v int, ok bool) {
	defer func() {
		if recover() != nil {
			v, ok = 0, false
		}
	}()
	v, err := w.GetParam(key)
	return v, err == nil
}

// drain deletes the workloads the scheduler admits in one scheduler_perf
// workload's run, and counts them.
type drain struct {
	want int
	// nodes is how many nodes the last createNodes op left.
	nodes int
	// queued: LocalQueues exist, every workload must be admitted through one.
	queued  bool
	jobsets jobsetclient.Interface
	// jobs creates the pods of started JobSets (nil: the workload's ops
	// create them).
	jobs    *jobSetController
	ctx     context.Context
	cancel  context.CancelFunc
	factory informers.SharedInformerFactory
	work    chan *drainWorkload
	wg      sync.WaitGroup

	mu        sync.Mutex
	workloads map[string]*drainWorkload
	// nodePool maps nodes to their pool; poolHolders counts, per pool, the
	// bound pods of each gang on it.
	nodePool    map[string]string
	poolHolders map[string]map[string]int
	// nodeLabels are the labels of the nodes created so far, for the
	// topology gangs' checks (checkTopologyLocked).
	nodeLabels map[string]map[string]string
	// classes times the workloads of each class to admission.
	classes   map[string]*classTimes
	start     readings
	admitted  int
	deleted   int
	pods      int
	gangs     int
	lastAdmit time.Time
	lastDrain time.Time
	err       error
	done      chan struct{}
}

type drainWorkload struct {
	namespace, name, jobSet string
	want                    int
	pods                    map[types.UID]boundPod
	admitted                bool
	// class and runtime: see drainClassLabel and drainRuntimeLabel;
	// created is when its JobSet was seen created (jobSetSeen), when the
	// harness creates the pods of started JobSets, else when its first pod
	// bound so far was created.
	class      string
	runtime    time.Duration
	created    time.Time
	jobSetSeen bool
	// topology: its pods ask for a topology of nested levels (Kueue's
	// annotations): they share nodes with other gangs.
	topology bool
}

// boundPod is a drained workload's pod, once bound.
type boundPod struct {
	name, pool, slice string
	// node, index and annotations: where it is bound, its completion
	// index and its pod template's annotations (a topology gang's pods).
	node        string
	index       int
	annotations map[string]string
}

// startDrain checks that the scheduler is ready for the run and starts
// deleting the workloads it admits.
func startDrain(tCtx ktesting.TContext, want int) (*drain, error) {
	cfg := jsonConfig(tCtx)
	jobsets, err := jobsetclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	queues, err := multisliceclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	queued, err := waitQueuesActive(tCtx, queues)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	d := &drain{
		want: want, queued: queued, jobsets: jobsets, ctx: ctx, cancel: cancel,
		work:        make(chan *drainWorkload, want),
		workloads:   map[string]*drainWorkload{},
		nodePool:    map[string]string{},
		poolHolders: map[string]map[string]int{},
		nodeLabels:  map[string]map[string]string{},
		classes:     map[string]*classTimes{},
		done:        make(chan struct{}),
	}
	if d.factory, err = watchPods(tCtx, ctx, drainWorkloadLabel, d.observe, d.forget); err != nil {
		cancel()
		return nil, err
	}
	for range drainWorkers {
		d.wg.Go(func() {
			for {
				select {
				case <-ctx.Done():
					return
				case wl := <-d.work:
					d.finish(ctx, tCtx, wl)
				}
			}
		})
	}
	tCtx.Logf("Draining: %d workloads, deleted once admitted; quota-managed: %v", want, queued)
	return d, nil
}

// playJobSets has the harness create the pods of the JobSets of namespace
// jobSetControllerNamespace as they are started, until the drain stops.
func (d *drain) playJobSets(tCtx ktesting.TContext) error {
	jobs, err := startJobSetController(tCtx, d.ctx, d.jobsets, d.fail)
	if err != nil {
		return err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.jobs = jobs
	tCtx.Logf("Draining: the pods of started JobSets in namespace %s are created by the harness", jobSetControllerNamespace)
	return nil
}

// watchPods feeds observe and forget from an informer on the pods matching
// selector, running until ctx ends, and returns once its cache has synced
// (on failure the informer is shut down).
func watchPods(tCtx ktesting.TContext, ctx context.Context, selector string, observe, forget func(any)) (informers.SharedInformerFactory, error) {
	factory := informers.NewSharedInformerFactoryWithOptions(tCtx.Client(), 0,
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = selector }))
	informer := factory.Core().V1().Pods().Informer()
	if _, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    observe,
		UpdateFunc: func(_, obj any) { observe(obj) },
		DeleteFunc: forget,
	}); err != nil {
		return nil, err
	}
	factory.Start(ctx.Done())
	if !toolscache.WaitForCacheSync(tCtx.Done(), informer.HasSynced) {
		factory.Shutdown()
		return nil, context.Cause(tCtx)
	}
	return factory, nil
}

func (d *drain) stop() {
	d.cancel()
	d.factory.Shutdown()
	d.wg.Wait()
	d.mu.Lock()
	jobs := d.jobs
	d.mu.Unlock()
	if jobs != nil {
		jobs.stop()
	}
}

// observe counts a drained workload's pods as they are bound and queues
// the workload for deletion once all of them are. It checks that gangs are
// placed as gangs: each slice whole on one pool, no pool shared with a
// slice of this or another gang that still runs. (The pod informer delivers
// a pod's deletion before the binding of a pod the scheduler placed in its
// room, so a pool is seen free before it is reused.)
func (d *drain) observe(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" || pod.DeletionTimestamp != nil {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	key := pod.Namespace + "/" + pod.Labels[drainWorkloadLabel]
	wl := d.workloads[key]
	if wl == nil {
		n, err := strconv.Atoi(pod.Labels[drainPodsLabel])
		if err != nil || n <= 0 {
			d.failLocked(fmt.Errorf("pod %s/%s: label %s=%q is not a positive pod count", pod.Namespace, pod.Name, drainPodsLabel, pod.Labels[drainPodsLabel]))
			return
		}
		wl = &drainWorkload{namespace: pod.Namespace, name: pod.Labels[drainWorkloadLabel], jobSet: pod.Labels[wellknown.JobSetNameLabel],
			want: n, pods: map[types.UID]boundPod{}, class: pod.Labels[drainClassLabel], topology: asksTopology(pod)}
		if v, ok := pod.Labels[drainRuntimeLabel]; ok {
			ms, err := strconv.Atoi(v)
			if err != nil || ms < 0 {
				d.failLocked(fmt.Errorf("pod %s/%s: label %s=%q is not a duration in milliseconds", pod.Namespace, pod.Name, drainRuntimeLabel, v))
				return
			}
			wl.runtime = time.Duration(ms) * time.Millisecond
		}
		if d.jobs != nil {
			// Its pods came from the harness, once it saw the JobSet
			// started: it saw it created before.
			seen, ok := d.jobs.seenAt(pod.Namespace, wl.jobSet)
			if !ok {
				d.failLocked(fmt.Errorf("pod %s/%s: its JobSet %q was not seen created", pod.Namespace, pod.Name, wl.jobSet))
				return
			}
			wl.created, wl.jobSetSeen = seen, true
		}
		d.workloads[key] = wl
	}
	if wl.admitted {
		return
	}
	if _, seen := wl.pods[pod.UID]; seen {
		return
	}
	bp := boundPod{name: pod.Name, pool: d.nodePool[pod.Spec.NodeName], slice: pod.Labels[wellknown.JobGlobalIndexLabel], node: pod.Spec.NodeName}
	if wl.topology {
		bp.index, _ = strconv.Atoi(pod.Labels[wellknown.JobCompletionIndexLabel])
		bp.annotations = pod.Annotations
	}
	wl.pods[pod.UID] = bp
	if created := pod.CreationTimestamp.Time; !wl.jobSetSeen && (wl.created.IsZero() || created.Before(wl.created)) {
		wl.created = created
	}
	if wl.jobSet != "" && !wl.topology {
		holders := d.poolHolders[bp.pool]
		if holders == nil {
			holders = map[string]int{}
			d.poolHolders[bp.pool] = holders
		}
		for other := range holders {
			if other != key {
				d.failLocked(fmt.Errorf("gang %s was placed on pool %s, which gang %s still holds", key, bp.pool, other))
			}
		}
		holders[key]++
	}
	if len(wl.pods) < wl.want {
		return
	}
	wl.admitted = true
	d.admitted++
	d.pods += wl.want
	switch {
	case wl.topology:
		d.gangs++
		d.checkTopologyLocked(key, wl)
	case wl.jobSet != "":
		d.gangs++
		d.checkGangLocked(key, wl)
	}
	d.lastAdmit = time.Now()
	d.timeLocked(wl, d.lastAdmit)
	if wl.runtime > 0 {
		// It runs, then finishes: deleted then.
		time.AfterFunc(wl.runtime, func() { d.queue(wl) })
		return
	}
	d.queueLocked(wl)
}

// queue hands an admitted workload to the workers that delete it.
func (d *drain) queue(wl *drainWorkload) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.queueLocked(wl)
}

func (d *drain) queueLocked(wl *drainWorkload) {
	select {
	case d.work <- wl:
	default:
		d.failLocked(fmt.Errorf("more than %s=%d workloads were admitted", drainParam, d.want))
	}
}

// checkGangLocked checks that each slice of a wholly bound gang is on one
// pool of its own.
func (d *drain) checkGangLocked(key string, wl *drainWorkload) {
	pools := map[string]string{} // slice → pool
	owner := map[string]string{} // pool → slice
	for _, p := range wl.pods {
		if p.pool == "" {
			d.failLocked(fmt.Errorf("gang %s: pod %s is on a node of no known pool", key, p.name))
			return
		}
		if got, ok := pools[p.slice]; ok && got != p.pool {
			d.failLocked(fmt.Errorf("gang %s: slice %s is split over pools %s and %s", key, p.slice, got, p.pool))
			return
		}
		if s, ok := owner[p.pool]; ok && s != p.slice {
			d.failLocked(fmt.Errorf("gang %s: slices %s and %s share pool %s", key, s, p.slice, p.pool))
			return
		}
		pools[p.slice], owner[p.pool] = p.pool, p.slice
	}
}

// forget releases the pool a deleted gang pod held.
func (d *drain) forget(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok || pod.Spec.NodeName == "" || pod.Labels[wellknown.JobSetNameLabel] == "" || asksTopology(pod) {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	key := pod.Namespace + "/" + pod.Labels[drainWorkloadLabel]
	pool := d.nodePool[pod.Spec.NodeName]
	if holders := d.poolHolders[pool]; holders[key] > 0 {
		holders[key]--
		if holders[key] == 0 {
			delete(holders, key)
		}
	}
}

// finish deletes an admitted workload: its pods, then its JobSet.
func (d *drain) finish(ctx context.Context, tCtx ktesting.TContext, wl *drainWorkload) {
	d.mu.Lock()
	names := make([]string, 0, len(wl.pods))
	for _, p := range wl.pods {
		names = append(names, p.name)
	}
	d.mu.Unlock()
	var err error
	for _, name := range names {
		err = tCtx.Client().CoreV1().Pods(wl.namespace).Delete(ctx, name, metav1.DeleteOptions{GracePeriodSeconds: ptr.To[int64](0)})
		if apierrors.IsNotFound(err) {
			err = nil
		}
		if err != nil {
			break
		}
	}
	if err == nil && wl.jobSet != "" {
		err = d.jobsets.JobsetV1alpha2().JobSets(wl.namespace).Delete(ctx, wl.jobSet, metav1.DeleteOptions{})
		if apierrors.IsNotFound(err) {
			err = nil
		}
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if err != nil {
		if ctx.Err() == nil {
			d.failLocked(fmt.Errorf("deleting workload %s/%s: %w", wl.namespace, wl.name, err))
		}
		return
	}
	d.deleted++
	d.lastDrain = time.Now()
	if d.deleted == d.want {
		close(d.done)
	}
}

// fail records err as the drain's failure, unless one was recorded.
func (d *drain) fail(err error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	d.failLocked(err)
}

func (d *drain) failLocked(err error) {
	if d.err == nil {
		d.err = err
	}
}

// baseline takes the readings results start from: the last createNodes op
// before the drain point is the last thing before the measured ops. It
// also learns the pools of the nodes created so far.
func (d *drain) baseline(nodes *corev1.NodeList) error {
	r, err := read()
	if err != nil {
		return err
	}
	resetPeakRSS()
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, n := range nodes.Items {
		d.nodePool[n.Name] = n.Labels[wellknown.NodePoolLabel]
		d.nodeLabels[n.Name] = n.Labels
	}
	if d.admitted > 0 {
		return fmt.Errorf("a createNodes op after workloads were admitted: only the drain point (a createNodes op of no nodes) may follow them")
	}
	d.start = r
	return nil
}

// wait blocks until every workload was admitted and deleted, and returns
// the data items of the drain.
func (d *drain) wait(tCtx ktesting.TContext) ([]perf.DataItem, error) {
	tCtx.Logf("Waiting for %d workloads to be admitted and deleted", d.want)
	ticker := time.NewTicker(10 * time.Second)
	defer ticker.Stop()
	lastCount, lastProgress := -1, time.Now()
	for done := false; !done; {
		select {
		case <-tCtx.Done():
			return nil, context.Cause(tCtx)
		case <-d.done:
			done = true
		case <-ticker.C:
			d.mu.Lock()
			admitted, deleted, err := d.admitted, d.deleted, d.err
			d.mu.Unlock()
			if err != nil {
				return nil, err
			}
			tCtx.Logf("Drain: %d of %d workloads admitted, %d deleted", admitted, d.want, deleted)
			if admitted != lastCount {
				lastCount, lastProgress = admitted, time.Now()
			} else if time.Since(lastProgress) > drainStall {
				return nil, fmt.Errorf("drain stalled: %d of %d workloads admitted, none for %s; %s", admitted, d.want, drainStall, d.pendingSample())
			}
		}
	}
	end, err := read()
	if err != nil {
		return nil, err
	}
	if d.jobs != nil {
		tCtx.Logf("Drained: %s", d.jobs.summary())
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.err != nil {
		return nil, d.err
	}
	res := d.result(end)
	if d.queued && res.admissions != float64(d.want) {
		return nil, fmt.Errorf("%d workloads drained, but the scheduler admitted %v through their queues: the others were not quota-managed", d.want, res.admissions)
	}
	if !d.queued && res.admissions != 0 {
		return nil, fmt.Errorf("no LocalQueue exists, but the scheduler admitted %v workloads through queues", res.admissions)
	}
	return append(res.items(tCtx), d.classItems(tCtx)...), nil
}

// pendingSample describes the drained pods that are not bound, for a
// stalled drain.
func (d *drain) pendingSample() string {
	pods, err := d.factory.Core().V1().Pods().Lister().List(labels.Everything())
	if err != nil {
		return err.Error()
	}
	pending := 0
	var sample string
	for _, p := range pods {
		if p.Spec.NodeName != "" || p.DeletionTimestamp != nil {
			continue
		}
		pending++
		if sample == "" {
			sample = fmt.Sprintf("e.g. %s/%s", p.Namespace, p.Name)
			if c := podCondition(p, corev1.PodScheduled); c != nil {
				sample += fmt.Sprintf(": %s %s", c.Reason, c.Message)
			} else {
				sample += ": never attempted (gated)"
			}
		}
	}
	out := fmt.Sprintf("%d pods pending, %s", pending, sample)
	if d.jobs != nil {
		out += "; " + d.jobs.summary()
	}
	return out
}

func podCondition(p *corev1.Pod, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == t {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}
