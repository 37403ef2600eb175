package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	harnessRun = `{"version":"v1","dataItems":[
 {"data":{"Duration":20},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/queued"}},
 {"data":{"Max":400,"Average":300},"unit":"MB","labels":{"Metric":"heap_memory_usage","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/queued"}},
 {"data":{"Duration":25},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/queued"}},
 {"data":{"Max":500,"Average":350},"unit":"MB","labels":{"Metric":"heap_memory_usage","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/queued"}},
 {"data":{"Max":100},"unit":"MB","labels":{"Metric":"heap_memory_usage","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/20Nodes/namespace-1"}}
]}`
	drainRun = `{"version":"v1","dataItems":[
 {"data":{"Workloads":100,"Gangs":20,"Pods":240,"Attempts":300,"AttemptsScheduled":240,"AttemptsUnschedulable":50,"AttemptsError":0,"Admissions":0,"QueueRejections":0},"unit":"count","labels":{"Metric":"QueueDrainCounts","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/drain"}},
 {"data":{"Admitted":10,"Drained":10.5},"unit":"s","labels":{"Metric":"QueueDrainDuration","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/drain"}},
 {"data":{"Max":900},"unit":"MB","labels":{"Metric":"QueueDrainPeakRSS","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/drain"}},
 {"data":{"Workloads":100,"Gangs":20,"Pods":240,"Attempts":264,"AttemptsScheduled":240,"AttemptsUnschedulable":20,"AttemptsError":4,"Admissions":100,"QueueRejections":700},"unit":"count","labels":{"Metric":"QueueDrainCounts","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/drain"}},
 {"data":{"Admitted":12.5,"Drained":13},"unit":"s","labels":{"Metric":"QueueDrainDuration","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/drain"}},
 {"data":{"Max":1000},"unit":"MB","labels":{"Metric":"QueueDrainPeakRSS","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/drain"}}
]}`
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestQuotaReport(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun,
		"QueueDrain_benchmark_multislice_1.json":              drainRun,
	})
	rows, err := loadQuota(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 {
		t.Fatalf("got %d rows, want 2: %+v", len(rows), rows)
	}
	base, queued := rows[0], rows[1]
	if base.Variant != "Unqueued" || queued.Variant != "Queued" {
		t.Fatalf("rows out of order: %+v", rows)
	}
	for _, c := range []struct {
		what      string
		got, want float64
	}{
		{"baseline throughput", base.Throughput(), 10},
		{"queued throughput", queued.Throughput(), 8},
		{"baseline attempts per workload", base.AttemptsPerWorkload(), 1.5},
		{"queued attempts per workload", queued.AttemptsPerWorkload(), 1.24},
		{"queued attempts per pod", queued.AttemptsPerPod(), 1.1},
		{"queued peak heap", queued.PeakHeap(), 500},
		{"queued peak RSS", queued.PeakRSS(), 1000},
	} {
		if diff := c.got - c.want; diff > 1e-9 || diff < -1e-9 {
			t.Errorf("%s = %v, want %v", c.what, c.got, c.want)
		}
	}

	var out strings.Builder
	if err := writeQuota(&out, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Quota | 800Nodes | Unqueued | 100 | 240 | 10.00 | 10.0 | baseline | 1.50 | 1.25 | 0 | 0 | 400 | 900 | 1 |",
		"| Quota | 800Nodes | Queued | 100 | 240 | 12.50 | 8.0 | 0.80× | 1.24 | 1.10 | 100 | 700 | 500 | 1000 | 1 |",
		"- Quota 800Nodes, Queued: admission throughput 0.80× Unqueued's (target ≥ 0.90×: MISSED); 1.24 scheduling attempts per admitted workload (target ≤ 1.50: met); peak heap 500 MB (+100 MB), peak RSS 1000 MB (+100 MB).",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

func TestQuotaReportRepeatsAndMisses(t *testing.T) {
	slow := strings.ReplaceAll(drainRun, `"Admitted":12.5`, `"Admitted":20`)
	dir := writeFiles(t, map[string]string{
		"QueueDrain_benchmark_multislice_1.json": drainRun,
		"QueueDrain_benchmark_multislice_2.json": slow,
	})
	rows, err := loadQuota(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 2 || rows[1].Runs != 2 {
		t.Fatalf("rows %+v, want 2 rows of 2 runs", rows)
	}
	// 200 workloads in 32.5 s.
	if got, want := rows[1].Throughput(), 200/32.5; got != want {
		t.Errorf("throughput over both runs = %v, want %v", got, want)
	}
	var out strings.Builder
	if err := writeQuota(&out, rows); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out.String(), "(target ≥ 0.90×: MISSED)") {
		t.Errorf("a ratio of %.2f is not reported missed:\n%s", rows[1].Throughput()/rows[0].Throughput(), out.String())
	}
	if strings.Contains(out.String(), "peak heap") {
		t.Errorf("peak heap reported without harness results:\n%s", out.String())
	}
}

func TestQuotaReportNothingDrained(t *testing.T) {
	dir := writeFiles(t, map[string]string{"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun})
	rows, err := loadQuota(dir)
	if err != nil || len(rows) != 0 {
		t.Fatalf("loadQuota = %+v, %v; want nothing", rows, err)
	}
}
