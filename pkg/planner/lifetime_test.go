package planner

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"

	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// endsAt makes every node of the pool go away at end.
func (b *poolB) endsAt(end time.Time) *poolB {
	for i := range b.d.Nodes {
		b.d.Nodes[i].EndsAt = end
	}
	return b
}

// ending marks nodes of the pool as being replaced.
func (b *poolB) ending(nodes ...int) *poolB {
	for _, i := range nodes {
		b.d.Nodes[i].Ending = true
	}
	return b
}

// kept marks the pool as kept for the workload while it restarts.
func (b *poolB) kept() *poolB {
	b.d.Kept = true
	return b
}

// Plans prefer domains and nodes that last: a workload whose run length is
// known goes where its nodes outlive it, and nothing new goes on a node
// being replaced while another fits; with no choice, the short-lived
// capacity is used all the same.
func TestLifetimesSteerPlans(t *testing.T) {
	until := t0.Add(2 * time.Hour)
	cases := map[string]struct {
		slices  []*sliceB
		domains []*poolB
		until   time.Time
		want    Plan
	}{
		"a tighter domain that ends before the run loses to one that lasts": {
			slices:  []*sliceB{slice(0, 2)},
			domains: []*poolB{pool("short", 2).endsAt(t0.Add(time.Hour)), pool("long", 3).endsAt(t0.Add(3 * time.Hour))},
			until:   until,
			want:    Plan{0: in("long", slot("long-0", 0, 1), slot("long-1", 0, 1))},
		},
		"with no run length, the tightest domain wins": {
			slices:  []*sliceB{slice(0, 2)},
			domains: []*poolB{pool("short", 2).endsAt(t0.Add(time.Hour)), pool("long", 3).endsAt(t0.Add(3 * time.Hour))},
			want:    Plan{0: in("short", slot("short-0", 0, 1), slot("short-1", 0, 1))},
		},
		"nodes with no end last": {
			slices:  []*sliceB{slice(0, 2)},
			domains: []*poolB{pool("short", 2).endsAt(t0.Add(time.Hour)), pool("forever", 3)},
			until:   until,
			want:    Plan{0: in("forever", slot("forever-0", 0, 1), slot("forever-1", 0, 1))},
		},
		"a domain being recycled loses to one that is not": {
			slices:  []*sliceB{slice(0, 2)},
			domains: []*poolB{pool("recycling", 2).ending(0), pool("fresh", 3)},
			want:    Plan{0: in("fresh", slot("fresh-0", 0, 1), slot("fresh-1", 0, 1))},
		},
		"in a pool, the replacement takes the pod before the node it replaces": {
			slices:  []*sliceB{slice(0, 1)},
			domains: []*poolB{pool("p", 2).ending(0)},
			want:    Plan{0: in("p", slot("p-1", 0, 1))},
		},
		"the domain kept for a restarting workload comes first": {
			slices:  []*sliceB{slice(0, 2)},
			domains: []*poolB{pool("tight", 2), pool("kept", 3).kept()},
			want:    Plan{0: in("kept", slot("kept-0", 0, 1), slot("kept-1", 0, 1))},
		},
		"with no choice, short-lived capacity is used": {
			slices:  []*sliceB{slice(0, 2), slice(1, 2)},
			domains: []*poolB{pool("a", 2).endsAt(t0.Add(time.Hour)), pool("b", 2)},
			until:   until,
			want: Plan{
				0: in("b", slot("b-0", 0, 1), slot("b-1", 0, 1)),
				1: in("a", slot("a-0", 0, 1), slot("a-1", 0, 1)),
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			sl := buildSlices(tc.slices)
			domains := buildDomains(tc.domains)
			plan, fail := MakePlan(Request{Slices: sl, Until: tc.until}, domains)
			if fail != nil {
				t.Fatal(fail)
			}
			checkPlan(t, sl, domains, plan)
			if diff := cmp.Diff(tc.want, plan); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPlaceUnconfinedAvoidsNodesThatEnd(t *testing.T) {
	nodes := []Node{cpuHost("old", 4000, 4000), cpuHost("new", 4000, 4000), cpuHost("brief", 4000, 4000)}
	nodes[0].Ending = true
	nodes[2].EndsAt = t0.Add(time.Minute)
	plan, fail := PlaceUnconfined(buildSlices([]*sliceB{cpuSlice(0, 3, 2000)}), nodes, t0.Add(time.Hour))
	if fail != nil {
		t.Fatal(fail)
	}
	want := Plan{0: {Slots: []placement.Slot{slot("new", 0, 2), slot("old", 0, 1)}}}
	if diff := cmp.Diff(want, plan); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}
