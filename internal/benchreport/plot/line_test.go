package plot

import (
	"fmt"
	"strings"
	"testing"
)

// point parses "x,y" of a polyline's points.
func point(t *testing.T, s string) (x, y float64) {
	t.Helper()
	if _, err := fmt.Sscanf(s, "%g,%g", &x, &y); err != nil {
		t.Fatalf("point %q: %v", s, err)
	}
	return x, y
}

func TestLineChart(t *testing.T) {
	ramp := func(n int) []Point { // n points up to (n-1, 10·(n-1))
		ps := make([]Point, n)
		for i := range ps {
			ps[i] = Point{float64(i), float64(10 * i)}
		}
		return ps
	}
	variants := func(n int) []Series {
		s := make([]Series, n)
		for i := range s {
			s[i] = Series{Name: fmt.Sprintf("variant-%d", i), Note: fmt.Sprintf("run %d of 3", i%3+1), Points: ramp(3 + i)}
		}
		return s
	}
	cases := map[string]struct {
		chart LineChart
		// per panel: its series drawn, and legend names listed.
		drawn  [][]string
		legend [][]string
		notes  []string // legend notes expected somewhere
		empty  int      // "No data." texts
	}{
		"no panels": {
			chart: LineChart{Title: "Pods bound"},
			empty: 1,
		},
		"a series without points is listed but not drawn": {
			chart: LineChart{Title: "t", Panels: []Panel{{Title: "p", Series: []Series{
				{Name: "default", Note: "run 1 of 1"},
				{Name: "ours", Points: ramp(4)},
			}}}},
			drawn:  [][]string{{"ours"}},
			legend: [][]string{{"default", "ours"}},
			notes:  []string{"run 1 of 1 (no data)"},
		},
		"a panel with no data at all": {
			chart:  LineChart{Title: "t", Panels: []Panel{{Title: "p", Series: []Series{{Name: "default"}}}}},
			drawn:  [][]string{nil},
			legend: [][]string{{"default"}},
			notes:  []string{"(no data)"},
			empty:  1,
		},
		"one point": {
			chart:  LineChart{Title: "t", Panels: []Panel{{Title: "p", Series: []Series{{Name: "ours", Points: []Point{{2, 10}}}}}}},
			drawn:  [][]string{{"ours"}},
			legend: [][]string{{"ours"}},
		},
		"many variants over two panels": {
			chart: LineChart{Title: "t", Panels: []Panel{
				{Title: "small", Series: variants(9)},
				{Title: "large", Series: variants(4)},
			}},
			drawn: [][]string{
				{"variant-0", "variant-1", "variant-2", "variant-3", "variant-4", "variant-5", "variant-6", "variant-7", "variant-8"},
				{"variant-0", "variant-1", "variant-2", "variant-3"},
			},
			legend: [][]string{
				{"variant-0", "variant-1", "variant-2", "variant-3", "variant-4", "variant-5", "variant-6", "variant-7", "variant-8"},
				{"variant-0", "variant-1", "variant-2", "variant-3"},
			},
			notes: []string{"run 1 of 3", "run 2 of 3", "run 3 of 3"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := parse(t, tc.chart.SVG())
			if got := root.elements("title")[0].text; got != tc.chart.Title {
				t.Errorf("title = %q, want %q", got, tc.chart.Title)
			}
			panels := root.class("panel")
			if len(panels) != len(tc.chart.Panels) {
				t.Fatalf("%d panels, want %d", len(panels), len(tc.chart.Panels))
			}
			for i, p := range panels {
				if got := p.attr["data-title"]; got != tc.chart.Panels[i].Title {
					t.Errorf("panel %d is %q, want %q", i, got, tc.chart.Panels[i].Title)
				}
				var drawn []string
				for _, s := range p.class("series") {
					drawn = append(drawn, s.attr["data-name"])
				}
				if fmt.Sprint(drawn) != fmt.Sprint(tc.drawn[i]) {
					t.Errorf("panel %d draws %q, want %q", i, drawn, tc.drawn[i])
				}
				if got := p.texts("legend-name"); fmt.Sprint(got) != fmt.Sprint(tc.legend[i]) {
					t.Errorf("panel %d legend %q, want %q", i, got, tc.legend[i])
				}
				if len(p.texts("tick")) < 4 {
					t.Errorf("panel %d has ticks %q", i, p.texts("tick"))
				}
			}
			notes := strings.Join(root.texts("legend-note"), "|")
			for _, n := range tc.notes {
				if !strings.Contains(notes, n) {
					t.Errorf("legend notes %q lack %q", notes, n)
				}
			}
			if got := len(root.class("empty")); got != tc.empty {
				t.Errorf("%d 'No data.' texts, want %d", got, tc.empty)
			}
		})
	}
}

