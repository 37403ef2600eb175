package main

import (
	"fmt"
	"strings"
	"testing"
)

const topologyQueueName = "BenchmarkPerfScheduling/TopologyQueue_GangsMultisliceProfile/640Nodes_15000Workloads/drain"

// drainRunItems is one run's QueueDrain items of the TopologyQueue
// scenario, as test/perf writes them: counts, duration, then one
// QueueDrainAdmission item per class ("class:average:max:count").
func drainRunItems(drained float64, classes ...string) []string {
	return drainRunItemsOf(15000, drained, classes...)
}

// drainRunItemsOf is drainRunItems of a run draining workloads workloads.
func drainRunItemsOf(workloads, drained float64, classes ...string) []string {
	items := []string{
		fmt.Sprintf(`{"data":{"Workloads":%g,"Gangs":%g,"Pods":800},"unit":"count","labels":{"Metric":"QueueDrainCounts","Name":%q}}`, workloads, workloads, topologyQueueName),
		fmt.Sprintf(`{"data":{"Admitted":%g,"Drained":%g},"unit":"s","labels":{"Metric":"QueueDrainDuration","Name":%q}}`, drained-1, drained, topologyQueueName),
	}
	for _, c := range classes {
		var class string
		var avg, maxSeconds, count float64
		if _, err := fmt.Sscanf(strings.ReplaceAll(c, ":", " "), "%s %g %g %g", &class, &avg, &maxSeconds, &count); err != nil {
			panic(fmt.Sprintf("class %q: %v", c, err))
		}
		items = append(items, fmt.Sprintf(`{"data":{"Average":%g,"Max":%g,"Count":%g},"unit":"s","labels":{"Metric":"QueueDrainAdmission","Class":%q,"Name":%q}}`,
			avg, maxSeconds, count, class, topologyQueueName))
	}
	return items
}

// drainFile is a QueueDrain file holding runs in order (-count N).
func drainFile(runs ...[]string) string {
	var all []string
	for _, r := range runs {
		all = append(all, r...)
	}
	return `{"version":"v1","dataItems":[` + strings.Join(all, ",\n") + `]}`
}

// Two runs of the TopologyQueue scenario. The classes come unordered;
// large-sliced-rack's mean (47 s) is within Kueue's required and preferred
// thresholds (48 s) but not its balanced one (46 s), which sliced classes
// are held to; medium-preferred-rack admitted none in the second run, and
// tiny-required-rack (no Kueue counterpart) was not written in it, as
// test/perf writes no item for a class that admitted none.
var (
	firstRun = drainRunItems(400,
		"small-required-rack:250:400:100", "large-sliced-rack:44:60:10", "medium-preferred-rack:120:200:50", "tiny-required-rack:5:6:3")
	secondRun = drainRunItems(500,
		"small-required-rack:350:500:110", "large-sliced-rack:50:70:12", "medium-preferred-rack:0:0:0")
)

// wantTwoRuns is what both runs render, in this order.
var wantTwoRuns = []string{
	"## Time to admission by workload class",
	"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | large-sliced-rack | 11 | 47.0 (44.0–50.0) | 65.0 (60.0–70.0) | 46 | no |",
	"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | medium-preferred-rack | 25 | 120.0 | 200.0 | 128 | yes |",
	"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | small-required-rack | 105 | 300.0 (250.0–350.0) | 450.0 (400.0–500.0) | 297 | no |",
	"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | tiny-required-rack | 1.5 | 5.0 | 6.0 | – | – |",
	"- TopologyQueue 640Nodes_15000Workloads, GangsMultisliceProfile: wall time 450.0 s (single runs 400.0–500.0), " +
		"from the start of the measurement to the last workload deleted, over 2 runs (Kueue's threshold ≤ 482 s: met); " +
		"average time to admission within Kueue's threshold for 1 of 3 classes (MISSED: large-sliced-rack, small-required-rack).",
}

