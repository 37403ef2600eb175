package admission_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// A gang whose pods were bound one by one (as plain pods, before its API
// was found served) so that no plan can keep its promise is reported
// blocked, naming what is split; one whose bound pods are consistent is
// completed around them.
func TestPlanReportsAGangScatteredByPlainPlacement(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).obj()
	three := jobSetModel("a").slices(2, 3, pool, 0, tpuSpec()).obj()
	one := jobSetModel("a").slices(3, 1, pool, 0, tpuSpec()).obj()
	pending := func(slice, index int) *state.Pod { return member(js, slice, index, tpuSpec()).p }
	bound := func(slice, index int, node string) *state.Pod { return member(js, slice, index, tpuSpec()).on(node).p }
	pools := func() *snap { return snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2) }
	cases := map[string]struct {
		sn      *snap
		blocked []string // what the failure names; none: the plan succeeds
		want    map[int]sliceAt
	}{
		"a slice split over two pools": {
			sn: pools().self(three, member(three, 0, 0, tpuSpec()).on("pool-1-node-0").p, member(three, 0, 1, tpuSpec()).on("pool-2-node-0").p,
				member(three, 0, 2, tpuSpec()).p, member(three, 1, 0, tpuSpec()).p, member(three, 1, 1, tpuSpec()).p, member(three, 1, 2, tpuSpec()).p),
			blocked: []string{"ns/a cannot be completed as a gang",
				"slice 0 (a-0) has pods bound in 2 domains (gke-nodepool=pool-1, pool-2)", "restart or delete the workload"},
		},
		"two slices in one pool": {
			sn:      pools().self(js, bound(0, 0, "pool-1-node-0"), pending(0, 1), bound(1, 0, "pool-1-node-1"), pending(1, 1)),
			blocked: []string{"slice 0 (a-0) and slice 1 (a-1) have pods bound in the same domain gke-nodepool=pool-1"},
		},
		"a pod on a node of no pool": {
			sn:      pools().cpuNode("cpu-0").self(js, bound(0, 0, "cpu-0"), pending(0, 1), pending(1, 0), pending(1, 1)),
			blocked: []string{"slice 0 (a-0) has pods bound on cpu-0, which has no gke-nodepool label"},
		},
		"every problem is named": {
			sn: pools().cpuNode("cpu-0").self(three, member(three, 0, 0, tpuSpec()).on("pool-1-node-0").p, member(three, 0, 1, tpuSpec()).on("pool-2-node-0").p,
				member(three, 0, 2, tpuSpec()).p, member(three, 1, 0, tpuSpec()).on("pool-2-node-1").p, member(three, 1, 1, tpuSpec()).on("cpu-0").p,
				member(three, 1, 2, tpuSpec()).p),
			blocked: []string{"slice 0 (a-0) has pods bound in 2 domains", "slice 1 (a-1) has pods bound on cpu-0",
				"slice 0 (a-0) and slice 1 (a-1) have pods bound in the same domain gke-nodepool=pool-2"},
		},
		"a slice placed whole, split, needs no plan: the rest is planned": {
			sn: pools().use("pool-1-node-0", 4).use("pool-2-node-0", 4).
				self(js, bound(0, 0, "pool-1-node-0"), bound(0, 1, "pool-2-node-0"), pending(1, 0), pending(1, 1)),
			want: map[int]sliceAt{1: both("pool-3")},
		},
		"two slices placed whole in one pool: nothing to plan": {
			sn: pools().use("pool-1-node-0", 4).use("pool-1-node-1", 4).
				self(one, member(one, 0, 0, tpuSpec()).on("pool-1-node-0").p, member(one, 1, 0, tpuSpec()).on("pool-1-node-1").p, member(one, 2, 0, tpuSpec()).p),
			want: map[int]sliceAt{2: {Domain: "pool-2", Slots: slotsOn("pool-2-node-0")}},
		},
		"bound pods each in their own slice's pool: the rest follows them": {
			sn:   pools().use("pool-2-node-0", 4).self(js, bound(0, 0, "pool-2-node-0"), pending(0, 1), pending(1, 0), pending(1, 1)),
			want: map[int]sliceAt{0: {Domain: "pool-2", Slots: slotsOn("pool-2-node-1")}, 1: both("pool-1")},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, fail := admission.Plan(tc.sn.sn)
			if len(tc.blocked) == 0 {
				if fail != nil {
					t.Fatalf("plan failed: %v", fail.Message)
				}
				if diff := cmp.Diff(tc.want, placements(r)); diff != "" {
					t.Errorf("plan (-want +got):\n%s", diff)
				}
				return
			}
			if fail == nil {
				t.Fatalf("plan = %v, want the gang reported blocked", placements(r))
			}
			if fail.Reason != state.ReasonGangBlocked || !fail.Unresolvable {
				t.Errorf("failure reason %q unresolvable %v, want %q and unresolvable", fail.Reason, fail.Unresolvable, state.ReasonGangBlocked)
			}
			for _, want := range tc.blocked {
				if !strings.Contains(fail.Message, want) {
					t.Errorf("failure %q does not say %q", fail.Message, want)
				}
			}
		})
	}
}

func slotsOn(nodes ...string) []placement.Slot {
	var out []placement.Slot
	for _, n := range nodes {
		out = append(out, slot(n, 0, 1))
	}
	return out
}
