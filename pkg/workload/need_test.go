package workload_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestStillNeeds(t *testing.T) {
	// A member as the rule reads it: p placed, l leader, w waiting.
	type m string
	placed := func(x m) bool { return x == "p" || x == "pl" }
	leader := func(x m) bool { return x == "l" || x == "pl" }
	for name, tc := range map[string]struct {
		size    int
		members []m
		want    workload.SliceNeed
	}{
		"no member: every pod shaped like the slice's spec": {
			size: 4,
			want: workload.SliceNeed{Rest: 4, StandIn: -1},
		},
		"followers not created yet are shaped like the leader": {
			size: 4, members: []m{"w", "l"},
			want: workload.SliceNeed{Waiting: []int{0, 1}, Rest: 2, StandIn: 1},
		},
		"a placed leader is the stand-in too": {
			size: 4, members: []m{"w", "pl"},
			want: workload.SliceNeed{Placed: []int{1}, Waiting: []int{0}, Rest: 2, StandIn: 1},
		},
		"with no leader, the first member is the stand-in": {
			size: 3, members: []m{"p", "w"},
			want: workload.SliceNeed{Placed: []int{0}, Waiting: []int{1}, Rest: 1, StandIn: 0},
		},
		"every member placed: nothing left to place": {
			size: 2, members: []m{"p", "p"},
			want: workload.SliceNeed{Placed: []int{0, 1}, StandIn: 0},
		},
		"members beyond the size do not count, placed ones first": {
			size: 3, members: []m{"w", "w", "p", "w", "p"},
			want: workload.SliceNeed{Placed: []int{2, 4}, Waiting: []int{0}, StandIn: 0},
		},
		"more placed than the size": {
			size: 1, members: []m{"p", "p", "w"},
			want: workload.SliceNeed{Placed: []int{0}, StandIn: 0},
		},
		"an empty slice needs nothing": {
			size: 0, members: []m{"w"},
			want: workload.SliceNeed{StandIn: 0},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := workload.StillNeeds(tc.size, tc.members, placed, leader)
			if diff := cmp.Diff(tc.want, got, cmpopts.EquateEmpty()); diff != "" {
				t.Errorf("StillNeeds(%d, %v) (-want +got):\n%s", tc.size, tc.members, diff)
			}
			if u := got.Unplaced(); u != len(tc.want.Waiting)+tc.want.Rest {
				t.Errorf("Unplaced() = %d", u)
			}
		})
	}
}
