package state_test

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// Whether a workload's placed pods hold their domain is the workload's
// business (its object), never the pods' annotations.
func TestExclusivityComesFromTheWorkload(t *testing.T) {
	cases := map[string]struct {
		exclusive bool
		// podsFirst feeds the pods before their PodGroup.
		podsFirst bool
		// podAnnotation puts JobSet's exclusive annotation on the pods.
		podAnnotation bool
		wantDomains   map[int]string
		wantHeld      bool
	}{
		"exclusive PodGroup": {
			exclusive: true, wantHeld: true,
			wantDomains: map[int]string{0: "pool-2", 1: "pool-3"},
		},
		"exclusive PodGroup observed after its pods": {
			exclusive: true, podsFirst: true, wantHeld: true,
			wantDomains: map[int]string{0: "pool-2", 1: "pool-3"},
		},
		"unconfined PodGroup": {
			wantDomains: map[int]string{0: "pool-1", 1: "pool-2"},
		},
		"unconfined PodGroup whose pods carry the annotation": {
			podAnnotation: true,
			wantDomains:   map[int]string{0: "pool-1", 1: "pool-2"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			pgb := unit.PodGroup("pg", 2)
			if tc.exclusive {
				pgb.Exclusive(wellknown.NodePoolLabel)
			}
			// The group's pods ask for CPU only: pool-1 keeps its chips.
			var running []*corev1.Pod
			for i, n := range []string{"pool-1-node-0", "pool-1-node-1"} {
				p := unit.Pod("pg-" + string(rune('0'+i))).InPodGroup("pg").CPU("1").NodeName(n).Obj()
				if tc.podAnnotation {
					p.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}
				}
				running = append(running, p)
			}
			if tc.podsFirst {
				f.addPods(running...)
				f.addPodGroup(pgb.Obj())
			} else {
				f.addPodGroup(pgb.Obj())
				f.addPods(running...)
			}
			member := f.addGang(unit.JobSet("b").ReplicatedJob("slice", 2, 2).Obj())[0]
			if diff := cmp.Diff(tc.wantDomains, domains(f.mustPlan(jsKey("b")))); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			ok, why := nodeAllowed(f.s, member, "pool-1-node-0", f.free("pool-1-node-0"))
			if ok == tc.wantHeld || (tc.wantHeld && why != "node is in gke-nodepool=pool-1, held by PodGroup ns/pg") {
				t.Errorf("NodeAllowed(JobSet member on pool-1) = %v %q, want held %v", ok, why, tc.wantHeld)
			}
			if ok, why := nodeAllowed(f.s, member, "pool-2-node-0", f.free("pool-2-node-0")); !ok {
				t.Errorf("NodeAllowed(JobSet member on pool-2) refused: %s", why)
			}
			// A plain pod is no more welcome in a held domain than another
			// workload's slice.
			if ok, _ := nodeAllowed(f.s, unit.Pod("plain").TPU("4").Obj(), "pool-1-node-0", f.free("pool-1-node-0")); ok == tc.wantHeld {
				t.Errorf("NodeAllowed(plain pod on pool-1) = %v, want held %v", ok, tc.wantHeld)
			}
			// Once the group is gone, the domain is free.
			for _, p := range running {
				f.deletePod(p)
			}
			if ok, why := nodeAllowed(f.s, member, "pool-1-node-0", f.free("pool-1-node-0")); !ok {
				t.Errorf("Check after the group's pods left refused: %s", why)
			}
		})
	}
}

