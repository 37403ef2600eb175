package state_test

import (
	"maps"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// prioritized is a JobSet of slices 2-host slices whose pods have priority p.
func prioritized(name string, slices int32, p int32) *jobsetv1alpha2.JobSet {
	return unit.JobSet(name).Pod(func(b *builders.PodBuilder) { b.Priority(p) }).ReplicatedJob("slice", slices, 2).Obj()
}

// hotswapFixture: pool-1 failed (cordoned); low (priority 1) runs on
// pool-2 and pool-3; high (priority 100, 2 slices) waits. Preempting
// evicts low and claims two pools for high.
func hotswapFixture(t *testing.T) (*fixture, []*corev1.Pod, *admission.Preemption) {
	t.Helper()
	f, low, d := preemptionFixture(t)
	victims := claim(f, jsKey("high"), 100, d.Victims, d.Plan)
	if len(victims) != 1 || victims[0].Key != jsKey("low") || len(victims[0].Pods) != len(low) || victims[0].Ref.Name != "low" {
		t.Fatalf("the claim evicts %+v, want low's %d pods", victims, len(low))
	}
	return f, low, d
}

// preemptionFixture is hotswapFixture before the claim: high chose to
// evict low (d).
func preemptionFixture(t *testing.T) (*fixture, []*corev1.Pod, *admission.Preemption) {
	t.Helper()
	nodes := builders.V5ePools(3)
	f := newFixture(t, nodes...)
	for _, n := range nodes {
		if strings.HasPrefix(n.Name, "pool-1-") {
			n = n.DeepCopy()
			n.Spec.Unschedulable = true
			f.addNodes(n)
		}
	}
	low := f.addRunning(prioritized("low", 2, 1), "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1")
	f.addGang(prioritized("high", 2, 100))
	if _, fail := f.plan(jsKey("high")); fail == nil {
		t.Fatal("high was placed without preemption")
	}
	sn := f.s.PreemptionSnapshot(jsKey("high"), nil, f.requested)
	d, fail := admission.Preempt(sn)
	if fail != nil {
		t.Fatalf("preempt: %v", fail)
	}
	if len(d.Victims) != 1 || d.Victims[0] != jsKey("low") {
		t.Fatalf("victims %v, want low", d.Victims)
	}
	return f, low, d
}

// claim applies preemptor's claim on victims, as its cycle does, and
// returns the victims to evict.
func claim(f *fixture, preemptor workload.Key, priority int32, victims []workload.Key, plan *state.Reservation) []state.Victim {
	f.t.Helper()
	applied := f.s.Apply(state.Decision{Key: preemptor, Claim: &state.Claim{Priority: priority, Victims: victims, Plan: plan}})
	if applied.Refused != nil {
		f.t.Fatalf("the claim of %s was refused: %v", preemptor, applied.Refused)
	}
	return applied.Victims
}

// placedWhole reads whether key's workload runs whole and holds no
// reservation, as a preemption's cycle does (State.Preemption).
func placedWhole(f *fixture, key workload.Key) bool {
	return f.s.Preemption(&corev1.Pod{}, key).PlacedWhole
}

// underway reads whether key's preemption is under way as its cycle does
// (State.Preemption), and writes back, as it does, that its victims are
// gone when it first finds them gone; it returns the victims left.
func underway(f *fixture, key workload.Key) (bool, []workload.Key) {
	pf := f.s.Preemption(&corev1.Pod{}, key)
	c := pf.Claim
	if c == nil {
		return false, nil
	}
	if len(c.Left) == 0 && c.Gone.IsZero() {
		f.s.Apply(state.Decision{Key: key, VictimsGone: pf.Now})
	}
	return c.Underway(pf.Now), c.Left
}

// While the victims terminate, the domains chosen for the preemptor are
// kept for it: no other workload plans into them and no pod passes NodeAllowed
// there; the preemptor itself waits for its victims instead of preempting
// again; its commit ends the claim.
func TestClaimKeepsTheFreedDomainsForThePreemptor(t *testing.T) {
	f, low, d := hotswapFixture(t)
	if on, left := underway(f, jsKey("high")); !on || len(left) != 1 || left[0] != jsKey("low") {
		t.Fatalf("underway = %v, %v; want low left", on, left)
	}
	// Eviction is asynchronous: while low's pods are still live, another
	// preemptor sees it as being evicted, not as a candidate.
	f.addGang(prioritized("rival", 1, 500))
	if v := f.s.PreemptionSnapshot(jsKey("rival"), nil, f.requested).Workloads[jsKey("low")]; v == nil || !v.Evicting {
		t.Errorf("low is not marked as being evicted in another preemptor's snapshot: %+v", v)
	}

	// The victims are deleted: being deleted they still hold their nodes,
	// so the preemption is still under way.
	for _, p := range low {
		deleting := p.DeepCopy()
		deleting.DeletionTimestamp = deleting.CreationTimestamp.DeepCopy()
		f.addPods(deleting)
	}
	if on, left := underway(f, jsKey("high")); !on || len(left) != 1 {
		t.Fatalf("underway = %v, %v while low's pods are being deleted, want low left", on, left)
	}
	for _, p := range low {
		f.deletePod(p)
	}
	// Gone, but the scheduler's snapshot may not show it yet: the
	// preemptor still may not preempt again for a while.
	if on, left := underway(f, jsKey("high")); !on || len(left) != 0 {
		t.Fatalf("underway = %v, %v right after low is gone, want under way with none left", on, left)
	}
	f.clock.Step(11 * time.Second)
	if on, _ := underway(f, jsKey("high")); on {
		t.Fatal("the preemption is still under way long after low is gone")
	}

	claimed := ""
	for _, sr := range d.Plan.Slices {
		claimed = sr.Domain
	}
	node := claimed + "-node-0"
	plain := unit.Pod("plain").TPU("4").Priority(1000).Obj()
	if ok, why := nodeAllowed(f.s, plain, node, f.free(node)); ok || !strings.Contains(why, "kept for") {
		t.Errorf("NodeAllowed(plain pod, %s) = %v, %q; want it kept for high", node, ok, why)
	}
	// Another waiting workload, even of higher priority, does not plan
	// into the claimed domains.
	f.addGang(prioritized("other", 1, 1000))
	if r, fail := f.plan(jsKey("other")); fail == nil {
		t.Errorf("other was planned into %v, kept for high (pool-1 is cordoned)", domains(r))
	}

	f.commit(jsKey("high"))
	if ok, why := nodeAllowed(f.s, plain, node, f.free(node)); ok || strings.Contains(why, "kept for") {
		t.Errorf("after high's commit NodeAllowed(plain pod, %s) = %v, %q; want its reservation, not the claim", node, ok, why)
	}
}

// claimedNode deletes the victims' pods and returns a node kept for the
// preemptor, after checking that a plain pod may not use it.
func claimedNode(t *testing.T, f *fixture, victims []*corev1.Pod, d *admission.Preemption) (node string, plain *corev1.Pod) {
	t.Helper()
	for _, p := range victims {
		f.deletePod(p)
	}
	for _, sr := range d.Plan.Slices {
		node = sr.Domain + "-node-0"
	}
	plain = unit.Pod("plain").TPU("4").Obj()
	if ok, _ := nodeAllowed(f.s, plain, node, f.free(node)); ok {
		t.Fatalf("%s is not kept for high", node)
	}
	return node, plain
}

// A claim whose preemptor is not placed in time lapses, and the domains
// are free for others again; so does the claim of a deleted preemptor.
func TestClaimEnds(t *testing.T) {
	for name, end := range map[string]func(f *fixture){
		"lapses": func(f *fixture) {
			f.clock.Step(state.DefaultClaimTimeout + time.Second)
			f.s.Upkeep().Expire()
		},
		"preemptor deleted": func(f *fixture) { f.s.Feed().DeleteSource(jsKey("high")) },
	} {
		t.Run(name, func(t *testing.T) {
			f, low, d := hotswapFixture(t)
			node, plain := claimedNode(t, f, low, d)
			end(f)
			if ok, why := nodeAllowed(f.s, plain, node, f.free(node)); !ok {
				t.Errorf("after the claim ended NodeAllowed(plain pod, %s) = false, %q", node, why)
			}
		})
	}
}

// Seed 002 with withinClusterQueue: LowerPriority: a higher-priority
// workload of the queue reclaims the quota of a lower-priority one, and is
// let through PreEnqueue to do so; it goes to a pool that is free already,
// not to one of its victim's. With the default policy (Never) it waits.
func TestQuotaPreemptionWithinClusterQueue(t *testing.T) {
	for _, policy := range []string{"LowerPriority", "Never"} {
		t.Run(policy, func(t *testing.T) {
			f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, quota.BestEffortFIFO)
			f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
				Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
				Groups:     []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
				Quotas:     map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: 24 * 1000}},
				Preemption: quota.Preemption{WithinClusterQueue: policy},
			})
			low := unit.JobSet("low").Created(builders.Epoch).Annotation(wellknown.QueueNameLabel, "multislice-queue").
				Pod(func(b *builders.PodBuilder) { b.Priority(1) }).ReplicatedJob("slice", 3, 2).Obj()
			f.addRunning(low, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1")
			high := unit.JobSet("high").Created(builders.Epoch.Add(time.Minute)).Annotation(wellknown.QueueNameLabel, "multislice-queue").
				Pod(func(b *builders.PodBuilder) { b.Priority(100) }).ReplicatedJob("slice", 1, 2).Obj()
			pods := f.addGang(high)
			v := f.admit(head(t, f, pods))
			if v.Wait != (policy == "Never") {
				t.Fatalf("Admit(head of high) = %+v; want it to wait only under Never", v)
			}
			if policy == "Never" {
				return
			}
			if _, fail := f.plan(jsKey("high")); fail == nil || fail.Reason != quota.ReasonQuotaExceeded {
				t.Fatalf("high planned without preemption: %v", fail)
			}
			sn := f.s.PreemptionSnapshot(jsKey("high"), nil, f.requested)
			if cq := sn.ClusterQueueOf(sn.Workloads[jsKey("low")]); cq == nil || cq.Name != "cluster-queue" || cq.Preemption.WithinClusterQueue != policy {
				t.Fatalf("the snapshot says low is charged to %+v, want cluster-queue as the state holds it", cq)
			}
			d, fail := admission.Preempt(sn)
			if fail != nil {
				t.Fatalf("preempt: %v", fail)
			}
			if len(d.Victims) != 1 || d.Victims[0] != jsKey("low") {
				t.Fatalf("victims %v, want low", d.Victims)
			}
			if got := domains(d.Plan)[0]; got == "pool-1" || got == "pool-2" || got == "pool-3" {
				t.Errorf("high goes to %s, one of low's pools, while pools 4-6 are free", got)
			}
		})
	}
}