// A series' name keeps its style in every panel, and the first seven
// names get colours of their own.
func TestLineChartStylesBySeriesName(t *testing.T) {
	s := func(names ...string) []Series {
		out := make([]Series, len(names))
		for i, n := range names {
			out[i] = Series{Name: n, Points: []Point{{0, 0}, {1, 1}}}
		}
		return out
	}
	root := parse(t, LineChart{Panels: []Panel{
		{Title: "a", Series: s("p", "q", "r", "s", "t", "u", "v")},
		{Title: "b", Series: s("v", "p")},
	}}.SVG())
	stroke := map[string]string{}
	for _, g := range root.class("series") {
		name, line := g.attr["data-name"], g.elements("polyline")[0]
		if prev, ok := stroke[name]; ok && prev != line.attr["stroke"] {
			t.Errorf("%s is drawn %s and %s", name, prev, line.attr["stroke"])
		}
		stroke[name] = line.attr["stroke"]
	}
	seen := map[string]string{}
	for name, c := range stroke {
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s share colour %s", name, other, c)
		}
		seen[c] = name
	}
}

// Points land where the axes put them: both axes start at zero and end at
// the nice value at or above the largest coordinate.
func TestLineChartScale(t *testing.T) {
	cases := map[string]struct {
		points []Point
		// the point checked, and where it lands as a fraction of the plot
		// area from its bottom left.
		at     int
		fx, fy float64
	}{
		"the middle of a 10 s, 100 pod ramp": {points: []Point{{0, 0}, {5, 50}, {10, 100}}, at: 1, fx: 0.5, fy: 0.5},
		"the end, below the nice top":        {points: []Point{{0, 0}, {3, 40}, {7.5, 90}}, at: 2, fx: 7.5 / 8, fy: 0.9},
		"one point, at the top right":        {points: []Point{{2, 10}}, at: 0, fx: 1, fy: 1},
		"the origin":                         {points: []Point{{0, 0}, {4, 8}}, at: 0, fx: 0, fy: 0},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			root := parse(t, LineChart{Panels: []Panel{{Series: []Series{{Name: "s", Points: tc.points}}}}}.SVG())
			area := root.class("plot-area")[0].box(t)
			wantX, wantY := area.x+tc.fx*area.w, area.y+area.h-tc.fy*area.h
			series := root.class("series")[0]
			var x, y float64
			if lines := series.elements("polyline"); len(lines) > 0 {
				pts := strings.Fields(lines[0].attr["points"])
				if len(pts) != len(tc.points) {
					t.Fatalf("%d points drawn, want %d", len(pts), len(tc.points))
				}
				x, y = point(t, pts[tc.at])
			} else {
				end := series.elements("circle")[0]
				x, y = end.num(t, "cx"), end.num(t, "cy")
			}
			if !near(x, wantX) || !near(y, wantY) {
				t.Errorf("point %v at (%v, %v), want (%v, %v)", tc.points[tc.at], x, y, wantX, wantY)
			}
			// The last point is marked.
			end := series.elements("circle")[0]
			if lines := series.elements("polyline"); len(lines) > 0 {
				pts := strings.Fields(lines[0].attr["points"])
				lx, ly := point(t, pts[len(pts)-1])
				if !near(end.num(t, "cx"), lx) || !near(end.num(t, "cy"), ly) {
					t.Errorf("end marker at (%v, %v), the line ends at (%v, %v)", end.num(t, "cx"), end.num(t, "cy"), lx, ly)
				}
			}
		})
	}
}
