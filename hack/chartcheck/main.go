// Command chartcheck compares two renders of Kubernetes objects, object by
// object, and fails naming every object and field that differ. `make
// verify-chart` runs it on the install manifests (kustomize) against the
// Helm chart rendered with its default values, and on a partial
// expectation against the chart rendered with other values (-subset):
//
//	chartcheck [-subset] [-want NAME] [-got NAME] WANT.yaml GOT.yaml
//
// What it ignores, and nothing else, is in normalize (compare.go).
package main

import (
	"flag"
	"fmt"
	"os"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func main() {
	subset := flag.Bool("subset", false, "WANT is partial: check only its objects and fields")
	wantName := flag.String("want", "manifests", "name of WANT in messages")
	gotName := flag.String("got", "chart", "name of GOT in messages")
	flag.Usage = func() {
		fmt.Fprintf(flag.CommandLine.Output(), "usage: %s [-subset] [-want NAME] [-got NAME] WANT.yaml GOT.yaml\n", os.Args[0])
		flag.PrintDefaults()
	}
	flag.Parse()
	if flag.NArg() != 2 {
		flag.Usage()
		os.Exit(2)
	}
	if err := run(flag.Arg(0), flag.Arg(1), Sides{Want: *wantName, Got: *gotName}, *subset); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(wantFile, gotFile string, sides Sides, subset bool) error {
	want, err := decodeFile(wantFile)
	if err != nil {
		return err
	}
	got, err := decodeFile(gotFile)
	if err != nil {
		return err
	}
	if len(want) == 0 {
		return fmt.Errorf("%s: no objects", wantFile)
	}
	diffs, err := Compare(want, got, sides, subset)
	if err != nil {
		return err
	}
	if len(diffs) == 0 {
		fmt.Printf("%s and %s agree: %d objects\n", sides.Want, sides.Got, len(want))
		return nil
	}
	for _, d := range diffs {
		fmt.Fprintln(os.Stderr, d)
	}
	return fmt.Errorf("%d differences between %s (%s) and %s (%s)", len(diffs), sides.Want, wantFile, sides.Got, gotFile)
}

func decodeFile(path string) ([]*unstructured.Unstructured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	objs, err := Decode(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return objs, nil
}
