package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport"
	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport/plot"
)

// The gang latency comparison. test/perf records, for every namespace of
// every scenario's runs (test/perf/ganglatency_test.go), a GangLatency data
// item where the namespace holds gangs: the time from each gang's first
// member created to its last member bound, over the gangs wholly bound;
// or a PlainGroupLatency one where it holds plain pods and the workload
// names the gang size (podsPerWorkload): the same time for groups of that
// many plain pods, consecutive in creation order. Each variant whose
// measured pods are gangs is set against its scenario's baseline (first)
// variant's measured pods on the same workload: groups of plain pods, or
// gangs where the baseline schedules gangs too.

// maxGangP99Ratio: a gang's p99 latency at most this many times that of
// as many plain pods.
const maxGangP99Ratio = 1.2

// The data items' metrics, as test/perf names them.
const (
	gangLatencyMetric = "GangLatency"
	plainGroupMetric  = "PlainGroupLatency"
)

// groupKey names the pods of one namespace of one variant on one workload.
type groupKey struct{ scenario, variant, workload, namespace string }

// groupFigures are one namespace's gang (or plain group) latencies over
// the runs that recorded them.
type groupFigures struct {
	// plain: groups of plain pods; otherwise gangs.
	plain bool
	// byRun holds each field's figure (Count, Perc50, ...) by run (file);
	// a run with no group wholly bound has no Perc* figure.
	byRun map[string]map[int]float64
}

// runs is how many runs recorded the namespace.
func (f *groupFigures) runs() int { return len(f.byRun["Count"]) }

// mean is a field's mean over the runs that reported it.
func (f *groupFigures) mean(field string) (float64, bool) { return perRun(f.byRun[field]).mean() }

// spread is a field's lowest and highest figure of single runs.
func (f *groupFigures) spread(field string) (lo, hi float64) { return perRun(f.byRun[field]).spread() }

