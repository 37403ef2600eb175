package metrics

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"k8s.io/component-base/metrics"
)

// The Grafana dashboard shipped beside the Helm chart, which its
// dashboard ConfigMap carries.
const dashboardFile = "../../charts/multislice-scheduler/dashboards/multislice-scheduler.json"

// datasourceUID is how every panel and query names its data source: the
// dashboard's datasource variable, so that it works with any Prometheus.
const datasourceUID = "${datasource}"

type dashboard struct {
	Title         string `json:"title"`
	UID           string `json:"uid"`
	SchemaVersion int    `json:"schemaVersion"`
	Templating    struct {
		List []variable `json:"list"`
	} `json:"templating"`
	Panels []panel `json:"panels"`
}

type variable struct {
	Name       string         `json:"name"`
	Type       string         `json:"type"`
	Query      any            `json:"query"`
	Datasource *datasourceRef `json:"datasource"`
}

type datasourceRef struct {
	Type string `json:"type"`
	UID  string `json:"uid"`
}

type gridPos struct{ X, Y, W, H int }

type panel struct {
	ID         *int           `json:"id"`
	Type       string         `json:"type"`
	Title      string         `json:"title"`
	Datasource *datasourceRef `json:"datasource"`
	GridPos    *gridPos       `json:"gridPos"`
	Targets    []target       `json:"targets"`
	// A collapsed row holds its panels.
	Panels []panel `json:"panels"`
}

type target struct {
	RefID      string         `json:"refId"`
	Expr       string         `json:"expr"`
	Datasource *datasourceRef `json:"datasource"`
}

func loadDashboard(t *testing.T) dashboard {
	t.Helper()
	data, err := os.ReadFile(dashboardFile)
	if err != nil {
		t.Fatal(err)
	}
	var d dashboard
	if err := json.Unmarshal(data, &d); err != nil {
		t.Fatalf("%s: %v", dashboardFile, err)
	}
	return d
}

// allPanels flattens rows: the dashboard's panels and those of its
// collapsed rows.
func allPanels(ps []panel) []panel {
	var out []panel
	for _, p := range ps {
		out = append(out, p)
		out = append(out, allPanels(p.Panels)...)
	}
	return out
}

func TestDashboardIsAValidGrafanaDashboard(t *testing.T) {
	d := loadDashboard(t)
	if d.Title == "" || d.UID == "" || d.SchemaVersion == 0 {
		t.Errorf("title %q, uid %q, schemaVersion %d: all are required", d.Title, d.UID, d.SchemaVersion)
	}
	var hasDatasource bool
	for _, v := range d.Templating.List {
		switch v.Type {
		case "datasource":
			if v.Name == "datasource" && v.Query == "prometheus" {
				hasDatasource = true
			}
		case "query":
			if v.Datasource == nil || v.Datasource.UID != datasourceUID {
				t.Errorf("variable %s: datasource %+v, want uid %s", v.Name, v.Datasource, datasourceUID)
			}
		}
	}
	if !hasDatasource {
		t.Errorf("no Prometheus datasource variable named datasource")
	}

	panels := allPanels(d.Panels)
	if len(panels) == 0 {
		t.Fatal("no panels")
	}
	ids := map[int]string{}
	var placed []panel
	for _, p := range panels {
		if p.ID == nil {
			t.Errorf("panel %q has no id", p.Title)
		} else if other, dup := ids[*p.ID]; dup {
			t.Errorf("panels %q and %q share id %d", other, p.Title, *p.ID)
		} else {
			ids[*p.ID] = p.Title
		}
		if p.Title == "" {
			t.Errorf("panel %v has no title", p.ID)
		}
		g := p.GridPos
		if g == nil || g.W <= 0 || g.H <= 0 || g.X < 0 || g.Y < 0 || g.X+g.W > 24 {
			t.Errorf("panel %q: gridPos %+v is not within the 24 columns", p.Title, g)
			continue
		}
		for _, o := range placed {
			if h := o.GridPos; g.X < h.X+h.W && h.X < g.X+g.W && g.Y < h.Y+h.H && h.Y < g.Y+g.H {
				t.Errorf("panels %q %+v and %q %+v overlap", o.Title, *h, p.Title, *g)
			}
		}
		placed = append(placed, p)
		if p.Type == "row" {
			continue
		}
		if p.Datasource == nil || p.Datasource.UID != datasourceUID {
			t.Errorf("panel %q: datasource %+v, want uid %s", p.Title, p.Datasource, datasourceUID)
		}
		if len(p.Targets) == 0 {
			t.Errorf("panel %q has no queries", p.Title)
		}
		refs := map[string]bool{}
		for _, tg := range p.Targets {
			if tg.Expr == "" || tg.RefID == "" || refs[tg.RefID] {
				t.Errorf("panel %q: query %q: an expression and a refId of its own are required", p.Title, tg.RefID)
			}
			refs[tg.RefID] = true
			if tg.Datasource == nil || tg.Datasource.UID != datasourceUID {
				t.Errorf("panel %q, query %s: datasource %+v, want uid %s", p.Title, tg.RefID, tg.Datasource, datasourceUID)
			}
		}
	}
}

