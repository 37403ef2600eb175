// Package quota_test checks quota-aware queueing end to end on a real
// kube-apiserver: workloads admitted through ClusterQueues only when quota
// and domains both fit, the rest waiting gated, and the status users read
// (Workload objects, queue status) kept current.
package quota_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