// loadGroupLatencies reads the GangLatency_*.json files in dir (one per
// test process, each holding its every run: see runs); none when test/perf
// recorded none.
func loadGroupLatencies(dir string) (map[groupKey]*groupFigures, error) {
	files, err := filepath.Glob(filepath.Join(dir, "GangLatency_*.json"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	slices.Sort(files)
	out := map[groupKey]*groupFigures{}
	for fileIndex, f := range files {
		items, err := readItems(f)
		if err != nil {
			return nil, err
		}
		numbered := runsOf(fileIndex)
		for _, it := range items.DataItems {
			metric := it.Labels["Metric"]
			if metric != gangLatencyMetric && metric != plainGroupMetric {
				continue
			}
			q, ok := parseQuotaName(it.Labels["Name"])
			parts := strings.Split(it.Labels["Name"], "/")
			if !ok || len(parts) != 4 || parts[3] == "" {
				return nil, fmt.Errorf("%s: %s item named %q, not BenchmarkPerfScheduling/<test case>/<workload>/<namespace>", f, metric, it.Labels["Name"])
			}
			k := groupKey{scenario: q.scenario, variant: q.variant, workload: q.workload, namespace: parts[3]}
			g := out[k]
			if g == nil {
				g = &groupFigures{plain: metric == plainGroupMetric, byRun: map[string]map[int]float64{}}
				out[k] = g
			}
			if g.plain != (metric == plainGroupMetric) {
				return nil, fmt.Errorf("%s: %s holds gangs in one run and plain pods in another", f, it.Labels["Name"])
			}
			run := numbered.next(metric, it.Labels["Name"])
			for field, v := range it.Data {
				if g.byRun[field] == nil {
					g.byRun[field] = map[int]float64{}
				}
				g.byRun[field][run] = v
			}
		}
	}
	return out, nil
}

// gangComparison sets a variant's gangs against its scenario's baseline.
type gangComparison struct {
	Scenario, Workload, Variant, Baseline string
	gangs                                 *groupFigures
	// base are the baseline's measured pods; nil when they were not
	// grouped (its workload names no gang size).
	base *groupFigures
}

// p99Ratio is the gangs' p99 over the baseline's, of the means over the
// runs, with the spread of single runs, each against the baseline of its
// own run; ok is false without both figures.
func (c gangComparison) p99Ratio() (ratio, lo, hi float64, ok bool) {
	if c.base == nil {
		return 0, 0, 0, false
	}
	p99, ok1 := c.gangs.mean("Perc99")
	base, ok2 := c.base.mean("Perc99")
	if !ok1 || !ok2 || base <= 0 {
		return 0, 0, 0, false
	}
	lo, hi = benchreport.PairedRange(c.base.byRun["Perc99"], c.gangs.byRun["Perc99"], over)
	return p99 / base, lo, hi, true
}

// gangComparisons pairs each variant whose measured pods (rows' Measured)
// are gangs with its scenario's baseline on the same workload, in the
// rows' order.
func gangComparisons(rows []benchreport.Row, figs map[groupKey]*groupFigures) []gangComparison {
	baseline := map[[2]string]benchreport.Row{}
	var out []gangComparison
	for _, r := range rows {
		bk := [2]string{r.Scenario, r.Workload}
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r
			continue
		}
		g := figs[groupKey{r.Scenario, r.Variant, r.Workload, r.Measured}]
		if g == nil || g.plain {
			continue
		}
		out = append(out, gangComparison{Scenario: r.Scenario, Workload: r.Workload, Variant: r.Variant, Baseline: base.Variant,
			gangs: g, base: figs[groupKey{base.Scenario, base.Variant, base.Workload, base.Measured}]})
	}
	return out
}

// writeGangLatency writes the comparison table and how each variant
// fares against the target.
func writeGangLatency(w io.Writer, cs []gangComparison) error {
	var b strings.Builder
	b.WriteString("\n## Gang latency\n\n")
	fmt.Fprintf(&b, "A gang member's scheduling attempt includes its whole gang's bind burst, which no placement decision shortens: gangs are timed per gang instead, "+
		"**from a gang's first member created to its last member bound**, over the gangs wholly bound. "+
		"The **baseline** is the same time for as many plain pods in the same run of the scenario's baseline variant: its measured pods in groups of the gang size, "+
		"consecutive in creation order (or its gangs, where it schedules gangs too). "+
		"**p99 × baseline**: the gangs' p99 over the baseline's; the target is at most %.1f× against plain pods. "+
		"With several runs a figure is the mean of the runs, in brackets the lowest and highest single run (for the ratio, each run's gangs against its own baseline). "+
		"Per pod, the first table's Attempt p99 remains: for plain pods through our profile it is still the figure to watch.\n\n", maxGangP99Ratio)
	b.WriteString("| Scenario | Workload | Variant | Gangs | p50 (s) | p99 (s) | Baseline | Baseline groups | p50 (s) | p99 (s) | p99 × baseline | Runs |\n")
	b.WriteString("|---|---|---|---|---:|---:|---|---|---:|---:|---:|---:|\n")
	var targets []string
	for _, c := range cs {
		baseGroups, baseP50, baseP99 := "not grouped", "–", "–"
		if c.base != nil {
			baseGroups, baseP50, baseP99 = c.base.groups(), c.base.figure("Perc50"), c.base.figure("Perc99")
		}
		ratio := "–"
		if r, lo, hi, ok := c.p99Ratio(); ok {
			ratio = fmt.Sprintf("%.2f×", r)
			if lo > 0 && hi > lo {
				ratio += fmt.Sprintf(" (%.2f×–%.2f×)", lo, hi)
			}
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %s | %d |\n",
			c.Scenario, c.Workload, c.Variant, c.gangs.groups(), c.gangs.figure("Perc50"), c.gangs.figure("Perc99"),
			c.Baseline, baseGroups, baseP50, baseP99, ratio, c.gangs.runs())
		targets = append(targets, c.verdict())
	}
	b.WriteString("\nTargets:\n\n" + strings.Join(targets, ""))
	_, err := io.WriteString(w, b.String())
	return err
}

// groups says how many groups were timed, of how many pods: "4 gangs, 256
// pods" (the pods of the groups wholly bound), with those not wholly bound.
func (f *groupFigures) groups() string {
	timed, _ := f.mean("Count")
	seen, _ := f.mean("Groups")
	pods, _ := f.mean("Pods")
	what, members := "gang", "pod"
	if f.plain {
		what, members = "group", "plain pod"
	}
	if seen > timed {
		return fmt.Sprintf("%s of %s, %s", num(timed), counted(seen, what), counted(pods, members))
	}
	return fmt.Sprintf("%s, %s", counted(timed, what), counted(pods, members))
}

// counted is "n things", or "1 thing".
func counted(n float64, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return num(n) + " " + thing + "s"
}

// figure formats a field in seconds, with the spread of the runs when
// they differ; "–" when no run timed any group.
func (f *groupFigures) figure(field string) string {
	v, ok := f.mean(field)
	if !ok {
		return "–"
	}
	s := fmt.Sprintf("%.2f", v)
	if lo, hi := f.spread(field); hi > lo {
		s += fmt.Sprintf(" (%.2f–%.2f)", lo, hi)
	}
	return s
}

// verdict says how a variant's gangs fare against the target, which holds
// them against plain pods only.
func (c gangComparison) verdict() string {
	head := fmt.Sprintf("- %s %s, %s:", c.Scenario, c.Workload, c.Variant)
	ratio, _, _, ok := c.p99Ratio()
	switch {
	case c.base == nil:
		return fmt.Sprintf("%s no baseline: %s's measured pods were not grouped (its workload names no gang size).\n", head, c.Baseline)
	case !ok:
		return fmt.Sprintf("%s no ratio: the gangs or %s's %s were not all timed.\n", head, c.Baseline, c.base.kind())
	case !c.base.plain:
		return fmt.Sprintf("%s gang p99 %.2f× that of %s's gangs (not judged: the target holds gangs against plain pods).\n", head, ratio, c.Baseline)
	}
	met := "met"
	if ratio > maxGangP99Ratio {
		met = "MISSED"
	}
	return fmt.Sprintf("%s gang p99 %.2f× that of as many plain pods through %s (target ≤ %.1f×: %s).\n", head, ratio, c.Baseline, maxGangP99Ratio, met)
}

func (f *groupFigures) kind() string {
	if f.plain {
		return "groups of plain pods"
	}
	return "gangs"
}

// gangLatencyPlot draws the table's p99 ratios; false when no variant has
// gangs to compare.
func gangLatencyPlot(cs []gangComparison) (benchreport.Plot, bool) {
	if len(cs) == 0 {
		return benchreport.Plot{}, false
	}
	bars := make([]plot.Bar, 0, len(cs))
	runs := 0
	for _, c := range cs {
		bar := plot.Bar{Group: benchreport.Group(c.Scenario, c.Workload, c.Baseline), Label: c.Variant}
		bar.Ratio, bar.Min, bar.Max, _ = c.p99Ratio()
		bars = append(bars, bar)
		runs = max(runs, c.gangs.runs())
	}
	title := "Gang latency: p99 against the baseline"
	return benchreport.Plot{File: "ratio-gang-latency-p99.svg", Alt: title, SVG: plot.RatioChart{
		Title: title,
		Subtitle: fmt.Sprintf("The gang latency table's “p99 × baseline”: from a gang's first member created to its last member bound, p99, "+
			"over that of as many plain pods in the baseline variant (or of its gangs); above 1 is slower, the target at most %.1f×. ", maxGangP99Ratio) +
			benchreport.RunsNote(runs),
		Better: "quicker than the baseline",
		Worse:  "slower than the baseline",
		Bars:   bars,
	}.SVG()}, true
}
