package metrics

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// declaredReleaseReasons reads, from pkg/state's source, the value of every
// constant of type state.ReleaseReason: the reasons a reservation can be
// released for, whether or not anyone listed them.
func declaredReleaseReasons(t *testing.T) []string {
	t.Helper()
	dir := filepath.Join("..", "state")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			gd, ok := decl.(*ast.GenDecl)
			if !ok || gd.Tok != token.CONST {
				continue
			}
			for _, spec := range gd.Specs {
				vs := spec.(*ast.ValueSpec)
				for i, v := range vs.Values {
					if !isReleaseReason(vs.Type, v) {
						continue
					}
					if lit, ok := literalOf(v); ok {
						out = append(out, lit)
					} else {
						t.Errorf("%s: the value of %s is not a string literal", fset.Position(v.Pos()), vs.Names[i])
					}
				}
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no constant of type ReleaseReason in %s", dir)
	}
	slices.Sort(out)
	return out
}

// isReleaseReason: the constant is declared of type ReleaseReason, or
// converted to it.
func isReleaseReason(typ ast.Expr, v ast.Expr) bool {
	if id, ok := typ.(*ast.Ident); ok && id.Name == "ReleaseReason" {
		return true
	}
	if call, ok := v.(*ast.CallExpr); ok {
		if id, ok := call.Fun.(*ast.Ident); ok && id.Name == "ReleaseReason" {
			return true
		}
	}
	return false
}

func literalOf(v ast.Expr) (string, bool) {
	if call, ok := v.(*ast.CallExpr); ok && len(call.Args) == 1 {
		v = call.Args[0]
	}
	lit, ok := v.(*ast.BasicLit)
	if !ok || lit.Kind != token.STRING {
		return "", false
	}
	s, err := strconv.Unquote(lit.Value)
	return s, err == nil
}

// The help of multislice_reservation_releases_total lists every reason a
// reservation can be released for (every ReleaseReason pkg/state
// declares), and nothing else.
func TestReservationReleasesHelpListsEveryReason(t *testing.T) {
	help := ReservationReleases.Help
	const before = "by reason ("
	start := strings.Index(help, before)
	end := strings.LastIndex(help, ")")
	if start < 0 || end < start {
		t.Fatalf("help %q does not list the reasons as %s…)", help, before)
	}
	listed := strings.Split(help[start+len(before):end], ", ")
	slices.Sort(listed)
	if diff := cmp.Diff(declaredReleaseReasons(t), listed); diff != "" {
		t.Errorf("reasons in the help against pkg/state's ReleaseReason constants (-declared +listed):\n%s", diff)
	}
}