// A JobSet deleted and recreated under its name is another holder: pods of
// the old object are no members, and while they run they keep their
// domains from the new one.
func TestRecreatedJobSet(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	old := unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj()
	oldRunning := f.addRunning(old, "pool-1-node-0", "pool-1-node-1")
	f.s.Feed().DeleteSource(jsKey("a"))

	neu := unit.JobSet("a").UID("a-uid-2").ReplicatedJob("slice", 2, 2).Obj()
	f.addJobSet(neu)
	newPods := builders.Members(neu)
	// The old pods are no members: the new gang is complete with its own
	// pods, and plans through the first of them.
	acts := f.addPods(newPods...)
	if diff := cmp.Diff(podNames(newPods[0]), names(acts.Activate)); diff != "" {
		t.Errorf("new pods activated (-want +got):\n%s", diff)
	}
	if v := f.admit(builders.Member(old, 0, 0).Obj()); !v.Unresolvable || !strings.Contains(v.Message, "belongs to a deleted JobSet ns/a of the same name (uid a-uid") {
		t.Errorf("Admit(old pod) = %+v, want unresolvable: deleted", v)
	}
	pendingOld := builders.Member(old, 0, 0).Obj()
	pendingOld.Name, pendingOld.UID = "a-slice-0-retry", "old-retry"
	f.addPods(pendingOld)
	if v := f.admit(pendingOld); !v.Unresolvable || !strings.Contains(v.Message, "deleted") {
		t.Errorf("Admit(pending old pod) = %+v, want unresolvable", v)
	}
	if v := f.admit(newPods[0]); v.Wait || v.Unresolvable {
		t.Errorf("Admit(new pod) = %+v, want admitted", v)
	}
	if v := f.admit(newPods[1]); !v.Wait || v.Message != "waiting for a-slice-0-0-a0 to find room for JobSet ns/a" {
		t.Errorf("Admit(another new pod) = %+v, want a wait for the head", v)
	}

	// A plan made before the old pods' bindings were seen is refused.
	f.deletePod(oldRunning[0])
	f.deletePod(oldRunning[1])
	stale := f.mustPlan(jsKey("a"))
	if diff := cmp.Diff(map[int]string{0: "pool-1", 1: "pool-2"}, domains(stale)); diff != "" {
		t.Fatalf("plan with pool-1 free (-want +got):\n%s", diff)
	}
	f.addPods(oldRunning...)
	if err := f.s.Apply(state.Decision{Reserve: stale, PermitTimeout: time.Minute}).Refused; err == nil || err.Error() != "cloud.google.com/gke-nodepool=pool-1 was taken by JobSet ns/a (uid a-uid) meanwhile" {
		t.Errorf("Commit of a plan on the old JobSet's domain: err = %v, want taken", err)
	}

	sn := f.snapshot(jsKey("a"))
	if want := (workload.Holder{Key: jsKey("a"), UID: "a-uid-2"}); sn.Self.Holder != want {
		t.Errorf("snapshot holder = %v, want %v", sn.Self.Holder, want)
	}
	r := f.mustPlan(jsKey("a"))
	if diff := cmp.Diff(map[int]string{0: "pool-2", 1: "pool-3"}, domains(r)); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
	if ok, why := nodeAllowed(f.s, newPods[0], "pool-1-node-0", f.free("pool-1-node-0")); ok || why != "gke-nodepool=pool-1 is held by pods of a deleted JobSet ns/a of the same name (uid a-uid)" {
		t.Errorf("NodeAllowed(new pod on the old pods' domain) = %v %q, want held", ok, why)
	}
	if ok, why := nodeAllowed(f.s, newPods[0], "pool-2-node-0", f.free("pool-2-node-0")); !ok {
		t.Errorf("NodeAllowed(new pod on a free domain) refused: %s", why)
	}
	if err := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err != nil {
		t.Errorf("Commit: %v", err)
	}
}

