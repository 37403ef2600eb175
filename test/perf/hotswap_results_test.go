package perf

import (
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
)

// What a hotswap run measured, and how.
//
// Counted per run, from the pods seen (hotswap_test.go):
//
//   - A high-priority gang is wholly bound once all its pods were bound; its
//     bind time runs from its first pod seen (created) to then. It is placed
//     as a gang if, at the end, each of its slices is on one pool that holds
//     nothing else — what exclusive placement promises.
//   - A victim is a low-priority gang that lost any pod after the mark (only
//     preemption deletes pods then). It is partly evicted if some of its
//     pods are still bound at the end.
//   - Pods lost: every pod of every victim, evicted or not — JobSet restarts
//     a gang whole when any pod of it fails, so a partly evicted gang loses
//     its survivors' work too.
//   - Pods needed: hosts a victim held at the mark that a high-priority pod
//     holds at the end — what the preemptors took. Pods lost beyond need =
//     lost − needed: pods killed that gave the preemptors nothing, either
//     evicted from a host no preemptor took or left to be restarted with
//     their partly evicted gang. Whole-workload preemption that frees
//     exactly what it places scores 0.
//
// From the scheduler's metrics (legacyregistry, differences across the
// measurement):
//
//   - Our profile: multislice_workload_preemptions_total{result} and
//     multislice_preemption_victims_total (victims are workloads); and
//     multislice_reservation_releases_total{reason}, why gangs had to plan
//     again after a reservation.
//   - kube-scheduler's DefaultPreemption: scheduler_preemption_victims, one
//     sample per preemption, of its victim pods (one host, one pod here).
//   - The decision time of every whole-workload preemption, from
//     multislice_preemption_decision_seconds: its buckets are too coarse
//     for a p99 against 100 ms (64 ms, then 128 ms), so decisionPoller reads
//     the histogram's count and sum every 2 ms: decisions are made one at a
//     time in the scheduling loop, so each new observation's duration is
//     the sum's increase (decisions that fall in the same 2 ms get their
//     mean).

// hotswapReadings are the scheduler's preemption counters at one time.
type hotswapReadings struct {
	// workload: multislice_workload_preemptions_total by result.
	workload       map[string]float64
	workloadVictim float64
	// Pod-by-pod preemption: decisions that chose victims, and the victims.
	podPreemptions, podVictims float64
	// released: multislice_reservation_releases_total by reason, which
	// tells why a gang had to plan (and maybe preempt) again.
	released map[string]float64
}

func readHotswap() (hotswapReadings, error) {
	r := hotswapReadings{workload: map[string]float64{}, released: map[string]float64{}}
	err := eachMetric(func(name string, m *dto.Metric) {
		switch name {
		case "multislice_workload_preemptions_total":
			r.workload[label(m, "result")] += m.GetCounter().GetValue()
		case "multislice_preemption_victims_total":
			r.workloadVictim += m.GetCounter().GetValue()
		case "multislice_reservation_releases_total":
			r.released[label(m, "reason")] += m.GetCounter().GetValue()
		case "scheduler_preemption_victims":
			r.podPreemptions += float64(m.GetHistogram().GetSampleCount())
			r.podVictims += m.GetHistogram().GetSampleSum()
		}
	})
	return r, err
}

// decisionPoller recovers each whole-workload preemption decision's
// duration from multislice_preemption_decision_seconds (see above).
type decisionPoller struct {
	stopOnce sync.Once
	stopCh   chan struct{}
	done     chan struct{}
	samples  []float64 // seconds
}

func startDecisionPoller() *decisionPoller {
	p := &decisionPoller{stopCh: make(chan struct{}), done: make(chan struct{})}
	count, sum, ok := readDecisions()
	if !ok {
		close(p.done)
		return p
	}
	go func() {
		defer close(p.done)
		ticker := time.NewTicker(2 * time.Millisecond)
		defer ticker.Stop()
		step := func() {
			c, s, _ := readDecisions()
			if c > count {
				mean := (s - sum) / float64(c-count)
				for range c - count {
					p.samples = append(p.samples, mean)
				}
			}
			count, sum = c, s
		}
		for {
			select {
			case <-p.stopCh:
				step()
				return
			case <-ticker.C:
				step()
			}
		}
	}()
	return p
}

