package state_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// gang is a fixture with pools pool-1…pool-3 and JobSet a of 2 Jobs × 2
// pods, all pods created.
func gang(t *testing.T) (*fixture, []*corev1.Pod) {
	f := newFixture(t, builders.V5ePools(3)...)
	return f, f.addGang(unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj())
}

func TestUnreserve(t *testing.T) {
	cases := map[string]struct {
		// setup returns the pod to unreserve and the reservation ID its
		// cycle recorded.
		setup func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64)
		// wantReject lists (by index) the members rejected with the
		// release.
		wantReject []int
		wantKept   bool
		// wantReserved lists the pods the surviving reservation holds.
		wantReserved []string
	}{
		"right ID before the gate: the gang fails together": {
			setup: func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64) {
				id, _, _ := f.commit(jsKey("a"))
				for _, p := range all[:3] {
					f.reserve(p)
				}
				return all[1], id
			},
			wantReject: []int{0, 2},
		},
		"ID of an older reservation releases nothing": {
			setup: func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64) {
				id1, _, _ := f.commit(jsKey("a"))
				if got, _ := f.reserve(all[0]); got != id1 {
					t.Fatalf("Reserve returned %d, want %d", got, id1)
				}
				f.clock.Step(2 * time.Minute)
				acts := f.s.Upkeep().Expire()
				if diff := cmp.Diff([]types.UID{all[0].UID}, acts.Reject); diff != "" {
					t.Errorf("Expire rejected (-want +got):\n%s", diff)
				}
				if _, ok := f.reservationOf(jsKey("a"), all[0]); ok {
					t.Fatalf("the expired reservation is still there")
				}
				id2, _, _ := f.commit(jsKey("a"))
				if id2 == id1 {
					t.Fatalf("a new reservation reused ID %d", id1)
				}
				if got, _ := f.reserve(all[1]); got != id2 {
					t.Fatalf("Reserve returned %d, want %d", got, id2)
				}
				return all[0], id1
			},
			wantKept: true, wantReserved: []string{"a-slice-0-1-a0"},
		},
		"ID of an older reservation, the pod reserved again under the newer": {
			setup: func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64) {
				id1, _, _ := f.commit(jsKey("a"))
				f.reserve(all[0])
				f.clock.Step(2 * time.Minute)
				f.s.Upkeep().Expire()
				f.unreserve(all[0], id1)
				id2, _, _ := f.commit(jsKey("a"))
				if got, _ := f.reserve(all[0]); got != id2 {
					t.Fatalf("Reserve returned %d, want %d", got, id2)
				}
				return all[0], id1
			},
			wantKept: true, wantReserved: []string{"a-slice-0-0-a0"},
		},
		"ID 0: the pod was reserved under none": {
			setup: func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64) {
				f.commit(jsKey("a"))
				f.reserve(all[0])
				return all[1], 0
			},
			wantKept: true, wantReserved: []string{"a-slice-0-0-a0"},
		},
		"after the gate passed: the room goes back, the reservation stays": {
			setup: func(t *testing.T, f *fixture, all []*corev1.Pod) (*corev1.Pod, uint64) {
				id, _, _ := f.commit(jsKey("a"))
				for _, p := range all {
					f.reserve(p)
				}
				if res := f.permit(all[3]); !res.Allow {
					t.Fatalf("Permit of the last member = %+v, want allow", res)
				}
				return all[3], id
			},
			wantKept: true, wantReserved: []string{"a-slice-0-0-a0", "a-slice-0-1-a0", "a-slice-1-0-a0"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, all := gang(t)
			p, id := tc.setup(t, f, all)
			before, _ := f.reservationOf(jsKey("a"), all[0])
			acts := f.unreserve(p, id)
			if sp, _ := f.s.Pod(p.UID); sp.Node != "" || sp.Assumed {
				t.Errorf("unreserved pod still on %q (assumed %v)", sp.Node, sp.Assumed)
			}
			r, kept := f.reservationOf(jsKey("a"), all[0])
			if kept != tc.wantKept {
				t.Fatalf("reservation kept = %v, want %v", kept, tc.wantKept)
			}
			var wantReject []types.UID
			for _, i := range tc.wantReject {
				wantReject = append(wantReject, all[i].UID)
			}
			if diff := cmp.Diff(wantReject, acts.Reject); diff != "" {
				t.Errorf("rejected (-want +got):\n%s", diff)
			}
			if !kept {
				if !strings.Contains(acts.Reason, "pod ns/a-slice-0-1-a0 of the gang could not be placed") {
					t.Errorf("reason = %q", acts.Reason)
				}
				if diff := cmp.Diff([]state.ReleaseReason{state.ReleaseMemberFail}, f.obs.releases()); diff != "" {
					t.Errorf("releases (-want +got):\n%s", diff)
				}
				return
			}
			if r.ID != before.ID {
				t.Errorf("reservation ID changed from %d to %d", before.ID, r.ID)
			}
			var got []string
			for uid := range r.Reserved {
				got = append(got, f.pods[uid].Name)
			}
			if diff := cmp.Diff(tc.wantReserved, sortedStrings(got)); diff != "" {
				t.Errorf("reserved pods (-want +got):\n%s", diff)
			}
		})
	}
}

