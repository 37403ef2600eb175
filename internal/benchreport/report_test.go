package benchreport

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func items(t *testing.T, js string) dataItems {
	t.Helper()
	var d dataItems
	if err := json.Unmarshal([]byte(js), &d); err != nil {
		t.Fatal(err)
	}
	return d
}

const run1 = `{"version":"v1","dataItems":[
 {"data":{"Average":100,"Perc50":90,"Perc90":120},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1"}},
 {"data":{"Duration":10},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1"}},
 {"data":{"Perc99":4},"unit":"ms","labels":{"Metric":"scheduler_scheduling_attempt_duration_seconds","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1","result":"scheduled"}},
 {"data":{"Perc99":9},"unit":"ms","labels":{"Metric":"scheduler_scheduling_attempt_duration_seconds","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1","result":"unschedulable"}},
 {"data":{"Average":80,"Perc50":70,"Perc90":100},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Baseline_MultisliceProfile/1000Nodes/namespace-1"}},
 {"data":{"Duration":12.5},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Baseline_MultisliceProfile/1000Nodes/namespace-1"}},
 {"data":{"Average":5},"unit":"MB","labels":{"Metric":"memory","Name":"BenchmarkPerfScheduling/Baseline_MultisliceProfile/1000Nodes/namespace-1"}},
 {"data":{"Duration":5},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Baseline_GangProfile/1000Nodes/multislice"}},
 {"data":{"Average":1},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"malformed"}}
]}`

const run2 = `{"version":"v1","dataItems":[
 {"data":{"Average":110,"Perc50":100,"Perc90":130},"unit":"pods/s","labels":{"Metric":"SchedulingThroughput","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1"}},
 {"data":{"Duration":12},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes/namespace-1"}},
 {"data":{"Duration":13.5},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/Baseline_MultisliceProfile/1000Nodes/namespace-1"}}
]}`

func TestAggregate(t *testing.T) {
	cases := map[string]struct {
		runs []string
		want []Row
	}{
		"one run, compared with the first variant": {
			runs: []string{run1},
			want: []Row{
				{Scenario: "Baseline", Variant: "DefaultProfile", Workload: "1000Nodes", Average: 100, Perc50: 90, Perc90: 120, Duration: 10, AttemptP99: 4, Runs: 1, Measured: "namespace-1"},
				{Scenario: "Baseline", Variant: "MultisliceProfile", Workload: "1000Nodes", Average: 80, Perc50: 70, Perc90: 100, Duration: 12.5, Runs: 1,
					Speedup: 0.8, SpeedupMin: 0.8, SpeedupMax: 0.8, Measured: "namespace-1"},
				{Scenario: "Baseline", Variant: "GangProfile", Workload: "1000Nodes", Duration: 5, Runs: 1, Speedup: 2, SpeedupMin: 2, SpeedupMax: 2, Measured: "multislice"},
			},
		},
		"repeats are averaged; throughput over the runs that sampled it": {
			runs: []string{run1, run2},
			// The spread pairs each run's variant with the same run's
			// baseline: 10/12.5 and 12/13.5; the gang profile ran once.
			want: []Row{
				{Scenario: "Baseline", Variant: "DefaultProfile", Workload: "1000Nodes", Average: 105, Perc50: 95, Perc90: 125, Duration: 11, AttemptP99: 4, Runs: 2, Measured: "namespace-1"},
				{Scenario: "Baseline", Variant: "MultisliceProfile", Workload: "1000Nodes", Average: 80, Perc50: 70, Perc90: 100, Duration: 13, Runs: 2,
					Speedup: 11.0 / 13.0, SpeedupMin: 10 / 12.5, SpeedupMax: 12 / 13.5, Measured: "namespace-1"},
				{Scenario: "Baseline", Variant: "GangProfile", Workload: "1000Nodes", Duration: 5, Runs: 1, Speedup: 11.0 / 5.0, SpeedupMin: 2, SpeedupMax: 2, Measured: "multislice"},
			},
		},
		"nothing measured": {runs: nil, want: []Row{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var all []dataItems
			for _, r := range tc.runs {
				all = append(all, items(t, r))
			}
			if diff := cmp.Diff(tc.want, Aggregate(all), cmp.AllowUnexported(Row{})); diff != "" {
				t.Errorf("Aggregate (-want +got):\n%s", diff)
			}
		})
	}
}

func TestLoadAndMarkdown(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil {
		t.Fatal("Load of an empty dir succeeded")
	}
	if err := os.WriteFile(filepath.Join(dir, "BenchmarkPerfScheduling_benchmark_multislice_1.json"), []byte(run1), 0o600); err != nil {
		t.Fatal(err)
	}
	rows, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	if err := Markdown(&out, rows); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		"| Baseline | 1000Nodes | DefaultProfile | 10.00 | baseline | 100.0 | 90.0 | 120.0 | 4.0 | 1 |",
		"| Baseline | 1000Nodes | MultisliceProfile | 12.50 | 0.80× | 80.0 | 70.0 | 100.0 | – | 1 |",
		"| Baseline | 1000Nodes | GangProfile | 5.00 | 2.00× | – | – | – | – | 1 |",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("table lacks row %q:\n%s", want, out.String())
		}
	}
}

