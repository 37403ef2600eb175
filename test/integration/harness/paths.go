package harness

import (
	"os"
	"path/filepath"
	"testing"
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
