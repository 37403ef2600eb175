package state_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const antiAffinity = "2 node(s) didn't match pod anti-affinity rules"

// rejectedSetup: JobSet a (1 Job × 2 pods) was reserved pool-1 of two
// pools, one member was reserved, the other fit none of pool-1's nodes.
func rejectedSetup(t *testing.T) (*fixture, []*corev1.Pod, state.Actions) {
	f := newFixture(t, builders.V5ePools(2)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	id, r, _ := f.commit(jsKey("a"))
	if diff := cmp.Diff(map[int]string{0: "pool-1"}, domains(r)); diff != "" {
		t.Fatalf("first plan (-want +got):\n%s", diff)
	}
	f.reserve(all[0])
	acts := rejectFilter(f, all[1], antiAffinity)
	// The framework rejects the waiting member, which unreserves it.
	f.unreserve(all[0], id)
	return f, all, acts
}

func TestRejectedDomainIsAvoided(t *testing.T) {
	f, all, acts := rejectedSetup(t)
	key := jsKey("a")
	if _, ok := f.reservationOf(key, all[0]); ok {
		t.Fatalf("the reservation survived the rejection")
	}
	wantActs := state.Actions{
		Reject: []types.UID{all[0].UID},
		Reason: "pod ns/a-slice-0-1-a0 fits no node of pool-1: " + antiAffinity,
		Events: []state.Event{{
			Ref:     corev1.ObjectReference{Kind: "JobSet", Namespace: unit.Namespace, Name: "a", UID: "a-uid"},
			Warning: true, Reason: "DomainRejected",
			Message: "pods of slice 0 were rejected on gke-nodepool=pool-1 (" + antiAffinity + "); planning elsewhere",
		}},
	}
	if diff := cmp.Diff(wantActs, acts, cmpIgnoreActivate); diff != "" {
		t.Errorf("actions (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{all[1].Name}, names(acts.Activate)); diff != "" {
		t.Errorf("activated (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]state.ReleaseReason{state.ReleaseRejected}, f.obs.releases()); diff != "" {
		t.Errorf("releases (-want +got):\n%s", diff)
	}
	want := map[topology.DomainRef]string{{Key: wellknown.NodePoolLabel, Value: "pool-1"}: placement.RejectedPrefix + antiAffinity}
	if diff := cmp.Diff(want, f.snapshot(key).Self.Rejected); diff != "" {
		t.Errorf("remembered rejections (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(map[int]string{0: "pool-2"}, domains(f.mustPlan(key))); diff != "" {
		t.Errorf("plan after the rejection (-want +got):\n%s", diff)
	}

	// With pool-2 taken, the waiting message says why pool-1 is not used.
	f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-2-node-0", "pool-2-node-1")
	_, fail := f.plan(key)
	if fail == nil || fail.Unresolvable {
		t.Fatalf("plan with pool-2 taken = %+v, want a waiting failure", fail)
	}
	if want := "pool-1 " + placement.RejectedPrefix + antiAffinity; !strings.Contains(fail.Message, want) {
		t.Errorf("failure %q does not name %q", fail.Message, want)
	}

	// A pod leaving a node of pool-1 may have been what stood in the way.
	other := unit.Pod("other").CPU("1").NodeName("pool-1-node-0").Obj()
	f.addPods(other)
	if len(f.snapshot(key).Self.Rejected) != 1 {
		t.Errorf("a pod arriving cleared the rejection")
	}
	f.deletePod(other)
	if got := f.snapshot(key).Self.Rejected; len(got) != 0 {
		t.Errorf("rejections after a pod left pool-1: %v", got)
	}
	if diff := cmp.Diff(map[int]string{0: "pool-1"}, domains(f.mustPlan(key))); diff != "" {
		t.Errorf("plan after pool-1 changed (-want +got):\n%s", diff)
	}
}

var cmpIgnoreActivate = cmp.FilterPath(func(p cmp.Path) bool { return p.String() == "Activate" }, cmp.Ignore())

func TestRejectionIsForgotten(t *testing.T) {
	cases := map[string]struct {
		forget func(f *fixture)
		// changed: the state changed, so no member reuses the failure.
		changed bool
	}{
		"after the rejection memory": {forget: func(f *fixture) { f.clock.Step(5 * time.Minute) }},
		"when a node of the domain fails and recovers": {forget: func(f *fixture) {
			f.addNodes(builders.V5ePool("pool-1").NotReady().Node(1))
			f.addNodes(builders.V5ePool("pool-1").Node(1))
		}, changed: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, all, _ := rejectedSetup(t)
			key := jsKey("a")
			// pool-2 is taken: the plan fails, and the failure is cached.
			f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-2-node-0", "pool-2-node-1")
			sn := f.snapshot(key)
			_, fail := f.plan(key)
			if fail == nil {
				t.Fatalf("plan with pool-1 rejected and pool-2 taken succeeded")
			}
			f.s.PlanFailed(all[0], sn.Generation, fail)
			f.clock.Step(time.Minute)
			if f.cachedFailure(all[1]) == nil {
				t.Fatalf("failure not cached")
			}
			tc.forget(f)
			// The head plans again whatever the cache holds.
			if got := f.cachedFailure(all[0]); got != nil {
				t.Errorf("CachedFailure(head) = %q, want nil", got.Message)
			}
			if got := f.cachedFailure(all[1]); tc.changed && got != nil {
				t.Errorf("CachedFailure after the domain changed = %q, want nil", got.Message)
			}
			if diff := cmp.Diff(map[int]string{0: "pool-1"}, domains(f.mustPlan(key))); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}

// An unconfined slice's rejection is remembered per planned node.
func TestRejectedNodesOfAnUnconfinedSlice(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	f.addPodGroup(unit.PodGroup("pg", 2).Obj())
	p0 := unit.Pod("pg-0").InPodGroup("pg").TPU("4").Obj()
	p1 := unit.Pod("pg-1").InPodGroup("pg").TPU("4").Obj()
	f.addPods(p0, p1)
	_, r, _ := f.commit(pgKey("pg"))
	if got := slotNodes(r); !cmp.Equal(got, []string{"pool-1-node-0", "pool-1-node-1"}) {
		t.Fatalf("first plan on %v", got)
	}
	acts := rejectFilter(f, p0, "1 node(s) had volume node affinity conflict")
	if len(acts.Events) != 1 || !strings.Contains(acts.Events[0].Message, "rejected on their planned nodes") {
		t.Errorf("events = %+v", acts.Events)
	}
	want := map[topology.DomainRef]string{
		{Value: "pool-1-node-0"}: placement.RejectedPrefix + "1 node(s) had volume node affinity conflict",
		{Value: "pool-1-node-1"}: placement.RejectedPrefix + "1 node(s) had volume node affinity conflict",
	}
	if diff := cmp.Diff(want, f.snapshot(pgKey("pg")).Self.Rejected); diff != "" {
		t.Errorf("remembered rejections (-want +got):\n%s", diff)
	}
	if got := slotNodes(f.mustPlan(pgKey("pg"))); !cmp.Equal(got, []string{"pool-2-node-0", "pool-2-node-1"}) {
		t.Errorf("plan after the rejection on %v", got)
	}
	// A changed node is tried again.
	f.addNodes(builders.V5ePool("pool-1").Label("example.com/repaired", "true").Node(1))
	if got := slotNodes(f.mustPlan(pgKey("pg"))); !cmp.Equal(got, []string{"pool-1-node-1", "pool-2-node-0"}) {
		t.Errorf("plan after pool-1-node-1 changed on %v", got)
	}
}

func slotNodes(r *state.Reservation) []string {
	var out []string
	for _, sr := range r.Slices {
		for _, s := range sr.Slots {
			out = append(out, s.Node)
		}
	}
	return sortedStrings(out)
}

// The member rejected there is replaced (its owner recreated it, perhaps
// fixed): the domain is planned on again at once.
func TestReplacedMemberClearsRejections(t *testing.T) {
	f, all, _ := rejectedSetup(t)
	f.deletePod(all[1])
	replaced := all[1].DeepCopy()
	replaced.Name += "-retry"
	replaced.UID += "-retry"
	f.addPods(replaced)
	if diff := cmp.Diff(map[int]string{0: "pool-1"}, domains(f.mustPlan(jsKey("a")))); diff != "" {
		t.Errorf("plan after the member was replaced (-want +got):\n%s", diff)
	}
}

// rejectFilter applies what PostFilter decides for a gang pod the other
// filters rejected on every node of its reservation.
func rejectFilter(f *fixture, pod *corev1.Pod, reason string) state.Actions {
	return f.s.Apply(state.Decision{Pod: pod.UID, Rejected: &state.Rejection{Reserved: reason}}).Actions
}
