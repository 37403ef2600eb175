// Command gen-docs writes the reference pages that are generated, so that
// they cannot drift from what they describe:
//
//   - docs/reference/api.md, the fields of the multislice.dev/v1alpha1
//     kinds, from the CRDs `make generate` writes from the Go types
//     (manifests/crds/multislice.dev_*.yaml, from pkg/apis/multislice);
//   - docs/reference/metrics.md, the scheduler's metrics, from their
//     registration in pkg/metrics (the list metrics.Register registers).
//
// `make docs` runs it; `make verify` runs it with -check, which writes
// nothing and fails, naming the page, when a committed page differs from
// what it would write, and naming the link, when a relative link of the
// README or of a markdown page under docs/, manifests/ or charts/ points to
// no file, or to no heading of it (links.go).
//
//	go run ./hack/gen-docs [-root DIR] [-check]
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// page is one generated page: where it goes, relative to the repository's
// root, and how it is made from the files under that root.
type page struct {
	path   string
	render func(root string) ([]byte, error)
}

// pages are every page gen-docs writes.
var pages = []page{
	{path: filepath.Join("docs", "reference", "api.md"), render: renderAPIPage},
	{path: filepath.Join("docs", "reference", "metrics.md"), render: renderMetricsPage},
}

func main() {
	root := flag.String("root", ".", "the repository's root")
	check := flag.Bool("check", false, "write nothing; fail when a committed page differs from what would be written, or a link of the README or docs/ is broken")
	flag.Parse()
	if err := run(*root, *check, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

// run writes every page under root, or with check compares each with the
// file there and fails naming those that differ, then checks the links.
func run(root string, check bool, out io.Writer) error {
	var stale []string
	for _, p := range pages {
		want, err := p.render(root)
		if err != nil {
			return fmt.Errorf("%s: %w", p.path, err)
		}
		file := filepath.Join(root, p.path)
		if check {
			got, err := os.ReadFile(file)
			if err != nil || !bytes.Equal(got, want) {
				stale = append(stale, p.path)
			}
			continue
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(file, want, 0o644); err != nil {
			return err
		}
		fmt.Fprintf(out, "wrote %s\n", p.path)
	}
	if len(stale) > 0 {
		return fmt.Errorf("generated pages out of date (run 'make docs'): %v", stale)
	}
	if check {
		return checkLinks(root)
	}
	return nil
}
