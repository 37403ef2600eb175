package main

import (
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
)

// Time to admission by workload class. The TopologyQueue scenario drains
// workloads of several classes (size × topology request) through
// ClusterQueues, shaped as Kueue's own Topology-Aware-Scheduling
// performance test, and records in its QueueDrain_*.json, per run, one
// QueueDrainAdmission item per class: the Average and Max, over the Count
// workloads of the class admitted in the run, of the time from the start
// of the run, when every workload exists as a JobSet (most still held
// suspended by their queue's start window), to its last pod bound. Each
// class is held to the
// threshold Kueue's test sets its own class, and the scenario's wall time
// (QueueDrainDuration's Drained) to Kueue's.

// admissionMetric is the per-class item's metric, as test/perf names it.
const admissionMetric = "QueueDrainAdmission"

// wallTimeScenario is the scenario whose wall time is held to Kueue's:
// the one shaped as Kueue's test.
const wallTimeScenario = "TopologyQueue"

// Kueue's thresholds for its Topology-Aware-Scheduling performance test
// (640 nodes, 15 000 workloads), which admits workloads without binding
// their pods.
const kueueMaxWallSeconds = 482.0

// kueueWorkloads is the number of workloads Kueue's test drains: its
// thresholds hold for a run of that many, not for a smaller one, whose
// queues are shorter.
const kueueWorkloads = 15000

// kueueMaxAverageAdmission is, by Kueue's class name, its bound on the
// class's average time to admission, in seconds.
var kueueMaxAverageAdmission = map[string]float64{
	"small-required-rack":   297,
	"small-preferred-rack":  296,
	"small-balanced-rack":   286,
	"medium-required-rack":  129,
	"medium-preferred-rack": 128,
	"medium-balanced-rack":  128,
	"large-required-rack":   48,
	"large-preferred-rack":  48,
	"large-balanced-rack":   46,
}

// kueueThreshold is Kueue's bound on a class's average time to admission;
// false for a class Kueue's test has no counterpart of. Our sliced classes
// are held to Kueue's balanced ones.
func kueueThreshold(class string) (float64, bool) {
	size, kind, ok := strings.Cut(class, "-")
	if !ok {
		return 0, false
	}
	if rest, ok := strings.CutPrefix(kind, "sliced-"); ok {
		kind = "balanced-" + rest
	}
	v, ok := kueueMaxAverageAdmission[size+"-"+kind]
	return v, ok
}

// Classes are listed largest first, then required, preferred, sliced; a
// class named otherwise comes after these, in the order first seen.
var (
	classSizes      = []string{"large", "medium", "small"}
	classTopologies = []string{"required", "preferred", "sliced"}
)

// classRank orders classes within one variant's workload; see classSizes.
func classRank(class string) int {
	last := len(classSizes) * len(classTopologies)
	size, rest, _ := strings.Cut(class, "-")
	topology, _, _ := strings.Cut(rest, "-")
	s, t := slices.Index(classSizes, size), slices.Index(classTopologies, topology)
	if s < 0 || t < 0 {
		return last
	}
	return s*len(classTopologies) + t
}

// perRun holds one figure of each run, keyed by run (see runs).
type perRun map[int]float64

// mean is the mean over the runs; false without any.
func (p perRun) mean() (float64, bool) {
	if len(p) == 0 {
		return 0, false
	}
	sum := 0.0
	for _, v := range p {
		sum += v
	}
	return sum / float64(len(p)), true
}

// spread is the lowest and highest figure of single runs.
func (p perRun) spread() (lo, hi float64) {
	sorted := slices.Sorted(maps.Values(p))
	if len(sorted) == 0 {
		return 0, 0
	}
	return sorted[0], sorted[len(sorted)-1]
}

// cell formats the mean with format, and in brackets the lowest and
// highest run when they differ; "–" without any run.
func (p perRun) cell(format string) string {
	m, ok := p.mean()
	if !ok {
		return "–"
	}
	s := fmt.Sprintf(format, m)
	if lo, hi := p.spread(); hi > lo {
		s += fmt.Sprintf(" ("+format+"–"+format+")", lo, hi)
	}
	return s
}

// admissionRow is one class of one variant's workload, over its runs.
type admissionRow struct {
	Scenario, Variant, Workload, Class string
	// count is each run's number of workloads of the class admitted; a run
	// of the variant without an item for the class counts 0.
	count perRun
	// average and maxSeconds are each run's Average and Max, in seconds,
	// of the runs that admitted any workload of the class: a run that
	// admitted none timed none.
	average, maxSeconds perRun
}

func (r admissionRow) key() quotaKey {
	return quotaKey{scenario: r.Scenario, variant: r.Variant, workload: r.Workload}
}