// finish stops polling and returns the decisions' durations (seconds).
func (p *decisionPoller) finish() []float64 {
	p.stopOnce.Do(func() { close(p.stopCh) })
	<-p.done
	return p.samples
}

// readDecisions reads the decision histogram directly, which costs far
// less than gathering the registry; false if it is not registered.
func readDecisions() (count uint64, sum float64, ok bool) {
	m, ok := metrics.PreemptionDuration.ObserverMetric.(prometheus.Metric)
	if !ok {
		return 0, 0, false
	}
	var out dto.Metric
	if err := m.Write(&out); err != nil || out.GetHistogram() == nil {
		return 0, 0, false
	}
	return out.GetHistogram().GetSampleCount(), out.GetHistogram().GetSampleSum(), true
}

// hotswapCounts is what the pods seen say (see above).
type hotswapCounts struct {
	// lowGangs are the candidate victims: the low gangs holding hosts at
	// the mark, lowPods their pods.
	lowGangs, lowPods                      int
	highGangs, highBound, highPlaced       int
	highPods, highPodsBound                int
	victims, partial                       int
	evicted, lost, needed, evictedNotTaken int
	bindSeconds                            []float64
	lastBound                              time.Time
}

// account counts a run's gangs at its end. holder maps each host to the
// low gang that held it at the mark; nodePool maps hosts to pools.
func account(gangs map[string]*hsGang, holder, nodePool map[string]string) hotswapCounts {
	var c hotswapCounts
	// occupants: per pool, the slices ("gang/job-key") of the pods bound
	// there; highOn: the hosts that high-priority pods hold.
	occupants := map[string]map[string]bool{}
	highOn := map[string]bool{}
	for _, g := range gangs {
		for _, p := range g.pods {
			if p.node == "" {
				continue
			}
			pool := nodePool[p.node]
			if occupants[pool] == nil {
				occupants[pool] = map[string]bool{}
			}
			occupants[pool][g.key+"/"+p.slice] = true
			if g.high {
				highOn[p.node] = true
			}
		}
	}
	victims := map[string]bool{}
	for _, g := range gangs {
		if !g.high {
			if len(g.evicted) > 0 {
				victims[g.key] = true
				c.victims++
				c.evicted += len(g.evicted)
				c.lost += g.want
				if g.bound() > 0 {
					c.partial++
				}
				for _, n := range g.evicted {
					if !highOn[n] {
						c.evictedNotTaken++
					}
				}
			}
			continue
		}
		c.highGangs++
		c.highPods += g.want
		c.highPodsBound += g.bound()
		if g.whole.IsZero() {
			continue
		}
		c.highBound++
		c.bindSeconds = append(c.bindSeconds, g.whole.Sub(g.seen).Seconds())
		if g.whole.After(c.lastBound) {
			c.lastBound = g.whole
		}
		if placedAsGang(g, nodePool, occupants) {
			c.highPlaced++
		}
	}
	// The candidates: the low gangs that held hosts at the mark.
	held := map[string]bool{}
	for node, key := range holder {
		held[key] = true
		if victims[key] && highOn[node] {
			c.needed++
		}
	}
	c.lowGangs, c.lowPods = len(held), len(holder)
	return c
}

// placedAsGang: every pod bound, each slice on one pool, and that pool
// holding no other slice.
func placedAsGang(g *hsGang, nodePool map[string]string, occupants map[string]map[string]bool) bool {
	if g.bound() != g.want {
		return false
	}
	pools := map[string]string{} // slice → pool
	for _, p := range g.pods {
		pool := nodePool[p.node]
		if got, ok := pools[p.slice]; ok && got != pool {
			return false
		}
		pools[p.slice] = pool
	}
	for _, pool := range pools {
		if len(occupants[pool]) != 1 {
			return false
		}
	}
	return true
}