// Members of a heterogeneous PodGroup are sized from their own requests,
// and the room planned for them stays theirs.
func TestHeterogeneousPodGroup(t *testing.T) {
	f := newFixture(t, append(builders.V5ePools(2), builders.Node("cpu-0").Obj())...)
	f.addPodGroup(unit.PodGroup("pg", 3).Obj())
	launcher := unit.Pod("pg-launcher").InPodGroup("pg").CPU("1").Obj()
	w0 := unit.Pod("pg-worker-0").InPodGroup("pg").TPU("4").Obj()
	w1 := unit.Pod("pg-worker-1").InPodGroup("pg").TPU("4").Obj()
	acts := f.addPods(w1, launcher, w0)
	if diff := cmp.Diff(podNames(launcher), names(acts.Activate)); diff != "" {
		t.Errorf("activated (-want +got):\n%s", diff)
	}
	id, r, acts := f.commit(pgKey("pg"))
	if diff := cmp.Diff(podNames(launcher, w0, w1), names(acts.Activate)); diff != "" {
		t.Errorf("commit activated (-want +got):\n%s", diff)
	}
	want := &state.SliceReservation{
		Slots: []placement.Slot{{Node: "pool-1-node-0", Shape: 1, Count: 1}, {Node: "pool-1-node-1", Shape: 1, Count: 1}, {Node: "cpu-0", Shape: 0, Count: 1}},
		Shapes: []state.ShapeRequest{
			{Sig: "cpu=1", Request: workload.Resources{corev1.ResourceCPU: 1000, corev1.ResourcePods: 1000}},
			{Sig: "google.com/tpu=4", Request: workload.Resources{wellknown.ResourceTPU: 4000, corev1.ResourcePods: 1000}},
		},
	}
	if diff := cmp.Diff(map[int]*state.SliceReservation{0: want}, r.Slices); diff != "" {
		t.Fatalf("reservation (-want +got):\n%s", diff)
	}
	for _, c := range []struct {
		pod  *corev1.Pod
		want []string
	}{{launcher, []string{"cpu-0"}}, {w0, []string{"pool-1-node-0", "pool-1-node-1"}}} {
		nodes, ok := f.s.Reports().MemberNodes(c.pod)
		if !ok || !cmp.Equal(c.want, sortedSet(nodes)) {
			t.Errorf("MemberNodes(%s) = %v (%v), want %v", c.pod.Name, sortedSet(nodes), ok, c.want)
		}
	}
	plainTPU := unit.Pod("plain-tpu").TPU("4").Obj()
	checks := []struct {
		pod    *corev1.Pod
		node   string
		wantOK bool
	}{
		{plainTPU, "pool-1-node-0", false},
		{plainTPU, "pool-2-node-0", true},
		{unit.Pod("plain-cpu").CPU("2").Obj(), "pool-1-node-0", true},
		{unit.Pod("plain-big").CPU("8").Obj(), "cpu-0", false},
		{unit.Pod("plain-small").CPU("7").Obj(), "cpu-0", true},
		{w1, "pool-1-node-0", true},
	}
	for _, c := range checks {
		ok, why := nodeAllowed(f.s, c.pod, c.node, f.free(c.node))
		if ok != c.wantOK || (!ok && why != "the room left on the node is reserved for PodGroup ns/pg") {
			t.Errorf("NodeAllowed(%s, %s) = %v %q, want %v", c.pod.Name, c.node, ok, why, c.wantOK)
		}
	}
	// A reserved member takes its room: it is no longer outstanding.
	if got, node := f.reserve(w0); got != id || node != "pool-1-node-0" {
		t.Fatalf("Reserve(worker 0) = %d on %s", got, node)
	}
	if ok, why := nodeAllowed(f.s, plainTPU, "pool-1-node-1", f.free("pool-1-node-1")); ok {
		t.Errorf("NodeAllowed(plain TPU pod, pool-1-node-1) after a reserve elsewhere allowed, want refused (%s)", why)
	}
	if ok, why := nodeAllowed(f.s, plainTPU, "pool-1-node-0", func() workload.Resources {
		return workload.Resources{wellknown.ResourceTPU: 4000, corev1.ResourcePods: 100000}
	}); !ok {
		t.Errorf("Check on the node whose room the member took refused: %s", why)
	}
	if res := f.permit(w0); res.Allow || !strings.Contains(res.Message, "waiting for 2 of 3 gang members") {
		t.Errorf("Permit(worker 0) = %+v", res)
	}
	// A member put where its slot is used up takes no room planned for
	// another: the slot on pool-1-node-1 stays planned.
	f.s.Reserve(w1, "pool-1-node-0")
	got, _ := f.reservationOf(pgKey("pg"), w1)
	wantSlots := []placement.Slot{{Node: "pool-1-node-0", Shape: 1, Count: 0}, {Node: "pool-1-node-1", Shape: 1, Count: 1}, {Node: "cpu-0", Shape: 0, Count: 1}}
	if diff := cmp.Diff(wantSlots, got.Slices[0].Slots); diff != "" {
		t.Errorf("slots after an extra reserve (-want +got):\n%s", diff)
	}
	if want := (state.ReservedPod{Slice: 0, Node: "pool-1-node-0", Shape: -1, Order: 1}); got.Reserved[w1.UID] != want {
		t.Errorf("extra member reserved as %+v, want %+v", got.Reserved[w1.UID], want)
	}
	if ok, _ := nodeAllowed(f.s, plainTPU, "pool-1-node-1", f.free("pool-1-node-1")); ok {
		t.Errorf("the room planned on pool-1-node-1 was given up")
	}
}

