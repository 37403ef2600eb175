package chaos

import (
	"context"
	"fmt"
	"io"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"
	schedinformers "sigs.k8s.io/scheduler-plugins/pkg/generated/informers/externalversions"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
)

// checkPeriod is how often the invariants are evaluated when nothing
// happens: the time-bound ones (partial gangs, pending pods) expire
// without an event.
const checkPeriod = time.Second

// Monitor feeds a World from informers and evaluates the invariants on
// every change it delivers and every checkPeriod, recording violations. It
// reads only the API.
type Monitor struct {
	mu       sync.Mutex
	world    *World
	checker  *Checker
	recorder *Recorder
	checks   int
	now      func() time.Time
	// trace receives what the informers showed, one line a change: the
	// story a violation is judged against.
	trace io.Writer
}

// StartMonitor starts the informers (nodes, and the namespace's pods,
// Jobs, events, JobSets, PodGroups, queue objects and Workloads), waits
// until they have synced and evaluates from then on, until ctx ends.
// Violations go to out as they are found, with their evidence; every
// change the informers deliver goes to trace.
func StartMonitor(ctx context.Context, cfg *rest.Config, namespace, schedulerName string, checks Config, out, trace io.Writer) (*Monitor, error) {
	m := &Monitor{world: NewWorld(schedulerName), checker: NewChecker(checks), recorder: NewRecorder(out), now: time.Now, trace: trace}
	m.recorder.evidence = m.world.Evidence
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	js, err := jobsetclient.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	// Custom resources speak JSON only.
	jsonCfg := rest.CopyConfig(cfg)
	jsonCfg.ContentType = runtime.ContentTypeJSON
	jsonCfg.AcceptContentTypes = runtime.ContentTypeJSON
	pgs, err := schedclient.NewForConfig(jsonCfg)
	if err != nil {
		return nil, err
	}
	queues, err := multisliceclient.NewForConfig(jsonCfg)
	if err != nil {
		return nil, err
	}
	cluster := informers.NewSharedInformerFactory(kube, 0)
	ns := informers.NewSharedInformerFactoryWithOptions(kube, 0, informers.WithNamespace(namespace))
	jsf := jobsetinformers.NewSharedInformerFactoryWithOptions(js, 0, jobsetinformers.WithNamespace(namespace))
	pgf := schedinformers.NewSharedInformerFactoryWithOptions(pgs, 0, schedinformers.WithNamespace(namespace))
	qf := multisliceinformers.NewSharedInformerFactory(queues, 0)

	w := m.world
	// Each informer's objects: how they change the world (old is nil for
	// an added object) and what of the change goes to the trace.
	watch := []struct {
		informer cache.SharedIndexInformer
		set      func(old, obj any, now time.Time)
		del      func(obj any, now time.Time)
	}{
		{cluster.Core().V1().Nodes().Informer(),
			func(old, o any, _ time.Time) {
				n := o.(*corev1.Node)
				w.Nodes[n.Name] = n
				if old != nil {
					m.traceNode(old.(*corev1.Node), n)
				}
			},
			func(o any, _ time.Time) { delete(w.Nodes, o.(*corev1.Node).Name) }},
		{ns.Core().V1().Pods().Informer(),
			func(old, o any, now time.Time) {
				p := o.(*corev1.Pod)
				w.SetPod(p, now)
				if p.Spec.SchedulerName == schedulerName {
					m.tracePod(asPod(old), p)
				}
			},
			func(o any, now time.Time) {
				p := o.(*corev1.Pod)
				if _, ok := w.Pods[p.UID]; ok {
					m.tracef("pod %s deleted", p.Name)
				}
				w.DeletePod(p, now)
			}},
		{ns.Batch().V1().Jobs().Informer(),
			func(_, o any, _ time.Time) { w.SetJob(o.(*batchv1.Job)) },
			func(o any, _ time.Time) { delete(w.Jobs, o.(*batchv1.Job).UID) }},
		{ns.Core().V1().Events().Informer(),
			func(_, o any, _ time.Time) {
				e := o.(*corev1.Event)
				before, seen := w.Events[e.InvolvedObject.UID][e.UID]
				w.AddEvent(e)
				after, ok := w.Events[e.InvolvedObject.UID][e.UID]
				switch {
				case !ok:
				case !seen:
					m.tracef("event on %s %s: %s: %s", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, e.Message)
				case after.Count != before.Count:
					m.tracef("event on %s %s: %s again (×%d; the message is the first one's): %s", e.InvolvedObject.Kind, e.InvolvedObject.Name, e.Reason, after.Count, e.Message)
				}
			},
			func(any, time.Time) {}},
		{jsf.Jobset().V1alpha2().JobSets().Informer(),
			func(old, o any, _ time.Time) {
				js := o.(*jobsetv1alpha2.JobSet)
				w.SetJobSet(js)
				if old, ok := old.(*jobsetv1alpha2.JobSet); ok {
					if old.Status.Restarts != js.Status.Restarts {
						m.tracef("JobSet %s restarts: attempt %d", js.Name, js.Status.Restarts)
					}
					if old.Status.TerminalState != js.Status.TerminalState {
						m.tracef("JobSet %s %s", js.Name, js.Status.TerminalState)
					}
				}
			},
			func(o any, _ time.Time) { delete(w.JobSets, o.(*jobsetv1alpha2.JobSet).UID) }},
		{pgf.Scheduling().V1alpha1().PodGroups().Informer(),
			func(_, o any, _ time.Time) { w.SetPodGroup(o.(*schedv1alpha1.PodGroup)) },
			func(o any, _ time.Time) {
				pg := o.(*schedv1alpha1.PodGroup)
				delete(w.PodGroups, pg.Namespace+"/"+pg.Name)
			}},
		{qf.Multislice().V1alpha1().ResourceFlavors().Informer(),
			func(_, o any, _ time.Time) { f := o.(*multislicev1alpha1.ResourceFlavor); w.Flavors[f.Name] = f },
			func(o any, _ time.Time) { delete(w.Flavors, o.(*multislicev1alpha1.ResourceFlavor).Name) }},
		{qf.Multislice().V1alpha1().ClusterQueues().Informer(),
			func(_, o any, _ time.Time) { cq := o.(*multislicev1alpha1.ClusterQueue); w.ClusterQueues[cq.Name] = cq },
			func(o any, _ time.Time) { delete(w.ClusterQueues, o.(*multislicev1alpha1.ClusterQueue).Name) }},
		{qf.Multislice().V1alpha1().LocalQueues().Informer(),
			func(_, o any, _ time.Time) {
				lq := o.(*multislicev1alpha1.LocalQueue)
				w.LocalQueues[lq.Namespace+"/"+lq.Name] = lq
			},
			func(o any, _ time.Time) {
				lq := o.(*multislicev1alpha1.LocalQueue)
				delete(w.LocalQueues, lq.Namespace+"/"+lq.Name)
			}},
		{qf.Multislice().V1alpha1().Workloads().Informer(),
			func(old, o any, _ time.Time) {
				wl := o.(*multislicev1alpha1.Workload)
				w.Workloads[wl.Namespace+"/"+wl.Name] = wl
				m.traceWorkload(asWorkload(old), wl)
			},
			func(o any, _ time.Time) {
				wl := o.(*multislicev1alpha1.Workload)
				delete(w.Workloads, wl.Namespace+"/"+wl.Name)
			}},
	}
	for _, wt := range watch {
		set, del := wt.set, wt.del
		_, err := wt.informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { m.apply(func(now time.Time) { set(nil, obj, now) }) },
			UpdateFunc: func(old, obj any) { m.apply(func(now time.Time) { set(old, obj, now) }) },
			DeleteFunc: func(obj any) {
				if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
					obj = d.Obj
				}
				m.apply(func(now time.Time) { del(obj, now) })
			},
		})
		if err != nil {
			return nil, err
		}
		go wt.informer.Run(ctx.Done())
	}
	for _, wt := range watch {
		if !cache.WaitForCacheSync(ctx.Done(), wt.informer.HasSynced) {
			return nil, fmt.Errorf("informers did not sync")
		}
	}
	go func() {
		t := time.NewTicker(checkPeriod)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				m.apply(nil)
			}
		}
	}()
	return m, nil
}

