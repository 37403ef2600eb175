package admission

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Wake decides, on the copy state.WakeRound took, which waiting workloads
// of a cohort the quota now free admits, and returns their head pods to
// activate, in the order quota.Wake admits them one after another (the
// order the gate's verdict then lets them through). A workload the quota
// admits but that has no pod waiting now is counted against the quota all
// the same: what it would take is not offered to the ones behind it.
//
// The round is the caller's: quota.Wake charges what it wakes in
// round.View.
func Wake(round state.WakeRound) []state.PodRef {
	if round.View == nil || len(round.Queues) == 0 {
		return nil
	}
	heads := map[workload.Key]*state.PodRef{}
	queues := make(map[string]quota.WaitingList, len(round.Queues))
	for name, list := range round.Queues {
		for i := range list {
			heads[list[i].Key] = list[i].Head
		}
		queues[name] = func(i int) *quota.Waiting {
			if i >= len(list) {
				return nil
			}
			return &list[i].Waiting
		}
	}
	var out []state.PodRef
	for _, k := range quota.Wake(round.View, queues, round.Now, round.Starvation) {
		if h := heads[k]; h != nil {
			out = append(out, *h)
		}
	}
	return out
}

// WakeAll resolves acts.Wake: for each ClusterQueue named once, the heads
// admission.Wake picks on a fresh copy taken by round (state.WakeRound) are
// added to acts.Activate. The effects layer calls it outside the state's
// lock before carrying acts out.
func WakeAll(acts *state.Actions, round func(cq string) (state.WakeRound, bool)) {
	seen := map[string]bool{}
	for _, cq := range acts.Wake {
		if seen[cq] {
			continue
		}
		seen[cq] = true
		if r, ok := round(cq); ok {
			acts.Activate = append(acts.Activate, Wake(r)...)
		}
	}
	acts.Wake = nil
}