// Waiting members are let through in the order they were reserved, so the
// one that has waited longest is not sent to bind last.
func TestPermitLetsWaitingMembersThroughInReserveOrder(t *testing.T) {
	f, all := gang(t)
	f.commit(jsKey("a"))
	order := []*corev1.Pod{all[2], all[0], all[3]}
	for _, p := range order {
		f.reserve(p)
		if res := f.permit(p); res.Allow {
			t.Fatalf("Permit(%s) allowed before the gang was reserved", p.Name)
		}
	}
	f.reserve(all[1])
	res := f.permit(all[1])
	want := []types.UID{all[2].UID, all[0].UID, all[3].UID}
	if !res.Allow || !slices.Equal(res.AllowWaiting, want) {
		t.Errorf("Permit(last member) = allow %v, waiting %v; want allow, waiting %v", res.Allow, res.AllowWaiting, want)
	}
}

func TestPermit(t *testing.T) {
	f, all := gang(t)
	key := jsKey("a")
	id, _, _ := f.commit(key)
	steps := []struct {
		name    string
		advance time.Duration
		reserve *corev1.Pod
		want    state.PermitResult
	}{
		{name: "first member", reserve: all[0],
			want: state.PermitResult{Wait: time.Minute, Message: "waiting for 3 of 4 gang members of JobSet ns/a to be reserved"}},
		{name: "second member 20s later", advance: 20 * time.Second, reserve: all[1],
			want: state.PermitResult{Wait: 40 * time.Second, Message: "waiting for 2 of 4 gang members of JobSet ns/a to be reserved"}},
		{name: "third member", advance: 10 * time.Second, reserve: all[2],
			want: state.PermitResult{Wait: 30 * time.Second, Message: "waiting for 1 of 4 gang members of JobSet ns/a to be reserved"}},
		{name: "last member commits", reserve: all[3],
			want: state.PermitResult{Allow: true, AllowWaiting: uids(all[:3]...),
				Committed: "reserved slice 0 (a-slice-0) on gke-nodepool=pool-1, slice 1 (a-slice-1) on gke-nodepool=pool-2"}},
	}
	for _, st := range steps {
		f.clock.Step(st.advance)
		if got, _ := f.reserve(st.reserve); got != id {
			t.Fatalf("%s: Reserve returned %d, want %d", st.name, got, id)
		}
		// An informer update from before the binding keeps the assumption.
		f.addPods(builders.InPhase(st.reserve, corev1.PodPending))
		if sp, _ := f.s.Pod(st.reserve.UID); sp.Node == "" || !sp.Assumed {
			t.Fatalf("%s: an update before the binding dropped the assumption", st.name)
		}
		res := f.permit(st.reserve)
		res.Ref = corev1.ObjectReference{}
		if diff := cmp.Diff(st.want, res); diff != "" {
			t.Errorf("%s: Permit (-want +got):\n%s", st.name, diff)
		}
	}
	r, ok := f.reservationOf(key, all[0])
	if !ok || !r.Committed {
		t.Fatalf("reservation after the gate = %+v (present %v), want committed", r, ok)
	}
	if want := f.clock.Now().Add(time.Minute); !r.Deadline.Equal(want) {
		t.Errorf("deadline after commit = %v, want the follower timeout %v", r.Deadline, want)
	}
	if res := f.permit(all[0]); !res.Allow || len(res.AllowWaiting) != 0 {
		t.Errorf("Permit after commit = %+v, want a plain allow", res)
	}
	// The reservation settles once every pod's binding is observed.
	for i, p := range all {
		sp, _ := f.s.Pod(p.UID)
		f.bind(p, sp.Node)
		if _, ok := f.reservationOf(key, all[0]); ok != (i < len(all)-1) {
			t.Errorf("after binding %d pods: reservation present = %v", i+1, ok)
		}
	}
	if f.s.Reservations() != 0 {
		t.Errorf("%d reservations left", f.s.Reservations())
	}
	if placed := f.obs.placements(); len(placed) != 1 || len(f.obs.releases()) != 0 {
		t.Errorf("observer: placed %v, released %v; want one placement, no release", placed, f.obs.releases())
	}
	// Settled: the bound pods hold the domains themselves.
	other := unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj()
	f.addJobSet(other)
	if ok, why := nodeAllowed(f.s, builders.Member(other, 0, 0).Obj(), "pool-1-node-0", f.free("pool-1-node-0")); ok || !strings.Contains(why, "held by JobSet ns/a") {
		t.Errorf("Check of another gang on a settled domain = %v %q, want held", ok, why)
	}
}