func TestParseName(t *testing.T) {
	cases := map[string]struct {
		name string
		want key
		ok   bool
	}{
		"plain": {
			name: "BenchmarkPerfScheduling/Baseline_DefaultProfile/1000Nodes_2000Pods/namespace-1",
			want: key{scenario: "Baseline", variant: "DefaultProfile", workload: "1000Nodes_2000Pods"},
			ok:   true,
		},
		"underscores in the workload": {
			name: "BenchmarkPerfScheduling/LoadedCluster_GangsMultisliceProfile/2048Nodes_16x16SlicesLoaded_16x16Slices/measured",
			want: key{scenario: "LoadedCluster", variant: "GangsMultisliceProfile", workload: "2048Nodes_16x16SlicesLoaded_16x16Slices"},
			ok:   true,
		},
		"the scenario ends at the first underscore": {
			name: "BenchmarkPerfScheduling/PlainWithWaitingGangs_Gangs_Waiting/16Nodes_2x4SlicesWaiting_50Pods/plain",
			want: key{scenario: "PlainWithWaitingGangs", variant: "Gangs_Waiting", workload: "16Nodes_2x4SlicesWaiting_50Pods"},
			ok:   true,
		},
		"no namespace": {
			name: "BenchmarkPerfScheduling/SingleWorkload_PlainPodsDefaultProfile/64Nodes_1x16Slices",
			want: key{scenario: "SingleWorkload", variant: "PlainPodsDefaultProfile", workload: "64Nodes_1x16Slices"},
			ok:   true,
		},
		"no variant":  {name: "BenchmarkPerfScheduling/SingleWorkload/64Nodes_1x16Slices/measured"},
		"no workload": {name: "BenchmarkPerfScheduling/SingleWorkload_PlainPodsDefaultProfile"},
		"empty":       {name: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := parseName(tc.name)
			if ok != tc.ok || got != tc.want {
				t.Errorf("parseName(%q) = %+v, %v; want %+v, %v", tc.name, got, ok, tc.want, tc.ok)
			}
		})
	}
}

// Several scenarios share workload names and run interleaved; each variant
// is compared with the first variant of its own scenario only.
func TestAggregateScenariosWithSharedWorkloadNames(t *testing.T) {
	const run = `{"version":"v1","dataItems":[
 {"data":{"Duration":8},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/SingleWorkload_PlainPodsDefaultProfile/1024Nodes_1x256Slices/measured"}},
 {"data":{"Duration":10},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/LoadedCluster_PlainPodsDefaultProfile/1024Nodes_1x256Slices/measured"}},
 {"data":{"Duration":4},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/SingleWorkload_GangsMultisliceProfile/1024Nodes_1x256Slices/measured"}},
 {"data":{"Duration":20},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/LoadedCluster_GangsMultisliceProfile/1024Nodes_1x256Slices/measured"}},
 {"data":{"Duration":2},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/PlainWithWaitingGangs_NothingWaiting/16Nodes_2x4SlicesWaiting_50Pods/plain"}},
 {"data":{"Duration":2.5},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/PlainWithWaitingGangs_GangsWaiting/16Nodes_2x4SlicesWaiting_50Pods/plain"}}
]}`
	want := []Row{
		{Scenario: "SingleWorkload", Variant: "PlainPodsDefaultProfile", Workload: "1024Nodes_1x256Slices", Duration: 8, Runs: 1, Measured: "measured"},
		{Scenario: "LoadedCluster", Variant: "PlainPodsDefaultProfile", Workload: "1024Nodes_1x256Slices", Duration: 10, Runs: 1, Measured: "measured"},
		{Scenario: "SingleWorkload", Variant: "GangsMultisliceProfile", Workload: "1024Nodes_1x256Slices", Duration: 4, Runs: 1,
			Speedup: 2, SpeedupMin: 2, SpeedupMax: 2, Measured: "measured"},
		{Scenario: "LoadedCluster", Variant: "GangsMultisliceProfile", Workload: "1024Nodes_1x256Slices", Duration: 20, Runs: 1,
			Speedup: 0.5, SpeedupMin: 0.5, SpeedupMax: 0.5, Measured: "measured"},
		{Scenario: "PlainWithWaitingGangs", Variant: "NothingWaiting", Workload: "16Nodes_2x4SlicesWaiting_50Pods", Duration: 2, Runs: 1, Measured: "plain"},
		{Scenario: "PlainWithWaitingGangs", Variant: "GangsWaiting", Workload: "16Nodes_2x4SlicesWaiting_50Pods", Duration: 2.5, Runs: 1,
			Speedup: 0.8, SpeedupMin: 0.8, SpeedupMax: 0.8, Measured: "plain"},
	}
	if diff := cmp.Diff(want, Aggregate([]dataItems{items(t, run)}), cmp.AllowUnexported(Row{})); diff != "" {
		t.Errorf("Aggregate (-want +got):\n%s", diff)
	}
}