// seriesOf maps the name of every series our registered metrics export to
// the metric's name: a histogram exports _bucket, _sum and _count series,
// never one of its own name.
func seriesOf(ms []metrics.Registerable) map[string]string {
	series := map[string]string{}
	for _, m := range ms {
		name := m.FQName()
		switch m.(type) {
		case *metrics.Histogram, *metrics.HistogramVec:
			for _, suffix := range []string{"_bucket", "_sum", "_count"} {
				series[name+suffix] = name
			}
		default:
			series[name] = name
		}
	}
	return series
}

func TestDashboardQueriesEveryRegisteredMetricAndNoOther(t *testing.T) {
	d := loadDashboard(t)
	series := seriesOf(all())
	if len(series) == 0 {
		t.Fatal("no registered metrics")
	}
	used := map[string]bool{}
	check := func(where, expr string) {
		names, err := metricNames(expr)
		if err != nil {
			t.Errorf("%s: %q: %v", where, expr, err)
			return
		}
		for _, n := range names {
			metric, ok := series[n]
			if !ok {
				t.Errorf("%s: %q queries %s, which no metric of this package exports", where, expr, n)
				continue
			}
			used[metric] = true
		}
	}
	for _, p := range allPanels(d.Panels) {
		for _, tg := range p.Targets {
			check(fmt.Sprintf("panel %q, query %s", p.Title, tg.RefID), tg.Expr)
		}
	}
	for _, v := range d.Templating.List {
		if v.Type != "query" {
			continue
		}
		q, ok := v.Query.(map[string]any)
		expr, _ := q["query"].(string)
		if !ok || expr == "" {
			t.Errorf("variable %s: query %v", v.Name, v.Query)
			continue
		}
		check("variable "+v.Name, labelValuesSelector(expr))
	}
	for _, m := range all() {
		if !used[m.FQName()] {
			t.Errorf("no panel shows %s", m.FQName())
		}
	}
}

// labelValuesSelector is the series selector of Grafana's
// label_values(selector, label) variable query, which is no PromQL.
func labelValuesSelector(query string) string {
	inner, ok := strings.CutPrefix(strings.TrimSpace(query), "label_values(")
	if !ok {
		return query
	}
	inner = strings.TrimSuffix(strings.TrimSpace(inner), ")")
	if i := strings.LastIndexByte(inner, ','); i >= 0 {
		return inner[:i]
	}
	// label_values(label): values of a label across all series.
	return ""
}

func TestLabelValuesSelector(t *testing.T) {
	for query, want := range map[string]string{
		`label_values(multislice_pending_workloads{job=~"$job"}, cluster_queue)`: `multislice_pending_workloads{job=~"$job"}`,
		`label_values(job)`: ``,
		`sum(x)`:            `sum(x)`,
	} {
		if got := labelValuesSelector(query); got != want {
			t.Errorf("labelValuesSelector(%q) = %q, want %q", query, got, want)
		}
	}
}

