package main

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// svgClasses parses an SVG, failing unless it is well-formed XML, and
// returns the text of its elements by class.
func svgClasses(t *testing.T, doc []byte) map[string][]string {
	t.Helper()
	dec := xml.NewDecoder(bytes.NewReader(doc))
	dec.Strict = true
	out := map[string][]string{}
	type open struct {
		classes []string
		text    strings.Builder
	}
	var stack []*open
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
			o := &open{}
			for _, a := range tok.Attr {
				if a.Name.Local == "class" {
					o.classes = strings.Fields(a.Value)
				}
			}
			stack = append(stack, o)
		case xml.EndElement:
			o := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			for _, c := range o.classes {
				out[c] = append(out[c], o.text.String())
			}
		case xml.CharData:
			for _, o := range stack {
				o.text.Write(tok)
			}
		}
	}
	return out
}

func TestQuotaPlot(t *testing.T) {
	slow := strings.ReplaceAll(drainRun, `"Admitted":12.5`, `"Admitted":20`)
	rows, err := loadQuota(writeFiles(t, map[string]string{
		"QueueDrain_benchmark_multislice_1.json": drainRun,
		"QueueDrain_benchmark_multislice_2.json": slow,
	}))
	if err != nil {
		t.Fatal(err)
	}
	p, ok := quotaPlot(rows)
	if !ok || p.File != "ratio-quota-throughput.svg" {
		t.Fatalf("quotaPlot = %q, %v", p.File, ok)
	}
	got := svgClasses(t, p.SVG)
	// 200 workloads in 32.5 s against 200 in 20 s; run by run 8/10 and 5/10.
	if want := []string{"0.62× (0.50×–0.80×)"}; fmt.Sprint(got["value"]) != fmt.Sprint(want) {
		t.Errorf("values %q, want %q", got["value"], want)
	}
	if want := []string{"Quota · 800Nodes, against Unqueued"}; fmt.Sprint(got["group"]) != fmt.Sprint(want) {
		t.Errorf("groups %q, want %q", got["group"], want)
	}
	if len(got["worse"]) != 1 || len(got["whisker"]) != 1 {
		t.Errorf("bars %q, whiskers %q: want one slower bar with whiskers", got["worse"], got["whisker"])
	}

	if _, ok := quotaPlot(rows[:1]); ok {
		t.Error("a plot of a baseline alone")
	}
}

func TestProvisioningPlots(t *testing.T) {
	quickerBind := with(slowBind, map[string]float64{"Perc50": 1.5})
	rows, err := loadProvisioning(writeFiles(t, map[string]string{
		"Provisioning_benchmark_multislice_1.json": provisioningFile(
			provisioningItems("WithoutCheck", provWorkload, withoutCheckCounts, 40, fastBind, nil),
			provisioningItems("WithCheck", provWorkload, withCheckCounts, 10, slowBind, nil)),
		"Provisioning_benchmark_multislice_2.json": provisioningFile(
			provisioningItems("WithoutCheck", provWorkload, withoutCheckCounts, 40, fastBind, nil),
			provisioningItems("WithCheck", provWorkload, withCheckCounts, 20, quickerBind, nil)),
	}))
	if err != nil {
		t.Fatal(err)
	}
	plots := provisioningPlots(rows)
	if len(plots) != 2 {
		t.Fatalf("%d plots, want 2", len(plots))
	}
	cases := []struct {
		file, value, kind string
	}{
		// p50 2.5 and 1.5 s against 0.5 s: slower, the higher the worse.
		{file: "ratio-provisioning-bind-p50.svg", value: "4.00× (3.00×–5.00×)", kind: "worse"},
		// 10 and 20 gangs/s against 40.
		{file: "ratio-provisioning-rate.svg", value: "0.38× (0.25×–0.50×)", kind: "worse"},
	}
	for i, c := range cases {
		if plots[i].File != c.file {
			t.Errorf("plot %d is %s, want %s", i, plots[i].File, c.file)
			continue
		}
		got := svgClasses(t, plots[i].SVG)
		if fmt.Sprint(got["value"]) != fmt.Sprint([]string{c.value}) {
			t.Errorf("%s: values %q, want %q", c.file, got["value"], c.value)
		}
		if len(got[c.kind]) != 1 {
			t.Errorf("%s: no bar of class %s", c.file, c.kind)
		}
	}
	if got := provisioningPlots(rows[:1]); got != nil {
		t.Errorf("plots %v of a baseline alone", got)
	}
}

