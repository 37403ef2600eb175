package benchreport

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/internal/benchreport/plot"
)

// element is an SVG element with a class, flattened: its attributes and
// its text, and the classes of the elements it is inside.
type element struct {
	attr    map[string]string
	text    string
	parents []string
}

// classed parses doc, failing unless it is well-formed XML, and returns
// its elements by class.
func classed(t *testing.T, doc []byte) map[string][]*element {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	out := map[string][]*element{}
	type open struct {
		class string
		el    *element
	}
	var stack []open
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("not well-formed XML: %v", err)
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			el := &element{attr: map[string]string{}}
			for _, a := range tok.Attr {
				el.attr[a.Name.Local] = a.Value
			}
			for _, o := range stack {
				el.parents = append(el.parents, o.class)
			}
			class := el.attr["class"]
			for _, c := range strings.Fields(class) {
				out[c] = append(out[c], el)
			}
			stack = append(stack, open{class, el})
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			for _, o := range stack {
				o.el.text += string(tok)
			}
		}
	}
	return out
}

func texts(els []*element) []string {
	var out []string
	for _, e := range els {
		out = append(out, e.text)
	}
	return out
}

// measurement is a harness item's name and its duration.
type measurement struct {
	name     string
	duration float64
}

// harness makes a harness data-items file of SchedulingDuration items, in
// order.
func harness(ms ...measurement) string {
	var items []string
	for _, m := range ms {
		items = append(items, fmt.Sprintf(`{"data":{"Duration":%v},"unit":"s","labels":{"Metric":"SchedulingDuration","Name":"BenchmarkPerfScheduling/%s"}}`, m.duration, m.name))
	}
	return `{"version":"v1","dataItems":[` + strings.Join(items, ",") + `]}`
}

// boundPods makes a BoundPods file: name → series JSON.
func boundPods(series map[string]string) string {
	var items []string
	for name, data := range series {
		items = append(items, fmt.Sprintf(`{"data":%s,"unit":"pods","labels":{"Metric":"BoundPodsOverTime","Name":"BenchmarkPerfScheduling/%s"}}`, data, name))
	}
	return `{"version":"v1","dataItems":[` + strings.Join(items, ",") + `]}`
}

func write(t *testing.T, dir, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Three runs of a Multislice scenario (plain pods, gangs; two workloads)
// and one of Baseline, whose timelines are missing.
func benchDir(t *testing.T) string {
	dir := t.TempDir()
	for i, d := range []struct{ plain, gangs float64 }{{6, 4}, {7, 5}, {8, 3}} {
		write(t, dir, fmt.Sprintf("BenchmarkPerfScheduling_benchmark_multislice_2026-01-01T00:0%d:00Z.json", i), harness(
			measurement{"Multislice_PlainPods/256Nodes/multislice", d.plain},
			measurement{"Multislice_Gangs/256Nodes/multislice", d.gangs},
			measurement{"Multislice_PlainPods/1024Nodes/multislice", 2 * d.plain},
			measurement{"Multislice_Gangs/1024Nodes/multislice", 2 * d.gangs},
		))
		write(t, dir, fmt.Sprintf("BoundPods_benchmark_multislice_2026-01-01T00:0%d:00Z.json", i), boundPods(map[string]string{
			"Multislice_PlainPods/256Nodes/multislice": fmt.Sprintf(`{"0":0,"1":100,"%v":256}`, d.plain),
			"Multislice_Gangs/256Nodes/multislice":     fmt.Sprintf(`{"0":0,"1":64,"%v":256}`, d.gangs),
			// An unmeasured namespace, not plotted.
			"Multislice_Gangs/256Nodes/loaded": `{"0":0,"0.5":256}`,
			// The 1024-node gangs have no timeline.
			"Multislice_PlainPods/1024Nodes/multislice": fmt.Sprintf(`{"0":0,"%v":1024}`, 2*d.plain),
		}))
	}
	write(t, dir, "BenchmarkPerfScheduling_benchmark_multislice_2026-01-01T00:09:00Z.json", harness(
		measurement{"Baseline_Default/20Nodes/namespace-1", 2},
		measurement{"Baseline_Ours/20Nodes/namespace-1", 2.5},
	))
	return dir
}

func TestBoundPlots(t *testing.T) {
	dir := benchDir(t)
	rows, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	tl, err := LoadTimelines(dir)
	if err != nil {
		t.Fatal(err)
	}
	if tl.Files != 3 {
		t.Errorf("%d timeline files read, want 3", tl.Files)
	}
	plots := BoundPlots(rows, tl)
	if len(plots) != 1 || plots[0].File != "bound-Multislice.svg" {
		t.Fatalf("plots %v, want bound-Multislice.svg alone (Baseline has no timeline)", plots)
	}
	els := classed(t, plots[0].SVG)
	var panels []string
	for _, p := range els["panel"] {
		panels = append(panels, p.attr["data-title"])
	}
	if fmt.Sprint(panels) != "[256Nodes 1024Nodes]" {
		t.Errorf("panels %q, want the two workloads in run order", panels)
	}
	var drawn []string
	for _, s := range els["series"] {
		drawn = append(drawn, s.attr["data-name"])
	}
	if fmt.Sprint(drawn) != "[PlainPods Gangs PlainPods]" {
		t.Errorf("series drawn %q", drawn)
	}
	// The median runs: plain pods 7 s (run 2), gangs 4 s (run 1).
	notes := strings.Join(texts(els["legend-note"]), "|")
	for _, want := range []string{
		"run 2 of 3 (median): last pod bound at 7.00 s",
		"run 1 of 3 (median): last pod bound at 4.00 s",
		"run 2 of 3 (median): last pod bound at 14.00 s",
		"(no data)",
	} {
		if !strings.Contains(notes, want) {
			t.Errorf("legend notes %q lack %q", notes, want)
		}
	}
}

func TestSpeedupPlot(t *testing.T) {
	rows, err := Load(benchDir(t))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := SpeedupPlot(rows)
	if !ok || p.File != "ratio-time.svg" {
		t.Fatalf("SpeedupPlot = %q, %v", p.File, ok)
	}
	els := classed(t, p.SVG)
	wantGroups := []string{
		"Multislice · 256Nodes, against PlainPods",
		"Multislice · 1024Nodes, against PlainPods",
		"Baseline · 20Nodes, against Default",
	}
	if got := texts(els["group"]); fmt.Sprint(got) != fmt.Sprint(wantGroups) {
		t.Errorf("groups %q, want %q", got, wantGroups)
	}
	// Gangs: 7/4 on the mean, 6/4, 7/5 and 8/3 run by run; Baseline's
	// one run has no spread.
	wantValues := []string{"1.75× (1.40×–2.67×)", "1.75× (1.40×–2.67×)", "0.80×"}
	if got := texts(els["value"]); fmt.Sprint(got) != fmt.Sprint(wantValues) {
		t.Errorf("values %q, want %q", got, wantValues)
	}
	if got := len(els["whisker"]); got != 2 {
		t.Errorf("%d whiskers, want 2", got)
	}
	if !strings.Contains(strings.Join(texts(els["subtitle"]), " "), "Means of 3 runs") {
		t.Errorf("subtitle %q does not say the runs", texts(els["subtitle"]))
	}

	if _, ok := SpeedupPlot([]Row{{Scenario: "A", Variant: "only", Workload: "w"}}); ok {
		t.Error("a plot of a scenario without a second variant")
	}
}

func TestLoadTimelinesRejectsBadSeries(t *testing.T) {
	for name, data := range map[string]string{
		"a key that is no time": `{"0":0,"last":5}`,
		"a negative time":       `{"-1":0,"1":5}`,
		"a falling count":       `{"0":0,"1":5,"2":4}`,
	} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, dir, "BoundPods_benchmark_multislice_x.json", boundPods(map[string]string{"S_V/W/ns": data}))
			if _, err := LoadTimelines(dir); err == nil {
				t.Errorf("LoadTimelines accepted %s", data)
			}
		})
	}
	tl, err := LoadTimelines(t.TempDir())
	if err != nil || tl.Files != 0 || len(tl.Runs) != 0 {
		t.Errorf("no files: %+v, %v", tl, err)
	}
}