// met says whether the class's mean average is within Kueue's threshold;
// ok is false when Kueue has none for the class. A class of which no run
// admitted any workload has not met it.
func (r admissionRow) met() (threshold float64, met, ok bool) {
	threshold, ok = kueueThreshold(r.Class)
	if !ok {
		return 0, false, false
	}
	avg, timed := r.average.mean()
	return threshold, timed && avg <= threshold, true
}

// admissionResults are the classes' rows, and the wall time of each run of
// the TopologyQueue scenario's variants.
type admissionResults struct {
	rows []admissionRow
	// groups are the variants' workloads of rows and wallSeconds, in the
	// order first seen; rows are in the same order.
	groups      []quotaKey
	wallSeconds map[quotaKey]perRun
	// workloads are each run's drained workloads, by variant's workload.
	workloads map[quotaKey]perRun
}

// comparable reports whether a variant's workload drained as many
// workloads as Kueue's test, whose thresholds then apply.
func (res admissionResults) comparable(k quotaKey) bool {
	n, ok := res.workloads[k].mean()
	return ok && n >= kueueWorkloads
}

// loadAdmission reads the QueueDrainAdmission and, for the TopologyQueue
// scenario, the QueueDrainDuration items of the QueueDrain_*.json files in
// dir; no rows when no run timed admissions by class.
func loadAdmission(dir string) (admissionResults, error) {
	res := admissionResults{wallSeconds: map[quotaKey]perRun{}, workloads: map[quotaKey]perRun{}}
	files, err := filepath.Glob(filepath.Join(dir, "QueueDrain_*.json"))
	if err != nil || len(files) == 0 {
		return res, err
	}
	slices.Sort(files)
	type classKey struct {
		quotaKey
		class string
	}
	var order []classKey
	rows := map[classKey]*admissionRow{}
	// variantRuns are the runs of each variant's workload, from its
	// QueueDrainCounts items, which every run writes once.
	variantRuns := map[quotaKey]map[int]bool{}
	groupSeen := map[quotaKey]bool{}
	addGroup := func(k quotaKey) {
		if !groupSeen[k] {
			groupSeen[k] = true
			res.groups = append(res.groups, k)
		}
	}
	for fileIndex, f := range files {
		items, err := readItems(f)
		if err != nil {
			return res, err
		}
		numbered := runsOf(fileIndex)
		for _, it := range items.DataItems {
			k, ok := parseQuotaName(it.Labels["Name"])
			if !ok {
				continue
			}
			metric := it.Labels["Metric"]
			switch metric {
			case "QueueDrainCounts":
				run := numbered.next(metric, it.Labels["Name"])
				if variantRuns[k] == nil {
					variantRuns[k] = map[int]bool{}
					res.workloads[k] = perRun{}
				}
				variantRuns[k][run] = true
				res.workloads[k][run] = it.Data["Workloads"]
			case "QueueDrainDuration":
				run := numbered.next(metric, it.Labels["Name"])
				if k.scenario != wallTimeScenario {
					continue
				}
				addGroup(k)
				if res.wallSeconds[k] == nil {
					res.wallSeconds[k] = perRun{}
				}
				res.wallSeconds[k][run] = it.Data["Drained"]
			case admissionMetric:
				class := it.Labels["Class"]
				if class == "" {
					return res, fmt.Errorf("%s: %s item of %s names no class", f, metric, it.Labels["Name"])
				}
				// One run writes an item per class under the same name:
				// a class's n-th item is its n-th run.
				run := numbered.next(metric+"/"+class, it.Labels["Name"])
				ck := classKey{k, class}
				r := rows[ck]
				if r == nil {
					r = &admissionRow{Scenario: k.scenario, Variant: k.variant, Workload: k.workload, Class: class,
						count: perRun{}, average: perRun{}, maxSeconds: perRun{}}
					rows[ck] = r
					order = append(order, ck)
					addGroup(k)
				}
				d := it.Data
				r.count[run] = d["Count"]
				if d["Count"] > 0 {
					r.average[run] = d["Average"]
					r.maxSeconds[run] = d["Max"]
				}
			}
		}
	}
	groupIndex := map[quotaKey]int{}
	for i, k := range res.groups {
		groupIndex[k] = i
	}
	for _, ck := range order {
		r := rows[ck]
		// test/perf writes no item for a class that admitted none in a
		// run: count those runs as 0. A file's n-th item of a class takes
		// the number of the file's n-th run even when an earlier run
		// lacked it; a class's figures are only averaged and ranged,
		// never paired run by run with another's, so only how many runs
		// lack it matters, not which.
		for run := range variantRuns[ck.quotaKey] {
			if _, ok := r.count[run]; !ok {
				r.count[run] = 0
			}
		}
		res.rows = append(res.rows, *r)
	}
	// Stable: classes of the same rank stay in the order first seen.
	slices.SortStableFunc(res.rows, func(a, b admissionRow) int {
		if d := groupIndex[a.key()] - groupIndex[b.key()]; d != 0 {
			return d
		}
		return classRank(a.Class) - classRank(b.Class)
	})
	return res, nil
}

