package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// The quota comparison: test/perf drains queued workloads through
// ClusterQueues (see the Quota scenarios of test/perf/performance-config.yaml)
// and records QueueDrain* data items next to the harness's results. Each
// variant is compared with its scenario's first variant on the same
// workload size, the one without queues.

// Targets the quota variants are held to.
const (
	// minThroughputRatio: admission throughput at least this fraction of the
	// same workloads' without quota (the scale issue's target 5).
	minThroughputRatio = 0.9
	// maxAttemptsPerWorkload: scheduling attempts per admitted workload.
	maxAttemptsPerWorkload = 1.5
)

// quotaRow is one variant on one workload size, over all its runs.
type quotaRow struct {
	Scenario, Variant, Workload string
	Runs                        int
	// Sums over the runs.
	Workloads, Gangs, Pods       float64
	Attempts, Failed             float64
	Admissions, Rejections       float64
	AdmitSeconds                 float64
	peakRSS, peakHeap            float64
	peakRSSRuns, peakHeapSamples int
	// runWorkloads and runAdmitSeconds are each run's, by run (see runs).
	runWorkloads, runAdmitSeconds map[int]float64
}

// Throughput is admitted workloads per second, from the start of the
// measurement to the last admission.
func (r quotaRow) Throughput() float64 {
	if r.AdmitSeconds <= 0 {
		return 0
	}
	return r.Workloads / r.AdmitSeconds
}

// AttemptsPerWorkload counts, per admitted workload, its one successful
// attempt and every failed attempt (unschedulable or error): a gang is
// admitted once however many pods it binds, and its failed attempts are its
// head's retries. Pods of gangs beyond the first are not counted again.
func (r quotaRow) AttemptsPerWorkload() float64 {
	if r.Workloads == 0 {
		return 0
	}
	return 1 + r.Failed/r.Workloads
}

// AttemptsPerPod is every scheduling attempt over the pods bound.
func (r quotaRow) AttemptsPerPod() float64 {
	if r.Pods == 0 {
		return 0
	}
	return r.Attempts / r.Pods
}

// runThroughputs is each run's admission throughput, by run (file).
func (r quotaRow) runThroughputs() map[int]float64 {
	out := map[int]float64{}
	for run, secs := range r.runAdmitSeconds {
		if secs > 0 {
			out[run] = r.runWorkloads[run] / secs
		}
	}
	return out
}

// PeakRSS is the mean over runs of the test process's peak RSS (MB).
func (r quotaRow) PeakRSS() float64 {
	if r.peakRSSRuns == 0 {
		return 0
	}
	return r.peakRSS / float64(r.peakRSSRuns)
}

// PeakHeap is the mean over runs of the harness's largest heap-in-use
// sample (MB).
func (r quotaRow) PeakHeap() float64 {
	if r.peakHeapSamples == 0 {
		return 0
	}
	return r.peakHeap / float64(r.peakHeapSamples)
}

type drainItems struct {
	DataItems []struct {
		Data   map[string]float64 `json:"data"`
		Unit   string             `json:"unit"`
		Labels map[string]string  `json:"labels"`
	} `json:"dataItems"`
}

type quotaKey struct{ scenario, variant, workload string }

// loadQuota reads the QueueDrain_*.json files in dir, and the peak heap of
// the same runs from the harness's BenchmarkPerfScheduling*.json. It
// returns no rows when nothing was drained.
func loadQuota(dir string) ([]quotaRow, error) {
	drainFiles, err := filepath.Glob(filepath.Join(dir, "QueueDrain_*.json"))
	if err != nil || len(drainFiles) == 0 {
		return nil, err
	}
	harnessFiles, err := filepath.Glob(filepath.Join(dir, "BenchmarkPerfScheduling*.json"))
	if err != nil {
		return nil, err
	}
	slices.Sort(drainFiles)
	slices.Sort(harnessFiles)
	var order []quotaKey
	rows := map[quotaKey]*quotaRow{}
	for fileIndex, f := range drainFiles {
		items, err := readItems(f)
		if err != nil {
			return nil, err
		}
		numbered := runsOf(fileIndex)
		for _, it := range items.DataItems {
			k, ok := parseQuotaName(it.Labels["Name"])
			if !ok {
				continue
			}
			run := numbered.next(it.Labels["Metric"], it.Labels["Name"])
			r := rows[k]
			if r == nil {
				r = &quotaRow{Scenario: k.scenario, Variant: k.variant, Workload: k.workload,
					runWorkloads: map[int]float64{}, runAdmitSeconds: map[int]float64{}}
				rows[k] = r
				order = append(order, k)
			}
			d := it.Data
			switch it.Labels["Metric"] {
			case "QueueDrainCounts":
				r.Runs++
				r.Workloads += d["Workloads"]
				r.runWorkloads[run] += d["Workloads"]
				r.Gangs += d["Gangs"]
				r.Pods += d["Pods"]
				r.Attempts += d["Attempts"]
				r.Failed += d["AttemptsUnschedulable"] + d["AttemptsError"]
				r.Admissions += d["Admissions"]
				r.Rejections += d["QueueRejections"]
			case "QueueDrainDuration":
				r.AdmitSeconds += d["Admitted"]
				r.runAdmitSeconds[run] += d["Admitted"]
			case "QueueDrainPeakRSS":
				r.peakRSS += d["Max"]
				r.peakRSSRuns++
			}
		}
	}
	for _, f := range harnessFiles {
		items, err := readItems(f)
		if err != nil {
			return nil, err
		}
		for _, it := range items.DataItems {
			if it.Labels["Metric"] != "heap_memory_usage" {
				continue
			}
			k, ok := parseQuotaName(it.Labels["Name"])
			if r := rows[k]; ok && r != nil {
				r.peakHeap += it.Data["Max"]
				r.peakHeapSamples++
			}
		}
	}
	out := make([]quotaRow, 0, len(order))
	for _, k := range order {
		out = append(out, *rows[k])
	}
	return out, nil
}

