package placement

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestClaimKeeps(t *testing.T) {
	holder := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "holder"}
	other := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "other"}
	cases := []struct {
		name       string
		restart    bool
		byPriority int32
		c          Claimant
		want       bool
	}{
		{"a plain pod", false, 0, Claimant{}, true},
		{"a plain pod, a restart hold of lower priority", true, 0, Claimant{Priority: 100}, true},
		{"the holder itself", false, 0, Claimant{Key: holder, Gang: true}, false},
		{"the holder itself, restarting", true, 0, Claimant{Key: holder, Gang: true}, false},
		{"another gang, a preemption claim of lower priority", false, 0, Claimant{Key: other, Gang: true, Priority: 100}, true},
		{"another gang of higher priority, a restart hold", true, 10, Claimant{Key: other, Gang: true, Priority: 100}, false},
		{"another gang of equal priority, a restart hold", true, 10, Claimant{Key: other, Gang: true, Priority: 10}, true},
		{"another gang of lower priority, a restart hold", true, 10, Claimant{Key: other, Gang: true, Priority: 1}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := ClaimKeeps(holder, tc.restart, tc.byPriority, tc.c); got != tc.want {
				t.Errorf("ClaimKeeps(restart %v, priority %d, %+v) = %v, want %v", tc.restart, tc.byPriority, tc.c, got, tc.want)
			}
		})
	}
}
