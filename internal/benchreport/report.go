// Package benchreport turns scheduler_perf data-item files into a markdown
// table that compares each scenario's variants with its baseline variant,
// and into plots of it (plots.go): the ratios to the baseline, and each
// scenario's pods bound over time (timeline.go).
package benchreport

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// dataItems mirrors the JSON scheduler_perf writes to -data-items-dir.
type dataItems struct {
	DataItems []struct {
		Data   map[string]float64 `json:"data"`
		Unit   string             `json:"unit"`
		Labels map[string]string  `json:"labels"`
	} `json:"dataItems"`
}

// Row is one scenario variant on one workload size, averaged over runs.
type Row struct {
	Scenario, Variant, Workload string
	// Throughput buckets (pods/s), each the mean over the runs that sampled
	// it; 0 when the harness took no sample (all pods within a second, or
	// gangs bound in bursts).
	Average, Perc50, Perc90 float64
	// Duration is the mean time (s) from the first pod's creation to the
	// last pod's scheduling: the figure gang workloads are compared by.
	Duration float64
	// AttemptP99 is the 99th percentile scheduling attempt duration in ms, 0 if not measured.
	AttemptP99 float64
	Runs       int
	// Speedup is the baseline variant's Duration over this one's (above 1
	// is faster); 0 for the baseline itself.
	Speedup float64
	// SpeedupMin and SpeedupMax are the lowest and highest Speedup of
	// single runs, the baseline's and this variant's of the same run
	// (data-item file) paired, over the runs where both ran; 0 for the
	// baseline itself.
	SpeedupMin, SpeedupMax float64
	// Measured is the harness's name for the measured pods, the last part
	// of its data items' names: their namespace (TestScenariosNameMeasurementsByNamespace
	// in test/perf).
	Measured string
	samples  int
}

type key struct{ scenario, variant, workload string }

// Load reads every BenchmarkPerfScheduling*.json in dir.
func Load(dir string) ([]Row, error) {
	files, err := filepath.Glob(filepath.Join(dir, "BenchmarkPerfScheduling*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no BenchmarkPerfScheduling*.json in %s", dir)
	}
	slices.Sort(files)
	var all []dataItems
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var items dataItems
		if err := json.Unmarshal(data, &items); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		all = append(all, items)
	}
	rows := Aggregate(all)
	if len(rows) == 0 {
		return nil, fmt.Errorf("no scheduling was measured in %s", dir)
	}
	return rows, nil
}

// Aggregate averages runs, orders rows as first seen, and compares each
// variant with its scenario's first variant on the same workload.
func Aggregate(all []dataItems) []Row {
	var order []key
	rows := map[key]*Row{}
	attempts := map[key][]float64{}
	// runDurations: per row, the Duration of each run, by file.
	runDurations := map[key]map[int]float64{}
	row := func(k key) *Row {
		r := rows[k]
		if r == nil {
			r = &Row{Scenario: k.scenario, Variant: k.variant, Workload: k.workload}
			rows[k] = r
			order = append(order, k)
			runDurations[k] = map[int]float64{}
		}
		return r
	}
	for run, items := range all {
		for _, it := range items.DataItems {
			k, ok := parseName(it.Labels["Name"])
			if !ok {
				continue
			}
			switch it.Labels["Metric"] {
			case "SchedulingDuration":
				r := row(k)
				n := float64(r.Runs)
				r.Duration = (r.Duration*n + it.Data["Duration"]) / (n + 1)
				r.Runs++
				runDurations[k][run] = it.Data["Duration"]
				if r.Measured == "" {
					r.Measured = measuredName(it.Labels["Name"])
				}
			case "SchedulingThroughput":
				r := row(k)
				n := float64(r.samples)
				r.Average = (r.Average*n + it.Data["Average"]) / (n + 1)
				r.Perc50 = (r.Perc50*n + it.Data["Perc50"]) / (n + 1)
				r.Perc90 = (r.Perc90*n + it.Data["Perc90"]) / (n + 1)
				r.samples++
			case "scheduler_scheduling_attempt_duration_seconds":
				if p99, ok := it.Data["Perc99"]; ok && it.Labels["result"] == "scheduled" {
					if it.Unit == "s" {
						p99 *= 1000
					}
					attempts[k] = append(attempts[k], p99)
				}
			}
		}
	}
	out := make([]Row, 0, len(order))
	baseline := map[[2]string]float64{}
	baselineKey := map[[2]string]key{}
	for _, k := range order {
		r := rows[k]
		if ps := attempts[k]; len(ps) > 0 {
			sum := 0.0
			for _, p := range ps {
				sum += p
			}
			r.AttemptP99 = sum / float64(len(ps))
		}
		bk := [2]string{k.scenario, k.workload}
		if base, ok := baseline[bk]; !ok {
			baseline[bk] = r.Duration
			baselineKey[bk] = k
		} else if base > 0 && r.Duration > 0 {
			r.Speedup = base / r.Duration
			r.SpeedupMin, r.SpeedupMax = PairedRange(runDurations[baselineKey[bk]], runDurations[k],
				func(base, v float64) float64 { return base / v })
		}
		r.samples = 0
		out = append(out, *r)
	}
	return out
}

// parseName splits "BenchmarkPerfScheduling/<Scenario>_<Variant>/<Workload>[/<namespace>]".
func parseName(name string) (key, bool) {
	parts := strings.Split(name, "/")
	if len(parts) < 3 {
		return key{}, false
	}
	tc, workload := parts[1], parts[2]
	scenario, variant, found := strings.Cut(tc, "_")
	if !found {
		return key{}, false
	}
	return key{scenario: scenario, variant: variant, workload: workload}, true
}

// measuredName is the part of a harness data item's name after the
// workload: "" when there is none.
func measuredName(name string) string {
	parts := strings.SplitN(name, "/", 4)
	if len(parts) < 4 {
		return ""
	}
	return parts[3]
}

// PairedRange returns the lowest and highest of ratio(base, v) over the
// runs (keys) in which both base and v have a positive figure; zeros when
// there is none. A variant's spread compares it with the baseline of its
// own run: both ran on the machine in the same state.
func PairedRange(base, v map[int]float64, ratio func(base, v float64) float64) (lo, hi float64) {
	for _, run := range slices.Sorted(maps.Keys(v)) {
		b, ok := base[run]
		if !ok || b <= 0 || v[run] <= 0 {
			continue
		}
		r := ratio(b, v[run])
		if lo == 0 && hi == 0 {
			lo, hi = r, r
			continue
		}
		lo, hi = min(lo, r), max(hi, r)
	}
	return lo, hi
}

// Markdown writes the table.
func Markdown(w io.Writer, rows []Row) error {
	var b strings.Builder
	b.WriteString("| Scenario | Workload | Variant | Time to schedule all (s) | vs baseline | Throughput avg (pods/s) | p50 | p90 | Attempt p99 (ms) | Runs |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|\n")
	for _, r := range rows {
		speed := "baseline"
		if r.Speedup > 0 {
			speed = fmt.Sprintf("%.2f×", r.Speedup)
		}
		throughput := "– | – | –"
		if r.Average > 0 {
			throughput = fmt.Sprintf("%.1f | %.1f | %.1f", r.Average, r.Perc50, r.Perc90)
		}
		attempt := "–"
		if r.AttemptP99 > 0 {
			attempt = fmt.Sprintf("%.1f", r.AttemptP99)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.2f | %s | %s | %s | %d |\n",
			r.Scenario, r.Workload, r.Variant, r.Duration, speed, throughput, attempt, r.Runs)
	}
	_, err := io.WriteString(w, b.String())
	return err
}
