package preemption

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestAllowed(t *testing.T) {
	t0 := time.Unix(1000, 0)
	queue := func(name, cohort string, pol quota.Preemption) *quota.ClusterQueue {
		return &quota.ClusterQueue{Name: name, Cohort: cohort, Preemption: pol}
	}
	party := func(name string, prio int32, q *quota.ClusterQueue) Party {
		return Party{Key: workload.Key{Namespace: "ns", Name: name}, Priority: prio, Created: t0, Started: t0, Queue: q}
	}
	newer := func(p Party) Party { p.Created = t0.Add(time.Minute); return p }
	threshold := int32(50)
	within := func(policy string) *quota.ClusterQueue {
		return queue("cq", "", quota.Preemption{WithinClusterQueue: policy})
	}
	cohortA := func(pol quota.Preemption) *quota.ClusterQueue { return queue("a", "co", pol) }
	cohortB := queue("b", "co", quota.Preemption{})
	outside := queue("x", "other", quota.Preemption{})
	borrowing := func(cq *quota.ClusterQueue) bool { return cq.Name == "b" }
	notBorrowing := func(*quota.ClusterQueue) bool { return false }

	for _, tc := range []struct {
		name      string
		p, v      Party
		sit       Situation
		want      bool
		reasonHas string
	}{
		{name: "unqueued lower priority", p: party("p", 10, nil), v: party("v", 5, nil), want: true},
		{name: "unqueued equal priority", p: party("p", 10, nil), v: party("v", 10, nil), reasonHas: "not lower"},
		{name: "unqueued higher priority", p: party("p", 10, nil), v: party("v", 11, nil), reasonHas: "not lower"},
		{name: "queued preemptor, unqueued victim: priority", p: party("p", 10, within(Never)), v: party("v", 5, nil), want: true},
		{name: "unqueued preemptor, queued victim: never", p: party("p", 10, nil), v: party("v", 5, within(Never)), reasonHas: "admitted through ClusterQueue cq and the preemptor is not queued"},
		{name: "unqueued preemptor, queued victim, capacity: never", p: party("p", 10, nil), v: party("v", 5, within(Never)), sit: Situation{Capacity: true}, reasonHas: "not queued"},
		{name: "capacity: within Never, lower", p: party("p", 10, within(Never)), v: party("v", 5, within(Never)), sit: Situation{Capacity: true}, want: true},
		{name: "capacity: within Never, equal", p: party("p", 10, within(Never)), v: newer(party("v", 10, within(Never))), sit: Situation{Capacity: true}, reasonHas: "not lower"},
		{name: "capacity: LowerOrNewerEqual, newer equal is no victim", p: party("p", 10, within(LowerOrNewerEqualPriority)), v: newer(party("v", 10, within(LowerOrNewerEqualPriority))), sit: Situation{Capacity: true}, reasonHas: "not lower"},
		{name: "capacity: other cohort, reclaim not enabled, lower", p: party("p", 10, cohortA(quota.Preemption{})), v: party("v", 5, outside), sit: Situation{Capacity: true}, want: true},
		{name: "capacity: cohort queue not borrowing, lower", p: party("p", 10, cohortA(quota.Preemption{})), v: party("v", 5, cohortB), sit: Situation{Capacity: true, Borrowing: notBorrowing}, want: true},
		{name: "capacity: forceFit Never, other cohort queue", p: party("p", 10, cohortA(quota.Preemption{ForceFit: Never})), v: party("v", 5, cohortB), sit: Situation{Capacity: true}, reasonHas: "spec.preemption.forceFit: Never"},
		{name: "capacity: forceFit Never, own queue lower", p: party("p", 10, cohortA(quota.Preemption{ForceFit: Never})), v: party("v", 5, cohortA(quota.Preemption{})), sit: Situation{Capacity: true}, want: true},
		{name: "capacity: forceFit Never, unqueued lower", p: party("p", 10, cohortA(quota.Preemption{ForceFit: Never})), v: party("v", 5, nil), sit: Situation{Capacity: true}, want: true},
		{name: "capacity: forceFit Never, other queue equal", p: party("p", 10, cohortA(quota.Preemption{ForceFit: Never})), v: party("v", 10, cohortB), sit: Situation{Capacity: true}, reasonHas: "not lower"},
		{name: "capacity: forceFit within cohort, cohort queue", p: party("p", 10, cohortA(quota.Preemption{ForceFit: LowerPriorityWithinCohort})), v: party("v", 5, cohortB), sit: Situation{Capacity: true}, want: true},
		{name: "capacity: forceFit within cohort, other cohort", p: party("p", 10, cohortA(quota.Preemption{ForceFit: LowerPriorityWithinCohort})), v: party("v", 5, outside), sit: Situation{Capacity: true}, reasonHas: "outside the cohort of ClusterQueue a (spec.preemption.forceFit: LowerPriorityWithinCohort)"},
		{name: "capacity: forceFit within cohort, preemptor of no cohort", p: party("p", 10, queue("solo", "", quota.Preemption{ForceFit: LowerPriorityWithinCohort})), v: party("v", 5, queue("solo2", "", quota.Preemption{})), sit: Situation{Capacity: true}, reasonHas: "forceFit: LowerPriorityWithinCohort"},
		{name: "capacity: forceFit LowerPriority, other cohort", p: party("p", 10, cohortA(quota.Preemption{ForceFit: LowerPriority})), v: party("v", 5, outside), sit: Situation{Capacity: true}, want: true},
		{name: "quota: forceFit Never leaves reclaim alone", p: party("p", 10, cohortA(quota.Preemption{ForceFit: Never, ReclaimWithinCohort: LowerPriority})), v: party("v", 5, cohortB), sit: Situation{Borrowing: borrowing}, want: true},
		{name: "within: Never", p: party("p", 10, within(Never)), v: party("v", 5, within(Never)), reasonHas: "withinClusterQueue: Never"},
		{name: "within: default is Never", p: party("p", 10, within("")), v: party("v", 5, within("")), reasonHas: "Never"},
		{name: "within: LowerPriority, lower", p: party("p", 10, within(LowerPriority)), v: party("v", 5, within(LowerPriority)), want: true},
		{name: "within: LowerPriority, equal", p: party("p", 10, within(LowerPriority)), v: newer(party("v", 10, within(LowerPriority))), reasonHas: "not of lower"},
		{name: "within: LowerOrNewerEqual, newer equal", p: party("p", 10, within(LowerOrNewerEqualPriority)), v: newer(party("v", 10, within(LowerOrNewerEqualPriority))), want: true},
		{name: "within: LowerOrNewerEqual, older equal", p: party("p", 10, within(LowerOrNewerEqualPriority)), v: party("v", 10, within(LowerOrNewerEqualPriority)), reasonHas: "not of lower"},
		{name: "cohort: victim queue not borrowing", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: Any})), v: party("v", 5, cohortB), sit: Situation{Borrowing: notBorrowing}, reasonHas: "does not borrow"},
		{name: "cohort: reclaim Any, higher priority victim", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: Any})), v: party("v", 50, cohortB), sit: Situation{Borrowing: borrowing}, want: true},
		{name: "cohort: reclaim LowerPriority, higher victim", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: LowerPriority})), v: party("v", 50, cohortB), sit: Situation{Borrowing: borrowing}, reasonHas: "reclaimWithinCohort"},
		{name: "cohort: reclaim LowerPriority, lower victim", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: LowerPriority})), v: party("v", 5, cohortB), sit: Situation{Borrowing: borrowing}, want: true},
		{name: "cohort: reclaim Never", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: Never})), v: party("v", 5, cohortB), sit: Situation{Borrowing: borrowing}, reasonHas: "reclaimWithinCohort"},
		{name: "cohort: preemptor borrows, borrow policy Never", p: party("p", 10, cohortA(quota.Preemption{ReclaimWithinCohort: Any})), v: party("v", 5, cohortB), sit: Situation{Borrowing: borrowing, PreemptorBorrows: true}, reasonHas: "borrowWithinCohort"},
		{name: "cohort: preemptor borrows, LowerPriority", p: party("p", 100, cohortA(quota.Preemption{BorrowWithinCohort: LowerPriority})), v: party("v", 5, cohortB), sit: Situation{Borrowing: borrowing, PreemptorBorrows: true}, want: true},
		{name: "cohort: preemptor borrows, above threshold", p: party("p", 100, cohortA(quota.Preemption{BorrowWithinCohort: LowerPriority, BorrowMaxPriority: &threshold})), v: party("v", 60, cohortB), sit: Situation{Borrowing: borrowing, PreemptorBorrows: true}, reasonHas: "borrowWithinCohort"},
		{name: "outside cohort: not enabled", p: party("p", 10, cohortA(quota.Preemption{})), v: party("v", 5, outside), reasonHas: "reclaimOutOfCohort"},
		{name: "outside cohort: enabled, lower", p: party("p", 10, cohortA(quota.Preemption{ReclaimOutOfCohort: true})), v: party("v", 5, outside), want: true},
		{name: "outside cohort: enabled, equal", p: party("p", 10, cohortA(quota.Preemption{ReclaimOutOfCohort: true})), v: party("v", 10, outside), reasonHas: "not lower"},
		{name: "outside cohort: beyond nominal", p: party("p", 10, cohortA(quota.Preemption{ReclaimOutOfCohort: true})), v: party("v", 5, outside), sit: Situation{PreemptorBorrows: true}, reasonHas: "nominal"},
		{name: "outside cohort: beyond nominal allowed", p: party("p", 10, cohortA(quota.Preemption{ReclaimOutOfCohort: true, ReclaimMoreThanNominal: true})), v: party("v", 5, outside), sit: Situation{PreemptorBorrows: true}, want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, why := Allowed(tc.p, tc.v, tc.sit)
			if got != tc.want {
				t.Fatalf("Allowed = %v (%s), want %v", got, why, tc.want)
			}
			if !got && !strings.Contains(why, tc.reasonHas) {
				t.Errorf("reason %q does not mention %q", why, tc.reasonHas)
			}
		})
	}
}

