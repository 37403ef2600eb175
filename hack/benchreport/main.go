// Command benchreport writes a markdown report of the scheduler_perf
// results in a -data-items-dir: benchreport [-o results.md] _output/bench.
// Its first table compares every scenario's variants with its baseline;
// the gang latency table sets each variant's gangs against as many plain
// pods of its baseline (ganglatency.go). Where the quota scenarios ran,
// another table compares their variants: admission throughput, scheduling
// attempts per admitted workload and peak memory, and where they timed
// admissions by workload class, another holds each class's time to
// admission against Kueue's thresholds (admission.go); where the hotswap
// scenarios ran, another compares preemption (hotswap.go); where the
// provisioning scenarios ran, another the cost of a provisioning admission
// check (provisioning.go).
//
// With -o the report goes to that file, and SVG plots into plots/ beside
// it, which the report shows: the ratios of each comparison to its
// baseline, and each scenario's measured pods bound over time (plots.go,
// internal/benchreport). Without it the report goes to stdout, without
// plots.
package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport"
)

func main() {
	out := flag.String("o", "", "write the report to this file, and its plots to plots/ beside it (default: the report to stdout, no plots)")
	flag.Usage = func() {
		fmt.Fprintln(os.Stderr, "usage: benchreport [-o REPORT.md] DATA_ITEMS_DIR")
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 1 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), *out, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// plotsDir is the plots' directory beside the report, as the report
// links them.
const plotsDir = "plots"

// run writes the report of the results in dir to the file out (and the
// plots beside it), or to stdout when out is empty.
func run(dir, out string, stdout io.Writer) (err error) {
	rep := report{w: stdout}
	if out != "" {
		rep.plots = filepath.Join(filepath.Dir(out), plotsDir)
		if err := os.MkdirAll(rep.plots, 0o755); err != nil {
			return err
		}
		// The plots directory's SVGs are the report's: those of a
		// scenario that did not run this time do not linger.
		old, err := filepath.Glob(filepath.Join(rep.plots, "*.svg"))
		if err != nil {
			return err
		}
		for _, f := range old {
			if err := os.Remove(f); err != nil {
				return err
			}
		}
		f, err := os.Create(out)
		if err != nil {
			return err
		}
		defer func() {
			if cerr := f.Close(); err == nil {
				err = cerr
			}
		}()
		rep.w = f
	}
	rows, err := benchreport.Load(dir)
	if err != nil {
		return err
	}
	if err := benchreport.Markdown(rep.w, rows); err != nil {
		return err
	}
	if rep.plotting() {
		if p, ok := benchreport.SpeedupPlot(rows); ok {
			if err := rep.embed(p); err != nil {
				return err
			}
		}
		tl, err := benchreport.LoadTimelines(dir)
		if err != nil {
			return err
		}
		if bound := benchreport.BoundPlots(rows, tl); len(bound) > 0 {
			if _, err := io.WriteString(rep.w, "\n## Pods bound over time\n\n"+
				"Each scenario's measured pods bound so far, from the first one's creation, a line per variant; "+
				"with several runs, each variant's run with the median time to its last pod bound (the legend names it).\n"); err != nil {
				return err
			}
			if err := rep.embed(bound...); err != nil {
				return err
			}
		}
	}
	groups, err := loadGroupLatencies(dir)
	if err != nil {
		return err
	}
	if gangs := gangComparisons(rows, groups); len(gangs) > 0 {
		if err := writeGangLatency(rep.w, gangs); err != nil {
			return err
		}
		if p, ok := gangLatencyPlot(gangs); ok && rep.plotting() {
			if err := rep.embed(p); err != nil {
				return err
			}
		}
	}
	quota, err := loadQuota(dir)
	if err != nil {
		return err
	}
	if len(quota) > 0 {
		if err := writeQuota(rep.w, quota); err != nil {
			return err
		}
		if p, ok := quotaPlot(quota); ok && rep.plotting() {
			if err := rep.embed(p); err != nil {
				return err
			}
		}
	}
	admission, err := loadAdmission(dir)
	if err != nil {
		return err
	}
	if len(admission.rows) > 0 {
		if err := writeAdmission(rep.w, admission); err != nil {
			return err
		}
	}
	hotswap, err := loadHotswap(dir)
	if err != nil {
		return err
	}
	if len(hotswap) > 0 {
		if err := writeHotswap(rep.w, hotswap); err != nil {
			return err
		}
	}
	prov, err := loadProvisioning(dir)
	if err != nil {
		return err
	}
	if len(prov) > 0 {
		if err := writeProvisioning(rep.w, prov); err != nil {
			return err
		}
		if rep.plotting() {
			if err := rep.embed(provisioningPlots(prov)...); err != nil {
				return err
			}
		}
	}
	return nil
}

// report is where the report goes, and its plots when it has any.
type report struct {
	w     io.Writer
	plots string // the plots' directory; "" for none
}

func (r report) plotting() bool { return r.plots != "" }

// embed writes plots to the plots directory and shows them in the report.
func (r report) embed(plots ...benchreport.Plot) error {
	for _, p := range plots {
		if err := os.WriteFile(filepath.Join(r.plots, p.File), p.SVG, 0o644); err != nil {
			return err
		}
		if _, err := fmt.Fprintf(r.w, "\n![%s](%s/%s)\n", p.Alt, plotsDir, p.File); err != nil {
			return err
		}
	}
	return nil
}
