package admission_test

import (
	"context"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// PostFilter turns a pod no node fits into its workload's transition: the
// gang of a member rejected before PreFilter gives back what it holds, a
// member that fits none of its reserved nodes makes its workload plan
// elsewhere, and a reserved node not in the scheduler's cache yet keeps
// the reservation.
func TestPostFilter(t *testing.T) {
	for _, tc := range []struct {
		name string
		// failure is what the cycle knew, given the member's nodes.
		failure     func(nodes sets.Set[string]) admission.FilterFailure
		wantMessage string
		// wantReleased: the gang's reservation is gone.
		wantReleased bool
	}{{
		name: "rejected by another plugin's PreFilter: the gang gives back what it holds",
		failure: func(sets.Set[string]) admission.FilterFailure {
			return admission.FilterFailure{Other: "VolumeBinding: unbound claim"}
		},
		wantReleased: true,
	}, {
		name: "no reserved node fits: the workload plans again elsewhere",
		failure: func(nodes sets.Set[string]) admission.FilterFailure {
			return admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Rejections: map[string]int{"NodePorts: port in use": nodes.Len()}}
		},
		wantMessage: "plans again elsewhere", wantReleased: true,
	}, {
		name: "a reserved node not in the cache yet: the reservation stands",
		failure: func(nodes sets.Set[string]) admission.FilterFailure {
			return admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Unseen: sets.List(nodes)}
		},
		wantMessage: "waiting for the scheduler's cache to hold reserved node(s) pool-",
	}, {
		name: "a reserved node fits after all: nothing to undo",
		failure: func(nodes sets.Set[string]) admission.FilterFailure {
			return admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Accepted: true}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			st := prefilterState(t, 2)
			pods := addJobSet(t, st, "a", 1)
			pre := prefilter(st, pods[0], func(state.Actions) {})
			if pre.Code != admission.Proceed || pre.Nodes.Len() == 0 {
				t.Fatalf("PreFilter = %+v, want the gang reserved", pre)
			}
			out := engineOf(st, func(state.Actions) {}).PostFilterOutcome(context.Background(), pods[0], tc.failure(pre.Nodes))
			if !strings.Contains(out.Message, tc.wantMessage) {
				t.Errorf("message %q, want %q", out.Message, tc.wantMessage)
			}
			if _, held := st.MemberNodes(pods[0]); held == tc.wantReleased {
				t.Errorf("reservation held = %v, want released = %v", held, tc.wantReleased)
			}
		})
	}
}
