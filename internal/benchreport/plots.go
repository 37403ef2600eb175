package benchreport

import (
	"fmt"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport/plot"
)

// Plot is one chart of the report.
type Plot struct {
	// File is its name in the report's plots directory: the same for the
	// same chart of every run, so that a run's plots replace another's.
	File string
	// Alt says what it shows, for the report's image link.
	Alt string
	SVG []byte
}

// FileName makes a plot's file name from parts (scenario names, say):
// letters, digits, '_' and '-' are kept, anything else becomes '-'.
func FileName(parts ...string) string {
	name := strings.Join(parts, "-")
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			return r
		}
		return '-'
	}, name) + ".svg"
}

// Group names a comparison: a scenario on a workload against its
// baseline variant.
func Group(scenario, workload, baseline string) string {
	return fmt.Sprintf("%s · %s, against %s", scenario, workload, baseline)
}

// SpeedupPlot draws the table's "vs baseline" column: each variant's time
// to schedule all measured pods against its scenario's baseline. ok is
// false when no variant has a baseline to compare with.
func SpeedupPlot(rows []Row) (p Plot, ok bool) {
	baseline := map[[2]string]string{}
	var bars []plot.Bar
	runs := 0
	for _, r := range rows {
		bk := [2]string{r.Scenario, r.Workload}
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r.Variant
			continue
		}
		bars = append(bars, plot.Bar{Group: Group(r.Scenario, r.Workload, base), Label: r.Variant,
			Ratio: r.Speedup, Min: r.SpeedupMin, Max: r.SpeedupMax})
		runs = max(runs, r.Runs)
	}
	if len(bars) == 0 {
		return Plot{}, false
	}
	title := "Time to schedule all measured pods: speedup over the baseline"
	chart := plot.RatioChart{
		Title: title,
		Subtitle: "The table's “vs baseline”, the baseline's time over the variant's: each variant against its scenario's first variant on the same workload; above 1 the variant is faster. " +
			RunsNote(runs),
		HigherIsBetter: true,
		Better:         "faster than the baseline",
		Worse:          "slower than the baseline",
		Bars:           bars,
	}
	return Plot{File: "ratio-time.svg", Alt: title, SVG: chart.SVG()}, true
}

// RunsNote says what a plot's ratios are over runs: means, with their
// spread drawn.
func RunsNote(runs int) string {
	if runs <= 1 {
		return "One run."
	}
	return fmt.Sprintf("Means of %d runs; whiskers: the lowest and highest ratio of single runs, each variant against the baseline of its own run.", runs)
}

// BoundPlots draws, for each scenario, its measured pods bound over time:
// a panel per workload, a line per variant. With several runs, each
// variant's line is its run with the median time to the last pod bound
// (Median), which the legend names. Scenarios without any timeline are
// left out.
func BoundPlots(rows []Row, tl Timelines) []Plot {
	type panelRows struct {
		workload string
		rows     []Row
	}
	var scenarios []string
	panels := map[string][]*panelRows{}
	for _, r := range rows {
		ps := panels[r.Scenario]
		if ps == nil {
			scenarios = append(scenarios, r.Scenario)
		}
		var p *panelRows
		for _, q := range ps {
			if q.workload == r.Workload {
				p = q
			}
		}
		if p == nil {
			p = &panelRows{workload: r.Workload}
			panels[r.Scenario] = append(ps, p)
		}
		p.rows = append(p.rows, r)
	}
	var out []Plot
	for _, sc := range scenarios {
		chart := plot.LineChart{
			Title: sc + ": measured pods bound over time",
			Subtitle: "Pods bound so far, from the first measured pod's creation; a line per variant, the first the baseline. " +
				"Of several runs, each variant's run with the median time to its last pod bound.",
			XLabel: "seconds since the first pod was created",
			YLabel: "pods bound",
		}
		drawn := false
		for _, p := range panels[sc] {
			panel := plot.Panel{Title: p.workload}
			for _, r := range p.rows {
				runs := tl.Runs[TimelineKey{Scenario: r.Scenario, Variant: r.Variant, Workload: r.Workload, Namespace: r.Measured}]
				s := plot.Series{Name: r.Variant}
				if run, ok := Median(runs); ok {
					s.Points = run.Points
					s.Note = runNote(run, len(runs), tl.Files)
					drawn = true
				}
				panel.Series = append(panel.Series, s)
			}
			chart.Panels = append(chart.Panels, panel)
		}
		if drawn {
			out = append(out, Plot{File: FileName("bound", sc), Alt: chart.Title, SVG: chart.SVG()})
		}
	}
	return out
}

// runNote names the run a line shows and when its last pod was bound.
func runNote(r Run, runs, files int) string {
	last := fmt.Sprintf("last pod bound at %.2f s", r.End())
	if runs <= 1 {
		return last
	}
	return fmt.Sprintf("run %d of %d (median): %s", r.Index, files, last)
}
