package quota_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// Two ClusterQueues of one cohort: team-a may borrow up to 8 chips beyond
// its 8, team-b lends at most 8 of its 16. What a queue could never get is
// said so; borrowed quota is returned when its workload ends.
func TestCohortBorrowingWithinLimits(t *testing.T) {
	e := start(t, 6)
	ns := e.cp.CreateNamespace(t, "cohort")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "team-a", "research", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, 8, -1})
	e.clusterQueue(t, "team-b", "research", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 16, -1, 8})
	e.localQueue(t, ns, "a", "team-a")
	e.localQueue(t, ns, "b", "team-b")

	e.jobsets.Create(t, queued(ns, "a-huge", "a", 3))
	e.waitWorkload(t, ns, "a-huge", "told it can never fit", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonExceedsQuotaForever))
	e.jobsets.Create(t, queued(ns, "a-two", "a", 2))
	e.cp.WaitWhollyPlaced(t, ns, "a-two", 4)
	cq := e.waitClusterQueue(t, "team-a", 1, 1, 16)
	if b := borrowed(cq); b != 8 {
		t.Errorf("team-a borrows %d chips, want 8", b)
	}
	// 8 borrowed of the 16 the cohort lends (team-a's 8, team-b's 8).
	if fs := cq.Status.FairSharing; fs == nil || fs.WeightedShare != 500 {
		t.Errorf("team-a fairSharing status %+v, want weightedShare 500", fs)
	}

	// team-b keeps the 8 chips it never lends: 8 fit, 16 do not.
	e.jobsets.Create(t, queued(ns, "b-two", "b", 2))
	e.waitWorkload(t, ns, "b-two", "waiting for quota", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
	e.jobsets.Create(t, queued(ns, "b-one", "b", 1))
	e.cp.WaitWhollyPlaced(t, ns, "b-one", 2)
	e.cp.ExpectNoneBound(t, ns, "b-two", 2*time.Second)

	e.jobsets.Delete(t, ns, "a-two")
	e.cp.WaitWhollyPlaced(t, ns, "b-two", 4)
	cq = e.waitClusterQueue(t, "team-b", 0, 2, 24)
	if b := borrowed(cq); b != 8 {
		t.Errorf("team-b borrows %d chips, want 8", b)
	}
	e.cp.ExpectNoneBound(t, ns, "a-huge", 0)
}

// Two queues want the cohort's unused quota at once: the one whose share
// of what the cohort lends would stay lower goes first, although the other
// asked first.
func TestFairSharingBetweenBorrowers(t *testing.T) {
	e := start(t, 6)
	ns := e.cp.CreateNamespace(t, "fair")
	e.v5eFlavor(t, "v5e")
	for _, q := range []struct {
		name    string
		nominal int64
	}{{"team-a", 8}, {"team-b", 8}, {"lender", 16}} {
		e.clusterQueue(t, q.name, "fair", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", q.nominal, -1, -1})
		e.localQueue(t, ns, q.name, q.name)
	}
	// team-a already borrows 8; the lender uses all of its own.
	e.jobsets.Create(t, queued(ns, "a-running", "team-a", 2))
	e.cp.WaitWhollyPlaced(t, ns, "a-running", 4)
	e.jobsets.Create(t, queued(ns, "lender-running", "lender", 2))
	e.cp.WaitWhollyPlaced(t, ns, "lender-running", 4)

	e.jobsets.Create(t, queued(ns, "a-more", "team-a", 1))
	e.waitWorkload(t, ns, "a-more", "waiting for quota", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
	e.jobsets.Create(t, queued(ns, "b-first", "team-b", 2))
	e.waitWorkload(t, ns, "b-first", "waiting for quota", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))

	// 16 chips free up: a-more (8) would take team-a to 16 borrowed, half
	// of what the cohort lends; b-first (16) takes team-b to 8 borrowed.
	e.jobsets.Delete(t, ns, "lender-running")
	e.cp.WaitWhollyPlaced(t, ns, "b-first", 4)
	e.cp.ExpectNoneBound(t, ns, "a-more", 2*time.Second)
}

func borrowed(cq *multislicev1alpha1.ClusterQueue) int64 {
	var n int64
	for _, f := range cq.Status.FlavorsUsage {
		for _, r := range f.Resources {
			n += r.Borrowed.Value()
		}
	}
	return n
}