// writeAdmission writes the time to admission of each class against
// Kueue's thresholds, and the TopologyQueue scenario's wall time against
// Kueue's.
func writeAdmission(w io.Writer, res admissionResults) error {
	var b strings.Builder
	b.WriteString("\n## Time to admission by workload class\n\n")
	fmt.Fprintf(&b, "Each workload is timed **from the start of the run, every workload created (as a JobSet, started by the scheduler when its queue's window reaches it), to its last pod bound**, pods bound for real; "+
		"a class's **Average** and **Max** are over the workloads of it admitted in a run, **Workloads** their number per run. "+
		"With several runs a figure is the mean of the runs, in brackets the lowest and highest single run. "+
		"**Kueue's threshold** bounds the class's average time to admission in Kueue's own Topology-Aware-Scheduling performance test "+
		"(640 nodes, 15 000 workloads; wall time at most %.0f s), which admits workloads without binding their pods; "+
		"our *sliced* classes are held to Kueue's *balanced* ones. **Met**: the mean Average within it, for a run of as many workloads as Kueue's.\n\n", kueueMaxWallSeconds)
	b.WriteString("| Scenario | Workload | Variant | Class | Workloads | Average (s) | Max (s) | Kueue's threshold (s) | Met |\n")
	b.WriteString("|---|---|---|---|---:|---:|---:|---:|---|\n")
	for _, r := range res.rows {
		count, _ := r.count.mean()
		threshold, met := "–", "–"
		if t, isMet, known := r.met(); known {
			threshold, met = num(t), "no"
			switch {
			case !res.comparable(r.key()):
				met = "– (fewer workloads)"
			case isMet:
				met = "yes"
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s |\n",
			r.Scenario, r.Workload, r.Variant, r.Class, num(count),
			r.average.cell("%.1f"), r.maxSeconds.cell("%.1f"), threshold, met)
	}
	var targets []string
	for _, k := range res.groups {
		if t := res.verdict(k); t != "" {
			targets = append(targets, t)
		}
	}
	if len(targets) > 0 {
		b.WriteString("\nTargets:\n\n" + strings.Join(targets, ""))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdict says how a variant's workload fares against Kueue's thresholds:
// its wall time (TopologyQueue only) and its classes' average times to
// admission; "" when none applies.
func (res admissionResults) verdict(k quotaKey) string {
	met := func(ok bool) string {
		if ok {
			return "met"
		}
		return "MISSED"
	}
	var parts []string
	if runs := res.wallSeconds[k]; len(runs) > 0 && !res.comparable(k) {
		wall, _ := runs.mean()
		n, _ := res.workloads[k].mean()
		s := fmt.Sprintf("wall time %.1f s", wall)
		if lo, hi := runs.spread(); hi > lo {
			s += fmt.Sprintf(" (single runs %.1f–%.1f)", lo, hi)
		}
		return fmt.Sprintf("- %s %s, %s: %s over %s; Kueue's thresholds hold for its %d workloads, not for this run's %s.\n",
			k.scenario, k.workload, k.variant, s, counted(float64(len(runs)), "run"), kueueWorkloads, num(n))
	}
	if runs := res.wallSeconds[k]; len(runs) > 0 {
		wall, _ := runs.mean()
		s := fmt.Sprintf("wall time %.1f s", wall)
		if lo, hi := runs.spread(); hi > lo {
			s += fmt.Sprintf(" (single runs %.1f–%.1f)", lo, hi)
		}
		parts = append(parts, fmt.Sprintf("%s, from the start of the measurement to the last workload deleted, over %s (Kueue's threshold ≤ %.0f s: %s)",
			s, counted(float64(len(runs)), "run"), kueueMaxWallSeconds, met(wall <= kueueMaxWallSeconds)))
	}
	judged := 0
	var missed []string
	for _, r := range res.rows {
		if r.key() != k {
			continue
		}
		if _, isMet, known := r.met(); known {
			judged++
			if !isMet {
				missed = append(missed, r.Class)
			}
		}
	}
	if judged > 0 {
		classes := "classes"
		if judged == 1 {
			classes = "class"
		}
		s := fmt.Sprintf("average time to admission within Kueue's threshold for %d of %d %s (%s", judged-len(missed), judged, classes, met(len(missed) == 0))
		if len(missed) > 0 {
			s += ": " + strings.Join(missed, ", ")
		}
		parts = append(parts, s+")")
	}
	if len(parts) == 0 {
		return ""
	}
	return fmt.Sprintf("- %s %s, %s: %s.\n", k.scenario, k.workload, k.variant, strings.Join(parts, "; "))
}
