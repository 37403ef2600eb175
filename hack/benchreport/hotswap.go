package main

import (
	"fmt"
	"io"
	"maps"
	"math"
	"path/filepath"
	"slices"
	"strings"
)

// The hotswap comparison: test/perf fills a cluster with low-priority
// gangs, then follows high-priority gangs that can only be placed by
// preemption (the Hotswap scenarios of test/perf/performance-config.yaml),
// through kube-scheduler's pod-by-pod DefaultPreemption and through our
// whole-workload preemption, and records Hotswap* data items
// (test/perf/hotswap_results_test.go says how each is measured).

// The target of whole-workload preemption.
const (
	// maxDecisionP99Ms: one preemption decision (victims chosen, every
	// candidate set simulated) within this, at the 99th percentile...
	maxDecisionP99Ms = 100.0
	// minJudgedCandidates: ...with about a thousand candidate workloads.
	// Runs with fewer candidates (the short size) are not judged.
	minJudgedCandidates = 900.0
)

// hotswapRow is one variant on one workload size, over all its runs.
type hotswapRow struct {
	Scenario, Variant, Workload string
	Runs                        int
	// sums holds, per "Metric.Field", the sum over the runs that reported
	// it, and reported how many did: a figure is their mean.
	sums     map[string]float64
	reported map[string]int
}

// get returns the mean of metric.field over the runs that reported it.
func (r hotswapRow) get(metric, field string) (float64, bool) {
	k := metric + "." + field
	n := r.reported[k]
	if n == 0 {
		return 0, false
	}
	return r.sums[k] / float64(n), true
}

func (r hotswapRow) count(field string) float64 {
	v, _ := r.get("HotswapCounts", field)
	return v
}

// Preemptions are the decisions that evicted: one per gang for
// whole-workload preemption, one per pod (one host) for pod-by-pod.
func (r hotswapRow) Preemptions() float64 {
	return r.count("WorkloadPreemptions") + r.count("PodPreemptions")
}

// VictimsPerPreemption: workloads per whole-workload decision, pods per
// pod-by-pod decision (each host runs one pod, of one workload).
func (r hotswapRow) VictimsPerPreemption() (float64, bool) {
	p := r.Preemptions()
	if p == 0 {
		return 0, false
	}
	return (r.count("WorkloadVictims") + r.count("PodPreemptionVictims")) / p, true
}

