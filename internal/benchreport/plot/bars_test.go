package plot

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

func TestRatioChart(t *testing.T) {
	type want struct {
		label    string
		kind     string // the bar's class; "" for no bar
		side     int    // +1: right of the line at 1, -1: left
		whiskers bool
		value    string
	}
	cases := map[string]struct {
		chart  RatioChart
		groups []string
		bars   []want
	}{
		"no bars": {chart: RatioChart{Title: "none", Better: "faster", Worse: "slower"}},
		"above and below 1, higher is better": {
			chart: RatioChart{HigherIsBetter: true, Better: "faster", Worse: "slower", Bars: []Bar{
				{Group: "Multislice 16x16", Label: "gangs", Ratio: 1.6},
				{Group: "Multislice 16x16", Label: "affinity", Ratio: 0.73},
			}},
			groups: []string{"Multislice 16x16"},
			bars: []want{
				{label: "gangs", kind: "better", side: 1, value: "1.60×"},
				{label: "affinity", kind: "worse", side: -1, value: "0.73×"},
			},
		},
		"lower is better": {
			chart: RatioChart{Better: "quicker", Worse: "slower", Bars: []Bar{
				{Group: "Provisioning", Label: "with check", Ratio: 10.8},
				{Group: "Provisioning", Label: "other", Ratio: 0.5},
			}},
			groups: []string{"Provisioning"},
			bars: []want{
				{label: "with check", kind: "worse", side: 1, value: "10.80×"},
				{label: "other", kind: "better", side: -1, value: "0.50×"},
			},
		},
		"spreads over runs, and one run without": {
			chart: RatioChart{HigherIsBetter: true, Better: "faster", Worse: "slower", Bars: []Bar{
				{Group: "Quota", Label: "queued", Ratio: 0.67, Min: 0.55, Max: 0.92},
				{Group: "Quota", Label: "one run", Ratio: 1.2, Min: 1.2, Max: 1.2},
			}},
			groups: []string{"Quota"},
			bars: []want{
				{label: "queued", kind: "worse", side: -1, whiskers: true, value: "0.67× (0.55×–0.92×)"},
				{label: "one run", kind: "better", side: 1, value: "1.20×"},
			},
		},
		"not measured, even, and groups": {
			chart: RatioChart{HigherIsBetter: true, Better: "faster", Worse: "slower", Bars: []Bar{
				{Group: "A", Label: "x", Ratio: 0},
				{Group: "B", Label: "y", Ratio: 1},
				{Group: "A", Label: "z", Ratio: math.NaN()},
			}},
			groups: []string{"A", "B", "A"},
			bars: []want{
				{label: "x", value: "– not measured"},
				{label: "y", kind: "even", side: 0, value: "1.00×"},
				{label: "z", value: "– not measured"},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := parse(t, tc.chart.SVG())
			if got := root.texts("group"); fmt.Sprint(got) != fmt.Sprint(tc.groups) {
				t.Errorf("group headings %q, want %q", got, tc.groups)
			}
			legend := strings.Join(root.class("legend")[0].texts("legend-name"), "|")
			for _, w := range []string{tc.chart.Better, tc.chart.Worse} {
				if !strings.Contains(legend, w) {
					t.Errorf("legend %q lacks %q", legend, w)
				}
			}
			anySpread := false
			for _, b := range tc.bars {
				anySpread = anySpread || b.whiskers
			}
			if got := strings.Contains(legend, "lowest–highest"); got != anySpread {
				t.Errorf("legend %q names the whiskers: %v, want %v", legend, got, anySpread)
			}
			refs := root.class("reference")
			if len(refs) != 1 {
				t.Fatalf("%d lines at 1, want 1", len(refs))
			}
			one := refs[0].num(t, "x1")
			bars := root.class("bar")
			if len(bars) != len(tc.bars) {
				t.Fatalf("%d bars, want %d", len(bars), len(tc.bars))
			}
			if len(bars) == 0 && len(root.class("empty")) != 1 {
				t.Error("an empty chart does not say so")
			}
			for i, w := range tc.bars {
				b := bars[i]
				if got := b.texts("label"); len(got) != 1 || got[0] != w.label {
					t.Errorf("bar %d label %q, want %q", i, got, w.label)
				}
				if got := b.class("value")[0].text; got != w.value {
					t.Errorf("bar %d value %q, want %q", i, got, w.value)
				}
				rects := b.class("ratio")
				if w.kind == "" {
					if len(rects) != 0 {
						t.Errorf("bar %d: drawn, but it was not measured", i)
					}
					continue
				}
				if len(rects) != 1 || !rects[0].hasClass(w.kind) {
					t.Fatalf("bar %d: rects %v, want one of class %s", i, rects, w.kind)
				}
				r := rects[0].box(t)
				switch w.side {
				case 1:
					if !near(r.x, one) || r.w <= 1 {
						t.Errorf("bar %d %+v does not start at 1 (x %v) and go right", i, r, one)
					}
				case -1:
					if !near(r.x+r.w, one) || r.w <= 1 {
						t.Errorf("bar %d %+v does not end at 1 (x %v)", i, r, one)
					}
				}
				if got := len(b.class("whisker")) > 0; got != w.whiskers {
					t.Errorf("bar %d whiskers %v, want %v", i, got, w.whiskers)
				}
			}
		})
	}
}

// The axis is logarithmic: a ratio and its inverse are bars of one length
// on either side of 1, and the whiskers end at the spread's ends.
func TestRatioChartScale(t *testing.T) {
	root := parse(t, RatioChart{HigherIsBetter: true, Bars: []Bar{
		{Group: "g", Label: "double", Ratio: 2, Min: 1.5, Max: 4},
		{Group: "g", Label: "half", Ratio: 0.5},
		{Group: "g", Label: "quarter", Ratio: 0.25},
	}}.SVG())
	area := root.class("plot-area")[0].box(t)
	one := root.class("reference")[0].num(t, "x1")
	bars := root.class("bar")
	double, half, quarter := bars[0].class("ratio")[0].box(t), bars[1].class("ratio")[0].box(t), bars[2].class("ratio")[0].box(t)
	if !near(double.w, half.w) {
		t.Errorf("2× is %v px long, 0.5× %v px", double.w, half.w)
	}
	if !near(quarter.w, 2*half.w) {
		t.Errorf("0.25× is %v px long, twice 0.5× is %v px", quarter.w, 2*half.w)
	}
	// The domain is [0.25/1.12, 4·1.12]: symmetric about 1.
	if !near(one, area.x+area.w/2) {
		t.Errorf("1 at x %v, want the middle of the plot area %v", one, area.x+area.w/2)
	}
	perDoubling := double.w
	lines := bars[0].class("whisker")[0].elements("line")
	x0, x1 := lines[0].num(t, "x1"), lines[0].num(t, "x2")
	if want := one + perDoubling*math.Log2(1.5); !near(x0, want) {
		t.Errorf("whisker starts at %v, want %v", x0, want)
	}
	if want := one + 2*perDoubling; !near(x1, want) {
		t.Errorf("whisker ends at %v, want %v", x1, want)
	}
	// Tick labels are ratios.
	if ticks := strings.Join(root.texts("tick"), " "); !strings.Contains(ticks, "1×") || !strings.Contains(ticks, "2×") {
		t.Errorf("ticks %q", ticks)
	}
}