// The report written with -o shows every plot it writes, from plots/
// beside it, and leaves no earlier plot behind; without -o, no plots.
func TestRunWritesReportAndPlots(t *testing.T) {
	bound := `{"version":"v1","dataItems":[
 {"data":{"0":0,"5":100,"10":200,"20":240},"unit":"pods","labels":{"Metric":"BoundPodsOverTime","Name":"BenchmarkPerfScheduling/Quota_Unqueued/800Nodes/queued"}},
 {"data":{"0":0,"5":80,"10":160,"25":240},"unit":"pods","labels":{"Metric":"BoundPodsOverTime","Name":"BenchmarkPerfScheduling/Quota_Queued/800Nodes/queued"}}
]}`
	dir := writeFiles(t, map[string]string{
		"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun,
		"BoundPods_benchmark_multislice_1.json":               bound,
		"QueueDrain_benchmark_multislice_1.json":              drainRun,
		"GangLatency_benchmark_multislice_1.json": itemsFile(
			groupItem("Quota_Unqueued", "800Nodes", "queued", false, map[string]float64{"Count": 20, "Groups": 20, "Pods": 160, "Perc50": 0.5, "Perc99": 1}),
			groupItem("Quota_Queued", "800Nodes", "queued", false, map[string]float64{"Count": 20, "Groups": 20, "Pods": 160, "Perc50": 0.5, "Perc99": 1.5})),
		"Provisioning_benchmark_multislice_1.json": provisioningFile(
			provisioningItems("WithoutCheck", provWorkload, withoutCheckCounts, 40, fastBind, nil),
			provisioningItems("WithCheck", provWorkload, withCheckCounts, 10, slowBind, nil)),
	})
	stale := filepath.Join(dir, "plots", "bound-Gone.svg")
	if err := os.MkdirAll(filepath.Dir(stale), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(stale, []byte("<svg/>"), 0o600); err != nil {
		t.Fatal(err)
	}
	report := filepath.Join(dir, "results.md")
	var stdout bytes.Buffer
	if err := run(dir, report, &stdout); err != nil {
		t.Fatal(err)
	}
	if stdout.Len() != 0 {
		t.Errorf("with -o, stdout got %q", stdout.String())
	}
	md, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var linked []string
	for _, m := range regexp.MustCompile(`!\[[^\]]+\]\(plots/([^)]+)\)`).FindAllStringSubmatch(string(md), -1) {
		linked = append(linked, m[1])
		svg, err := os.ReadFile(filepath.Join(dir, "plots", m[1]))
		if err != nil {
			t.Errorf("the report shows %s: %v", m[1], err)
			continue
		}
		svgClasses(t, svg)
	}
	want := []string{"ratio-time.svg", "bound-Quota.svg", "ratio-gang-latency-p99.svg", "ratio-quota-throughput.svg", "ratio-provisioning-bind-p50.svg", "ratio-provisioning-rate.svg"}
	if fmt.Sprint(linked) != fmt.Sprint(want) {
		t.Errorf("the report shows %q, want %q", linked, want)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "plots", "*"))
	if len(files) != len(want) {
		t.Errorf("plots/ holds %q, want only the %d shown", files, len(want))
	}
	if !strings.Contains(string(md), "| Quota | 800Nodes | Queued |") || !strings.Contains(string(md), "| Quota | 800Nodes | Queued | 20 gangs, 160 pods |") {
		t.Errorf("the report lacks its tables:\n%s", md)
	}

	plain := t.TempDir()
	for _, f := range []string{"BenchmarkPerfScheduling_benchmark_multislice_1.json", "BoundPods_benchmark_multislice_1.json"} {
		data, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(plain, f), data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	stdout.Reset()
	if err := run(plain, "", &stdout); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(stdout.String(), "![") || !strings.Contains(stdout.String(), "| Quota | 800Nodes | Queued |") {
		t.Errorf("without -o: %s", stdout.String())
	}
	if _, err := os.Stat(filepath.Join(plain, "plots")); !os.IsNotExist(err) {
		t.Errorf("without -o, plots/ was made: %v", err)
	}
}
