package main

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport"
)

// groupItem renders one GangLatency (or, plain, PlainGroupLatency) data
// item of a namespace.
func groupItem(testCase, workload, namespace string, plain bool, data map[string]float64) string {
	metric := "GangLatency"
	if plain {
		metric = "PlainGroupLatency"
	}
	var fields []string
	for k, v := range data {
		fields = append(fields, fmt.Sprintf("%q:%v", k, v))
	}
	return fmt.Sprintf(`{"data":{%s},"unit":"s","labels":{"Metric":%q,"Name":"BenchmarkPerfScheduling/%s/%s/%s"}}`,
		strings.Join(fields, ","), metric, testCase, workload, namespace)
}

func itemsFile(items ...string) string {
	return `{"version":"v1","dataItems":[` + strings.Join(items, ",\n") + `]}`
}

// gangHarnessRun: the harness's measured namespaces of the scenarios the
// gang latency tests compare, in the order the rows are reported.
var gangHarnessRun = itemsFile(gangHarnessItems...)

// gangHarnessItems are gangHarnessRun's data items.
var gangHarnessItems = func() []string {
	var items []string
	for _, m := range []string{
		"Baseline_DefaultProfile/20Nodes/namespace-1",
		"Multislice_PlainPodsDefaultProfile/256Nodes_4x16Slices/namespace-1",
		"Multislice_AffinityDefaultProfile/256Nodes_4x16Slices/namespace-1",
		"Multislice_GangsMultisliceProfile/256Nodes_4x16Slices/multislice",
		"SingleWorkload_PlainPodsDefaultProfile/64Nodes/measured",
		"SingleWorkload_GangsMultisliceProfile/64Nodes/measured",
		"Quota_Unqueued/120Nodes/queued",
		"Quota_Queued/120Nodes/queued",
		"Hotswap_Affinity/24Nodes/high",
		"Hotswap_Gangs/24Nodes/high",
	} {
		items = append(items, fmt.Sprintf(`{"data":{"Duration":2},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/%s"}}`, m))
	}
	return items
}()

// gangRun is one run's gang latencies: the plain baseline's and the
// gangs' p50 and p99 of Multislice, and the gangs' p99 of Hotswap, vary.
func gangRun(plainP99, gangP50, gangP99, hotswapTimed, hotswapP99 float64) string {
	return itemsFile(gangRunItems(plainP99, gangP50, gangP99, hotswapTimed, hotswapP99)...)
}

// gangRunItems are gangRun's data items.
func gangRunItems(plainP99, gangP50, gangP99, hotswapTimed, hotswapP99 float64) []string {
	timed := func(count, pods, p50, p99 float64) map[string]float64 {
		return map[string]float64{"Count": count, "Groups": count, "Pods": pods, "Perc50": p50, "Perc90": p99, "Perc99": p99, "Max": p99, "Average": p50}
	}
	plain := func(m map[string]float64, size float64) map[string]float64 { m["GroupSize"] = size; return m }
	hotswap := timed(hotswapTimed, 4*hotswapTimed, 0.18+(3-hotswapTimed)*0.02, hotswapP99)
	hotswap["Groups"] = 3
	return []string{
		groupItem("Multislice_PlainPodsDefaultProfile", "256Nodes_4x16Slices", "namespace-1", true, plain(timed(4, 256, 1, plainP99), 64)),
		groupItem("Multislice_AffinityDefaultProfile", "256Nodes_4x16Slices", "namespace-1", true, plain(timed(4, 256, 1.5, 2), 64)),
		groupItem("Multislice_GangsMultisliceProfile", "256Nodes_4x16Slices", "multislice", false, timed(4, 256, gangP50, gangP99)),
		// Not the measured namespace: left out.
		groupItem("Multislice_GangsMultisliceProfile", "256Nodes_4x16Slices", "loaded", false, timed(4, 256, 9, 9)),
		groupItem("SingleWorkload_PlainPodsDefaultProfile", "64Nodes", "measured", true, plain(timed(1, 64, 1, 1), 64)),
		groupItem("SingleWorkload_GangsMultisliceProfile", "64Nodes", "measured", false, map[string]float64{"Count": 0, "Groups": 1, "Pods": 0}),
		groupItem("Quota_Unqueued", "120Nodes", "queued", false, timed(20, 160, 0.5, 1)),
		groupItem("Quota_Queued", "120Nodes", "queued", false, timed(20, 160, 0.4, 0.8)),
		groupItem("Hotswap_Gangs", "24Nodes", "high", false, hotswap),
	}
}

