package admission

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestDecideVictimOnValues(t *testing.T) {
	a := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "a"}
	b := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "b"}
	reservedFor := func(k workload.Key, slice int) state.VictimCycle {
		return state.VictimCycle{Reserved: true, ReservedFor: k, ReservedSlice: slice}
	}
	member := func(c state.VictimCycle, k workload.Key, slice int) state.VictimCycle {
		c.Gang, c.Key, c.Slice = true, k, slice
		return c
	}
	gangVictim := func(c state.VictimCycle) state.VictimCycle {
		c.GangVictim = true
		return c
	}
	cases := []struct {
		name         string
		c            state.VictimCycle
		ok, gangPods bool
	}{
		{"a plain pod on a free node", state.VictimCycle{}, true, false},
		{"a gang's pod among the victims", gangVictim(state.VictimCycle{}), false, true},
		{"a gang's pod among the victims, on its own slice's node", gangVictim(member(reservedFor(a, 0), a, 0)), false, true},
		{"a plain pod on a reserved node", reservedFor(a, 0), false, false},
		{"a member of the slice the node is reserved for", member(reservedFor(a, 0), a, 0), true, false},
		{"a member of another slice of the same workload", member(reservedFor(a, 0), a, 1), false, false},
		{"a member of another workload", member(reservedFor(a, 0), b, 0), false, false},
		{"a member on a free node", member(state.VictimCycle{}, b, 3), true, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ok, gang := decideVictim(tc.c)
			if ok != tc.ok || gang != tc.gangPods {
				t.Errorf("decideVictim(%+v) = (%v, %v), want (%v, %v)", tc.c, ok, gang, tc.ok, tc.gangPods)
			}
		})
	}
}
