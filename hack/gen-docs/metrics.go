package main

import (
	"bytes"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"k8s.io/component-base/metrics"
)

// metricsDir is the package that defines and registers the scheduler's
// metrics; registeredList names its function that returns every metric
// Register registers.
var metricsDir = filepath.Join("pkg", "metrics")

const registeredList = "all"

// metric is one registered metric, as its definition reads.
type metric struct {
	// Var is the Go variable that holds it.
	Var string
	// Name is its full name; Kind "counter", "gauge", "histogram", ….
	Name, Kind string
	Labels     []string
	Help       string
	Stability  string
	// Buckets are a histogram's upper bounds (nil: not a histogram, or
	// the buckets are not constants).
	Buckets []float64
}

// constructors maps component-base's constructors to the kind of metric
// each makes, and whether it takes label names.
var constructors = map[string]struct {
	kind string
	vec  bool
}{
	"NewCounter": {"counter", false}, "NewCounterVec": {"counter", true},
	"NewGauge": {"gauge", false}, "NewGaugeVec": {"gauge", true},
	"NewHistogram": {"histogram", false}, "NewHistogramVec": {"histogram", true},
	"NewSummary": {"summary", false}, "NewSummaryVec": {"summary", true},
	"NewTimingHistogram": {"timing histogram", false}, "NewTimingHistogramVec": {"timing histogram", true},
}

// readMetrics reads the metrics the package in dir registers: the
// variables its registeredList function returns, each defined by a call
// of a component-base constructor. Anything it cannot read is an error,
// never a metric left out.
func readMetrics(dir string) ([]metric, error) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
	if err != nil {
		return nil, err
	}
	if len(pkgs) != 1 {
		return nil, fmt.Errorf("%s: %d packages, want 1", dir, len(pkgs))
	}
	var files []*ast.File
	for _, pkg := range pkgs {
		for _, f := range pkg.Files {
			files = append(files, f)
		}
	}
	consts, vars := map[string]ast.Expr{}, map[string]ast.Expr{}
	var list *ast.CompositeLit
	for _, f := range files {
		for _, decl := range f.Decls {
			switch d := decl.(type) {
			case *ast.GenDecl:
				for _, spec := range d.Specs {
					vs, ok := spec.(*ast.ValueSpec)
					if !ok || len(vs.Names) != len(vs.Values) {
						continue
					}
					for i, name := range vs.Names {
						if d.Tok == token.CONST {
							consts[name.Name] = vs.Values[i]
						} else {
							vars[name.Name] = vs.Values[i]
						}
					}
				}
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.Name == registeredList {
					list = returnedList(d)
				}
			}
		}
	}
	if list == nil {
		return nil, fmt.Errorf("%s: no func %s returning a list of the registered metrics", dir, registeredList)
	}
	r := reader{consts: consts}
	var out []metric
	seen := map[string]bool{}
	for _, elt := range list.Elts {
		id, ok := elt.(*ast.Ident)
		if !ok {
			return nil, fmt.Errorf("%s: %s lists %s, not a variable", dir, registeredList, r.source(elt))
		}
		def, ok := vars[id.Name]
		if !ok {
			return nil, fmt.Errorf("%s: %s lists %s, which is not a package variable", dir, registeredList, id.Name)
		}
		m, err := r.metric(id.Name, def)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %w", dir, id.Name, err)
		}
		if seen[m.Name] {
			return nil, fmt.Errorf("%s: %s is registered twice", dir, m.Name)
		}
		seen[m.Name] = true
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// returnedList is the composite literal fn returns (nil: none).
func returnedList(fn *ast.FuncDecl) *ast.CompositeLit {
	if fn.Body == nil {
		return nil
	}
	for _, stmt := range fn.Body.List {
		if ret, ok := stmt.(*ast.ReturnStmt); ok && len(ret.Results) == 1 {
			if lit, ok := ret.Results[0].(*ast.CompositeLit); ok {
				return lit
			}
		}
	}
	return nil
}

// reader evaluates the constant expressions of a metric's definition.
type reader struct {
	consts map[string]ast.Expr
}

