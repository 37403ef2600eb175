package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Every manifest the banner tells a newcomer to apply exists and holds only
// objects of APIs the local cluster serves, never a scenario file.
func TestBannerExamplesApply(t *testing.T) {
	served := map[string]bool{"scheduling.k8s.io/v1": true, "jobset.x-k8s.io/v1alpha2": true, "batch/v1": true, "v1": true}
	for _, f := range bannerExamples {
		data, err := os.ReadFile(filepath.Join("..", "..", f))
		if err != nil {
			t.Fatal(err)
		}
		dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
		n := 0
		for {
			obj := &unstructured.Unstructured{}
			if err := dec.Decode(&obj.Object); err != nil {
				if errors.Is(err, io.EOF) {
					break
				}
				t.Fatalf("%s: %v", f, err)
			}
			if len(obj.Object) == 0 {
				continue
			}
			n++
			if !served[obj.GetAPIVersion()] {
				t.Errorf("%s: %s %s of apiVersion %s, which kubectl apply cannot create on the local cluster", f, obj.GetKind(), obj.GetName(), obj.GetAPIVersion())
			}
		}
		if n == 0 {
			t.Errorf("%s holds no object", f)
		}
	}
	if got, want := applyArgs(bannerExamples), "-f manifests/examples/priorityclasses.yaml -f manifests/examples/multislice-v5e/multislice-2slice.yaml"; got != want {
		t.Errorf("applyArgs = %q, want %q", got, want)
	}
}