// Under staged placement the gate is one leader per Job: followers do not
// stand in for a missing leader.
func TestStagedPermit(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	js := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	f.addJobSet(js)
	l0, l1 := stagedLeader(js, 0), stagedLeader(js, 1)
	f.addPods(l0, l1)
	_, r, _ := f.commit(jsKey("a"))
	if !r.Staged {
		t.Fatalf("reservation of a staged JobSet is not staged")
	}
	f.reserve(l0)
	follower := builders.Member(js, 0, 1).Obj()
	f.addPods(follower)
	if v := f.admit(follower); v.Wait {
		t.Errorf("Admit(follower of a reserved slice) = %+v, want admitted", v)
	}
	f.reserve(follower)
	if res := f.permit(follower); res.Allow || res.Message != "waiting for 1 of 2 gang members of JobSet ns/a to be reserved" {
		t.Errorf("Permit(follower) with a leader missing = %+v", res)
	}
	f.reserve(l1)
	res := f.permit(l1)
	if !res.Allow || !cmp.Equal(uids(l0, follower), res.AllowWaiting) {
		t.Errorf("Permit(last leader) = %+v, want allow with the waiting pods", res)
	}
}

func TestPermitPastTheDeadline(t *testing.T) {
	f, all := gang(t)
	f.commit(jsKey("a"))
	f.reserve(all[0])
	f.clock.Step(time.Minute + time.Second)
	res := f.permit(all[0])
	if res.Allow || res.Wait != 0 || !strings.Contains(res.Message, "did not get 4 required pods reserved in time") {
		t.Errorf("Permit past the deadline = %+v, want rejection", res)
	}
	if acts := f.s.Upkeep().Expire(); len(acts.Reject) != 1 || acts.Reject[0] != all[0].UID {
		t.Errorf("Expire rejected %v, want [%s]", acts.Reject, all[0].UID)
	}
	if res := f.permit(all[0]); res.Allow || res.Wait != 0 || !strings.Contains(res.Message, "was released") {
		t.Errorf("Permit after release = %+v, want rejection", res)
	}
}