func TestMedian(t *testing.T) {
	run := func(index int, end float64) Run {
		return Run{Index: index, Points: []plot.Point{{X: 0, Y: 0}, {X: end, Y: 10}}}
	}
	cases := map[string]struct {
		runs      []Run
		wantIndex int // 0: none
	}{
		"none":                                 {},
		"one":                                  {runs: []Run{run(1, 5)}, wantIndex: 1},
		"three, by time to the last pod":       {runs: []Run{run(1, 9), run(2, 4), run(3, 6)}, wantIndex: 3},
		"four: the faster of the middle two":   {runs: []Run{run(1, 9), run(2, 4), run(3, 6), run(4, 7)}, wantIndex: 3},
		"equal times: the earlier run":         {runs: []Run{run(3, 5), run(1, 5), run(2, 5)}, wantIndex: 2},
		"a run with no points counts as first": {runs: []Run{{Index: 1}, run(2, 4), run(3, 6)}, wantIndex: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, ok := Median(tc.runs)
			if ok != (tc.wantIndex != 0) || got.Index != tc.wantIndex {
				t.Errorf("Median = run %d, %v; want run %d", got.Index, ok, tc.wantIndex)
			}
		})
	}
}

func TestPairedRange(t *testing.T) {
	speedup := func(b, v float64) float64 { return b / v }
	cases := map[string]struct {
		base, v map[int]float64
		lo, hi  float64
	}{
		"paired run by run":           {base: map[int]float64{0: 10, 1: 12}, v: map[int]float64{0: 5, 1: 4}, lo: 2, hi: 3},
		"runs without a pair ignored": {base: map[int]float64{0: 10}, v: map[int]float64{0: 5, 1: 1}, lo: 2, hi: 2},
		"zeros are not measured":      {base: map[int]float64{0: 0, 1: 8}, v: map[int]float64{0: 5, 1: 0}},
		"nothing":                     {},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			lo, hi := PairedRange(tc.base, tc.v, speedup)
			if lo != tc.lo || hi != tc.hi {
				t.Errorf("PairedRange = %v–%v, want %v–%v", lo, hi, tc.lo, tc.hi)
			}
		})
	}
}

func TestFileName(t *testing.T) {
	if got := FileName("bound", "Multislice"); got != "bound-Multislice.svg" {
		t.Errorf("FileName = %q", got)
	}
	if got := FileName("ratio", "a b/c"); got != "ratio-a-b-c.svg" {
		t.Errorf("FileName = %q", got)
	}
}
