// Package perf benchmarks multislice-scheduler with the upstream
// scheduler_perf harness: each scenario runs the same workload through the
// default kube-scheduler profile and through ours, in one run, against a
// real apiserver and etcd. `make bench` runs it and tabulates the results.
package perf

import (
	"fmt"
	"os"
	"testing"

	_ "k8s.io/component-base/logs/json/register"
	perf "k8s.io/kubernetes/test/integration/scheduler_perf"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
)

func TestMain(m *testing.M) {
	if err := perf.InitTests(); err != nil {
		fmt.Fprintf(os.Stderr, "%v\n", err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

func BenchmarkPerfScheduling(b *testing.B) {
	registry, err := app.Registry()
	if err != nil {
		b.Fatal(err)
	}
	perf.RunBenchmarkPerfScheduling(b, "performance-config.yaml", "multislice", registry)
}