// An unqueued workload never evicts one admitted through a queue, however
// high its priority: the preemption decides on the snapshot alone, which
// carries the ClusterQueue each of its workloads is charged to.
func TestUnqueuedPreemptorSparesAdmittedWorkloads(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(3)...), 24, quota.BestEffortFIFO)
	low := unit.JobSet("low").Annotation(wellknown.QueueNameLabel, "multislice-queue").
		Pod(func(b *builders.PodBuilder) { b.Priority(1) }).ReplicatedJob("slice", 3, 2).Obj()
	f.addRunning(low, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1")
	f.addGang(prioritized("high", 1, 100))
	if _, fail := f.plan(jsKey("high")); fail == nil {
		t.Fatal("high was placed without preemption")
	}
	sn := f.s.PreemptionSnapshot(jsKey("high"), nil, f.requested)
	d, fail := admission.Preempt(sn)
	if fail == nil {
		t.Fatalf("high preempts %v, want no victim", d.Victims)
	}
	if !strings.Contains(fail.Message, "admitted through ClusterQueue cluster-queue and the preemptor is not queued") {
		t.Errorf("failure %q does not say why low is spared", fail.Message)
	}
}

// Apply refuses a claim when what it was decided on moved: a victim gone,
// a victim another preemption evicts meanwhile, a node the plan puts pods
// on kept meanwhile for a workload that is not a victim. Nothing is
// claimed then, and no victim is to be evicted.
func TestApplyRefusesAClaimThatMoved(t *testing.T) {
	for _, tc := range []struct {
		name string
		move func(f *fixture, low []*corev1.Pod, d *admission.Preemption)
		want string
	}{{
		name: "a victim gone",
		move: func(f *fixture, low []*corev1.Pod, _ *admission.Preemption) {
			for _, p := range low {
				f.deletePod(p)
			}
			f.s.Feed().DeleteSource(jsKey("low"))
		},
		want: "preemption victim JobSet ns/low is gone",
	}, {
		name: "a victim evicted for another",
		move: func(f *fixture, _ []*corev1.Pod, _ *admission.Preemption) {
			f.addJobSet(prioritized("rival", 1, 500))
			claim(f, jsKey("rival"), 500, []workload.Key{jsKey("low")}, &state.Reservation{})
		},
		want: "preemption victim JobSet ns/low is being evicted for JobSet ns/rival",
	}, {
		name: "a planned node kept for another",
		move: func(f *fixture, _ []*corev1.Pod, d *admission.Preemption) {
			var node string
			for _, sr := range d.Plan.Slices {
				node = sr.Slots[0].Node
			}
			f.addJobSet(prioritized("rival", 1, 500))
			claim(f, jsKey("rival"), 500, nil, &state.Reservation{Slices: map[int]*state.SliceReservation{0: {Slots: []placement.Slot{{Node: node, Count: 1}}}}})
		},
		want: "is kept for JobSet ns/rival",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f, low, d := preemptionFixture(t)
			tc.move(f, low, d)
			applied := f.s.Apply(state.Decision{Key: jsKey("high"), Claim: &state.Claim{Priority: 100, Victims: d.Victims, Plan: d.Plan}})
			if applied.Refused == nil || !strings.Contains(applied.Refused.Error(), tc.want) {
				t.Fatalf("Apply refused %v, want %q", applied.Refused, tc.want)
			}
			if len(applied.Victims) != 0 {
				t.Errorf("victims to evict %+v, want none", applied.Victims)
			}
			if f.s.Preemption(&corev1.Pod{}, jsKey("high")).Claim != nil {
				t.Error("high holds a claim after its refusal")
			}
		})
	}
}

