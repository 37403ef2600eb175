package benchreport

import (
	"cmp"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport/plot"
)

// boundPodsMetric names the data items of pods bound over time that
// test/perf writes to BoundPods_*.json, one file per run
// (test/perf/timeline_test.go): per workload and namespace, the pods bound
// so far by each time since the namespace's first pod was created, keyed
// by that time in seconds, the last key the last pod bound.
const boundPodsMetric = "BoundPodsOverTime"

// Timelines are the series of pods bound over time of every run.
type Timelines struct {
	// Runs holds every run's series of a namespace, in run order.
	Runs map[TimelineKey][]Run
	// Files is how many runs (files) were read.
	Files int
}

// TimelineKey names the pods of one namespace of one scenario variant on
// one workload.
type TimelineKey struct{ Scenario, Variant, Workload, Namespace string }

// Run is one run's series.
type Run struct {
	// Index numbers the run from 1, in the order its file was written
	// (the files' names end with the time).
	Index int
	// Points are pods bound (Y) by seconds since the first pod was created
	// (X), in time order; the last is the last pod bound.
	Points []plot.Point
}

// End is the time of the last pod bound.
func (r Run) End() float64 {
	if len(r.Points) == 0 {
		return 0
	}
	return r.Points[len(r.Points)-1].X
}

// LoadTimelines reads every BoundPods_*.json in dir; none is no error
// (results of a harness that did not record them).
func LoadTimelines(dir string) (Timelines, error) {
	tl := Timelines{Runs: map[TimelineKey][]Run{}}
	files, err := filepath.Glob(filepath.Join(dir, "BoundPods_*.json"))
	if err != nil {
		return tl, err
	}
	slices.Sort(files)
	for i, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return tl, err
		}
		var items dataItems
		if err := json.Unmarshal(data, &items); err != nil {
			return tl, fmt.Errorf("%s: %w", f, err)
		}
		if err := tl.add(i+1, items); err != nil {
			return tl, fmt.Errorf("%s: %w", f, err)
		}
		tl.Files++
	}
	return tl, nil
}

// add takes the series of one run's data items.
func (tl Timelines) add(run int, items dataItems) error {
	for _, it := range items.DataItems {
		if it.Labels["Metric"] != boundPodsMetric {
			continue
		}
		k, ok := parseName(it.Labels["Name"])
		ns := measuredName(it.Labels["Name"])
		if !ok || ns == "" {
			continue
		}
		points, err := series(it.Data)
		if err != nil {
			return fmt.Errorf("%s: %w", it.Labels["Name"], err)
		}
		tk := TimelineKey{Scenario: k.scenario, Variant: k.variant, Workload: k.workload, Namespace: ns}
		tl.Runs[tk] = append(tl.Runs[tk], Run{Index: run, Points: points})
	}
	return nil
}

// series orders a series' points by time; every key must be a time, and
// the count may not fall.
func series(data map[string]float64) ([]plot.Point, error) {
	points := make([]plot.Point, 0, len(data))
	for k, v := range data {
		t, err := strconv.ParseFloat(k, 64)
		if err != nil || t < 0 {
			return nil, fmt.Errorf("key %q is not a time in seconds", k)
		}
		points = append(points, plot.Point{X: t, Y: v})
	}
	slices.SortFunc(points, func(a, b plot.Point) int { return cmp.Compare(a.X, b.X) })
	for i := 1; i < len(points); i++ {
		if points[i].Y < points[i-1].Y {
			return nil, fmt.Errorf("pods bound fall from %v at %v s to %v at %v s", points[i-1].Y, points[i-1].X, points[i].Y, points[i].X)
		}
	}
	return points, nil
}

// Median returns the run with the median time to its last pod bound: of
// an even number, the faster of the middle two; of equal times, the
// earlier run. ok is false when there is no run.
func Median(runs []Run) (r Run, ok bool) {
	if len(runs) == 0 {
		return Run{}, false
	}
	sorted := slices.Clone(runs)
	slices.SortStableFunc(sorted, func(a, b Run) int {
		return cmp.Or(cmp.Compare(a.End(), b.End()), cmp.Compare(a.Index, b.Index))
	})
	return sorted[(len(sorted)-1)/2], true
}