// No policy lets two workloads evict each other in turn: Allowed(a, b) and
// Allowed(b, a) never both hold, whatever their priorities and ages,
// unqueued or in the same queue or in queues of different cohorts. (Two
// queues of one cohort reclaim only from a queue that borrows, which the
// evicted side no longer does afterwards; that is the ledger's to show.)
func TestAllowedIsNeverMutual(t *testing.T) {
	t0 := time.Unix(1000, 0)
	queues := []*quota.ClusterQueue{nil}
	for _, within := range []string{Never, LowerPriority, LowerOrNewerEqualPriority} {
		for i, cohort := range []string{"a", "b"} {
			pol := quota.Preemption{WithinClusterQueue: within, ReclaimWithinCohort: Any, ReclaimOutOfCohort: true, ReclaimMoreThanNominal: true}
			queues = append(queues, &quota.ClusterQueue{Name: fmt.Sprintf("cq-%s-%d", within, i), Cohort: cohort, Preemption: pol})
		}
	}
	var parties []Party
	for _, q := range queues {
		for _, prio := range []int32{1, 2} {
			for _, age := range []time.Duration{0, time.Minute} {
				parties = append(parties, Party{Key: workload.Key{Namespace: "ns", Name: "w"}, Priority: prio,
					Created: t0.Add(age), Started: t0.Add(time.Hour - age), Queue: q})
			}
		}
	}
	sit := Situation{Borrowing: func(*quota.ClusterQueue) bool { return true }}
	for _, a := range parties {
		for _, b := range parties {
			if a.Queue != nil && b.Queue != nil && a.Queue != b.Queue && a.Queue.Cohort == b.Queue.Cohort {
				continue
			}
			ab, _ := Allowed(a, b, sit)
			ba, _ := Allowed(b, a, sit)
			if ab && ba {
				t.Errorf("%+v and %+v may evict each other", a, b)
			}
		}
	}
}
