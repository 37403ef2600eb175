// Package preemption_test checks whole-workload priority preemption
// ("hotswap") end to end on a real kube-apiserver: a gang workload that
// cannot be placed evicts whole lower-priority workloads — never single
// pods, never equal priorities unless its ClusterQueue says so — and is
// placed on the domains they free, while failed node pools stay unused.
//
// No kubelet and no JobSet controller run here: the harness's emulated
// kubelet finishes graceful deletions, and the tests restart JobSets the
// way JobSet's BlockingRecreate failure policy does.
package preemption_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }
