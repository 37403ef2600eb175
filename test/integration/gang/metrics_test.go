package gang_test

import (
	"context"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func metricValue(t *testing.T, name string, want map[string]string) float64 {
	t.Helper()
	return harness.MetricValue(t, name, want)
}

// The scheduler's own metrics measure what operators ask about: how long
// gangs wait, how long planning takes, how many reservations are held, and
// why reservations end early.
func TestMetricsMeasureGangs(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 2)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "metrics")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	waits := metricValue(t, "multislice_gang_wait_seconds", nil)
	plans := metricValue(t, "multislice_planning_duration_seconds", nil)
	deleted := metricValue(t, "multislice_reservation_releases_total", map[string]string{"reason": "deletion"})

	jobsets.Create(t, multislice(ns, "measured", 2))
	waitWhollyPlaced(t, cp, ns, "measured", 4)
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(context.Context) (bool, error) {
		return metricValue(t, "multislice_gang_wait_seconds", nil) >= waits+1 &&
			metricValue(t, "multislice_active_reservations", nil) == 0, nil
	})
	if err != nil {
		t.Errorf("gang wait observed %v times (before: %v), active reservations %v",
			metricValue(t, "multislice_gang_wait_seconds", nil), waits, metricValue(t, "multislice_active_reservations", nil))
	}
	if got := metricValue(t, "multislice_planning_duration_seconds", nil); got < plans+1 {
		t.Errorf("planning observed %v times, want at least %v", got, plans+1)
	}

	// A gang that cannot be placed counts as waiting for domains.
	jobsets.Create(t, multislice(ns, "waiting", 1))
	err = wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(context.Context) (bool, error) {
		return metricValue(t, "multislice_gangs_waiting", map[string]string{"state": "waiting_for_domains"}) >= 1, nil
	})
	if err != nil {
		t.Errorf("gangs_waiting{state=waiting_for_domains} = %v, want at least 1",
			metricValue(t, "multislice_gangs_waiting", map[string]string{"state": "waiting_for_domains"}))
	}
	// Deleting the placed JobSet lets the waiting one reserve; deleting that
	// one before its pods can all be placed would release it — here its pods
	// all fit, so it is placed and no deletion release is counted.
	jobsets.Delete(t, ns, "measured")
	waitWhollyPlaced(t, cp, ns, "waiting", 2)
	if got := metricValue(t, "multislice_reservation_releases_total", map[string]string{"reason": "deletion"}); got != deleted {
		t.Errorf("releases{reason=deletion} went from %v to %v without a reservation being deleted", deleted, got)
	}
}
