package quota

import (
	"testing"
	"time"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// pending is a candidate of queue cq created at minute m; fits says whether
// it would get a charge of chips on v5e.
func pending(name, cq string, prio int32, m int, chips int64, fits bool) *Candidate {
	c := &Candidate{Key: key(name), ClusterQueue: cq, Priority: prio, Created: t0.Add(time.Duration(m) * time.Minute)}
	if fits {
		c.Charge = charge(cq, "v5e", chips)
	} else {
		c.Problem = &Problem{Reason: ReasonQuotaExceeded, Message: "no room"}
		c.WaitingSince = c.Created
	}
	return c
}

func TestDecide(t *testing.T) {
	strict := tpuQueue("strict", "", 24, "v5e")
	strict.Strategy = StrictFIFO
	cases := []struct {
		name    string
		queues  []*ClusterQueue
		usage   map[string]int64
		cands   []*Candidate
		now     time.Duration // since t0
		proceed []string
		reasons map[string]string
		// after: whom a workload waiting for order alone waits for.
		after map[string]string
	}{
		{name: "StrictFIFO: a head that does not fit blocks the rest", queues: []*ClusterQueue{strict},
			cands:   []*Candidate{pending("big", "strict", 0, 0, 24, false), pending("small", "strict", 0, 1, 8, true)},
			reasons: map[string]string{"big": ReasonQuotaExceeded, "small": ReasonWaitingInQueue}, after: map[string]string{"small": "big"}},
		{name: "StrictFIFO: only the head proceeds", queues: []*ClusterQueue{strict},
			cands:   []*Candidate{pending("a", "strict", 0, 0, 8, true), pending("b", "strict", 0, 1, 8, true)},
			proceed: []string{"a"}, reasons: map[string]string{"b": ReasonWaitingInQueue}, after: map[string]string{"b": "a"}},
		{name: "priority before age", queues: []*ClusterQueue{strict},
			cands:   []*Candidate{pending("old", "strict", 0, 0, 8, true), pending("urgent", "strict", 10, 5, 8, true)},
			proceed: []string{"urgent"}, reasons: map[string]string{"old": ReasonWaitingInQueue}, after: map[string]string{"old": "urgent"}},
		{name: "BestEffortFIFO: smaller workloads pass a head that does not fit", queues: []*ClusterQueue{tpuQueue("q", "", 24, "v5e")},
			cands: []*Candidate{pending("big", "q", 0, 0, 24, false), pending("small", "q", 0, 1, 8, true)}, now: time.Minute,
			proceed: []string{"small"}, reasons: map[string]string{"big": ReasonQuotaExceeded}},
		{name: "BestEffortFIFO: a starving head turns its queue strict", queues: []*ClusterQueue{tpuQueue("q", "", 24, "v5e")},
			cands: []*Candidate{pending("big", "q", 0, 0, 24, false), pending("small", "q", 0, 1, 8, true)}, now: time.Hour,
			reasons: map[string]string{"big": ReasonQuotaExceeded, "small": ReasonWaitingInQueue}, after: map[string]string{"small": "big"}},
		{name: "queues decide independently", queues: []*ClusterQueue{strict, tpuQueue("q", "", 24, "v5e")},
			cands:   []*Candidate{pending("s1", "strict", 0, 0, 8, true), pending("s2", "strict", 0, 1, 8, true), pending("q1", "q", 0, 2, 8, true)},
			proceed: []string{"s1", "q1"}, reasons: map[string]string{"s2": ReasonWaitingInQueue}, after: map[string]string{"s2": "s1"}},
		{name: "fair share: the queue borrowing less goes first",
			queues:  []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 16, "v5e")},
			usage:   map[string]int64{"a": 12, "lender": 8},
			cands:   []*Candidate{pending("from-a", "a", 0, 0, 4, true), pending("from-b", "b", 0, 1, 12, true)},
			proceed: []string{"from-b"}, reasons: map[string]string{"from-a": ReasonYieldingToFairShare}, after: map[string]string{"from-a": "from-b"}},
		{name: "fair share: with room for both, neither yields",
			queues:  []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 16, "v5e")},
			usage:   map[string]int64{"a": 12},
			cands:   []*Candidate{pending("from-a", "a", 0, 0, 4, true), pending("from-b", "b", 0, 1, 12, true)},
			proceed: []string{"from-a", "from-b"}},
		{name: "fair share: weight lets a queue borrow more",
			queues: []*ClusterQueue{queue("a").cohort("c").weight(4000).group(tpuQueue("x", "", 0, "v5e").Groups[0].Covered, "v5e").quota("v5e", tpu, 8, -1, -1).build(),
				tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 16, "v5e")},
			usage:   map[string]int64{"a": 12, "lender": 8},
			cands:   []*Candidate{pending("from-a", "a", 0, 0, 4, true), pending("from-b", "b", 0, 1, 12, true)},
			proceed: []string{"from-a"}, reasons: map[string]string{"from-b": ReasonYieldingToFairShare}, after: map[string]string{"from-b": "from-a"}},
		{name: "fair share ignores workloads within nominal",
			queues:  []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 16, "v5e")},
			usage:   map[string]int64{"a": 12},
			cands:   []*Candidate{pending("from-a", "a", 0, 0, 4, true), pending("from-b", "b", 0, 1, 8, true)},
			proceed: []string{"from-a", "from-b"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := book([]string{"v5e"}, tc.queues...)
			for q, chips := range tc.usage {
				b.Charge(key("running-"+q), charge(q, "v5e", chips))
			}
			got := Decide(b.View(), tc.cands, t0.Add(tc.now), 30*time.Minute)
			want := map[string]bool{}
			for _, n := range tc.proceed {
				want[n] = true
			}
			for _, c := range tc.cands {
				v := got[c.Key]
				if v.Proceed != want[c.Key.Name] {
					t.Errorf("%s: proceed = %v, want %v (%+v)", c.Key.Name, v.Proceed, want[c.Key.Name], v.Problem)
				}
				if r, ok := tc.reasons[c.Key.Name]; ok && (v.Problem == nil || v.Problem.Reason != r) {
					t.Errorf("%s: problem %+v, want reason %s", c.Key.Name, v.Problem, r)
				}
				if a := tc.after[c.Key.Name]; v.After.Name != a {
					t.Errorf("%s: waits after %q, want %q", c.Key.Name, v.After.Name, a)
				}
			}
		})
	}
}