func TestNodeChanges(t *testing.T) {
	cases := map[string]struct {
		update       func(f *fixture) state.Actions
		wantReleased bool
		wantActivate []string
	}{
		"heartbeat of a reserved node": {
			update: func(f *fixture) state.Actions {
				return f.addNodes(builders.V5ePool("pool-1").Heartbeat(f.clock.Now().Add(time.Second)).Node(1))
			},
		},
		"NotReady node of a reserved domain": {
			update: func(f *fixture) state.Actions {
				return f.addNodes(builders.V5ePool("pool-1").NotReady().Node(1))
			},
			wantReleased: true, wantActivate: []string{"a-slice-0-1-a0"},
		},
		"cordoned node of a reserved domain": {
			update: func(f *fixture) state.Actions {
				return f.addNodes(builders.V5ePool("pool-2").Unschedulable().Node(0))
			},
			wantReleased: true, wantActivate: []string{"a-slice-0-1-a0"},
		},
		"deleted node of a reserved domain": {
			update:       func(f *fixture) state.Actions { return f.s.Feed().DeleteNode("pool-2-node-1") },
			wantReleased: true, wantActivate: []string{"a-slice-0-1-a0"},
		},
		"NotReady node outside the reservation": {
			update: func(f *fixture) state.Actions {
				return f.addNodes(builders.V5ePool("pool-3").Ready(corev1.ConditionUnknown).Node(0))
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, all := gang(t)
			f.commit(jsKey("a"))
			f.reserve(all[0])
			acts := tc.update(f)
			_, kept := f.reservationOf(jsKey("a"), all[0])
			if kept == tc.wantReleased {
				t.Fatalf("reservation kept = %v, want %v", kept, !tc.wantReleased)
			}
			if diff := cmp.Diff(tc.wantActivate, names(acts.Activate), cmpEmpty); diff != "" {
				t.Errorf("activated (-want +got):\n%s", diff)
			}
			if !tc.wantReleased {
				if !acts.Empty() {
					t.Errorf("actions = %+v, want none", acts)
				}
				return
			}
			if diff := cmp.Diff([]types.UID{all[0].UID}, acts.Reject); diff != "" {
				t.Errorf("rejected (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff([]state.ReleaseReason{state.ReleaseNodeFailure}, f.obs.releases()); diff != "" {
				t.Errorf("releases (-want +got):\n%s", diff)
			}
		})
	}
}

// Plain pods stay out of reserved domains and come back, exactly once,
// however the reservation ends.
func TestPlainPodsAndReservations(t *testing.T) {
	cases := map[string]func(f *fixture, all []*corev1.Pod, id uint64) state.Actions{
		"expiry": func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
			f.clock.Step(2 * time.Minute)
			return f.s.Upkeep().Expire()
		},
		"a member failing before the gate": func(f *fixture, all []*corev1.Pod, id uint64) state.Actions {
			f.reserve(all[0])
			return f.unreserve(all[0], id)
		},
		"a member rejected by other filters": func(f *fixture, all []*corev1.Pod, _ uint64) state.Actions {
			return rejectFilter(f, all[0], "1 node(s) had untolerated taint")
		},
		"node failure": func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
			return f.addNodes(builders.V5ePool("pool-1").NotReady().Node(0))
		},
		"JobSet deleted": func(f *fixture, _ []*corev1.Pod, _ uint64) state.Actions {
			return f.s.Feed().DeleteSource(jsKey("a"))
		},
		"gang placed and settled": func(f *fixture, all []*corev1.Pod, _ uint64) state.Actions {
			for _, p := range all {
				f.reserve(p)
			}
			f.permit(all[3])
			var acts state.Actions
			for _, p := range all {
				merge(&acts, f.bind(p, f.placed[p.UID]))
			}
			return acts
		},
	}
	for name, release := range cases {
		t.Run(name, func(t *testing.T) {
			f, all := gang(t)
			id, _, _ := f.commit(jsKey("a"))
			plain := unit.Pod("plain").TPU("1").Obj()
			f.addPods(plain)
			checks := []struct {
				pod    *corev1.Pod
				node   string
				wantOK bool
				why    string
			}{
				{plain, "pool-1-node-0", false, "node is in cloud.google.com/gke-nodepool=pool-1, reserved for slice 0 of JobSet ns/a"},
				{plain, "pool-2-node-1", false, "reserved for slice 1 of JobSet ns/a"},
				{plain, "pool-3-node-0", true, ""},
				{builders.Member(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), 0, 0).Obj(), "pool-1-node-0", false, "reserved for slice 0 of JobSet ns/a"},
				{all[0], "pool-1-node-0", true, ""},
				{all[0], "pool-2-node-0", false, "reserved for slice 1 of JobSet ns/a"},
				{all[2], "pool-2-node-0", true, ""},
			}
			for _, c := range checks {
				ok, why := nodeAllowed(f.s, c.pod, c.node, f.free(c.node))
				if ok != c.wantOK || !strings.Contains(why, c.why) {
					t.Errorf("NodeAllowed(%s, %s) = %v %q, want %v %q", c.pod.Name, c.node, ok, why, c.wantOK, c.why)
				}
			}
			f.s.RecordBlocked(plain)
			acts := release(f, all, id)
			if got := names(acts.Activate); !containsOnce(got, "plain") {
				t.Errorf("release activated %v, want plain exactly once", got)
			}
			if ok, why := nodeAllowed(f.s, plain, "pool-1-node-0", f.free("pool-1-node-0")); !ok && !strings.Contains(why, "held by") {
				t.Errorf("NodeAllowed(plain) after the release refused: %s", why)
			}
			// Nothing is remembered twice.
			f.addGang(unit.JobSet("c").ReplicatedJob("slice", 1, 1).Obj())
			f.commit(jsKey("c"))
			f.clock.Step(10 * time.Minute)
			if got := names(f.s.Upkeep().Expire().Activate); containsOnce(got, "plain") {
				t.Errorf("a later release activated plain again: %v", got)
			}
		})
	}
}

