package harness

import (
	"testing"

	dto "github.com/prometheus/client_model/go"
	"k8s.io/component-base/metrics/legacyregistry"
)

// The integration tests run the scheduler in process, so its metrics are
// read straight from component-base's registry.

// MetricValue sums a metric family's samples whose labels include want:
// the sample count for histograms, the value otherwise.
func MetricValue(t testing.TB, name string, want map[string]string) float64 {
	t.Helper()
	v, err := gathered(name, want)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// GatheredValue is MetricValue outside a test (0 when the registry cannot
// be read).
func GatheredValue(name string, want map[string]string) float64 {
	v, _ := gathered(name, want)
	return v
}

func gathered(name string, want map[string]string) (float64, error) {
	families, err := legacyregistry.DefaultGatherer.Gather()
	if err != nil {
		return 0, err
	}
	total := 0.0
	for _, f := range families {
		if f.GetName() == name {
			total += sumSamples(f, want)
		}
	}
	return total, nil
}

// sumSamples sums a metric family's samples whose labels include want:
// the sample count for histograms, the value otherwise.
func sumSamples(f *dto.MetricFamily, want map[string]string) float64 {
	total := 0.0
	for _, m := range f.GetMetric() {
		if !hasLabels(m, want) {
			continue
		}
		switch {
		case m.GetHistogram() != nil:
			total += float64(m.GetHistogram().GetSampleCount())
		case m.GetCounter() != nil:
			total += m.GetCounter().GetValue()
		case m.GetGauge() != nil:
			total += m.GetGauge().GetValue()
		case m.GetUntyped() != nil:
			total += m.GetUntyped().GetValue()
		}
	}
	return total
}

// hasLabels reports whether m carries every label of want.
func hasLabels(m *dto.Metric, want map[string]string) bool {
	found := 0
	for _, l := range m.GetLabel() {
		if v, ok := want[l.GetName()]; ok && v == l.GetValue() {
			found++
		}
	}
	return found == len(want)
}
