package state_test

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const (
	gpuBlock    = wellknown.GCETopologyBlockLabel
	gpuSubblock = wellknown.GCETopologySubblockLabel
)

// gpuHosts are hosts of 8 GPUs, four to a subblock, in one block: gpu-i in
// subblock sb-(i/4).
func gpuHosts(n int) []*corev1.Node {
	var nodes []*corev1.Node
	for i := range n {
		nodes = append(nodes, gpuHost(i, fmt.Sprintf("sb-%d", i/4)))
	}
	return nodes
}

func gpuHost(i int, subblock string) *corev1.Node {
	name := fmt.Sprintf("gpu-%d", i)
	return builders.Node(name).GPU("nvidia-h100-80gb", 8).Label(corev1.LabelHostname, name).
		Label(gpuBlock, "b0").Label(gpuSubblock, subblock).Obj()
}

// tasJobSet is a JobSet of one Job of pods pods asking gpus GPUs each,
// whose pod template carries annotation = level (Kueue's topology
// annotations).
func tasJobSet(name string, pods int32, gpus, annotation, level string) *jobsetv1alpha2.JobSet {
	return unit.JobSet(name).Unconfined().
		Pod(func(p *builders.PodBuilder) {
			p.NoNodeSelector().NoRequests().Request(wellknown.ResourceGPU, gpus).Annotation(annotation, level)
		}).
		ReplicatedJob("workers", 1, pods).Obj()
}

// running puts a JobSet of one pod of gpus GPUs on each node given.
func running(f *fixture, name, gpus string, nodes ...string) {
	f.addRunning(unit.JobSet(name).Unconfined().
		Pod(func(p *builders.PodBuilder) { p.NoNodeSelector().NoRequests().Request(wellknown.ResourceGPU, gpus) }).
		ReplicatedJob("r", 1, int32(len(nodes))).Obj(), nodes...)
}

// subblocksOf are the subblocks of the snapshot's nodes, sorted.
func subblocksOf(sn *state.Snapshot) []string {
	set := map[string]bool{}
	for _, n := range sn.Nodes {
		set[n.Node.Labels()[gpuSubblock]] = true
	}
	return slices.Sorted(maps.Keys(set))
}

// plannedOn are the nodes r's slices have slots on, sorted.
func plannedOn(r *state.Reservation) []string {
	set := map[string]bool{}
	for _, sr := range r.Slices {
		for _, sl := range sr.Slots {
			set[sl.Node] = true
		}
	}
	return slices.Sorted(maps.Keys(set))
}

// A gang whose pod set is required in one subblock is planned on a
// snapshot of the few subblocks whose free room could take it, the tightest
// first, not on every node; the room is kept as pods come and go and as
// nodes move, and the plan is the one every node gives (fixture.plan).
func TestSnapshotForPlanCopiesTheRoomiestDomains(t *testing.T) {
	f := newFixture(t, gpuHosts(16)...)
	running(f, "two", "8", "gpu-4", "gpu-5") // sb-1 takes 2 more hosts
	running(f, "one", "8", "gpu-8")          // sb-2 takes 3
	f.addGang(tasJobSet("tas", 2, "8", wellknown.RequiredTopologyAnnotation, gpuSubblock))

	step := func(what string, wantSubblocks []string, wantPlan []string) {
		t.Helper()
		sn := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
		if !sn.Roomy() || !sn.Partial() {
			t.Errorf("%s: the snapshot for planning holds every node (roomy %v, partial %v)", what, sn.Roomy(), sn.Partial())
		}
		if diff := cmp.Diff(wantSubblocks, subblocksOf(sn)); diff != "" {
			t.Errorf("%s: subblocks copied (-want +got):\n%s", what, diff)
		}
		if diff := cmp.Diff(wantPlan, plannedOn(f.mustPlan(jsKey("tas")))); diff != "" {
			t.Errorf("%s: planned on (-want +got):\n%s", what, diff)
		}
	}
	// Tightest first (sb-1: 2, sb-2: 3), then sb-0 before sb-3 (4 each).
	step("at first", []string{"sb-0", "sb-1", "sb-2"}, []string{"gpu-6", "gpu-7"})

	running(f, "fills-sb-1", "8", "gpu-6", "gpu-7")
	step("once sb-1 is full", []string{"sb-0", "sb-2", "sb-3"}, []string{"gpu-10", "gpu-9"})

	// gpu-9 moves to a subblock of its own (1 host: too small); sb-2 is
	// left gpu-10 and gpu-11.
	f.addNodes(gpuHost(9, "sb-9"))
	step("once gpu-9 moved", []string{"sb-0", "sb-2", "sb-3"}, []string{"gpu-10", "gpu-11"})

	// The pod on gpu-8 goes: sb-2 takes 3 again.
	f.deletePod(builders.MembersOn(unit.JobSet("one").Unconfined().
		Pod(func(p *builders.PodBuilder) { p.NoNodeSelector().NoRequests().Request(wellknown.ResourceGPU, "8") }).
		ReplicatedJob("r", 1, 1).Obj(), "gpu-8")[0])
	f.s.Feed().DeleteNode("gpu-0") // sb-0 takes 3 too, and comes first
	step("once gpu-8 was freed and gpu-0 deleted", []string{"sb-0", "sb-2", "sb-3"}, []string{"gpu-1", "gpu-2"})
}