// A plain pod kept out of a held domain is tried again when a pod of the
// holder leaves it (deleted, or ended), not only when a reservation ends:
// the scheduler's own retry on that event may have run before the state
// saw it, against the holder still recorded.
func TestPlainPodsKeptOutOfAHeldDomainReturnWhenAHolderLeaves(t *testing.T) {
	cases := map[string]func(f *fixture, holder *corev1.Pod) state.Actions{
		"deleted": func(f *fixture, holder *corev1.Pod) state.Actions { return f.deletePod(holder) },
		"ended": func(f *fixture, holder *corev1.Pod) state.Actions {
			done := holder.DeepCopy()
			done.Status.Phase = corev1.PodSucceeded
			return f.addPods(done)
		},
	}
	for name, leave := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(1)...)
			running := f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")
			plain := unit.Pod("plain").TPU("1").Obj()
			f.addPods(plain)
			if ok, why := nodeAllowed(f.s, plain, "pool-1-node-0", f.free("pool-1-node-0")); ok || !strings.Contains(why, "held by") {
				t.Fatalf("NodeAllowed(plain) = %v %q, want it kept out of b's pool", ok, why)
			}
			f.s.RecordBlocked(plain)
			if got := names(leave(f, running[0]).Activate); !containsOnce(got, "plain") {
				t.Errorf("activated %v, want plain exactly once", got)
			}
			if got := names(leave(f, running[1]).Activate); containsOnce(got, "plain") {
				t.Errorf("the second pod leaving activated plain again: %v", got)
			}
		})
	}
}

