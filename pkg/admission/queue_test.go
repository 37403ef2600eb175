package admission_test

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const chip = corev1.ResourceName("google.com/tpu")

var roundStart = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// chipQueue is a ClusterQueue of nominal chips on flavor v5e.
func chipQueue(name, cohort string, chips int64, strategy quota.Strategy) *quota.ClusterQueue {
	return &quota.ClusterQueue{Name: name, Cohort: cohort, Strategy: strategy, FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{chip}, Flavors: []string{"v5e"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: "v5e", Resource: chip}: {Nominal: chips * 1000}}}
}

// pendingOn is a candidate of cq asking for chips, created at minute m.
func pendingOn(name string, cq *quota.ClusterQueue, m int, chips int64) state.QueueCandidate {
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "default", Name: name}
	return state.QueueCandidate{
		Place:        quota.Candidate{Key: key, ClusterQueue: cq.Name, Created: roundStart.Add(time.Duration(m) * time.Minute)},
		ClusterQueue: cq,
		Needs:        []quota.Need{{Count: 1, Request: workload.Resources{chip: chips * 1000}}},
		Head:         &state.PodRef{Namespace: "default", Name: name + "-head"},
	}
}

// waitingSince marks a candidate as waiting for quota since minute m.
func waitingSince(c state.QueueCandidate, m int) state.QueueCandidate {
	c.Place.WaitingSince = roundStart.Add(time.Duration(m) * time.Minute)
	return c
}

// roundQueues are the ClusterQueues the queue's tables decide among: a
// StrictFIFO and a BestEffortFIFO queue of 16 chips each, alone, and a
// cohort "pool" of two teams of 8 chips and a lender of 16.
func roundQueues() (strict, best, teamA, teamB, lender *quota.ClusterQueue) {
	strict = chipQueue("strict", "", 16, quota.StrictFIFO)
	best = chipQueue("best", "", 16, quota.BestEffortFIFO)
	teamA, teamB = chipQueue("team-a", "pool", 8, quota.BestEffortFIFO), chipQueue("team-b", "pool", 8, quota.BestEffortFIFO)
	lender = chipQueue("lender", "pool", 16, quota.BestEffortFIFO)
	return strict, best, teamA, teamB, lender
}

func TestQueueVerdict(t *testing.T) {
	strict, best, teamA, teamB, lender := roundQueues()
	cases := []struct {
		name   string
		queues []*quota.ClusterQueue
		// used is what each queue has charged already, in chips.
		used       map[string]int64
		problem    *quota.Problem
		candidates []state.QueueCandidate
		now        time.Duration
		// wantReason "" means it proceeds.
		wantReason string
		wantAfter  string
	}{
		{name: "a queue that cannot admit at all says why",
			problem:    &quota.Problem{Reason: quota.ReasonLocalQueueNotFound, Config: true, Message: "LocalQueue default/q does not exist"},
			wantReason: quota.ReasonLocalQueueNotFound},
		{name: "alone and within quota: proceeds", queues: []*quota.ClusterQueue{best},
			candidates: []state.QueueCandidate{pendingOn("w", best, 0, 16)}},
		{name: "beyond what is left: quota exceeded", queues: []*quota.ClusterQueue{best}, used: map[string]int64{"best": 8},
			candidates: []state.QueueCandidate{pendingOn("w", best, 0, 16)}, wantReason: quota.ReasonQuotaExceeded},
		{name: "StrictFIFO: an older head that does not fit blocks it", queues: []*quota.ClusterQueue{strict}, used: map[string]int64{"strict": 8},
			candidates: []state.QueueCandidate{pendingOn("small", strict, 1, 8), pendingOn("big", strict, 0, 16)},
			wantReason: quota.ReasonWaitingInQueue, wantAfter: "big"},
		{name: "BestEffortFIFO: it passes an older head that does not fit", queues: []*quota.ClusterQueue{best}, used: map[string]int64{"best": 8},
			candidates: []state.QueueCandidate{pendingOn("small", best, 1, 8), waitingSince(pendingOn("big", best, 0, 16), 0)}, now: time.Minute},
		{name: "BestEffortFIFO: not past a head that starved", queues: []*quota.ClusterQueue{best}, used: map[string]int64{"best": 8},
			candidates: []state.QueueCandidate{pendingOn("small", best, 1, 8), waitingSince(pendingOn("big", best, 0, 16), 0)}, now: time.Hour,
			wantReason: quota.ReasonWaitingInQueue, wantAfter: "big"},
		{name: "fair share: the queue borrowing more yields to the other's head", queues: []*quota.ClusterQueue{teamA, teamB, lender},
			used:       map[string]int64{"team-a": 12, "lender": 8},
			candidates: []state.QueueCandidate{pendingOn("from-a", teamA, 0, 4), pendingOn("from-b", teamB, 1, 12)},
			wantReason: quota.ReasonYieldingToFairShare, wantAfter: "from-b"},
		{name: "fair share: with room for both, neither yields", queues: []*quota.ClusterQueue{teamA, teamB, lender},
			used:       map[string]int64{"team-a": 12},
			candidates: []state.QueueCandidate{pendingOn("from-a", teamA, 0, 4), pendingOn("from-b", teamB, 1, 12)}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			book := quota.NewBook()
			book.SetFlavor(&quota.Flavor{Name: "v5e"})
			for _, q := range tc.queues {
				book.SetClusterQueue(q)
			}
			for cq, chips := range tc.used {
				book.Charge(workload.Key{Source: workload.SourceJobSet, Namespace: "default", Name: "running-in-" + cq},
					&quota.Charge{ClusterQueue: cq, Usage: quota.Usage{{Flavor: "v5e", Resource: chip}: chips * 1000}})
			}
			r := &state.QueueRound{Problem: tc.problem, View: book.View(), Candidates: tc.candidates,
				Now: roundStart.Add(tc.now), Starvation: 30 * time.Minute}
			if len(tc.candidates) > 0 {
				r.Key = tc.candidates[0].Place.Key
			}
			v := admission.QueueVerdict(r)
			switch {
			case tc.wantReason == "" && !v.Proceed:
				t.Fatalf("verdict = %+v (%+v), want it to proceed", v, v.Problem)
			case tc.wantReason != "" && (v.Proceed || v.Problem == nil || v.Problem.Reason != tc.wantReason):
				t.Fatalf("verdict = %+v (%+v), want %s", v, v.Problem, tc.wantReason)
			case v.After.Name != tc.wantAfter:
				t.Errorf("it waits after %q, want %q", v.After.Name, tc.wantAfter)
			}
		})
	}
}