// apply changes the world (change may be nil) and evaluates every
// invariant on the result, under one lock: the informers deliver their
// changes one at a time, each evaluated on the state it leads to.
func (m *Monitor) apply(change func(now time.Time)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	if change != nil {
		change(now)
	}
	m.checks++
	m.recorder.Observe(m.checker.Check(m.world, now), now)
}

// Finish evaluates once more and returns every violation recorded, the
// workloads that ran whole and the number of evaluations.
func (m *Monitor) Finish() (records []Record, whole, checks int) {
	m.apply(nil)
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.recorder.Records(), m.checker.Whole(), m.checks
}

// tracef writes one line to the trace, stamped with the time it was seen.
// Called under m.mu.
func (m *Monitor) tracef(format string, args ...any) {
	if m.trace != nil {
		fmt.Fprintf(m.trace, "%s %s\n", m.now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
	}
}

func asPod(o any) *corev1.Pod {
	p, _ := o.(*corev1.Pod)
	return p
}

func asWorkload(o any) *multislicev1alpha1.Workload {
	wl, _ := o.(*multislicev1alpha1.Workload)
	return wl
}

// tracePod writes what changed of a pod: created, bound, finished, being
// deleted, or newly reported unschedulable.
func (m *Monitor) tracePod(old, p *corev1.Pod) {
	m2 := MemberOf(p)
	switch {
	case old == nil:
		m.tracef("pod %s of %s created%s", p.Name, m2.GangKey(), boundSuffix(m.world, p))
		return
	case !Bound(old) && Bound(p):
		m.tracef("pod %s bound%s", p.Name, boundSuffix(m.world, p))
	}
	if old.Status.Phase != p.Status.Phase && (p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed) {
		m.tracef("pod %s %s", p.Name, p.Status.Phase)
	}
	if old.DeletionTimestamp == nil && p.DeletionTimestamp != nil {
		m.tracef("pod %s being deleted", p.Name)
	}
	if c := podScheduled(p); c != nil && c.Status == corev1.ConditionFalse {
		if oc := podScheduled(old); oc == nil || oc.Message != c.Message {
			m.tracef("pod %s PodScheduled=False %s: %s", p.Name, c.Reason, c.Message)
		}
	}
}

func boundSuffix(w *World, p *corev1.Pod) string {
	if !Bound(p) {
		return ""
	}
	return fmt.Sprintf(" on %s (pool %s)", p.Spec.NodeName, poolOf(w, p))
}

// traceNode writes a node's readiness changes.
func (m *Monitor) traceNode(old, n *corev1.Node) {
	if ready(old) != ready(n) {
		m.tracef("node %s Ready=%v", n.Name, ready(n))
	}
}

func ready(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}

// traceWorkload writes a Workload object's condition changes.
func (m *Monitor) traceWorkload(old, wl *multislicev1alpha1.Workload) {
	for _, c := range wl.Status.Conditions {
		var was *metav1.Condition
		if old != nil {
			was = apimeta.FindStatusCondition(old.Status.Conditions, c.Type)
		}
		if was == nil || was.Status != c.Status || was.Reason != c.Reason || was.Message != c.Message {
			m.tracef("Workload %s: %s=%s %s: %s", wl.Name, c.Type, c.Status, c.Reason, c.Message)
		}
	}
}
