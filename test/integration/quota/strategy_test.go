package quota_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// A head that does not fit: StrictFIFO keeps the smaller workload behind it
// waiting, BestEffortFIFO lets it by. Freed quota goes to the head first
// either way.
func TestQueueingStrategies(t *testing.T) {
	for _, tc := range []struct {
		strategy  multislicev1alpha1.QueueingStrategy
		smallRuns bool
	}{{multislicev1alpha1.StrictFIFO, false}, {multislicev1alpha1.BestEffortFIFO, true}} {
		t.Run(string(tc.strategy), func(t *testing.T) {
			e := start(t, 6)
			ns := e.cp.CreateNamespace(t, "fifo")
			e.v5eFlavor(t, "v5e")
			e.clusterQueue(t, "cq", "", tc.strategy, tpuQuota{"v5e", 24, -1, -1})
			e.localQueue(t, ns, "lq", "cq")

			e.jobsets.Create(t, queued(ns, "running", "lq", 2))
			e.cp.WaitWhollyPlaced(t, ns, "running", 4)
			e.jobsets.Create(t, queued(ns, "big", "lq", 2))
			e.waitWorkload(t, ns, "big", "waiting for quota", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
			e.jobsets.Create(t, queued(ns, "small", "lq", 1))
			if tc.smallRuns {
				e.cp.WaitWhollyPlaced(t, ns, "small", 2)
			} else {
				e.waitWorkload(t, ns, "small", "waiting behind big", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonWaitingInQueue))
				e.cp.ExpectNoneBound(t, ns, "small", 2*time.Second)
			}
			e.cp.ExpectNoneBound(t, ns, "big", 0)

			e.jobsets.Delete(t, ns, "running")
			e.cp.WaitWhollyPlaced(t, ns, "big", 4)
			e.cp.WaitWhollyPlaced(t, ns, "small", 2)
		})
	}
}
