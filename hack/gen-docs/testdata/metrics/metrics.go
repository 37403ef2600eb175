// A package of metrics as pkg/metrics writes them, for readMetrics' tests.
package metrics

import "k8s.io/component-base/metrics"

const (
	subsystem = "demo"
	start     = 0.5
)

var (
	Waits = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem:      subsystem,
		Name:           "wait_seconds",
		Help:           "Time a gang " + "waits.",
		Buckets:        metrics.ExponentialBuckets(start, 2, 4),
		StabilityLevel: metrics.ALPHA,
	})
	Releases = metrics.NewCounterVec(&metrics.CounterOpts{
		Namespace: "acme",
		Subsystem: subsystem,
		Name:      "releases_total",
		Help: `Releases by reason.

One paragraph more, with a | pipe.`,
		StabilityLevel: metrics.BETA,
	}, []string{"reason", "cluster_queue"})
	Usage = metrics.NewGaugeVec(&metrics.GaugeOpts{
		Subsystem: subsystem,
		Name:      "usage",
		Help:      "Quota in use.",
	}, []string{"flavor"})
	Steps = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem: subsystem,
		Name:      "step_seconds",
		Help:      "Linear buckets.",
		Buckets:   metrics.LinearBuckets(1, 2, 3),
	})
	Default = metrics.NewHistogram(&metrics.HistogramOpts{
		Subsystem: subsystem,
		Name:      "default_seconds",
		Help:      "Default buckets.",
	})
	// NotRegistered is defined but not in all(): not documented.
	NotRegistered = metrics.NewGauge(&metrics.GaugeOpts{Subsystem: subsystem, Name: "hidden", Help: "Not registered."})
)

func all() []metrics.Registerable {
	return []metrics.Registerable{Waits, Releases, Usage, Steps, Default}
}