// metric reads the definition def of the variable name:
// metrics.NewX(&metrics.XOpts{...}[, []string{labels...}]).
func (r reader) metric(name string, def ast.Expr) (metric, error) {
	call, ok := def.(*ast.CallExpr)
	if !ok {
		return metric{}, fmt.Errorf("defined as %s, not by a constructor", r.source(def))
	}
	sel, ok := call.Fun.(*ast.SelectorExpr)
	if !ok {
		return metric{}, fmt.Errorf("defined by %s, not a constructor of component-base's metrics", r.source(call.Fun))
	}
	c, ok := constructors[sel.Sel.Name]
	if !ok {
		return metric{}, fmt.Errorf("defined by %s, which is no constructor this generator knows", sel.Sel.Name)
	}
	want := 1
	if c.vec {
		want = 2
	}
	if len(call.Args) != want {
		return metric{}, fmt.Errorf("%s takes %d arguments, got %d", sel.Sel.Name, want, len(call.Args))
	}
	opts, ok := call.Args[0].(*ast.UnaryExpr)
	if !ok || opts.Op != token.AND {
		return metric{}, fmt.Errorf("options %s: want &metrics.…Opts{…}", r.source(call.Args[0]))
	}
	lit, ok := opts.X.(*ast.CompositeLit)
	if !ok {
		return metric{}, fmt.Errorf("options %s: want &metrics.…Opts{…}", r.source(call.Args[0]))
	}
	m := metric{Var: name, Kind: c.kind, Stability: "ALPHA"}
	var namespace, subsystem, short string
	for _, elt := range lit.Elts {
		kv, ok := elt.(*ast.KeyValueExpr)
		if !ok {
			return metric{}, fmt.Errorf("options: unkeyed field %s", r.source(elt))
		}
		key := kv.Key.(*ast.Ident).Name
		var err error
		switch key {
		case "Namespace":
			namespace, err = r.str(kv.Value)
		case "Subsystem":
			subsystem, err = r.str(kv.Value)
		case "Name":
			short, err = r.str(kv.Value)
		case "Help":
			m.Help, err = r.str(kv.Value)
		case "StabilityLevel":
			s, ok := kv.Value.(*ast.SelectorExpr)
			if !ok {
				return metric{}, fmt.Errorf("StabilityLevel %s: want metrics.LEVEL", r.source(kv.Value))
			}
			m.Stability = s.Sel.Name
		case "Buckets":
			m.Buckets, err = r.buckets(kv.Value)
		}
		if err != nil {
			return metric{}, fmt.Errorf("%s: %w", key, err)
		}
	}
	if short == "" || m.Help == "" {
		return metric{}, fmt.Errorf("a metric needs a Name and a Help")
	}
	m.Name = metrics.BuildFQName(namespace, subsystem, short)
	if c.vec {
		labels, ok := call.Args[1].(*ast.CompositeLit)
		if !ok {
			return metric{}, fmt.Errorf("labels %s: want []string{…}", r.source(call.Args[1]))
		}
		for _, l := range labels.Elts {
			s, err := r.str(l)
			if err != nil {
				return metric{}, fmt.Errorf("labels: %w", err)
			}
			m.Labels = append(m.Labels, s)
		}
	}
	if (m.Kind == "histogram" || m.Kind == "timing histogram") && m.Buckets == nil {
		m.Buckets = metrics.DefBuckets
	}
	return m, nil
}

// str evaluates a string constant: literals, constants of the package and
// their sums.
func (r reader) str(e ast.Expr) (string, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.STRING {
			return strconv.Unquote(e.Value)
		}
	case *ast.Ident:
		if c, ok := r.consts[e.Name]; ok {
			return r.str(c)
		}
	case *ast.ParenExpr:
		return r.str(e.X)
	case *ast.BinaryExpr:
		if e.Op == token.ADD {
			a, err := r.str(e.X)
			if err != nil {
				return "", err
			}
			b, err := r.str(e.Y)
			return a + b, err
		}
	}
	return "", fmt.Errorf("%s is not a string constant", r.source(e))
}

// num evaluates a numeric literal.
func (r reader) num(e ast.Expr) (float64, error) {
	switch e := e.(type) {
	case *ast.BasicLit:
		if e.Kind == token.INT || e.Kind == token.FLOAT {
			return strconv.ParseFloat(e.Value, 64)
		}
	case *ast.Ident:
		if c, ok := r.consts[e.Name]; ok {
			return r.num(c)
		}
	}
	return 0, fmt.Errorf("%s is not a number", r.source(e))
}

