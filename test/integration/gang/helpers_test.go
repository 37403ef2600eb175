package gang_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

var modes = []harness.PodCreation{harness.AllAtOnce, harness.Staged}

// v5ePools creates n TPU v5e 2x4 pools of 2 hosts × 4 chips, named pool-1..n.
func v5ePools(t *testing.T, cp *harness.ControlPlane, n int) {
	for i := 1; i <= n; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a"))
	}
}

// multislice is a JobSet of slices × (2 pods × 4 chips) on v5e 2x4 pools, as in the seed scenario.
func multislice(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	return builders.JobSet(ns, name).Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).TPU("4").
				NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v5-lite-podslice").
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		}).
		ReplicatedJob("slice", slices, 2).Obj()
}

// placement is where a JobSet's pods are.
type placement = harness.Placement

func placementOf(ctx context.Context, cp *harness.ControlPlane, ns, name string) (placement, error) {
	return cp.PlacementOf(ctx, ns, name)
}

func waitWhollyPlaced(t *testing.T, cp *harness.ControlPlane, ns, name string, want int) placement {
	t.Helper()
	return cp.WaitWhollyPlaced(t, ns, name, want)
}

func checkExclusive(t *testing.T, ps ...placement) {
	t.Helper()
	harness.CheckExclusive(t, ps...)
}

func expectNoneBound(t *testing.T, cp *harness.ControlPlane, ns, name string, d time.Duration) {
	t.Helper()
	cp.ExpectNoneBound(t, ns, name, d)
}

func waitForWorkloadEvent(t *testing.T, cp *harness.ControlPlane, ns, name, reason string) string {
	t.Helper()
	return cp.WaitForWorkloadEvent(t, ns, name, reason)
}
