package admission

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// A workload its quota keeps waiting goes on to a scheduling cycle only
// where its ClusterQueue's policies let it reclaim quota by preemption and
// no search of its own is known to be vain or under way.
func TestMayPreemptForQuota(t *testing.T) {
	round := func(cohort string, pol quota.Preemption) *state.QueueRound {
		cq := &quota.ClusterQueue{Name: "cq", Cohort: cohort, Preemption: pol}
		return &state.QueueRound{Candidates: []state.QueueCandidate{{ClusterQueue: cq}}}
	}
	cases := []struct {
		name string
		r    *state.QueueRound
		want bool
	}{
		{"no preemption configured", round("team", quota.Preemption{}), false},
		{"within its queue, lower priority", round("", quota.Preemption{WithinClusterQueue: "LowerPriority"}), true},
		{"within its queue, lower or newer", round("", quota.Preemption{WithinClusterQueue: "LowerOrNewerEqualPriority"}), true},
		{"within its queue, never", round("team", quota.Preemption{WithinClusterQueue: "Never"}), false},
		{"reclaim within the cohort", round("team", quota.Preemption{ReclaimWithinCohort: "Any"}), true},
		{"reclaim, lower priority", round("team", quota.Preemption{ReclaimWithinCohort: "LowerPriority"}), true},
		{"borrow within the cohort", round("team", quota.Preemption{BorrowWithinCohort: "LowerPriority"}), true},
		{"cohort policies without a cohort", round("", quota.Preemption{ReclaimWithinCohort: "Any", BorrowWithinCohort: "LowerPriority"}), false},
		{"reclaim out of its cohort", round("", quota.Preemption{ReclaimOutOfCohort: true}), true},
		{"no victims found since the state last changed", func() *state.QueueRound {
			r := round("", quota.Preemption{WithinClusterQueue: "LowerPriority"})
			r.NoVictims = true
			return r
		}(), false},
		{"a preemption of its own under way", func() *state.QueueRound {
			r := round("", quota.Preemption{WithinClusterQueue: "LowerPriority"})
			r.Preempting = true
			return r
		}(), false},
		{"no candidate", &state.QueueRound{}, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := mayPreemptForQuota(tc.r); got != tc.want {
				t.Errorf("mayPreemptForQuota = %v, want %v", got, tc.want)
			}
		})
	}
}