func TestAdmissionReport(t *testing.T) {
	// small-preferred-rack admitted none: not timed, so not within its threshold.
	slowRun := drainRunItems(700, "small-preferred-rack:0:0:0", "large-required-rack:30:40:10")
	for _, c := range []struct {
		name  string
		files map[string]string
		// want are in the order rendered; unwanted must not be.
		want, unwanted []string
	}{{
		name:  "two runs in one file",
		files: map[string]string{"QueueDrain_benchmark_multislice_1.json": drainFile(firstRun, secondRun)},
		want:  wantTwoRuns,
	}, {
		name: "one run a file",
		files: map[string]string{
			"QueueDrain_benchmark_multislice_1.json": drainFile(firstRun),
			"QueueDrain_benchmark_multislice_2.json": drainFile(secondRun),
		},
		want: wantTwoRuns,
	}, {
		name: "wall time missed; other scenarios' wall time not judged",
		files: map[string]string{
			"QueueDrain_benchmark_multislice_1.json": drainFile(slowRun),
			"QueueDrain_benchmark_multislice_2.json": drainRun,
		},
		want: []string{
			"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | large-required-rack | 10 | 30.0 | 40.0 | 48 | yes |",
			"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | small-preferred-rack | 0 | – | – | 296 | no |",
			"- TopologyQueue 640Nodes_15000Workloads, GangsMultisliceProfile: wall time 700.0 s, from the start of the measurement to the last workload deleted, " +
				"over 1 run (Kueue's threshold ≤ 482 s: MISSED); average time to admission within Kueue's threshold for 1 of 2 classes (MISSED: small-preferred-rack).",
		},
		unwanted: []string{"Quota", "single runs"},
	}, {
		// A fifth of Kueue's workloads: its thresholds do not apply.
		name: "a run of fewer workloads than Kueue's is not judged",
		files: map[string]string{"QueueDrain_benchmark_multislice_1.json": drainFile(
			drainRunItemsOf(3000, 180, "large-sliced-rack:50:60:90"), drainRunItemsOf(3000, 200, "large-sliced-rack:56:60:90"))},
		want: []string{
			"| TopologyQueue | 640Nodes_15000Workloads | GangsMultisliceProfile | large-sliced-rack | 90 | 53.0 (50.0–56.0) | 60.0 | 46 | – (fewer workloads) |",
			"- TopologyQueue 640Nodes_15000Workloads, GangsMultisliceProfile: wall time 190.0 s (single runs 180.0–200.0) over 2 runs; " +
				"Kueue's thresholds hold for its 15000 workloads, not for this run's 3000.",
		},
		unwanted: []string{"MISSED", "met"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			res, err := loadAdmission(writeFiles(t, c.files))
			if err != nil {
				t.Fatal(err)
			}
			var out strings.Builder
			if err := writeAdmission(&out, res); err != nil {
				t.Fatal(err)
			}
			report := out.String()
			at := 0
			for _, want := range c.want {
				i := strings.Index(report[at:], want)
				if i < 0 {
					t.Fatalf("report lacks, after what came before it, %q:\n%s", want, report)
				}
				at += i + len(want)
			}
			for _, u := range c.unwanted {
				if strings.Contains(report, u) {
					t.Errorf("report holds %q:\n%s", u, report)
				}
			}
		})
	}
}

func TestKueueThreshold(t *testing.T) {
	for _, c := range []struct {
		class string
		want  float64
		known bool
	}{
		{"small-required-rack", 297, true},
		{"small-preferred-rack", 296, true},
		{"small-sliced-rack", 286, true},
		{"medium-required-rack", 129, true},
		{"medium-preferred-rack", 128, true},
		{"medium-sliced-rack", 128, true},
		{"large-required-rack", 48, true},
		{"large-preferred-rack", 48, true},
		{"large-sliced-rack", 46, true},
		{"tiny-required-rack", 0, false},
		{"small", 0, false},
	} {
		if got, known := kueueThreshold(c.class); got != c.want || known != c.known {
			t.Errorf("kueueThreshold(%q) = %v, %v; want %v, %v", c.class, got, known, c.want, c.known)
		}
	}
}

// The section follows the quota table, and only where a run timed
// admissions by class.
func TestAdmissionSectionInReport(t *testing.T) {
	for _, c := range []struct {
		name    string
		drain   string
		section bool
	}{
		{"timed by class", drainFile(firstRun, secondRun), true},
		{"quota drains only", drainRun, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := writeFiles(t, map[string]string{
				"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun,
				"QueueDrain_benchmark_multislice_1.json":              c.drain,
			})
			res, err := loadAdmission(dir)
			if err != nil {
				t.Fatal(err)
			}
			if got := len(res.rows) > 0; got != c.section {
				t.Errorf("loadAdmission found rows: %v, want %v: %+v", got, c.section, res.rows)
			}
			var stdout strings.Builder
			if err := run(dir, "", &stdout); err != nil {
				t.Fatal(err)
			}
			report := stdout.String()
			quota := strings.Index(report, "## Quota")
			admission := strings.Index(report, "## Time to admission by workload class")
			switch {
			case quota < 0:
				t.Fatalf("no quota section:\n%s", report)
			case c.section && admission < quota:
				t.Errorf("time to admission section missing or before the quota section:\n%s", report)
			case !c.section && admission >= 0:
				t.Errorf("time to admission section without any item timing it:\n%s", report)
			}
		})
	}
}
