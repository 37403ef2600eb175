// Package faults_test is the fault suite: each test drives the scheduler
// on a real kube-apiserver through a failure a platform team meets in
// production — a restart or a failover mid-decision, queue objects that
// come and go, API calls that fail, nodes that change under reservations,
// workloads deleted or resized mid-flight — and checks what the API shows
// afterwards: every gang whole or wholly pending, no ClusterQueue using
// more than its quota, no cleanup left half done.
package faults_test

import (
	"fmt"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// TestMain runs the suite, then fails it if the periodic reconcile of any
// in-process scheduler found quota charged differently from what the API
// showed (replicas are checked by startPair).
func TestMain(m *testing.M) {
	harness.MainThen(m, func() error {
		if drift := harness.GatheredValue("multislice_quota_drift_total", nil); drift != 0 {
			return fmt.Errorf("the quota reconcile found %v drifted charges during the fault suite", drift)
		}
		return nil
	})
}