// promqlKeywords are words of PromQL that are no metric names: keywords,
// and aggregation operators, which a by or without clause may separate
// from their "(". Those in labelLists are followed by a parenthesized list
// of label names.
var (
	promqlKeywords = map[string]bool{
		"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true,
		"bool": true, "and": true, "or": true, "unless": true, "offset": true, "inf": true, "nan": true,
		"sum": true, "min": true, "max": true, "avg": true, "group": true, "stddev": true, "stdvar": true,
		"count": true, "count_values": true, "bottomk": true, "topk": true, "quantile": true,
		"limitk": true, "limit_ratio": true,
	}
	labelLists = map[string]bool{"by": true, "without": true, "on": true, "ignoring": true, "group_left": true, "group_right": true}
)

// metricNames returns the metric names a PromQL expression selects, in
// order: identifiers that are not function or aggregation names (followed
// by "("), keywords, label names (in {} matchers and by/without/on/
// ignoring/group_* lists), string literals, numbers and durations, range
// selectors ([...]), or Grafana variables ($name, ${name}). It fails on
// unbalanced brackets or an unterminated string.
func metricNames(expr string) ([]string, error) {
	var names []string
	var open []byte
	closing := map[byte]byte{')': '(', ']': '['}
	for i := 0; i < len(expr); {
		c := expr[i]
		switch {
		case c == '"' || c == '\'' || c == '`':
			end, err := skipString(expr, i)
			if err != nil {
				return nil, err
			}
			i = end
		case c == '{':
			end, err := skipMatchers(expr, i)
			if err != nil {
				return nil, err
			}
			i = end
		case c == '(' || c == '[':
			open = append(open, c)
			i++
		case c == ')' || c == ']':
			if len(open) == 0 || open[len(open)-1] != closing[c] {
				return nil, fmt.Errorf("unbalanced %q at %d", c, i)
			}
			open = open[:len(open)-1]
			i++
		case c == '$':
			i = skipVariable(expr, i)
		case isDigit(c) || c == '.' && i+1 < len(expr) && isDigit(expr[i+1]):
			// A number (0.99, 1e3, 0x1f) or a duration (5m, 1h30m).
			for i < len(expr) && (isIdentChar(expr[i]) || expr[i] == '.') {
				i++
			}
		case isIdentStart(c):
			start := i
			for i < len(expr) && isIdentChar(expr[i]) {
				i++
			}
			word := expr[start:i]
			next := i
			for next < len(expr) && (expr[next] == ' ' || expr[next] == '\t' || expr[next] == '\n') {
				next++
			}
			followedByParen := next < len(expr) && expr[next] == '('
			lower := strings.ToLower(word)
			switch {
			case labelLists[lower] && followedByParen:
				end := strings.IndexByte(expr[next:], ')')
				if end < 0 || strings.ContainsFunc(expr[next+1:next+end], func(r rune) bool {
					return r != ',' && r != ' ' && (r > 0x7f || !isIdentChar(byte(r)))
				}) {
					return nil, fmt.Errorf("%s takes a list of label names: %q", word, expr[next:])
				}
				i = next + end + 1
			case promqlKeywords[lower], followedByParen:
			default:
				names = append(names, word)
			}
		default:
			i++
		}
	}
	if len(open) > 0 {
		return nil, fmt.Errorf("unclosed %q", open[len(open)-1])
	}
	return names, nil
}

// skipString returns the index after the string literal at i.
func skipString(expr string, i int) (int, error) {
	quote := expr[i]
	for j := i + 1; j < len(expr); j++ {
		switch {
		case expr[j] == '\\' && quote != '`':
			j++
		case expr[j] == quote:
			return j + 1, nil
		}
	}
	return 0, fmt.Errorf("unterminated string at %d", i)
}

// skipMatchers returns the index after the label matchers {...} at i.
func skipMatchers(expr string, i int) (int, error) {
	for j := i + 1; j < len(expr); {
		switch expr[j] {
		case '}':
			return j + 1, nil
		case '"', '\'', '`':
			end, err := skipString(expr, j)
			if err != nil {
				return 0, err
			}
			j = end
		default:
			j++
		}
	}
	return 0, fmt.Errorf("unclosed '{' at %d", i)
}

