package main

import (
	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport"
	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport/plot"
)

// The ratio plots of the quota and provisioning tables: each variant's
// figure over its scenario's baseline's, as the tables' "vs baseline" and
// "× baseline" columns, with the spread of single runs paired run by run
// (benchreport.PairedRange).

// over is a variant's figure over the baseline's.
func over(base, v float64) float64 { return v / base }

// quotaPlot draws the quota table's admission throughput against the
// baseline; false when no variant has a baseline.
func quotaPlot(rows []quotaRow) (benchreport.Plot, bool) {
	baseline := map[[2]string]quotaRow{}
	var bars []plot.Bar
	runs := 0
	for _, r := range rows {
		bk := [2]string{r.Scenario, r.Workload}
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r
			continue
		}
		bar := plot.Bar{Group: benchreport.Group(r.Scenario, r.Workload, base.Variant), Label: r.Variant}
		if base.Throughput() > 0 {
			bar.Ratio = r.Throughput() / base.Throughput()
			bar.Min, bar.Max = benchreport.PairedRange(base.runThroughputs(), r.runThroughputs(), over)
		}
		bars = append(bars, bar)
		runs = max(runs, r.Runs)
	}
	if len(bars) == 0 {
		return benchreport.Plot{}, false
	}
	title := "Quota: admitted workloads per second against the baseline"
	return benchreport.Plot{File: "ratio-quota-throughput.svg", Alt: title, SVG: plot.RatioChart{
		Title: title,
		Subtitle: "The quota table's “vs baseline”: each variant's admission throughput over the same workloads' without queues; the target is at least 0.9. " +
			benchreport.RunsNote(runs),
		HigherIsBetter: true,
		Better:         "faster than the baseline",
		Worse:          "slower than the baseline",
		Bars:           bars,
	}.SVG()}, true
}

// provisioningPlots draws the provisioning table's two comparisons: a
// gang's bind time (p50) and gangs bound per second, each against the
// baseline without the check.
func provisioningPlots(rows []provisioningRow) []benchreport.Plot {
	baseline := map[[2]string]provisioningRow{}
	var bind, rate []plot.Bar
	runs := 0
	for _, r := range rows {
		bk := [2]string{r.Scenario, r.Workload}
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r
			continue
		}
		group := benchreport.Group(r.Scenario, r.Workload, base.Variant)
		b := plot.Bar{Group: group, Label: r.Variant}
		if p, ok := r.get("ProvisioningBindTime", "Perc50"); ok {
			if bp, ok := base.get("ProvisioningBindTime", "Perc50"); ok && bp > 0 {
				b.Ratio = p / bp
				b.Min, b.Max = benchreport.PairedRange(base.byRun["ProvisioningBindTime.Perc50"], r.byRun["ProvisioningBindTime.Perc50"], over)
			}
		}
		bind = append(bind, b)
		w := plot.Bar{Group: group, Label: r.Variant}
		if base.Rate() > 0 {
			w.Ratio = r.Rate() / base.Rate()
			w.Min, w.Max = benchreport.PairedRange(base.byRun["ProvisioningThroughput.Workloads"], r.byRun["ProvisioningThroughput.Workloads"], over)
		}
		rate = append(rate, w)
		runs = max(runs, r.Runs)
	}
	if len(bind) == 0 {
		return nil
	}
	bindTitle := "Provisioning: a gang's bind time (p50) against the baseline"
	rateTitle := "Provisioning: gangs bound per second against the baseline"
	return []benchreport.Plot{
		{File: "ratio-provisioning-bind-p50.svg", Alt: bindTitle, SVG: plot.RatioChart{
			Title: bindTitle,
			Subtitle: "The provisioning table's “Bind p50 × baseline”: from a gang's first pod created to its last pod bound, over the same gangs' without the check; above 1 is slower. " +
				benchreport.RunsNote(runs),
			Better: "quicker than the baseline",
			Worse:  "slower than the baseline",
			Bars:   bind,
		}.SVG()},
		{File: "ratio-provisioning-rate.svg", Alt: rateTitle, SVG: plot.RatioChart{
			Title: rateTitle,
			Subtitle: "The provisioning table's “Workloads/s × baseline”: gangs wholly bound per second, over the same gangs' without the check; below 1 is slower. " +
				benchreport.RunsNote(runs),
			HigherIsBetter: true,
			Better:         "faster than the baseline",
			Worse:          "slower than the baseline",
			Bars:           rate,
		}.SVG()},
	}
}