// Room summed over a domain may be scattered over nodes none of which takes
// a pod: a plan on the roomiest domains then fails, and PreFilter plans
// again on every node (Snapshot.Partial), where a free subblock takes it.
func TestRoomyDomainsThatCannotTakeThePodSet(t *testing.T) {
	f := newFixture(t, gpuHosts(16)...)
	var half []string
	for i := range 12 {
		half = append(half, fmt.Sprintf("gpu-%d", i))
	}
	running(f, "halves", "4", half...) // sb-0..sb-2: 16 GPUs free each, 4 on each host
	f.addGang(tasJobSet("tas", 2, "8", wellknown.RequiredTopologyAnnotation, gpuSubblock))

	lean := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
	if diff := cmp.Diff([]string{"sb-0", "sb-1", "sb-2"}, subblocksOf(lean)); diff != "" {
		t.Errorf("subblocks copied (-want +got):\n%s", diff)
	}
	if _, fail := admission.Plan(lean); fail == nil || !lean.Partial() {
		t.Fatalf("the plan on the scattered subblocks: failure %v, partial %v; want a failure on a partial snapshot", fail, lean.Partial())
	}
	if diff := cmp.Diff([]string{"gpu-12", "gpu-13"}, plannedOn(f.mustPlan(jsKey("tas")))); diff != "" {
		t.Errorf("planned on every node (-want +got):\n%s", diff)
	}
}

// A preferred pod set is planned on the roomiest domains of its level as
// if required there: where one of them takes it, that is where the fleet's
// plan puts it (the fixture's plan compares the two); where none does (the
// room scattered over hosts), the plan fails and is made on every node,
// which climbs to the block.
func TestRoomyPreferredPodSet(t *testing.T) {
	t.Run("one subblock takes it", func(t *testing.T) {
		f := newFixture(t, gpuHosts(16)...)
		running(f, "held", "8", "gpu-0", "gpu-1", "gpu-2", "gpu-4") // sb-0 takes 1 host, sb-1 3
		f.addGang(tasJobSet("tas", 2, "8", wellknown.PreferredTopologyAnnotation, gpuSubblock))
		lean := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
		if !lean.Roomy() || len(lean.Nodes) == 16 {
			t.Errorf("roomy %v, %d nodes; want the roomiest subblocks alone", lean.Roomy(), len(lean.Nodes))
		}
		if diff := cmp.Diff([]string{"gpu-5", "gpu-6"}, plannedOn(f.mustPlan(jsKey("tas")))); diff != "" {
			t.Errorf("planned on (-want +got):\n%s", diff)
		}
	})
	t.Run("no subblock takes it", func(t *testing.T) {
		f := newFixture(t, gpuHosts(16)...)
		// Each subblock: two hosts free, two half taken (24 GPUs summed,
		// room for 2 pods of 8).
		running(f, "halves", "4", "gpu-2", "gpu-3", "gpu-6", "gpu-7", "gpu-10", "gpu-11", "gpu-14", "gpu-15")
		f.addGang(tasJobSet("tas", 3, "8", wellknown.PreferredTopologyAnnotation, gpuSubblock))
		lean := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
		if _, fail := admission.Plan(lean); !lean.Roomy() || fail == nil || !lean.Partial() {
			t.Fatalf("the plan on the roomiest subblocks: roomy %v, failure %v, partial %v; want a failure on a partial snapshot", lean.Roomy(), fail, lean.Partial())
		}
		got := plannedOn(f.mustPlan(jsKey("tas")))
		subblocks := map[string]bool{}
		for _, n := range got {
			var i int
			fmt.Sscanf(n, "gpu-%d", &i)
			subblocks[fmt.Sprintf("sb-%d", i/4)] = true // as gpuHosts labels them
		}
		if len(got) != 3 || len(subblocks) != 2 {
			t.Errorf("planned on every node: %v in subblocks %v; want 3 free hosts over 2 subblocks of the block", got, subblocks)
		}
	})
}

// Only a gang every pod set of which is required or preferred in one
// domain, none of whose pods is placed, is planned on the roomiest
// domains: slices spread over several domains of their level, and placed
// pods pin their siblings' domain.
func TestSnapshotForPlanHoldsEveryNodeOtherwise(t *testing.T) {
	sliced := tasJobSet("tas", 4, "8", wellknown.SliceRequiredTopologyAnnotation, gpuSubblock)
	sliced.Spec.ReplicatedJobs[0].Template.Spec.Template.Annotations[wellknown.SliceSizeAnnotation] = "2"
	for _, tc := range []struct {
		name string
		js   *jobsetv1alpha2.JobSet
		bind int // pods of it placed
	}{
		{name: "slices", js: sliced},
		{name: "a pod placed", js: tasJobSet("tas", 2, "8", wellknown.RequiredTopologyAnnotation, gpuSubblock), bind: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, gpuHosts(16)...)
			pods := f.addGang(tc.js)
			for i := range tc.bind {
				f.bind(pods[i], "gpu-0")
			}
			sn := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
			if sn.Roomy() || len(sn.Nodes) != 16 {
				t.Errorf("roomy %v, %d nodes; want every node (16)", sn.Roomy(), len(sn.Nodes))
			}
			f.plan(jsKey("tas"))
		})
	}
}