// loadHotswap reads the Hotswap_*.json files in dir; no rows when no
// hotswap scenario ran.
func loadHotswap(dir string) ([]hotswapRow, error) {
	files, err := filepath.Glob(filepath.Join(dir, "Hotswap_*.json"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	slices.Sort(files)
	var order []quotaKey
	rows := map[quotaKey]*hotswapRow{}
	for _, f := range files {
		items, err := readItems(f)
		if err != nil {
			return nil, err
		}
		for _, it := range items.DataItems {
			metric := it.Labels["Metric"]
			k, ok := parseQuotaName(it.Labels["Name"])
			if !ok || !strings.HasPrefix(metric, "Hotswap") {
				continue
			}
			r := rows[k]
			if r == nil {
				r = &hotswapRow{Scenario: k.scenario, Variant: k.variant, Workload: k.workload,
					sums: map[string]float64{}, reported: map[string]int{}}
				rows[k] = r
				order = append(order, k)
			}
			if metric == "HotswapCounts" {
				r.Runs++
			}
			for field, v := range it.Data {
				r.sums[metric+"."+field] += v
				r.reported[metric+"."+field]++
			}
		}
	}
	out := make([]hotswapRow, 0, len(order))
	for _, k := range order {
		out = append(out, *rows[k])
	}
	return out, nil
}

// writeHotswap writes the comparison table, its legend, and how our
// variant fares against the decision-time target.
func writeHotswap(w io.Writer, rows []hotswapRow) error {
	var b strings.Builder
	b.WriteString("\n## Hotswap: high-priority gangs placed by preemption\n\n")
	b.WriteString("High-priority gangs arrive at once on a cluster whose every host low-priority gangs hold (the candidate victims); " +
		"each can only be placed by preemption. Victims are not restarted (no JobSet controller runs) and terminate at once (no kubelet: zero grace period). " +
		"**Gangs bound**: high-priority gangs with every pod bound when the wait ended (*timed out*: it ended at its time limit, or when nothing was bound or evicted for a while). " +
		"**Placed as gangs**: of those, the ones whose every slice is on one pool that holds nothing else. " +
		"**Bind**: from a gang's first pod created to its last pod bound, over the gangs wholly bound. " +
		"**Preemptions**: preemption decisions that evicted — one per gang for whole-workload preemption, one per pod (one host) for kube-scheduler's DefaultPreemption. " +
		"**Victims / preemption**: workloads evicted per decision; for DefaultPreemption, pods (each host runs one pod, of one workload). " +
		"**Victim workloads**: low-priority gangs that lost any pod (in brackets: those only partly evicted). " +
		"**Pods evicted**: pods deleted by preemption. " +
		"**Pods lost**: every pod of every victim, since JobSet restarts a gang whole when any of its pods fails; " +
		"in brackets, **beyond need**: lost minus the victims' hosts that high-priority pods took — pods killed that gave the preemptors nothing " +
		"(evicted from a host no preemptor took, or left to be restarted with their partly evicted gang). " +
		"**Decision**: `multislice_preemption_decision_seconds` per whole-workload decision (victims chosen, candidate sets simulated), " +
		"each recovered from the histogram's sum (with fewer than 100 decisions, p99 is the slowest); – for pod-by-pod preemption.\n\n")
	b.WriteString("| Scenario | Workload | Variant | Candidates | Gangs bound | Placed as gangs | Bind p50 (s) | p90 | max | Preemptions | Victims / preemption | Victim workloads (partly) | Pods evicted | Pods lost (beyond need) | Decision p50 (ms) | p99 | max | Runs |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var notes []string
	for _, r := range rows {
		bound := fmt.Sprintf("%s / %s", num(r.count("HighGangsBound")), num(r.count("HighGangs")))
		if r.count("TimedOut") > 0 {
			bound += " (timed out)"
		}
		vpp := "–"
		if v, ok := r.VictimsPerPreemption(); ok {
			vpp = fmt.Sprintf("%.2f", v)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s (%s) | %s | %s (%s) | %s | %d |\n",
			r.Scenario, r.Workload, r.Variant, num(r.count("LowWorkloads")), bound, num(r.count("HighGangsPlaced")),
			r.stats("HotswapBindTime", "%.2f", "Perc50", "Perc90", "Max"),
			num(r.Preemptions()), vpp,
			num(r.count("VictimWorkloads")), num(r.count("VictimWorkloadsPartial")), num(r.count("PodsEvicted")),
			num(r.count("PodsLost")), num(r.count("PodsLostBeyondNeed")),
			r.stats("HotswapDecisionTime", "%.1f", "Perc50", "Perc99", "Max"), r.Runs)
		notes = append(notes, r.notes()...)
	}
	out := b.String()
	if len(notes) > 0 {
		out += "\nTargets and notes:\n\n" + strings.Join(notes, "")
	}
	_, err := io.WriteString(w, out)
	return err
}

// stats formats fields of a metric as table cells, "–" where not reported.
func (r hotswapRow) stats(metric, format string, fields ...string) string {
	cells := make([]string, len(fields))
	for i, f := range fields {
		cells[i] = "–"
		if v, ok := r.get(metric, f); ok {
			cells[i] = fmt.Sprintf(format, v)
		}
	}
	return strings.Join(cells, " | ")
}

// notes says how a row fares against the decision-time target and
// whether its wait timed out.
func (r hotswapRow) notes() []string {
	var out []string
	head := fmt.Sprintf("- %s %s, %s:", r.Scenario, r.Workload, r.Variant)
	if p99, ok := r.get("HotswapDecisionTime", "Perc99"); ok {
		n, _ := r.get("HotswapDecisionTime", "Count")
		cands := r.count("LowWorkloads")
		s := fmt.Sprintf("%s preemption decision p99 %.1f ms over %s decisions with %s candidate workloads", head, p99, num(n), num(cands))
		if cands >= minJudgedCandidates {
			verdict := "met"
			if p99 >= maxDecisionP99Ms {
				verdict = "MISSED"
			}
			s += fmt.Sprintf(" (target < %.0f ms with ~1 000 candidates: %s).\n", maxDecisionP99Ms, verdict)
		} else {
			s += fmt.Sprintf(" (target < %.0f ms with ~1 000 candidates: not judged, too few candidates).\n", maxDecisionP99Ms)
		}
		out = append(out, s)
	}
	if r.count("TimedOut") > 0 {
		out = append(out, fmt.Sprintf("%s the wait ended before every gang was bound: %s of %s gangs and %s of %s of their pods bound.\n",
			head, num(r.count("HighGangsBound")), num(r.count("HighGangs")), num(r.count("HighPodsBound")), num(r.count("HighPods"))))
	}
	if released := r.fields("HotswapReservationReleases"); len(released) > 0 {
		out = append(out, fmt.Sprintf("%s reservations released before their gang was placed (multislice_reservation_releases_total): %s.\n",
			head, strings.Join(released, ", ")))
	}
	if bad := r.count("EvictedWithoutDisruption") + r.count("HighPodsDeleted"); bad > 0 {
		out = append(out, fmt.Sprintf("%s %s victims lacked a DisruptionTarget condition and %s high-priority pods were deleted.\n",
			head, num(r.count("EvictedWithoutDisruption")), num(r.count("HighPodsDeleted"))))
	}
	return out
}

// fields lists "field value" for every field of a metric, by name.
func (r hotswapRow) fields(metric string) []string {
	var out []string
	for _, k := range slices.Sorted(maps.Keys(r.sums)) {
		if field, ok := strings.CutPrefix(k, metric+"."); ok {
			v, _ := r.get(metric, field)
			out = append(out, field+" "+num(v))
		}
	}
	return out
}

// num prints a count, or a mean over runs, without needless decimals.
func num(v float64) string {
	if v == math.Trunc(v) {
		return fmt.Sprintf("%.0f", v)
	}
	return fmt.Sprintf("%.1f", v)
}
