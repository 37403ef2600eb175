package e2e

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// metricCheck is what a documented metric must show after the scenario:
// ok gets the family (nil: not exported) and says what is wrong ("": fine).
type metricCheck struct {
	ok func(f *dto.MetricFamily) string
}

// The documented metrics (docs/reference/metrics.md, generated from their
// registration, so every metric the scheduler registers), read the way the
// banner of make run says (a client certificate of the cluster's admin on
// the scheduler's secure port, authenticated and authorized through the
// apiserver), after seed 002's queue scenario: a 3-slice JobSet admitted
// and running, a 1- and a 2-slice one waiting for quota. Every documented
// metric is checked here, or named as one this scenario cannot move.
//
// The scheduler serves the whole suite, whose other tests preempt and plan
// too: counters and histogram counts are read before the scenario, and
// what is checked of them is what the scenario moved.
func TestDocumentedMetricsAfterAQueuedScenario(t *testing.T) {
	eps := cluster.MetricsEndpoints()
	if len(eps) == 0 {
		t.Fatal("the cluster reports no scheduler metrics endpoint")
	}
	ep := eps[0]
	before, err := fetchFamilies(t.Context(), ep.Fetch)
	if err != nil {
		t.Fatalf("reading %s before the scenario: %v", ep.URL, err)
	}
	setNodePools(t, "queueing-v5e/nodepools.yaml")
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	ns := metav1.NamespaceDefault
	waitLocalQueueActive(t, ns, seedLocalQueue)
	three := exampleJobSet(t, "queueing-v5e/queued-3slice.yaml", ns)
	runUntilDeleted(three)
	three = createJobSet(t, three)
	waitRunning(t, three, 6, 120*time.Second)
	one := exampleJobSet(t, "queueing-v5e/queued-1slice.yaml", ns)
	runUntilDeleted(one)
	createJobSet(t, one)
	waitWorkload(t, ns, "jobset-queued-1slice", "waiting for quota", 30*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded"))

	cq := map[string]string{"cluster_queue": seedClusterQueue}
	usage := map[string]string{"cluster_queue": seedClusterQueue, "flavor": seedFlavor, "resource": "google.com/tpu"}
	checks := map[string]metricCheck{
		"multislice_gang_wait_seconds":          {atLeastCount(nil, 1)},
		"multislice_planning_duration_seconds":  {atLeastCount(nil, 1)},
		"multislice_active_reservations":        {valueIs(nil, func(v float64) bool { return v >= 0 }, ">= 0")},
		"multislice_pending_workloads":          {valueIs(cq, func(v float64) bool { return v >= 1 }, ">= 1 (the 1-slice JobSet)")},
		"multislice_admitted_workloads":         {valueIs(cq, func(v float64) bool { return v >= 1 }, ">= 1 (the 3-slice JobSet)")},
		"multislice_quota_usage":                {valueIs(usage, func(v float64) bool { return v == 24 }, "24 chips")},
		"multislice_quota_borrowed":             {valueIs(usage, func(v float64) bool { return v == 0 }, "0 (no cohort)")},
		"multislice_quota_nominal":              {valueIs(usage, func(v float64) bool { return v == 24 }, "24 chips (seed 002's quota)")},
		"multislice_admission_wait_seconds":     {atLeastCount(cq, 1)},
		"multislice_admissions_total":           {valueIs(cq, func(v float64) bool { return v >= 1 }, ">= 1")},
		"multislice_queue_rejections_total":     {valueIs(map[string]string{"reason": "QuotaExceeded"}, func(v float64) bool { return v >= 1 }, ">= 1")},
		"multislice_quota_reconciles_total":     {valueIs(nil, func(v float64) bool { return v >= 1 }, ">= 1 (every quotaReconcileSeconds)")},
		"multislice_quota_drift_total":          {allZeroOrAbsent},
		"multislice_pending_evictions":          {valueIs(nil, func(v float64) bool { return v == 0 }, "0")},
		"multislice_gangs_waiting":              {notMoved("no gang's plan failed: the waiting ones wait for quota, before planning")},
		"multislice_reservation_releases_total": {notMoved("no reservation ended before its workload was placed")},
		// Every JobSet of the scenario has one priority: none may evict
		// another, whatever a decision finds.
		"multislice_workload_preemptions_total":  {zeroOrAbsent(map[string]string{"result": "preempted"}, "no workload may preempt one of its own priority")},
		"multislice_preemption_victims_total":    {zeroOrAbsent(nil, "no workload may preempt one of its own priority")},
		"multislice_preemption_decision_seconds": {notMoved("the waiting JobSets wait for quota, before any cycle that could preempt")},
	}
	documented := documentedMetrics(t)
	for _, name := range documented {
		if _, ok := checks[name]; !ok {
			t.Errorf("docs/reference/metrics.md documents %s and this test does not check it", name)
		}
	}
	t.Logf("reading %s (%s)", ep.URL, ep.Command())
	// The reconcile runs every quotaReconcileSeconds (30 s): poll past it.
	last := map[string]string{"fetch": "never read"}
	err = wait.PollUntilContextTimeout(t.Context(), time.Second, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		families, err := fetchFamilies(ctx, ep.Fetch)
		if err != nil {
			if ctx.Err() == nil {
				last = map[string]string{"fetch": err.Error()}
			}
			return false, nil
		}
		since(families, before)
		last = map[string]string{}
		for _, name := range documented {
			if why := checks[name].ok(families[name]); why != "" {
				last[name] = why
			}
		}
		return len(last) == 0, nil
	})
	if err != nil {
		for name, why := range last {
			t.Errorf("%s: %s", name, why)
		}
	}
}

