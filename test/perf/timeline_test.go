package perf

import (
	"errors"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/scheduler"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Pods bound over time.
//
// The harness samples how many pods are bound once a second, but keeps the
// samples out of its data items (it writes them to a .dat file beside
// them, timed from its first sample with a pod bound), and the report plots
// each scenario's pods bound over time since its measured pods' first was
// created. So the node hook, at a workload's first createNodes op (every
// scenario creates nodes before pods: TestScenariosCreateNodesBeforePods),
// adds an event handler to the scheduler's own pod informer, which the
// harness's throughput collector also uses: no watch, list or poll is
// added, and a handler only counts under a lock of its own. It counts, per
// namespace, the pods as they become bound, in timelineBucket steps from
// the namespace's first pod seen.
//
// When the workload ends, each namespace with a pod bound becomes a
// BoundPodsOverTime data item named like the harness's measured items,
// BenchmarkPerfScheduling/<test case>/<workload>/<namespace>, which the
// report matches with the measured namespace's (the harness names a
// measurement by its namespace: TestScenariosNameMeasurementsByNamespace).
// Its data are the pods bound so far by each time since the first pod,
// keyed by that time in seconds: one point a second (every timelineBucket
// when the last pod was bound within timelineFine, so that a run of a few
// seconds still draws a curve), and a last one at the last pod bound. A
// ten-minute run writes about 600 numbers per namespace.
//
// The same handler notes when each pod was created and bound, for the
// gang latency of the workload's gangs (ganglatency_test.go).
const (
	boundPodsMetric = "BoundPodsOverTime"
	timelineBucket  = 100 * time.Millisecond
	timelineFine    = 20 * time.Second
)

type timelines struct {
	*runs[*podTimeline]
	// gangs keeps the gang latency items, which are written apart.
	gangs *runs[struct{}]
}

func newTimelines() timelines {
	return timelines{newRuns[*podTimeline]("BoundPods"), newRuns[struct{}]("GangLatency")}
}

// nodesCreated starts counting at a workload's first createNodes op.
func (ts timelines) nodesCreated(tCtx ktesting.TContext, sched *scheduler.Scheduler, w *perf.Workload) error {
	if _, started := ts.get(tCtx); started {
		return nil
	}
	informer, err := podInformer(sched)
	if err != nil {
		return err
	}
	// Without the parameter (0) plain pods are not grouped.
	groupSize, _ := intParam(w, plainGroupSizeParam)
	tl := newPodTimeline()
	handle, err := informer.AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { tl.observe(obj, time.Now()) },
		UpdateFunc: func(_, obj any) { tl.observe(obj, time.Now()) },
	})
	if err != nil {
		return err
	}
	name := tCtx.Name()
	ts.add(tCtx, tl, func() {
		if err := informer.RemoveEventHandler(handle); err != nil {
			tCtx.Logf("Removing the bound pods counter: %v", err)
		}
		ts.keep(tl.items(name))
		ts.gangs.keep(tl.groupItems(tCtx.Logf, name, groupSize))
	})
	return nil
}

// write stores the timelines and the gang latencies, each kind in a file
// of its own.
func (ts timelines) write(topic string) error {
	if err := ts.runs.write(topic); err != nil {
		return err
	}
	return ts.gangs.write(topic)
}

// podInformer is the scheduler's pod informer: its profiles share one
// informer factory.
func podInformer(sched *scheduler.Scheduler) (toolscache.SharedIndexInformer, error) {
	for _, fw := range sched.Profiles {
		return fw.SharedInformerFactory().Core().V1().Pods().Informer(), nil
	}
	return nil, errors.New("the scheduler has no profile")
}

// podTimeline counts pods as they are bound, per namespace.
type podTimeline struct {
	mu         sync.Mutex
	namespaces map[string]*boundCount
	order      []string
}

// boundCount is one namespace's pods bound over time.
type boundCount struct {
	// first is when the namespace's first pod was seen: its creation, as
	// the informer tells it.
	first time.Time
	// buckets counts the pods bound in each timelineBucket since first.
	buckets []int
	bound   int
	last    time.Duration // the last pod bound, since first
	// pods are the namespace's pods in the order they were seen created,
	// which byUID indexes.
	pods  []*podTimes
	byUID map[types.UID]*podTimes
}

func newPodTimeline() *podTimeline {
	return &podTimeline{namespaces: map[string]*boundCount{}}
}

// observe notes a pod created when it is first seen, and counts it bound
// when it is first seen with a node, as the harness's throughput
// collector does: the scheduler reads the same informer, so every pod is
// seen unbound before it is bound.
func (tl *podTimeline) observe(obj any, at time.Time) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	tl.mu.Lock()
	defer tl.mu.Unlock()
	c := tl.namespaces[pod.Namespace]
	if c == nil {
		c = &boundCount{first: at, byUID: map[types.UID]*podTimes{}}
		tl.namespaces[pod.Namespace] = c
		tl.order = append(tl.order, pod.Namespace)
	}
	p := c.byUID[pod.UID]
	if p == nil {
		p = &podTimes{gang: gangOf(pod), created: at}
		c.byUID[pod.UID] = p
		c.pods = append(c.pods, p)
	}
	if pod.Spec.NodeName == "" || !p.bound.IsZero() {
		return
	}
	p.bound = at
	since := max(at.Sub(c.first), 0)
	i := int(since / timelineBucket)
	for len(c.buckets) <= i {
		c.buckets = append(c.buckets, 0)
	}
	c.buckets[i]++
	c.bound++
	c.last = since
}

// items renders every namespace with a pod bound as a data item of the
// workload name.
func (tl *podTimeline) items(name string) []perf.DataItem {
	tl.mu.Lock()
	defer tl.mu.Unlock()
	var out []perf.DataItem
	for _, ns := range tl.order {
		c := tl.namespaces[ns]
		if c.bound == 0 {
			continue
		}
		out = append(out, perf.DataItem{
			Labels: map[string]string{"Name": name + "/" + ns, "Metric": boundPodsMetric},
			Unit:   "pods",
			Data:   c.series(),
		})
	}
	return out
}

// series is the pods bound by each step since the first pod, keyed by
// seconds, ending with the last pod bound.
func (c *boundCount) series() map[string]float64 {
	step := time.Second
	if c.last < timelineFine {
		step = timelineBucket
	}
	per := int(step / timelineBucket)
	out := map[string]float64{}
	bound := 0
	for k := 0; time.Duration(k)*step < c.last; k++ {
		if k > 0 {
			for _, n := range c.buckets[(k-1)*per : k*per] {
				bound += n
			}
		}
		out[seconds(time.Duration(k)*step)] = float64(bound)
	}
	out[seconds(c.last)] = float64(c.bound)
	return out
}

// seconds prints d in seconds, to the millisecond.
func seconds(d time.Duration) string {
	return strconv.FormatFloat(float64(d.Round(time.Millisecond).Milliseconds())/1000, 'f', -1, 64)
}

// gangOf names the gang a pod is a member of in its namespace: its JobSet
// (the label the JobSet controller sets, as the member templates do), or
// the Kubernetes PodGroup it names; "" for a plain pod.
func gangOf(pod *corev1.Pod) string {
	if name := pod.Labels[wellknown.JobSetNameLabel]; name != "" {
		return "JobSet " + name
	}
	if g := pod.Spec.SchedulingGroup; g != nil && g.PodGroupName != nil {
		return "PodGroup " + *g.PodGroupName
	}
	return ""
}
