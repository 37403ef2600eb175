package perf

import (
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/rest"
	"k8s.io/kubernetes/pkg/scheduler"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
)

// runs follows the runs of one kind of measured scenario (drains,
// hotswaps, provisionings), by apiserver: each scheduler_perf workload
// has its own, and the node hook is called with only its context. It keeps
// the data items the runs measured, for write.
type runs[R any] struct {
	// prefix names the results' file: <prefix>_benchmark_<topic>_<time>.json.
	prefix string
	mu     sync.Mutex
	byHost map[string]R
	items  []perf.DataItem
}

func newRuns[R any](prefix string) *runs[R] {
	return &runs[R]{prefix: prefix, byHost: map[string]R{}}
}

// get returns the run on tCtx's apiserver; false when none started yet.
func (rs *runs[R]) get(tCtx ktesting.TContext) (R, bool) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r, ok := rs.byHost[tCtx.RESTConfig().Host]
	return r, ok
}

// add makes r the run of tCtx's apiserver until the workload ends, when
// stop is called.
func (rs *runs[R]) add(tCtx ktesting.TContext, r R, stop func()) {
	host := tCtx.RESTConfig().Host
	rs.mu.Lock()
	rs.byHost[host] = r
	rs.mu.Unlock()
	tCtx.Cleanup(func() {
		stop()
		rs.mu.Lock()
		delete(rs.byHost, host)
		rs.mu.Unlock()
	})
}

// keep adds data items a run measured.
func (rs *runs[R]) keep(items []perf.DataItem) {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	rs.items = append(rs.items, items...)
}

// write stores the data items in -data-items-dir (the harness's flag), in
// the harness's format; nothing when no run of the kind ran.
func (rs *runs[R]) write(topic string) error {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return writeDataItems(rs.prefix, topic, rs.items)
}

// jsonConfig is tCtx's client configuration for custom resources, which
// speak JSON only.
func jsonConfig(tCtx ktesting.TContext) *rest.Config {
	cfg := rest.CopyConfig(tCtx.RESTConfig())
	cfg.ContentType = runtime.ContentTypeJSON
	cfg.AcceptContentTypes = runtime.ContentTypeJSON
	return cfg
}

// itemMaker returns the constructor of one run's data items, named like
// the harness's: BenchmarkPerfScheduling/<test case>/<workload>/<kind>.
func itemMaker(tCtx ktesting.TContext, kind string) func(metric, unit string, data map[string]float64) perf.DataItem {
	name := tCtx.Name() + "/" + kind
	return func(metric, unit string, data map[string]float64) perf.DataItem {
		return perf.DataItem{Labels: map[string]string{"Name": name, "Metric": metric}, Unit: unit, Data: data}
	}
}

// withAttempts adds the scheduling attempts by result to counts, as
// Attempts (their total) and Attempts<Result>, and returns counts.
func withAttempts(counts, attempts map[string]float64) map[string]float64 {
	total := 0.0
	for _, v := range attempts {
		total += v
	}
	counts["Attempts"] = total
	counts["AttemptsScheduled"] = attempts["scheduled"]
	counts["AttemptsUnschedulable"] = attempts["unschedulable"]
	counts["AttemptsError"] = attempts["error"]
	return counts
}

// oneIf is 1 for true, 0 for false: a flag among a data item's figures.
func oneIf(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// jobSetProbes makes every workload our profile schedules wait, at its
// first createNodes op (before it creates any pod), until the scheduler
// places JobSets as gangs (probeJobSetAPI). The harness starts the
// scheduler before installing the CRDs, and until the scheduler's
// discovery finds the JobSet API, JobSet pods are scheduled as plain pods:
// the run would measure something else, or a gang whose pods were partly
// bound as plain pods would be reported GangBlocked and never complete.
type jobSetProbes struct{ *runs[struct{}] }

func newJobSetProbes() jobSetProbes { return jobSetProbes{newRuns[struct{}]("")} }

func (ps jobSetProbes) nodesCreated(tCtx ktesting.TContext, sched *scheduler.Scheduler) error {
	if _, ours := sched.Profiles[app.Name]; !ours {
		return nil
	}
	if _, probed := ps.get(tCtx); probed {
		return nil
	}
	jobsets, err := jobsetclient.NewForConfig(jsonConfig(tCtx))
	if err != nil {
		return err
	}
	if err := probeJobSetAPI(tCtx, jobsets); err != nil {
		return err
	}
	ps.add(tCtx, struct{}{}, func() {})
	return nil
}
