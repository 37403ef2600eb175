package perf

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/informers"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/kubernetes/pkg/scheduler"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Hotswap: whole-workload preemption at scale.
//
// The cluster is filled with low-priority gangs, then high-priority gangs
// arrive that can only be placed by evicting some of them. The
// scheduler_perf harness can neither tell when a gang is wholly bound nor
// see evictions (its waits count bound pods that still exist), so the
// harness's node hook (perf.WithNodeUpdateFn) follows the run, as for the
// queue drains (drain_test.go):
//
//   - A scheduler_perf workload with the parameter hotswapGangs (the number
//     of high-priority gangs) is followed. At its first createNodes op the
//     hook starts watching the pods labelled perf.multislice.dev/hotswap-gang
//     (for our profile, the scheduler already places JobSets as gangs:
//     jobSetProbes).
//   - The next createNodes op, of no nodes, is the mark: every low-priority
//     gang must be wholly bound by then. The hook notes which gang holds
//     each host and takes the scheduler's counters; the measurement starts.
//   - The one after that, also of no nodes, is the wait: the hook blocks
//     until every high-priority gang is wholly bound, the time limit
//     (hotswapTimeoutSeconds, counted from the mark) passes, or nothing is
//     bound or evicted for hotswapStallSeconds. It never hangs: a variant
//     that cannot place the gangs (kube-scheduler preempts pod by pod) is
//     reported with how many it placed, and the run goes on. Then it
//     records Hotswap* data items (hotswap_results_test.go), written next
//     to the harness's results as Hotswap_benchmark_<topic>_<time>.json.
//
// A gang is the pods of one namespace with the same
// perf.multislice.dev/hotswap-gang label, perf.multislice.dev/hotswap-pods
// of them; perf.multislice.dev/hotswap-role says whether it is a "low" gang
// filling the cluster or a "high" one. A slice is the pods of one
// jobset.sigs.k8s.io/job-key. The templates are hotswap-*.yaml.
//
// Victims. No kubelet runs in scheduler_perf: a bound pod deleted
// gracefully, as both schedulers delete preemption victims, would stay
// Terminating forever and keep its host. Every hotswap pod therefore has
// terminationGracePeriodSeconds: 0, so the apiserver removes it at once, in
// both variants alike (the termination time of real pods is not measured).
// No JobSet controller runs either, so a victim is not restarted: its pods
// stay gone, and the pods a partly evicted gang keeps stay bound. The
// results count such a gang as lost whole all the same, since JobSet's
// failure policy restarts a JobSet whole when any of its pods fails.
const (
	hotswapGangLabel = "perf.multislice.dev/hotswap-gang"
	hotswapPodsLabel = "perf.multislice.dev/hotswap-pods"
	hotswapRoleLabel = "perf.multislice.dev/hotswap-role"
	hotswapParam     = "hotswapGangs"
	// hotswapTimeoutParam bounds the wait, from the mark; hotswapStallParam
	// ends it early when nothing happens. Both in seconds.
	hotswapTimeoutParam = "hotswapTimeoutSeconds"
	hotswapStallParam   = "hotswapStallSeconds"
)

// hotswapPhase is where a followed run is.
type hotswapPhase int

const (
	hotswapFilling   hotswapPhase = iota // low-priority gangs are being placed
	hotswapMeasuring                     // after the mark
	hotswapDone                          // the wait is over
)

// hotswaps follows every hotswap run and keeps what they measured.
type hotswaps struct{ *runs[*hotswap] }

func newHotswaps() hotswaps { return hotswaps{newRuns[*hotswap]("Hotswap")} }

// nodesCreated is the harness's node hook (see above).
func (hs hotswaps) nodesCreated(tCtx ktesting.TContext, sched *scheduler.Scheduler, w *perf.Workload, nodes *corev1.NodeList) error {
	want, ok := intParam(w, hotswapParam)
	if !ok {
		return nil
	}
	h, ok := hs.get(tCtx)
	if !ok {
		h, err := startHotswap(tCtx, sched, w, want, nodes)
		if err != nil {
			return err
		}
		hs.add(tCtx, h, h.stop)
		return nil
	}
	if len(nodes.Items) != len(h.nodePool) {
		return fmt.Errorf("hotswap: only the first createNodes op may create nodes (%d nodes, then %d)", len(h.nodePool), len(nodes.Items))
	}
	switch h.phase() {
	case hotswapFilling:
		return h.mark(tCtx)
	case hotswapMeasuring:
		items, err := h.wait(tCtx)
		// The items are kept even when the run fails: they say how.
		hs.keep(items)
		return err
	default:
		return fmt.Errorf("hotswap: a createNodes op after the wait; the workload template has one mark and one wait")
	}
}