// hotswapResult is what a run measured.
type hotswapResult struct {
	hotswapCounts
	measured        time.Duration // from the mark to the last gang bound, or the end
	timedOut        bool
	decisions       []float64
	workload        map[string]float64
	released        map[string]float64
	workloadVictims float64
	podPreemptions  float64
	podVictims      float64
	unmarked        int
	highDeleted     int
}

func (h *hotswap) resultLocked(end time.Time, r hotswapReadings, decisions []float64) hotswapResult {
	res := hotswapResult{
		hotswapCounts:   account(h.gangs, h.holder, h.nodePool),
		decisions:       decisions,
		workload:        map[string]float64{},
		released:        map[string]float64{},
		workloadVictims: r.workloadVictim - h.start.workloadVictim,
		podPreemptions:  r.podPreemptions - h.start.podPreemptions,
		podVictims:      r.podVictims - h.start.podVictims,
		unmarked:        h.unmarked,
		highDeleted:     h.highDeleted,
	}
	for result, v := range r.workload {
		res.workload[result] = v - h.start.workload[result]
	}
	for reason, v := range r.released {
		if d := v - h.start.released[reason]; d > 0 {
			res.released[reason] = d
		}
	}
	res.measured = end.Sub(h.markAt)
	if res.highBound == res.highGangs && !res.lastBound.IsZero() {
		res.measured = res.lastBound.Sub(h.markAt)
	}
	return res
}

func (r hotswapResult) preemptions() float64 { return r.workload["preempted"] + r.podPreemptions }

func (r hotswapResult) summary() string {
	s := fmt.Sprintf("%d of %d high-priority gangs wholly bound (%d placed as gangs), %.0f preemptions, %d victim workloads (%d partly evicted), %d pods evicted, %d lost beyond need",
		r.highBound, r.highGangs, r.highPlaced, r.preemptions(), r.victims, r.partial, r.evicted, r.lost-r.needed)
	if len(r.decisions) > 0 {
		s += fmt.Sprintf("; decision p99 %.1f ms over %d decisions with %d candidate workloads", 1000*quantile(r.decisions, 0.99), len(r.decisions), r.lowGangs)
	}
	if r.unmarked > 0 || r.highDeleted > 0 {
		s += fmt.Sprintf("; %d victims lacked DisruptionTarget, %d high-priority pods were deleted", r.unmarked, r.highDeleted)
	}
	return s
}

// check holds our profile to what whole-workload preemption promises.
func (r hotswapResult) check(want int) error {
	switch {
	case r.highGangs != want:
		return fmt.Errorf("%d high-priority gangs seen, want %d", r.highGangs, want)
	case r.highPlaced != want:
		return fmt.Errorf("%d of %d high-priority gangs placed as gangs (%d wholly bound)", r.highPlaced, want, r.highBound)
	case r.partial > 0:
		return fmt.Errorf("%d victims were evicted only in part", r.partial)
	case r.unmarked > 0:
		return fmt.Errorf("%d victims were deleted without a DisruptionTarget condition", r.unmarked)
	case r.highDeleted > 0:
		return fmt.Errorf("%d high-priority pods were deleted", r.highDeleted)
	}
	return nil
}

