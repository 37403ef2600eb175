package harness

import (
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/yaml"
)

// RepoPath resolves a path relative to the repository root (the directory
// holding go.mod), whichever package's directory the test runs in.
func RepoPath(t testing.TB, rel string) string {
	t.Helper()
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, rel)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatalf("no go.mod above the test directory")
		}
		dir = parent
	}
}

// SchedulerConfig is the shipped KubeSchedulerConfiguration.
func SchedulerConfig(t testing.TB) string {
	return RepoPath(t, "manifests/scheduler/config.yaml")
}

// SchedulerConfigWithArgs is the shipped configuration with MultisliceGang
// args overridden, written to a temporary file.
func SchedulerConfigWithArgs(t testing.TB, args map[string]any) string {
	t.Helper()
	data, err := os.ReadFile(SchedulerConfig(t))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, p := range doc["profiles"].([]any) {
		for _, pc := range p.(map[string]any)["pluginConfig"].([]any) {
			pc := pc.(map[string]any)
			if pc["name"] == "MultisliceGang" {
				a := pc["args"].(map[string]any)
				for k, v := range args {
					a[k] = v
				}
				found = true
			}
		}
	}
	if !found {
		t.Fatal("shipped config has no MultisliceGang pluginConfig")
	}
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}
