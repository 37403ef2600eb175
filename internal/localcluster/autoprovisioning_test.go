package localcluster

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
)

// The shipped node pool files' autoProvisioning blocks, in the one line
// `make run` prints.
func TestDescribeAutoProvisioning(t *testing.T) {
	for file, want := range map[string]string{
		"nodepools.yaml": "spot 4 × g2-standard-24 in us-central1-a (delay 5s); flex-start 8 × g2-standard-24 in us-central1-a, 4 × g2-standard-24 in us-central1-b " +
			"(delay 10s, one node per 5s); drain 1m0s, scale-down after 2m0s unused",
		"flex-start/nodepools.yaml": "spot 0 × g2-standard-24 in us-central1-a (delay 5s); flex-start 8 × g2-standard-24 in us-central1-a (delay 10s, one node per 5s); " +
			"drain 1m0s, scale-down after 1m0s unused",
	} {
		cfg, err := nodepools.LoadConfig(filepath.Join("..", "..", "manifests", "examples", file))
		if err != nil {
			t.Fatal(err)
		}
		if cfg.AutoProvisioning == nil {
			t.Fatalf("%s has no autoProvisioning block", file)
		}
		if got := DescribeAutoProvisioning(cfg.AutoProvisioning); got != want {
			t.Errorf("%s:\n got %s\nwant %s", file, got, want)
		}
	}
	if got := DescribeAutoProvisioning(&nodepools.AutoProvisioning{}); got != "no capacity; drain 0s, scale-down after 0s unused" {
		t.Errorf("empty block: %s", got)
	}
}

// The CRDs the local cluster installs from manifests/crds are there.
func TestInstalledCRDFilesExist(t *testing.T) {
	for _, f := range []string{provisioningRequestCRD, computeClassCRD} {
		if _, err := os.Stat(filepath.Join("..", "..", "manifests", "crds", f)); err != nil {
			t.Errorf("%v (run 'make generate')", err)
		}
	}
}