// gangFiles: two runs' results.
func gangFiles() map[string]string {
	return map[string]string{
		"BenchmarkPerfScheduling_benchmark_multislice_1.json": gangHarnessRun,
		"BenchmarkPerfScheduling_benchmark_multislice_2.json": gangHarnessRun,
		"GangLatency_benchmark_multislice_1.json":             gangRun(1.5, 1.2, 1.65, 3, 0.2),
		"GangLatency_benchmark_multislice_2.json":             gangRun(2.5, 1.4, 3.35, 2, 0.4),
	}
}

func loadGangComparisons(t *testing.T, files map[string]string) []gangComparison {
	t.Helper()
	dir := writeFiles(t, files)
	rows, err := benchreport.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	groups, err := loadGroupLatencies(dir)
	if err != nil {
		t.Fatal(err)
	}
	return gangComparisons(rows, groups)
}

// gangFilesOneProcess: gangFiles' two runs as `-count 2` records them, in
// one process's files, each namespace's items in run order.
func gangFilesOneProcess() map[string]string {
	return map[string]string{
		"BenchmarkPerfScheduling_benchmark_multislice_1.json": itemsFile(append(slices.Clone(gangHarnessItems), gangHarnessItems...)...),
		"GangLatency_benchmark_multislice_1.json": itemsFile(append(gangRunItems(1.5, 1.2, 1.65, 3, 0.2),
			gangRunItems(2.5, 1.4, 3.35, 2, 0.4)...)...),
	}
}

func TestGangLatencyReport(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"a file per run":        gangFiles(),
		"every run in one file": gangFilesOneProcess(),
	} {
		t.Run(name, func(t *testing.T) { testGangLatencyReport(t, files) })
	}
}

func testGangLatencyReport(t *testing.T, files map[string]string) {
	cs := loadGangComparisons(t, files)
	var b strings.Builder
	if err := writeGangLatency(&b, cs); err != nil {
		t.Fatal(err)
	}
	report := b.String()
	want := []string{
		"## Gang latency",
		"the target is at most 1.2× against plain pods",
		// Means of the two runs, the spread of single runs in brackets:
		// p99 2.50 against 2.00, run by run 1.65/1.5 and 3.35/2.5.
		"| Multislice | 256Nodes_4x16Slices | GangsMultisliceProfile | 4 gangs, 256 pods | 1.30 (1.20–1.40) | 2.50 (1.65–3.35) | " +
			"PlainPodsDefaultProfile | 4 groups, 256 plain pods | 1.00 | 2.00 (1.50–2.50) | 1.25× (1.10×–1.34×) | 2 |",
		"| SingleWorkload | 64Nodes | GangsMultisliceProfile | 0 of 1 gang, 0 pods | – | – | PlainPodsDefaultProfile | 1 group, 64 plain pods | 1.00 | 1.00 | – | 2 |",
		"| Quota | 120Nodes | Queued | 20 gangs, 160 pods | 0.40 | 0.80 | Unqueued | 20 gangs, 160 pods | 0.50 | 1.00 | 0.80× | 2 |",
		// 3 then 2 of 3 gangs wholly bound; no plain baseline.
		"| Hotswap | 24Nodes | Gangs | 2.5 of 3 gangs, 10 pods | 0.19 (0.18–0.20) | 0.30 (0.20–0.40) | Affinity | not grouped | – | – | – | 2 |",
		"- Multislice 256Nodes_4x16Slices, GangsMultisliceProfile: gang p99 1.25× that of as many plain pods through PlainPodsDefaultProfile (target ≤ 1.2×: MISSED).",
		"- SingleWorkload 64Nodes, GangsMultisliceProfile: no ratio: the gangs or PlainPodsDefaultProfile's groups of plain pods were not all timed.",
		"- Quota 120Nodes, Queued: gang p99 0.80× that of Unqueued's gangs (not judged: the target holds gangs against plain pods).",
		"- Hotswap 24Nodes, Gangs: no baseline: Affinity's measured pods were not grouped (its workload names no gang size).",
	}
	for _, line := range want {
		if !strings.Contains(report, line) {
			t.Errorf("the report lacks %q:\n%s", line, report)
		}
	}
	// Only the variants with gangs have rows; baselines are their right
	// side; namespaces not measured are left out.
	if rows := strings.Count(report, "\n| ") - 1; rows != 4 {
		t.Errorf("%d rows, want 4:\n%s", rows, report)
	}
	for _, reject := range []string{"| AffinityDefaultProfile |", "9.00", "| Baseline | 20Nodes"} {
		if strings.Contains(report, reject) {
			t.Errorf("the report holds %q:\n%s", reject, report)
		}
	}

	met := gangFiles()
	met["GangLatency_benchmark_multislice_2.json"] = gangRun(2.5, 1.4, 2.5, 2, 0.4)
	b.Reset()
	if err := writeGangLatency(&b, loadGangComparisons(t, met)); err != nil {
		t.Fatal(err)
	}
	// p99 (1.65 + 2.5)/2 against 2: 1.04×.
	if line := "gang p99 1.04× that of as many plain pods through PlainPodsDefaultProfile (target ≤ 1.2×: met)."; !strings.Contains(b.String(), line) {
		t.Errorf("the report lacks %q:\n%s", line, b.String())
	}
}

