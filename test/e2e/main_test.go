// Package e2e runs multislice-scheduler against the local cluster of
// `make run`: real kube-apiserver, kube-controller-manager, JobSet
// controller and admission webhooks, KWOK nodes. Workloads take the real
// JobSet → Job → Pod path. Run it with `make test-e2e`, which builds the
// component binaries first.
package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
)

var (
	cluster   *localcluster.Cluster
	client    kubernetes.Interface
	jobsets   jobsetclient.Interface
	poolsFile string
	repoRoot  string
)

func TestMain(m *testing.M) {
	os.Exit(run(m))
}

func run(m *testing.M) int {
	var err error
	repoRoot, err = findRepoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "multislice-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer func() { _ = os.RemoveAll(dir) }()

	// A copy of the shipped pool file, which TestNodePoolFile edits.
	poolsFile = filepath.Join(dir, "nodepools.yaml")
	data, err := os.ReadFile(filepath.Join(repoRoot, "manifests", "examples", "nodepools.yaml"))
	if err == nil {
		err = os.WriteFile(poolsFile, data, 0o644)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cluster, err = localcluster.Start(ctx, localcluster.Options{
		Dir:            filepath.Join(dir, "cluster"),
		BinDir:         filepath.Join(repoRoot, "bin"),
		RepoDir:        repoRoot,
		NodePools:      poolsFile,
		WatchNodePools: true,
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "local cluster did not start (run the tests through `make test-e2e`, which builds bin/): %v\n", err)
		return 1
	}
	defer cluster.Stop()
	fmt.Printf("local cluster up in %s; %s\n", cluster.StartupTime.Round(100*time.Millisecond), cluster.MemorySummary())
	client = cluster.Client
	if jobsets, err = jobsetclient.NewForConfig(cluster.AdminConfig); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	code := m.Run()
	select {
	case <-cluster.Failed():
		fmt.Fprintln(os.Stderr, cluster.Err())
		code = 1
	default:
	}
	fmt.Printf("after the tests: %s\n", cluster.MemorySummary())
	return code
}

func findRepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}