// The snapshot a preemption chooses victims on is a new value: the
// snapshot the cycle's failed plan read, which the cycle holds, is left as
// it was whatever is simulated on the copy.
func TestPreemptionSnapshotLeavesThePlannedSnapshotAlone(t *testing.T) {
	f, _, _ := preemptionFixture(t)
	planned := f.s.Snapshot(jsKey("high"), f.requested)
	if planned.Workloads[jsKey("low")] == nil {
		t.Fatal("low is not in high's snapshot")
	}
	workloads := len(planned.Workloads)
	free := maps.Clone(planned.Nodes["pool-2-node-0"].Free)
	sn := f.s.PreemptionSnapshot(jsKey("high"), planned, f.requested)
	sn.RemoveWorkload(jsKey("low")) // never undone
	if len(planned.Workloads) != workloads || planned.Workloads[jsKey("low")] == nil {
		t.Errorf("the planned snapshot lost low (%d workloads, had %d)", len(planned.Workloads), workloads)
	}
	if got := planned.Nodes["pool-2-node-0"].Free; !maps.Equal(got, free) {
		t.Errorf("pool-2-node-0's free room in the planned snapshot is %v, was %v", got, free)
	}
	if sn.Workloads[jsKey("low")] != nil {
		t.Error("the preemption's copy still has low")
	}
}