func TestCachedFailure(t *testing.T) {
	// JobSet a of 2 Jobs runs on pool-1 and pool-2; JobSet b needs 2
	// pools and only pool-3 is free.
	a := unit.JobSet("a").ReplicatedJob("slice", 2, 2).Obj()
	running := builders.MembersOn(a, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	b := unit.JobSet("b").ReplicatedJob("slice", 2, 2).Obj()
	waiting := builders.Members(b)
	cases := map[string]struct {
		change func(f *fixture) state.Actions
		// wantCached: nothing happened that could let b in.
		wantCached   bool
		wantActivate []string
	}{
		"nothing": {change: func(*fixture) state.Actions { return state.Actions{} }, wantCached: true},
		"node heartbeat": {
			change: func(f *fixture) state.Actions {
				return f.addNodes(builders.V5ePool("pool-3").Heartbeat(f.clock.Now()).Node(0))
			},
			wantCached: true,
		},
		"a pending plain pod": {
			change:     func(f *fixture) state.Actions { return f.addPods(unit.Pod("plain").CPU("1").Obj()) },
			wantCached: true,
		},
		"a plain pod bound": {
			change: func(f *fixture) state.Actions {
				return f.addPods(unit.Pod("plain").CPU("1").NodeName("pool-3-node-1").Obj())
			},
			wantCached: true,
		},
		"a status update of a bound member of a": {
			change: func(f *fixture) state.Actions {
				p := running[0].DeepCopy()
				p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}
				return f.addPods(p)
			},
			wantCached: true,
		},
		"a status update of JobSet a": {
			change:     func(f *fixture) state.Actions { return f.addJobSet(a) },
			wantCached: true,
		},
		"a pending member of b updated": {
			change:     func(f *fixture) state.Actions { return f.addPods(builders.InPhase(waiting[1], corev1.PodPending)) },
			wantCached: true,
		},
		"a bound member of a deleted": {
			change:       func(f *fixture) state.Actions { return f.deletePod(running[0]) },
			wantActivate: []string{waiting[0].Name},
		},
		"a bound member of a relabelled out of a": {
			change: func(f *fixture) state.Actions {
				p := running[0].DeepCopy()
				p.Labels = map[string]string{"app": "debug"}
				return f.addPods(p)
			},
		},
		"a bound member of a failed": {
			change: func(f *fixture) state.Actions {
				return f.addPods(builders.InPhase(running[0], corev1.PodFailed))
			},
			wantActivate: []string{waiting[0].Name},
		},
		"a node joined": {
			change:       func(f *fixture) state.Actions { return f.addNodes(builders.V5ePool("pool-4").Build()...) },
			wantActivate: []string{waiting[0].Name, waiting[0].Name},
		},
		"a NotReady node recovered": {
			change: func(f *fixture) state.Actions {
				f.addNodes(builders.V5ePool("pool-3").NotReady().Node(0))
				return f.addNodes(builders.V5ePool("pool-3").Node(0))
			},
			wantActivate: []string{waiting[0].Name},
		},
		"JobSet a made its pods stop holding": {
			change: func(f *fixture) state.Actions {
				return f.addJobSet(unit.JobSet("a").Unconfined().ReplicatedJob("slice", 2, 2).Obj())
			},
			wantActivate: nil,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			f.addJobSet(a)
			f.addPods(running...)
			f.addJobSet(b)
			f.addPods(waiting...)
			key := jsKey("b")
			sn := f.snapshot(key)
			r, fail := admission.Plan(sn)
			if fail == nil {
				t.Fatalf("plan of b = %v, want a failure", domains(r))
			}
			if fail.Unresolvable {
				t.Errorf("failure %q is unresolvable, want waiting", fail.Message)
			}
			f.s.PlanFailed(waiting[0], sn.Generation, fail)
			if !f.s.IsWaitingHead(waiting[0]) || f.s.IsWaitingHead(waiting[1]) {
				t.Errorf("waiting head is not the pod that failed")
			}
			acts := tc.change(f)
			// The head always plans again; the others reuse its answer.
			if got := f.cachedFailure(waiting[0]); got != nil {
				t.Errorf("CachedFailure(head) = %v, want nil", got)
			}
			got := f.cachedFailure(waiting[1])
			if (got == fail) != tc.wantCached || (got != nil && got != fail) {
				t.Errorf("CachedFailure = %v, want cached %v", got, tc.wantCached)
			}
			if diff := cmp.Diff(tc.wantActivate, names(acts.Activate), cmpEmpty); diff != "" {
				t.Errorf("activated (-want +got):\n%s", diff)
			}
			// A failure recorded at an older generation is not cached.
			if !tc.wantCached {
				f.s.PlanFailed(waiting[0], sn.Generation, fail)
				if got := f.cachedFailure(waiting[1]); got != nil {
					t.Errorf("CachedFailure of a stale generation = %v, want nil", got)
				}
			}
		})
	}
	f := newFixture(t)
	nobody := builders.Member(unit.JobSet("nobody").ReplicatedJob("slice", 1, 1).Obj(), 0, 0).Obj()
	f.addPods(nobody)
	if got := f.cachedFailure(nobody); got != nil {
		t.Errorf("CachedFailure of an unknown workload = %v", got)
	}
	if got := f.cachedFailure(unit.Pod("plain").Obj()); got != nil {
		t.Errorf("CachedFailure of a plain pod = %v", got)
	}
}

func containsOnce(list []string, s string) bool {
	n := 0
	for _, x := range list {
		if x == s {
			n++
		}
	}
	return n == 1
}

func sortedStrings(s []string) []string { return slices.Sorted(slices.Values(s)) }
