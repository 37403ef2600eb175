package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"
)

// The values of a release beside `make run`'s scheduler
// (manifests/examples/helm/local-cluster-values.yaml, docs/tasks/install-helm.md) copy the
// chart's default profiles, as Helm replaces lists whole: they stay the
// defaults but for a schedulerName of the release's own.
func TestLocalClusterValuesKeepTheDefaultProfiles(t *testing.T) {
	profiles := func(path string) []map[string]any {
		t.Helper()
		data, err := os.ReadFile(filepath.Join("..", "..", path))
		if err != nil {
			t.Fatal(err)
		}
		var v struct {
			Profiles []map[string]any `json:"profiles"`
		}
		if err := yaml.Unmarshal(data, &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		if len(v.Profiles) != 1 {
			t.Fatalf("%s: %d profiles, want 1", path, len(v.Profiles))
		}
		return v.Profiles
	}
	defaults := profiles("charts/multislice-scheduler/values.yaml")
	local := profiles("manifests/examples/helm/local-cluster-values.yaml")
	if name := local[0]["schedulerName"]; name == defaults[0]["schedulerName"] || name == "" {
		t.Errorf("the local cluster's release has schedulerName %v: it must differ from the local cluster's own %v", name, defaults[0]["schedulerName"])
	}
	local[0]["schedulerName"] = defaults[0]["schedulerName"]
	if !reflect.DeepEqual(defaults, local) {
		t.Errorf("the profiles of local-cluster-values.yaml differ from the chart's defaults beyond schedulerName:\n%v\n%v", local, defaults)
	}
}