func TestGangLatencyPlot(t *testing.T) {
	p, ok := gangLatencyPlot(loadGangComparisons(t, gangFiles()))
	if !ok || p.File != "ratio-gang-latency-p99.svg" {
		t.Fatalf("gangLatencyPlot = %q, %v", p.File, ok)
	}
	got := svgClasses(t, p.SVG)
	want := []string{"1.25× (1.10×–1.34×)", "– not measured", "0.80×", "– not measured"}
	if fmt.Sprint(got["value"]) != fmt.Sprint(want) {
		t.Errorf("values %q, want %q", got["value"], want)
	}
	wantGroups := []string{
		"Multislice · 256Nodes_4x16Slices, against PlainPodsDefaultProfile", "SingleWorkload · 64Nodes, against PlainPodsDefaultProfile",
		"Quota · 120Nodes, against Unqueued", "Hotswap · 24Nodes, against Affinity",
	}
	if fmt.Sprint(got["group"]) != fmt.Sprint(wantGroups) {
		t.Errorf("groups %q, want %q", got["group"], wantGroups)
	}
	// Slower than plain pods is worse; Quota's queued gangs are quicker.
	if len(got["worse"]) != 1 || len(got["better"]) != 1 || len(got["whisker"]) != 1 {
		t.Errorf("bars worse %q, better %q, whiskers %q: want one of each", got["worse"], got["better"], got["whisker"])
	}
	if _, ok := gangLatencyPlot(nil); ok {
		t.Error("a plot of no comparison")
	}
}

func TestLoadGroupLatenciesRejects(t *testing.T) {
	for name, files := range map[string]map[string]string{
		"an item without a namespace": {
			"GangLatency_benchmark_multislice_1.json": itemsFile(groupItem("Multislice_GangsMultisliceProfile", "256Nodes", "", false, map[string]float64{"Count": 0})),
		},
		"gangs in one run, plain pods in another": {
			"GangLatency_benchmark_multislice_1.json": itemsFile(groupItem("Multislice_Gangs", "256Nodes", "ns", false, map[string]float64{"Count": 0})),
			"GangLatency_benchmark_multislice_2.json": itemsFile(groupItem("Multislice_Gangs", "256Nodes", "ns", true, map[string]float64{"Count": 0})),
		},
	} {
		t.Run(name, func(t *testing.T) {
			if got, err := loadGroupLatencies(writeFiles(t, files)); err == nil {
				t.Errorf("loaded %v, want an error", got)
			}
		})
	}
	if got, err := loadGroupLatencies(t.TempDir()); err != nil || got != nil {
		t.Errorf("no file: %v, %v; want nothing", got, err)
	}
}