// fetchFamilies reads the metrics text fetch returns and parses it.
func fetchFamilies(ctx context.Context, fetch func(context.Context) (string, error)) (map[string]*dto.MetricFamily, error) {
	text, err := fetch(ctx)
	if err != nil {
		return nil, err
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	return parser.TextToMetricFamilies(strings.NewReader(text))
}

// since takes from every counter series and histogram count of now its
// value in before, leaving what moved in between. A series below its
// earlier value (the scheduler restarted) is left as it is: all it
// counts is since the restart.
func since(now, before map[string]*dto.MetricFamily) {
	for name, f := range now {
		old := map[string]*dto.Metric{}
		for _, m := range before[name].GetMetric() {
			old[labelKey(m)] = m
		}
		for _, m := range f.GetMetric() {
			o := old[labelKey(m)]
			switch {
			case o == nil:
			case m.Counter != nil && m.GetCounter().GetValue() >= o.GetCounter().GetValue():
				m.Counter.Value = ptr.To(m.GetCounter().GetValue() - o.GetCounter().GetValue())
			case m.Histogram != nil && m.GetHistogram().GetSampleCount() >= o.GetHistogram().GetSampleCount():
				m.Histogram.SampleCount = ptr.To(m.GetHistogram().GetSampleCount() - o.GetHistogram().GetSampleCount())
			}
		}
	}
}

// labelKey names a series by its labels, in the order they are exported.
func labelKey(m *dto.Metric) string {
	var b strings.Builder
	for _, l := range m.GetLabel() {
		b.WriteString(l.GetName() + "=" + l.GetValue() + ",")
	}
	return b.String()
}

// documentedMetrics lists the metric names of the metrics reference's
// table (docs/reference/metrics.md, which make docs generates).
func documentedMetrics(t *testing.T) []string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "docs", "reference", "metrics.md"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, m := range regexp.MustCompile("(?m)^\\| `(multislice_[a-z_]+)`").FindAllStringSubmatch(string(data), -1) {
		names = append(names, m[1])
	}
	if len(names) < 10 {
		t.Fatalf("found %d metrics in the table of docs/reference/metrics.md: %v", len(names), names)
	}
	return names
}

// series returns the family's series whose labels include want.
func series(f *dto.MetricFamily, want map[string]string) []*dto.Metric {
	var out []*dto.Metric
	for _, m := range f.GetMetric() {
		have := map[string]string{}
		for _, l := range m.GetLabel() {
			have[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && have[k] == v
		}
		if match {
			out = append(out, m)
		}
	}
	return out
}

func value(m *dto.Metric) float64 {
	switch {
	case m.Gauge != nil:
		return m.GetGauge().GetValue()
	case m.Counter != nil:
		return m.GetCounter().GetValue()
	}
	return 0
}

func valueIs(labels map[string]string, ok func(float64) bool, want string) func(*dto.MetricFamily) string {
	return func(f *dto.MetricFamily) string {
		if f == nil {
			return "not exported"
		}
		ms := series(f, labels)
		if len(ms) == 0 {
			return "no series with labels " + formatLabels(labels)
		}
		for _, m := range ms {
			if ok(value(m)) {
				return ""
			}
		}
		return "want " + want + ", got " + formatFloat(value(ms[0]))
	}
}

func atLeastCount(labels map[string]string, n uint64) func(*dto.MetricFamily) string {
	return func(f *dto.MetricFamily) string {
		if f == nil {
			return "not exported"
		}
		for _, m := range series(f, labels) {
			if m.GetHistogram().GetSampleCount() >= n {
				return ""
			}
		}
		return "no histogram series with at least one observation"
	}
}

func allZeroOrAbsent(f *dto.MetricFamily) string {
	for _, m := range f.GetMetric() {
		if value(m) != 0 {
			return "drift found: " + formatFloat(value(m))
		}
	}
	return ""
}

// zeroOrAbsent accepts the metric absent, or its series with labels at
// zero: the scenario cannot move them, for the reason given.
func zeroOrAbsent(labels map[string]string, why string) func(*dto.MetricFamily) string {
	return func(f *dto.MetricFamily) string {
		for _, m := range series(f, labels) {
			if value(m) != 0 {
				return "moved although " + why + ": " + formatFloat(value(m))
			}
		}
		return ""
	}
}

// notMoved accepts the metric absent (a vector nothing observed yet) or
// at zero: the scenario cannot move it, for the reason given.
func notMoved(why string) func(*dto.MetricFamily) string {
	return func(f *dto.MetricFamily) string {
		for _, m := range f.GetMetric() {
			if value(m) != 0 && f.GetType() == dto.MetricType_COUNTER {
				return "moved although " + why
			}
		}
		return ""
	}
}

func formatLabels(l map[string]string) string {
	parts := make([]string, 0, len(l))
	for k, v := range l {
		parts = append(parts, k+"="+v)
	}
	return "{" + strings.Join(parts, ",") + "}"
}

func formatFloat(v float64) string { return strconv.FormatFloat(v, 'g', -1, 64) }