// An unconfined gang gets room for every pod or none.
func TestUnconfinedGangIsAllOrNothing(t *testing.T) {
	cases := map[string]struct {
		size             int32
		wantNodes        []string
		wantFail         string
		wantUnresolvable bool
	}{
		"fits the free chips": {size: 2, wantNodes: []string{"pool-2-node-0", "pool-2-node-1"}},
		"more pods than free chips": {size: 3,
			wantFail: "waiting for room for 3 pods (google.com/tpu=4 each) on nodes matching any node"},
		"more pods than chips in the cluster": {size: 5, wantUnresolvable: true,
			wantFail: "5 pods (google.com/tpu=4 each) can never fit on the nodes matching any node together"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(2)...)
			f.addPods(unit.Pod("busy-0").TPU("4").NodeName("pool-1-node-0").Obj(), unit.Pod("busy-1").TPU("4").NodeName("pool-1-node-1").Obj())
			f.addPodGroup(unit.PodGroup("pg", tc.size).Obj())
			for i := range tc.size {
				f.addPods(unit.Pod("pg-" + string(rune('a'+i))).InPodGroup("pg").TPU("4").Obj())
			}
			r, fail := f.plan(pgKey("pg"))
			if tc.wantFail != "" {
				if fail == nil {
					t.Fatalf("plan = %+v, want failure", r.Slices[0].Slots)
				}
				if fail.Message != tc.wantFail || fail.Unresolvable != tc.wantUnresolvable {
					t.Errorf("failure = %+v, want %q (unresolvable %v)", fail, tc.wantFail, tc.wantUnresolvable)
				}
				if r != nil {
					t.Errorf("a failed plan returned a reservation")
				}
				if f.s.Reservations() != 0 {
					t.Errorf("%d reservations after a failed plan", f.s.Reservations())
				}
				if ok, why := nodeAllowed(f.s, unit.Pod("plain").TPU("4").Obj(), "pool-2-node-0", f.free("pool-2-node-0")); !ok {
					t.Errorf("a failed plan keeps a plain pod out: %s", why)
				}
				return
			}
			if fail != nil {
				t.Fatalf("plan: %v", fail)
			}
			var got []string
			for _, s := range r.Slices[0].Slots {
				got = append(got, s.Node)
			}
			if diff := cmp.Diff(tc.wantNodes, got); diff != "" {
				t.Errorf("planned nodes (-want +got):\n%s", diff)
			}
			if r.Slices[0].Domain != "" {
				t.Errorf("unconfined slice got domain %q", r.Slices[0].Domain)
			}
		})
	}
}

// An unconfined gang is planned around domains confined slices run in,
// even where they leave room: the pool is theirs while any of their pods
// runs.
func TestUnconfinedGangAvoidsHeldDomains(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	// pg runs on one node of pool-1, confined to the pool: pool-1-node-1 is free.
	f.addPodGroup(unit.PodGroup("pg", 1).Exclusive(wellknown.NodePoolLabel).Obj())
	f.addPods(unit.Pod("pg-0").InPodGroup("pg").TPU("4").NodeName("pool-1-node-0").Obj())
	f.addGang(unit.JobSet("free").Unconfined().ReplicatedJob("slice", 1, 2).Obj())
	r := f.mustPlan(jsKey("free"))
	for _, slot := range r.Slices[0].Slots {
		if strings.HasPrefix(slot.Node, "pool-1-") {
			t.Errorf("planned on %s, in pool-1 held by PodGroup pg", slot.Node)
		}
	}
}
