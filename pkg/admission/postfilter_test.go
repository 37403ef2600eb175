package admission_test

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
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
			if _, held := st.Reports().MemberNodes(pods[0]); held == tc.wantReleased {
				t.Errorf("reservation held = %v, want released = %v", held, tc.wantReleased)
			}
		})
	}
}

// PostFilter decides on values alone (the pod's verdict, what its cycle
// knew): the rejection it asks the state to write, if any.
func TestPostFilterOnValues(t *testing.T) {
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a-0", UID: "uid-a-0"}}
	gang := state.Verdict{Gang: true, Member: workload.Member{Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "a"}}}
	nodes := sets.New("pool-1-node-0", "pool-1-node-1")
	rejected := func(r state.Rejection) *state.Decision { return &state.Decision{Pod: pod.UID, Rejected: &r} }
	for _, tc := range []struct {
		name         string
		verdict      state.Verdict
		failure      admission.FilterFailure
		wantMessage  string
		wantDecision *state.Decision
	}{{
		name:    "a gang member another plugin's PreFilter rejected",
		verdict: gang, failure: admission.FilterFailure{Other: "VolumeBinding: unbound claim"},
		wantDecision: rejected(state.Rejection{Unschedulable: "VolumeBinding: unbound claim"}),
	}, {
		name:    "a member that waits, rejected before PreFilter: nothing",
		verdict: state.Verdict{Gang: true, Wait: true, Member: gang.Member}, failure: admission.FilterFailure{Other: "x"},
	}, {
		name:    "a pod of no gang, rejected before PreFilter: nothing",
		failure: admission.FilterFailure{Other: "x"},
	}, {
		name:    "a queued plain pod rejected before PreFilter: nothing",
		verdict: state.Verdict{Gang: true, Member: workload.Member{Key: workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}}},
		failure: admission.FilterFailure{Other: "x"},
	}, {
		name:         "a queued plain pod admitted alone fits no node: its quota goes back",
		failure:      admission.FilterFailure{PreFiltered: true, Alone: true},
		wantDecision: rejected(state.Rejection{Alone: "no node fits the pod"}),
	}, {
		name:         "no reserved node fits: the workload plans elsewhere",
		failure:      admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Rejections: map[string]int{"NodePorts: port in use": 1, "had untolerated taint": 1}},
		wantMessage:  "the pod fits none of its reserved nodes; its workload plans again elsewhere",
		wantDecision: rejected(state.Rejection{Reserved: "1 node(s) NodePorts: port in use; 1 node(s) had untolerated taint"}),
	}, {
		name:        "a reserved node not in the cache yet: wait for it",
		failure:     admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Unseen: []string{"pool-1-node-1", "pool-1-node-0"}},
		wantMessage: "waiting for the scheduler's cache to hold reserved node(s) pool-1-node-0, pool-1-node-1",
	}, {
		name: "a reserved node the scheduler's cache shows relabelled: wait, nothing remembered",
		failure: admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Relabelled: []string{"pool-1-node-1"},
			Rejections: map[string]int{"MultisliceGang: node is in gke-nodepool=pool-9, not in gke-nodepool=pool-1, where its slice is reserved": 1}},
		wantMessage: "waiting for the scheduler's cache and this scheduler's index to agree on the labels of reserved node(s) pool-1-node-1",
	}, {
		name:    "a reserved node fits after all: nothing",
		failure: admission.FilterFailure{PreFiltered: true, Gang: true, Candidates: nodes, Accepted: true},
	}, {
		name:    "no candidates: nothing",
		failure: admission.FilterFailure{PreFiltered: true, Gang: true},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out := admission.PostFilter(tc.verdict, pod, tc.failure)
			if out.Message != tc.wantMessage {
				t.Errorf("message %q, want %q", out.Message, tc.wantMessage)
			}
			if diff := cmp.Diff(tc.wantDecision, out.Decision); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}