// hotswap follows one run.
type hotswap struct {
	// ours: the scheduler runs our profile (whole-workload preemption);
	// otherwise kube-scheduler's default profile.
	ours           bool
	wantGangs      int
	timeout, stall time.Duration
	// nodePool maps every node to its pool.
	nodePool map[string]string
	cancel   context.CancelFunc
	factory  informers.SharedInformerFactory
	poller   *decisionPoller

	mu    sync.Mutex
	stage hotswapPhase
	gangs map[string]*hsGang
	// holder maps each host to the low gang it held at the mark.
	holder   map[string]string
	markAt   time.Time
	progress time.Time
	start    hotswapReadings
	// Oddities, reported in the results: evicted pods without the
	// DisruptionTarget condition a scheduler sets, high-priority pods
	// deleted (nothing should delete them).
	unmarked, highDeleted int
	err                   error
}

// hsGang is one gang, as seen so far.
type hsGang struct {
	key  string
	high bool
	want int
	// seen is when its first pod was seen; whole when all want pods were
	// first seen bound.
	seen, whole time.Time
	// pods are its pods that exist.
	pods map[types.UID]*hsPod
	// evicted lists the hosts of its pods deleted after the mark.
	evicted []string
}

type hsPod struct {
	name, slice, node string
}

func (g *hsGang) bound() int {
	n := 0
	for _, p := range g.pods {
		if p.node != "" {
			n++
		}
	}
	return n
}

// startHotswap waits, for our profile, until JobSets are placed as gangs,
// and starts watching the hotswap pods.
func startHotswap(tCtx ktesting.TContext, sched *scheduler.Scheduler, w *perf.Workload, want int, nodes *corev1.NodeList) (*hotswap, error) {
	if want <= 0 {
		return nil, fmt.Errorf("%s must be positive, got %d", hotswapParam, want)
	}
	timeout, ok := intParam(w, hotswapTimeoutParam)
	if !ok || timeout <= 0 {
		return nil, fmt.Errorf("%s must be set and positive", hotswapTimeoutParam)
	}
	stall, ok := intParam(w, hotswapStallParam)
	if !ok || stall <= 0 {
		return nil, fmt.Errorf("%s must be set and positive", hotswapStallParam)
	}
	_, ours := sched.Profiles[app.Name]
	ctx, cancel := context.WithCancel(context.Background())
	h := &hotswap{
		ours: ours, wantGangs: want, cancel: cancel,
		timeout: time.Duration(timeout) * time.Second, stall: time.Duration(stall) * time.Second,
		nodePool: map[string]string{}, gangs: map[string]*hsGang{},
	}
	for _, n := range nodes.Items {
		h.nodePool[n.Name] = n.Labels[wellknown.NodePoolLabel]
	}
	var err error
	if h.factory, err = watchPods(tCtx, ctx, hotswapGangLabel, h.observe, h.forget); err != nil {
		cancel()
		return nil, err
	}
	profile := "kube-scheduler's default profile (DefaultPreemption)"
	if ours {
		profile = "our profile (MultislicePreemption)"
	}
	tCtx.Logf("Hotswap: %d nodes, %d high-priority gangs to place through %s; limit %s, stall %s", len(nodes.Items), want, profile, h.timeout, h.stall)
	return h, nil
}

func (h *hotswap) stop() {
	h.cancel()
	h.factory.Shutdown()
	if h.poller != nil {
		h.poller.finish()
	}
}

func (h *hotswap) phase() hotswapPhase {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.stage
}

// observe records a pod's arrival and binding.
func (h *hotswap) observe(obj any) {
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	now := time.Now()
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.gangLocked(pod)
	if g == nil {
		return
	}
	p := g.pods[pod.UID]
	if p == nil {
		p = &hsPod{name: pod.Name, slice: pod.Labels[wellknown.JobKeyLabel]}
		g.pods[pod.UID] = p
		if g.seen.IsZero() {
			g.seen = now
		}
	}
	if pod.Spec.NodeName == "" || p.node != "" {
		return
	}
	p.node = pod.Spec.NodeName
	h.progress = now
	if g.high && g.whole.IsZero() && g.bound() == g.want {
		g.whole = now
	}
}