// A queued gang is copied the roomiest domains of its ClusterQueue's
// flavor's Topology (block → subblock → host): subblocks named by their
// path, so sb-0 of two blocks are two domains.
func TestSnapshotForPlanReadsTheFlavorsTopology(t *testing.T) {
	var nodes []*corev1.Node
	for i := range 16 {
		name := fmt.Sprintf("gpu-%d", i)
		nodes = append(nodes, builders.Node(name).GPU("nvidia-h100-80gb", 8).Label(corev1.LabelHostname, name).
			Label(gpuBlock, fmt.Sprintf("b%d", i/8)).Label(gpuSubblock, fmt.Sprintf("sb-%d", i/4%2)).Obj())
	}
	f := withGPUQueue(newFixture(t, nodes...), 128)
	// b0/sb-0 takes 1 more host, b1/sb-0 2, b0/sb-1 and b1/sb-1 4.
	running(f, "held", "8", "gpu-0", "gpu-1", "gpu-2", "gpu-8", "gpu-9")
	js := tasJobSet("tas", 2, "8", wellknown.RequiredTopologyAnnotation, gpuSubblock)
	js.Annotations = map[string]string{wellknown.QueueNameLabel: "gpu-queue"}
	f.addGang(js)

	sn := f.s.SnapshotForPlan(jsKey("tas"), f.requested)
	got := map[string]bool{}
	for _, n := range sn.Nodes {
		got[n.Node.Labels()[gpuBlock]+"/"+n.Node.Labels()[gpuSubblock]] = true
	}
	if diff := cmp.Diff([]string{"b0/sb-1", "b1/sb-0", "b1/sb-1"}, slices.Sorted(maps.Keys(got))); diff != "" || !sn.Roomy() {
		t.Errorf("roomy %v; subblocks copied (-want +got):\n%s", sn.Roomy(), diff)
	}
	if diff := cmp.Diff([]string{"gpu-10", "gpu-11"}, plannedOn(f.mustPlan(jsKey("tas")))); diff != "" {
		t.Errorf("planned on (-want +got):\n%s", diff)
	}
}

// The free room kept per domain is what a count of every node made afresh
// says, through pods bound, finished and deleted, nodes moved between
// subblocks, cordoned, deleted and added again (random steps, a fixed
// seed).
func TestDomainRoomMatchesARecount(t *testing.T) {
	f := newFixture(t, gpuHosts(16)...)
	levels := []string{gpuBlock, gpuSubblock}
	if diff := f.s.DomainRoomRecount(levels); diff != "" {
		t.Fatalf("at first (-fresh +kept):\n%s", diff)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	node := func() string { return fmt.Sprintf("gpu-%d", rng.IntN(16)) }
	var live []*corev1.Pod
	for step := range 300 {
		var what string
		switch op := rng.IntN(6); {
		case op <= 1:
			on := node()
			pods := builders.MembersOn(unit.JobSet(fmt.Sprintf("run-%d", step)).Unconfined().
				Pod(func(p *builders.PodBuilder) {
					p.NoNodeSelector().NoRequests().Request(wellknown.ResourceGPU, fmt.Sprint(1+rng.IntN(8)))
				}).ReplicatedJob("r", 1, 1).Obj(), on)
			f.addPods(pods...)
			live = append(live, pods...)
			what = "a pod bound on " + on
		case op == 2 && len(live) > 0:
			i := rng.IntN(len(live))
			p := live[i]
			live = slices.Delete(live, i, i+1)
			if rng.IntN(2) == 0 {
				f.deletePod(p)
				what = "pod " + p.Name + " deleted"
			} else {
				done := p.DeepCopy()
				done.Status.Phase = corev1.PodSucceeded
				f.addPods(done)
				what = "pod " + p.Name + " succeeded"
			}
		case op == 3:
			n := gpuHost(rng.IntN(16), fmt.Sprintf("sb-%d", rng.IntN(5)))
			f.addNodes(n)
			what = n.Name + " moved to " + n.Labels[gpuSubblock]
		case op == 4:
			n := gpuHost(rng.IntN(16), fmt.Sprintf("sb-%d", rng.IntN(4)))
			n.Spec.Unschedulable = rng.IntN(2) == 0
			f.addNodes(n)
			what = fmt.Sprintf("%s unschedulable: %v", n.Name, n.Spec.Unschedulable)
		default:
			name := node()
			f.s.Feed().DeleteNode(name)
			what = name + " deleted"
		}
		if diff := f.s.DomainRoomRecount(levels); diff != "" {
			t.Fatalf("step %d, %s (-fresh +kept):\n%s", step, what, diff)
		}
	}
}
