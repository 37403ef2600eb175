package admission_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// wakeRound is a round over queues, each charged used chips, with the
// given waiting workloads filed in the order given.
func wakeRound(queues []*quota.ClusterQueue, used map[string]int64, now time.Duration, waiting ...state.WakingWorkload) state.WakeRound {
	b := quota.NewBook()
	b.SetFlavor(&quota.Flavor{Name: "v5e"})
	for _, q := range queues {
		b.SetClusterQueue(q)
	}
	for name, chips := range used {
		b.Charge(workload.Key{Source: workload.SourceJobSet, Namespace: "default", Name: "running-in-" + name},
			&quota.Charge{ClusterQueue: name, Usage: quota.Usage{{Flavor: "v5e", Resource: chip}: chips * 1000}})
	}
	r := state.WakeRound{View: b.View(), Queues: map[string][]state.WakingWorkload{}, Now: roundStart.Add(now), Starvation: 30 * time.Minute}
	for _, w := range waiting {
		r.Queues[w.ClusterQueue] = append(r.Queues[w.ClusterQueue], w)
	}
	return r
}

// wakingOn is a workload of cq created at minute m, waiting for quota since
// then, asking for chips, with a head pod named after it.
func wakingOn(name string, cq *quota.ClusterQueue, m int, chips int64) state.WakingWorkload {
	c := pendingOn(name, cq, m, chips)
	c.Place.WaitingSince = c.Place.Created
	return state.WakingWorkload{
		Waiting: quota.Waiting{Candidate: c.Place, Needs: c.Needs, Shape: quota.Shape(c.Needs)},
		Head:    c.Head,
	}
}

// headless is w with no pod waiting now.
func headless(w state.WakingWorkload) state.WakingWorkload {
	w.Head = nil
	return w
}

func TestWake(t *testing.T) {
	strict, best, teamA, teamB, lender := roundQueues()
	cases := []struct {
		name  string
		round state.WakeRound
		want  []string
	}{
		{name: "nothing waits: nothing wakes", round: wakeRound([]*quota.ClusterQueue{best}, nil, 0)},
		{name: "no view: nothing wakes", round: state.WakeRound{}},
		{name: "BestEffortFIFO: what fits, in queue order, each counted before the next",
			round: wakeRound([]*quota.ClusterQueue{best}, nil, 0,
				wakingOn("a", best, 0, 8), wakingOn("b", best, 1, 8), wakingOn("c", best, 2, 8)),
			want: []string{"a-head", "b-head"}},
		{name: "BestEffortFIFO: a smaller workload passes a head that does not fit",
			round: wakeRound([]*quota.ClusterQueue{best}, map[string]int64{"best": 8}, time.Minute,
				wakingOn("big", best, 0, 16), wakingOn("small", best, 1, 8)),
			want: []string{"small-head"}},
		{name: "BestEffortFIFO: a starving head that does not fit holds the rest back",
			round: wakeRound([]*quota.ClusterQueue{best}, map[string]int64{"best": 8}, time.Hour,
				wakingOn("big", best, 0, 16), wakingOn("small", best, 1, 8))},
		{name: "StrictFIFO: only the head, the next waits for its admission",
			round: wakeRound([]*quota.ClusterQueue{strict}, nil, 0,
				wakingOn("first", strict, 0, 8), wakingOn("second", strict, 1, 8)),
			want: []string{"first-head"}},
		{name: "StrictFIFO: a head that does not fit wakes nothing",
			round: wakeRound([]*quota.ClusterQueue{strict}, map[string]int64{"strict": 8}, 0,
				wakingOn("big", strict, 0, 16), wakingOn("small", strict, 1, 8))},
		{name: "a workload with no pod waiting takes its quota all the same",
			round: wakeRound([]*quota.ClusterQueue{best}, map[string]int64{"best": 8}, 0,
				headless(wakingOn("a", best, 0, 8)), wakingOn("b", best, 1, 8))},
		{name: "fair share: the queue that would borrow less goes first",
			round: wakeRound([]*quota.ClusterQueue{teamA, teamB, lender}, map[string]int64{"team-a": 16, "team-b": 8}, 0,
				wakingOn("from-a", teamA, 0, 8), wakingOn("from-b", teamB, 1, 8)),
			want: []string{"from-b-head"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, ref := range admission.Wake(tc.round) {
				got = append(got, ref.Name)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("woken (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWakeAll(t *testing.T) {
	best := chipQueue("best", "", 16, quota.BestEffortFIFO)
	other := chipQueue("other", "", 8, quota.BestEffortFIFO)
	rounds := map[string]state.WakeRound{
		"best":  wakeRound([]*quota.ClusterQueue{best}, nil, 0, wakingOn("a", best, 0, 8)),
		"other": wakeRound([]*quota.ClusterQueue{other}, nil, 0, wakingOn("b", other, 0, 8)),
	}
	var asked []string
	round := func(cq string) (state.WakeRound, bool) {
		asked = append(asked, cq)
		r, ok := rounds[cq]
		return r, ok
	}
	acts := state.Actions{Activate: []state.PodRef{{Name: "already"}}, Wake: []string{"best", "gone", "best", "other"}}
	admission.WakeAll(&acts, round)
	var got []string
	for _, ref := range acts.Activate {
		got = append(got, ref.Name)
	}
	if diff := cmp.Diff([]string{"already", "a-head", "b-head"}, got); diff != "" {
		t.Errorf("activated (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"best", "gone", "other"}, asked); diff != "" {
		t.Errorf("rounds taken (-want +got): each queue once\n%s", diff)
	}
	if len(acts.Wake) != 0 {
		t.Errorf("Wake left %v after it was resolved", acts.Wake)
	}
}