// skipVariable returns the index after the Grafana variable at i: $name,
// ${name} or ${name:format}.
func skipVariable(expr string, i int) int {
	if i+1 < len(expr) && expr[i+1] == '{' {
		if end := strings.IndexByte(expr[i:], '}'); end >= 0 {
			return i + end + 1
		}
		return len(expr)
	}
	j := i + 1
	for j < len(expr) && isIdentChar(expr[j]) {
		j++
	}
	return j
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
func isIdentStart(c byte) bool {
	return c == '_' || c == ':' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}
func isIdentChar(c byte) bool { return isIdentStart(c) || isDigit(c) }

func TestMetricNames(t *testing.T) {
	cases := map[string]struct {
		expr    string
		want    []string
		wantErr bool
	}{
		"a bare selector":            {expr: `up`, want: []string{"up"}},
		"functions are no metrics":   {expr: `rate(multislice_admissions_total[5m])`, want: []string{"multislice_admissions_total"}},
		"label matchers are skipped": {expr: `multislice_quota_usage{cluster_queue=~"$cluster_queue", flavor!="a_total"}`, want: []string{"multislice_quota_usage"}},
		"a brace inside a label value": {
			expr: `x{a="}", b='{'}`, want: []string{"x"},
		},
		"aggregation with by before the argument": {
			expr: `sum by (cluster_queue, le) (rate(h_bucket{job=~"$job"}[$__rate_interval]))`, want: []string{"h_bucket"},
		},
		"aggregation with by after the operator, upper case": {
			expr: `SUM BY (le) (x) + count without(pod)(y)`, want: []string{"x", "y"},
		},
		"aggregation with without after the argument": {
			expr: `sum(rate(x_total[5m])) without (pod, instance)`, want: []string{"x_total"},
		},
		"histogram_quantile and numbers": {
			expr: `histogram_quantile(0.99, sum by (le) (rate(multislice_gang_wait_seconds_bucket[1h])))`,
			want: []string{"multislice_gang_wait_seconds_bucket"},
		},
		"binary operators, both sides": {
			expr: `sum(rate(d_sum[5m])) / sum(rate(d_count[5m])) > bool 1e3`, want: []string{"d_sum", "d_count"},
		},
		"vector matching and offset": {
			expr: `a offset 5m and on (x) group_left (y) b or ignoring(z) c unless d`, want: []string{"a", "b", "c", "d"},
		},
		"recording rule names": {expr: `max(job:multislice_pending:sum)`, want: []string{"job:multislice_pending:sum"}},
		"Grafana variables":    {expr: `x[${__rate_interval}] * $scale`, want: []string{"x"}},
		"a label list left open": {
			expr: `sum by (le (x)`, wantErr: true,
		},
		"an unclosed parenthesis": {expr: `sum(rate(x[5m])`, wantErr: true},
		"an unclosed matcher":     {expr: `x{a="b"`, wantErr: true},
		"an unterminated string":  {expr: `x{a="b}`, wantErr: true},
		"a stray bracket":         {expr: `x[5m]]`, wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got, err := metricNames(tc.expr)
			if tc.wantErr {
				if err == nil {
					t.Fatalf("metricNames(%q) = %v, want an error", tc.expr, got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("metricNames(%q) = %v, want %v", tc.expr, got, tc.want)
			}
		})
	}
}

func TestSeriesOfHistogramsAreTheirBucketsSumAndCount(t *testing.T) {
	series := seriesOf([]metrics.Registerable{GangWait, Admissions, AdmissionWait, ActiveReservations})
	want := map[string]string{
		"multislice_gang_wait_seconds_bucket":      "multislice_gang_wait_seconds",
		"multislice_gang_wait_seconds_sum":         "multislice_gang_wait_seconds",
		"multislice_gang_wait_seconds_count":       "multislice_gang_wait_seconds",
		"multislice_admissions_total":              "multislice_admissions_total",
		"multislice_admission_wait_seconds_bucket": "multislice_admission_wait_seconds",
		"multislice_admission_wait_seconds_sum":    "multislice_admission_wait_seconds",
		"multislice_admission_wait_seconds_count":  "multislice_admission_wait_seconds",
		"multislice_active_reservations":           "multislice_active_reservations",
	}
	if len(series) != len(want) {
		t.Errorf("series %v, want %v", series, want)
	}
	for s, m := range want {
		if series[s] != m {
			t.Errorf("series %s: metric %q, want %q", s, series[s], m)
		}
	}
}
