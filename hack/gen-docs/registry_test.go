package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"k8s.io/component-base/metrics/legacyregistry"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// What the generator reads of pkg/metrics' source is what the scheduler
// registers: every metric the registry exports, with its type, help and
// buckets, is one the page lists, and every metric of the page that
// exports without a label value is exported.
func TestReadMetricsMatchesTheRegistry(t *testing.T) {
	read, err := readMetrics(filepath.Join("..", "..", metricsDir))
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]metric{}
	for _, m := range read {
		byName[m.Name] = m
	}

	metrics.Register()
	// Give the vectors a series each, as the scheduler does as it runs.
	obs := metrics.Observer()
	obs.ReservationReleased(state.ReleaseTimeout)
	obs.GangsWaiting(0, 0)
	obs.WorkloadAdmitted("cq", time.Second)
	fr := quota.FlavorResource{Flavor: "f", Resource: "google.com/tpu"}
	metrics.RecordQueues(state.QueueReport{ClusterQueues: map[string]*state.ClusterQueueReport{
		"cq": {Usage: quota.Usage{fr: 1000}, Nominal: quota.Usage{fr: 1000}},
	}})
	metrics.QueueRejections.WithLabelValues("QuotaExceeded").Add(0)
	metrics.Preemptions.WithLabelValues("preempted").Add(0)
	metrics.QuotaDrift.WithLabelValues("phantom").Add(0)

	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		t.Fatal(err)
	}
	gathered := map[string]bool{}
	for _, f := range families {
		name := f.GetName()
		if !strings.HasPrefix(name, "multislice_") {
			continue
		}
		gathered[name] = true
		m, ok := byName[name]
		if !ok {
			t.Errorf("the registry exports %s, which the page does not list", name)
			continue
		}
		if want := kindOf(f.GetType()); m.Kind != want {
			t.Errorf("%s: the page says %s, the registry %s", name, m.Kind, want)
		}
		if help := strings.TrimPrefix(f.GetHelp(), "["+m.Stability+"] "); help != m.Help {
			t.Errorf("%s: the page's help %q, the registry's %q", name, m.Help, f.GetHelp())
		}
		if f.GetType() == dto.MetricType_HISTOGRAM {
			var bounds []float64
			for _, b := range f.GetMetric()[0].GetHistogram().GetBucket() {
				bounds = append(bounds, b.GetUpperBound())
			}
			if !slices.Equal(bounds, m.Buckets) {
				t.Errorf("%s: the page's buckets %v, the registry's %v", name, m.Buckets, bounds)
			}
		}
	}
	for _, m := range read {
		if !gathered[m.Name] {
			t.Errorf("the page lists %s, which the registry does not export", m.Name)
		}
	}
	if len(gathered) < 10 {
		t.Errorf("the registry exports %d of our metrics: %v", len(gathered), gathered)
	}
}

func kindOf(t dto.MetricType) string {
	switch t {
	case dto.MetricType_COUNTER:
		return "counter"
	case dto.MetricType_GAUGE:
		return "gauge"
	case dto.MetricType_HISTOGRAM:
		return "histogram"
	case dto.MetricType_SUMMARY:
		return "summary"
	}
	return t.String()
}