// gangLocked returns the pod's gang, made on its first pod.
func (h *hotswap) gangLocked(pod *corev1.Pod) *hsGang {
	key := pod.Namespace + "/" + pod.Labels[hotswapGangLabel]
	if g := h.gangs[key]; g != nil {
		return g
	}
	want, err := strconv.Atoi(pod.Labels[hotswapPodsLabel])
	role := pod.Labels[hotswapRoleLabel]
	if err != nil || want <= 0 || (role != "low" && role != "high") {
		h.failLocked(fmt.Errorf("pod %s/%s: labels %s=%q, %s=%q: want a positive pod count and a role low or high",
			pod.Namespace, pod.Name, hotswapPodsLabel, pod.Labels[hotswapPodsLabel], hotswapRoleLabel, role))
		return nil
	}
	g := &hsGang{key: key, high: role == "high", want: want, pods: map[types.UID]*hsPod{}}
	h.gangs[key] = g
	return g
}

// forget records a pod's deletion: after the mark, a low-priority pod
// deleted is a preemption victim.
func (h *hotswap) forget(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	g := h.gangs[pod.Namespace+"/"+pod.Labels[hotswapGangLabel]]
	if g == nil || g.pods[pod.UID] == nil {
		return
	}
	p := g.pods[pod.UID]
	delete(g.pods, pod.UID)
	if h.stage != hotswapMeasuring {
		return
	}
	if g.high {
		h.highDeleted++
		return
	}
	g.evicted = append(g.evicted, p.node)
	h.progress = time.Now()
	if podCondition(pod, corev1.DisruptionTarget) == nil {
		h.unmarked++
	}
}

func (h *hotswap) failLocked(err error) {
	if h.err == nil {
		h.err = err
	}
}

// mark starts the measurement: every low-priority gang must be wholly
// bound. It notes which gang holds each host and takes the counters the
// results start from.
func (h *hotswap) mark(tCtx ktesting.TContext) error {
	r, err := readHotswap()
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.err != nil {
		return h.err
	}
	h.holder = map[string]string{}
	low, pods := 0, 0
	for _, g := range h.gangs {
		if g.high {
			if len(g.pods) > 0 {
				return fmt.Errorf("hotswap: high-priority pods of %s exist before the mark", g.key)
			}
			continue
		}
		if b := g.bound(); b != g.want {
			return fmt.Errorf("hotswap: low-priority gang %s has %d of %d pods bound at the mark", g.key, b, g.want)
		}
		low++
		pods += g.want
		for _, p := range g.pods {
			h.holder[p.node] = g.key
		}
	}
	if low == 0 {
		return fmt.Errorf("hotswap: no low-priority gang exists at the mark")
	}
	h.stage = hotswapMeasuring
	h.markAt = time.Now()
	h.progress = h.markAt
	h.start = r
	h.poller = startDecisionPoller()
	tCtx.Logf("Hotswap: %d low-priority gangs (%d pods) hold %d of %d hosts; measuring", low, pods, len(h.holder), len(h.nodePool))
	return nil
}

// wait blocks until every high-priority gang is wholly bound, or the time
// limit passes, or nothing happened for the stall time, and returns the
// data items. Our profile must place every gang as a gang; the default
// profile is only reported.
func (h *hotswap) wait(tCtx ktesting.TContext) ([]perf.DataItem, error) {
	tCtx.Logf("Hotswap: waiting for %d high-priority gangs to be wholly bound", h.wantGangs)
	deadline := h.markAt.Add(h.timeout)
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
		h.mu.Lock()
		whole, pending, err, progress := 0, 0, h.err, h.progress
		for _, g := range h.gangs {
			if !g.high {
				continue
			}
			if !g.whole.IsZero() {
				whole++
			} else {
				pending += g.want - g.bound()
			}
		}
		h.mu.Unlock()
		now := time.Now()
		switch {
		case err != nil:
			return nil, err
		case whole >= h.wantGangs:
			ended = "done"
		case now.After(deadline):
			ended = fmt.Sprintf("time limit of %s reached", h.timeout)
		case now.Sub(progress) > h.stall:
			ended = fmt.Sprintf("nothing bound or evicted for %s", h.stall)
		}
		if now.Sub(lastLog) >= 10*time.Second {
			tCtx.Logf("Hotswap: %d of %d high-priority gangs wholly bound, %d of their pods pending", whole, h.wantGangs, pending)
			lastLog = now
		}
	}
	end := time.Now()
	decisions := h.poller.finish()
	r, err := readHotswap()
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	h.stage = hotswapDone
	res := h.resultLocked(end, r, decisions)
	res.timedOut = ended != "done"
	tCtx.Logf("Hotswap: %s; %s", ended, res.summary())
	items := res.items(tCtx)
	if h.ours {
		if err := res.check(h.wantGangs); err != nil {
			return items, fmt.Errorf("our profile: %w", err)
		}
	}
	return items, nil
}