// runs numbers the runs of one results file. A file is one test process:
// with -count N it holds each data item N times, in run order, so the n-th
// item of a metric and name is that file's run n. The n-th runs of two
// variants are then the same pass over the suite, which ratios pair.
type runs struct {
	file int
	rank map[[2]string]int
}

func runsOf(file int) *runs { return &runs{file: file, rank: map[[2]string]int{}} }

// next is the run of the next item of metric and name in the file.
func (r *runs) next(metric, name string) int {
	k := [2]string{metric, name}
	n := r.rank[k]
	r.rank[k] = n + 1
	return r.file<<16 | n
}

func readItems(file string) (drainItems, error) {
	var items drainItems
	data, err := os.ReadFile(file)
	if err != nil {
		return items, err
	}
	if err := json.Unmarshal(data, &items); err != nil {
		return items, fmt.Errorf("%s: %w", file, err)
	}
	return items, nil
}

// parseQuotaName splits "BenchmarkPerfScheduling/<Scenario>_<Variant>/<Workload>/<suffix>".
func parseQuotaName(name string) (quotaKey, bool) {
	parts := strings.Split(name, "/")
	if len(parts) < 3 {
		return quotaKey{}, false
	}
	scenario, variant, ok := strings.Cut(parts[1], "_")
	if !ok {
		return quotaKey{}, false
	}
	return quotaKey{scenario: scenario, variant: variant, workload: parts[2]}, true
}

// writeQuota writes the comparison table and how each quota-managed variant
// fares against the targets.
func writeQuota(w io.Writer, rows []quotaRow) error {
	var b strings.Builder
	b.WriteString("\n## Quota: queued workloads drained through ClusterQueues\n\n")
	b.WriteString("Admission throughput: workloads admitted (every pod bound) per second, from the first pod's creation to the last admission. " +
		"Attempts / workload: 1 + failed scheduling attempts (unschedulable, error) per admitted workload; attempts / pod: all attempts over pods bound " +
		"(scheduler_schedule_attempts_total). PreEnqueue holds: times a queue kept a workload waiting. " +
		"Peak heap: largest heap-in-use sample of the test process; peak RSS: its peak resident set; both include the in-process apiserver.\n\n")
	b.WriteString("| Scenario | Workload | Variant | Workloads | Pods | Time to admit all (s) | Admitted workloads/s | vs baseline | Attempts / workload | Attempts / pod | Queue admissions | PreEnqueue holds | Peak heap (MB) | Peak RSS (MB) | Runs |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	baseline := map[[2]string]quotaRow{}
	var verdicts []string
	for _, r := range rows {
		n := float64(max(r.Runs, 1))
		bk := [2]string{r.Scenario, r.Workload}
		ratio := "baseline"
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r
		} else if base.Throughput() > 0 {
			ratio = fmt.Sprintf("%.2f×", r.Throughput()/base.Throughput())
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %.0f | %.0f | %.2f | %.1f | %s | %.2f | %.2f | %.0f | %.0f | %s | %s | %d |\n",
			r.Scenario, r.Workload, r.Variant, r.Workloads/n, r.Pods/n, r.AdmitSeconds/n, r.Throughput(), ratio,
			r.AttemptsPerWorkload(), r.AttemptsPerPod(), r.Admissions/n, r.Rejections/n, orDash(r.PeakHeap()), orDash(r.PeakRSS()), r.Runs)
		if seen && r.Admissions > 0 {
			verdicts = append(verdicts, verdict(r, base))
		}
	}
	if len(verdicts) > 0 {
		b.WriteString("\nTargets:\n\n")
		for _, v := range verdicts {
			b.WriteString(v)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdict says how a quota-managed variant fares against the targets.
func verdict(r, base quotaRow) string {
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "- %s %s, %s:", r.Scenario, r.Workload, r.Variant)
	if base.Throughput() > 0 {
		ratio := r.Throughput() / base.Throughput()
		fmt.Fprintf(&b, " admission throughput %.2f× %s's (target ≥ %.2f×: %s);", ratio, base.Variant, minThroughputRatio, met(ratio >= minThroughputRatio))
	}
	a := r.AttemptsPerWorkload()
	fmt.Fprintf(&b, " %.2f scheduling attempts per admitted workload (target ≤ %.2f: %s)", a, maxAttemptsPerWorkload, met(a <= maxAttemptsPerWorkload))
	if h, bh := r.PeakHeap(), base.PeakHeap(); h > 0 && bh > 0 {
		fmt.Fprintf(&b, "; peak heap %.0f MB (%+.0f MB)", h, h-bh)
	}
	if m, bm := r.PeakRSS(), base.PeakRSS(); m > 0 && bm > 0 {
		fmt.Fprintf(&b, ", peak RSS %.0f MB (%+.0f MB)", m, m-bm)
	}
	b.WriteString(".\n")
	return b.String()
}

func orDash(v float64) string {
	if v <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.0f", v)
}