// items renders the results as data items named like the harness's
// (BenchmarkPerfScheduling/<test case>/<workload>/hotswap), and reports
// the headline figures as benchmark metrics.
func (r hotswapResult) items(tCtx ktesting.TContext) []perf.DataItem {
	item := itemMaker(tCtx, "hotswap")
	items := []perf.DataItem{
		item("HotswapCounts", "count", map[string]float64{
			"LowWorkloads":                float64(r.lowGangs),
			"LowPods":                     float64(r.lowPods),
			"HighGangs":                   float64(r.highGangs),
			"HighGangsBound":              float64(r.highBound),
			"HighGangsPlaced":             float64(r.highPlaced),
			"HighPods":                    float64(r.highPods),
			"HighPodsBound":               float64(r.highPodsBound),
			"WorkloadPreemptions":         r.workload["preempted"],
			"WorkloadPreemptionsNoVictim": r.workload["no_victims"],
			"WorkloadPreemptionsWaiting":  r.workload["waiting"],
			"WorkloadVictims":             r.workloadVictims,
			"PodPreemptions":              r.podPreemptions,
			"PodPreemptionVictims":        r.podVictims,
			"VictimWorkloads":             float64(r.victims),
			"VictimWorkloadsPartial":      float64(r.partial),
			"PodsEvicted":                 float64(r.evicted),
			"PodsEvictedNotTaken":         float64(r.evictedNotTaken),
			"PodsLost":                    float64(r.lost),
			"PodsNeeded":                  float64(r.needed),
			"PodsLostBeyondNeed":          float64(r.lost - r.needed),
			"EvictedWithoutDisruption":    float64(r.unmarked),
			"HighPodsDeleted":             float64(r.highDeleted),
			"TimedOut":                    oneIf(r.timedOut),
		}),
		item("HotswapDuration", "s", map[string]float64{"Measured": r.measured.Seconds()}),
	}
	if len(r.released) > 0 {
		items = append(items, item("HotswapReservationReleases", "count", r.released))
	}
	if n := len(r.bindSeconds); n > 0 {
		items = append(items, item("HotswapBindTime", "s", map[string]float64{
			"Count": float64(n), "Perc50": quantile(r.bindSeconds, 0.5), "Perc90": quantile(r.bindSeconds, 0.9),
			"Max": quantile(r.bindSeconds, 1), "Average": mean(r.bindSeconds),
		}))
	}
	if n := len(r.decisions); n > 0 {
		ms := make([]float64, n)
		for i, d := range r.decisions {
			ms[i] = 1000 * d
		}
		items = append(items, item("HotswapDecisionTime", "ms", map[string]float64{
			"Count": float64(n), "Perc50": quantile(ms, 0.5), "Perc90": quantile(ms, 0.9), "Perc99": quantile(ms, 0.99),
			"Max": quantile(ms, 1), "Average": mean(ms),
		}))
	}
	if b, ok := tCtx.TB().(*testing.B); ok {
		b.ReportMetric(float64(r.highBound), "gangs_bound")
		if len(r.bindSeconds) > 0 {
			b.ReportMetric(quantile(r.bindSeconds, 0.9), "gang_bind_p90_s")
		}
		if len(r.decisions) > 0 {
			b.ReportMetric(1000*quantile(r.decisions, 0.99), "decision_p99_ms")
		}
		b.ReportMetric(float64(r.lost-r.needed), "pods_lost_beyond_need")
	}
	return items
}

// quantile is the nearest-rank q-quantile of xs (q = 1: the maximum).
func quantile(xs []float64, q float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := slices.Sorted(slices.Values(xs))
	i := int(math.Ceil(q*float64(len(s)))) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func mean(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	sum := 0.0
	for _, x := range xs {
		sum += x
	}
	return sum / float64(len(xs))
}

// writeDataItems stores items in -data-items-dir (the harness's flag) as
// <prefix>_benchmark_<topic>_<time>.json, in the harness's format; nothing
// when there are none.
func writeDataItems(prefix, topic string, items []perf.DataItem) error {
	if len(items) == 0 {
		return nil
	}
	data, err := json.MarshalIndent(perf.DataItems{Version: "v1", DataItems: items}, "", "  ")
	if err != nil {
		return err
	}
	dir := ""
	if f := flag.Lookup("data-items-dir"); f != nil {
		dir = f.Value.String()
	}
	if dir != "" {
		if err := os.MkdirAll(dir, 0o750); err != nil {
			return err
		}
	}
	name := fmt.Sprintf("%s_benchmark_%s_%s.json", prefix, topic, time.Now().UTC().Format("2006-01-02T15:04:05Z"))
	return os.WriteFile(filepath.Join(dir, name), data, 0o644)
}