// buckets evaluates a histogram's buckets: metrics.DefBuckets, a call of
// metrics.ExponentialBuckets or metrics.LinearBuckets, or a list.
func (r reader) buckets(e ast.Expr) ([]float64, error) {
	switch e := e.(type) {
	case *ast.SelectorExpr:
		if e.Sel.Name == "DefBuckets" {
			return metrics.DefBuckets, nil
		}
	case *ast.CompositeLit:
		var out []float64
		for _, elt := range e.Elts {
			v, err := r.num(elt)
			if err != nil {
				return nil, err
			}
			out = append(out, v)
		}
		return out, nil
	case *ast.CallExpr:
		sel, ok := e.Fun.(*ast.SelectorExpr)
		if !ok || len(e.Args) != 3 {
			break
		}
		var args [3]float64
		for i, a := range e.Args {
			v, err := r.num(a)
			if err != nil {
				return nil, err
			}
			args[i] = v
		}
		switch sel.Sel.Name {
		case "ExponentialBuckets":
			return metrics.ExponentialBuckets(args[0], args[1], int(args[2])), nil
		case "LinearBuckets":
			return metrics.LinearBuckets(args[0], args[1], int(args[2])), nil
		}
	}
	return nil, fmt.Errorf("%s: want metrics.DefBuckets, metrics.ExponentialBuckets(…), metrics.LinearBuckets(…) or a list of numbers", r.source(e))
}

// source renders an expression for an error message.
func (r reader) source(e ast.Node) string {
	switch e := e.(type) {
	case *ast.Ident:
		return e.Name
	case *ast.SelectorExpr:
		return r.source(e.X) + "." + e.Sel.Name
	case *ast.BasicLit:
		return e.Value
	}
	return fmt.Sprintf("%T", e)
}

// renderMetricsPage renders docs/reference/metrics.md from the metrics
// pkg/metrics under root registers.
func renderMetricsPage(root string) ([]byte, error) {
	ms, err := readMetrics(filepath.Join(root, metricsDir))
	if err != nil {
		return nil, err
	}
	if len(ms) == 0 {
		return nil, fmt.Errorf("%s registers no metric", metricsDir)
	}
	return renderMetrics(ms), nil
}

// renderMetrics renders the metrics reference.
func renderMetrics(ms []metric) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "<!-- Generated by `make docs` (hack/gen-docs) from the metrics %s registers (%s/metrics.go, func %s). Do not edit: `make verify` fails when this page differs from them. -->\n\n",
		filepath.ToSlash(metricsDir), filepath.ToSlash(metricsDir), registeredList)
	b.WriteString("# Metrics reference\n\n")
	b.WriteString("Every metric the scheduler registers, served on its `/metrics` endpoint beside kube-scheduler's own. ")
	b.WriteString("How to read them, and queries that answer common questions: [Monitor the scheduler](../tasks/monitor.md).\n\n")
	b.WriteString("| Metric | Type | Labels | Description |\n|---|---|---|---|\n")
	for _, m := range ms {
		typ := m.Kind
		if m.Stability != "" {
			typ += ", " + strings.ToLower(m.Stability)
		}
		labels := "—"
		if len(m.Labels) > 0 {
			labels = "`" + strings.Join(m.Labels, "`, `") + "`"
		}
		desc := cell(m.Help)
		if len(m.Buckets) > 0 {
			desc += "<br>" + describeBuckets(m.Buckets)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s | %s |\n", m.Name, typ, labels, desc)
	}
	return b.Bytes()
}

// describeBuckets summarises a histogram's buckets: how many, the first
// and last bound, and the factor or step between them when there is one.
func describeBuckets(bs []float64) string {
	g := func(v float64) string { return strconv.FormatFloat(v, 'g', 6, 64) }
	if len(bs) == 1 {
		return "Buckets: " + g(bs[0]) + "."
	}
	s := fmt.Sprintf("Buckets: %d, from %s to %s", len(bs), g(bs[0]), g(bs[len(bs)-1]))
	factor, step := bs[1]/bs[0], bs[1]-bs[0]
	geometric, linear := bs[0] > 0, true
	for i := 1; i < len(bs); i++ {
		geometric = geometric && approx(bs[i]/bs[i-1], factor)
		linear = linear && approx(bs[i]-bs[i-1], step)
	}
	switch {
	case linear:
		s += ", every " + g(step)
	case geometric:
		s += ", each " + g(factor) + "× the last"
	}
	return s + "."
}

func approx(a, b float64) bool {
	d := a - b
	if d < 0 {
		d = -d
	}
	return d <= 1e-9*b || d <= 1e-12
}
