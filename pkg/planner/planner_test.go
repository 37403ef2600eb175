package planner

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"

	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const (
	tpu     = corev1.ResourceName("google.com/tpu")
	cpu     = corev1.ResourceCPU
	podsRes = corev1.ResourcePods

	topo2x4 = "gke-tpu-topology=2x4"
)

// host is a TPU node's capacity: 4 chips, 8 CPUs, room for 110 pods.
func host() workload.Resources {
	return workload.Resources{tpu: 4000, cpu: 8000, podsRes: 110000}
}

// workerReq is one TPU worker; launcherReq one CPU-only launcher.
func workerReq() workload.Resources   { return workload.Resources{tpu: 4000, podsRes: 1000} }
func launcherReq() workload.Resources { return workload.Resources{cpu: 1000, podsRes: 1000} }

// poolB builds a Domain of TPU hosts named <pool>-<i>.
type poolB struct{ d Domain }

func pool(name string, nodes int) *poolB {
	b := &poolB{d: Domain{Name: name}}
	for i := range nodes {
		b.d.Nodes = append(b.d.Nodes, Node{Name: fmt.Sprintf("%s-%d", name, i), Allocatable: host(), Free: host(), Usable: true})
	}
	return b
}

// freeChips sets the free TPU chips of every node.
func (b *poolB) freeChips(chips int64) *poolB {
	for i := range b.d.Nodes {
		b.d.Nodes[i].Free[tpu] = chips * 1000
	}
	return b
}

// freeOn sets one free resource of one node.
func (b *poolB) freeOn(node int, name corev1.ResourceName, v int64) *poolB {
	b.d.Nodes[node].Free[name] = v
	return b
}

func (b *poolB) notReady(nodes ...int) *poolB {
	for _, i := range nodes {
		b.d.Nodes[i].Usable = false
	}
	return b
}

func (b *poolB) unavailable(why string) *poolB {
	b.d.Unavailable = why
	return b
}

func (b *poolB) build() Domain { return b.d }

// sliceB builds a SliceDemand of TPU workers, optionally with a launcher.
type sliceB struct{ s SliceDemand }

func slice(index, workers int) *sliceB {
	return &sliceB{s: SliceDemand{
		Index:    index,
		Describe: topo2x4,
		Shapes:   []Shape{{Count: workers, Request: workerReq(), Sig: "worker"}},
	}}
}

// cpuSlice is a slice of pods asking only for CPU (milli) and a pod slot.
func cpuSlice(index, pods int, milli int64) *sliceB {
	return &sliceB{s: SliceDemand{
		Index:  index,
		Shapes: []Shape{{Count: pods, Request: workload.Resources{cpu: milli, podsRes: 1000}, Sig: fmt.Sprintf("cpu%d", milli)}},
	}}
}

// withLauncher puts one CPU-only launcher pod first, as shape 0.
func (b *sliceB) withLauncher() *sliceB {
	b.s.Shapes = append([]Shape{{Count: 1, Request: launcherReq(), Sig: "launcher"}}, b.s.Shapes...)
	return b
}

func (b *sliceB) fixed(domain string) *sliceB {
	b.s.Fixed = domain
	return b
}

func (b *sliceB) describe(d string) *sliceB {
	b.s.Describe = d
	return b
}

// only lets every shape's pods run on the named nodes alone.
func (b *sliceB) only(nodes ...string) *sliceB {
	ok := map[string]bool{}
	for _, n := range nodes {
		ok[n] = true
	}
	return b.qualifies("only:"+strings.Join(nodes, ","), func(n string) bool { return ok[n] })
}

func (b *sliceB) qualifies(sig string, f func(string) bool) *sliceB {
	for i := range b.s.Shapes {
		b.s.Shapes[i].Qualifies = f
		b.s.Shapes[i].Sig += "|" + sig
	}
	return b
}

func (b *sliceB) build() SliceDemand { return b.s }

func buildSlices(bs []*sliceB) []SliceDemand {
	out := make([]SliceDemand, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.build())
	}
	return out
}

func buildDomains(bs []*poolB) []Domain {
	out := make([]Domain, 0, len(bs))
	for _, b := range bs {
		out = append(out, b.build())
	}
	return out
}

func slot(node string, shape, count int) placement.Slot {
	return placement.Slot{Node: node, Shape: shape, Count: count}
}

// in is an assignment to a domain; slots are never nil in a plan.
func in(domain string, slots ...placement.Slot) Assignment {
	return Assignment{Domain: domain, Slots: append([]placement.Slot{}, slots...)}
}

// domainsOf reduces a plan to slice index → domain.
func domainsOf(p Plan) map[int]string {
	if p == nil {
		return nil
	}
	out := map[int]string{}
	for i, a := range p {
		out[i] = a.Domain
	}
	return out
}

func copyNodes(nodes []Node) []Node {
	out := make([]Node, len(nodes))
	for i, n := range nodes {
		out[i] = n
		out[i].Allocatable = maps.Clone(n.Allocatable)
		out[i].Free = maps.Clone(n.Free)
	}
	return out
}

func copyDomains(ds []Domain) []Domain {
	out := make([]Domain, len(ds))
	for i, d := range ds {
		out[i] = d
		out[i].Nodes = copyNodes(d.Nodes)
	}
	return out
}

// checkSlots verifies a plan against the nodes it was made from: every
// slice placed, every shape's pods all placed, only on usable qualifying
// nodes, and no node given more than its Free.
func checkSlots(t *testing.T, sl []SliceDemand, nodes []Node, plan Plan) {
	t.Helper()
	if len(plan) != len(sl) {
		t.Errorf("plan has %d slices, want %d", len(plan), len(sl))
	}
	byName := map[string]*Node{}
	for i := range nodes {
		byName[nodes[i].Name] = &nodes[i]
	}
	used := map[string]workload.Resources{}
	for _, s := range sl {
		a, ok := plan[s.Index]
		if !ok {
			t.Errorf("slice %d not placed", s.Index)
			continue
		}
		placed := make([]int, len(s.Shapes))
		for _, x := range a.Slots {
			if x.Shape < 0 || x.Shape >= len(s.Shapes) || x.Count <= 0 {
				t.Errorf("slice %d: bad slot %+v", s.Index, x)
				continue
			}
			sh := &s.Shapes[x.Shape]
			n := byName[x.Node]
			switch {
			case n == nil:
				t.Errorf("slice %d: slot on unknown node %s", s.Index, x.Node)
				continue
			case !n.Usable:
				t.Errorf("slice %d: slot on unusable node %s", s.Index, x.Node)
			case sh.Qualifies != nil && !sh.Qualifies(x.Node):
				t.Errorf("slice %d: shape %d placed on non-qualifying node %s", s.Index, x.Shape, x.Node)
			}
			placed[x.Shape] += x.Count
			if used[x.Node] == nil {
				used[x.Node] = workload.Resources{}
			}
			for name, v := range sh.Request {
				used[x.Node][name] += v * int64(x.Count)
			}
		}
		for i, sh := range s.Shapes {
			if placed[i] != sh.Count {
				t.Errorf("slice %d shape %d: %d pods placed, want %d", s.Index, i, placed[i], sh.Count)
			}
		}
	}
	for node, u := range used {
		for name, v := range u {
			if v > byName[node].Free[name] {
				t.Errorf("node %s: %s %d placed, only %d free", node, name, v, byName[node].Free[name])
			}
		}
	}
}

// checkPlan adds MakePlan's promises to checkSlots: distinct available
// domains, fixed slices in their domain, slots inside the slice's domain.
func checkPlan(t *testing.T, sl []SliceDemand, domains []Domain, plan Plan) {
	t.Helper()
	byName := map[string]*Domain{}
	var all []Node
	for i := range domains {
		byName[domains[i].Name] = &domains[i]
		all = append(all, domains[i].Nodes...)
	}
	taken := map[string]int{}
	for _, s := range sl {
		a, ok := plan[s.Index]
		if !ok {
			continue
		}
		d := byName[a.Domain]
		switch {
		case d == nil:
			t.Errorf("slice %d: unknown domain %q", s.Index, a.Domain)
			continue
		case d.Unavailable != "":
			t.Errorf("slice %d: domain %s is unavailable (%s)", s.Index, a.Domain, d.Unavailable)
		case s.Fixed != "" && s.Fixed != a.Domain:
			t.Errorf("slice %d: fixed to %s, got %s", s.Index, s.Fixed, a.Domain)
		}
		if j, dup := taken[a.Domain]; dup {
			t.Errorf("domain %s given to slices %d and %d", a.Domain, j, s.Index)
		}
		taken[a.Domain] = s.Index
		for _, x := range a.Slots {
			if !slices.ContainsFunc(d.Nodes, func(n Node) bool { return n.Name == x.Node }) {
				t.Errorf("slice %d: slot on %s outside its domain %s", s.Index, x.Node, a.Domain)
			}
		}
	}
	checkSlots(t, sl, all, plan)
}

func TestMakePlan(t *testing.T) {
	rejected := placement.RejectedPrefix + "node(s) had untolerated taint {dedicated: x}"
	cases := []struct {
		name    string
		slices  []*sliceB
		domains []*poolB
		// wantDomains checks where slices go; wantPlan, when set, also
		// checks their slots.
		wantDomains map[int]string
		wantPlan    Plan
		wantFail    *placement.Failure
	}{
		{
			name:    "one slice per pool",
			slices:  []*sliceB{slice(0, 2), slice(1, 2), slice(2, 2)},
			domains: []*poolB{pool("p1", 2), pool("p2", 2), pool("p3", 2)},
			wantPlan: Plan{
				0: in("p1", slot("p1-0", 0, 1), slot("p1-1", 0, 1)),
				1: in("p2", slot("p2-0", 0, 1), slot("p2-1", 0, 1)),
				2: in("p3", slot("p3-0", 0, 1), slot("p3-1", 0, 1)),
			},
		},
		{
			name:        "unavailable domains are not used",
			slices:      []*sliceB{slice(0, 2), slice(1, 2)},
			domains:     []*poolB{pool("p1", 2).unavailable("held by other"), pool("p2", 2), pool("p3", 2)},
			wantDomains: map[int]string{0: "p2", 1: "p3"},
		},
		{
			name:     "not enough free domains: wait, with counts",
			slices:   []*sliceB{slice(0, 2), slice(1, 2)},
			domains:  []*poolB{pool("p1", 2).unavailable("held by other"), pool("p2", 2).unavailable("reserved for other"), pool("p3", 2)},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (3 exist, 1 free)"},
		},
		{
			name:     "identical slices share one waiting message",
			slices:   []*sliceB{slice(0, 2), slice(1, 2), slice(2, 2)},
			domains:  []*poolB{pool("p1", 2).unavailable("held by other"), pool("p2", 2).unavailable("held by other"), pool("p3", 2)},
			wantFail: &placement.Failure{Message: "waiting for 2 more domains matching gke-tpu-topology=2x4 (3 exist, 1 free)"},
		},
		{
			name:     "partly used domain is not free enough",
			slices:   []*sliceB{slice(0, 2)},
			domains:  []*poolB{pool("p1", 2).freeChips(2)},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (1 exist, 0 free)"},
		},
		{
			name:     "rejected domains are named in the waiting message",
			slices:   []*sliceB{slice(0, 2), slice(1, 2)},
			domains:  []*poolB{pool("p1", 2).unavailable(rejected), pool("p2", 2).unavailable("held by other"), pool("p3", 2)},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (3 exist, 1 free); p1 " + rejected},
		},
		{
			name:   "at most three rejected domains are named",
			slices: []*sliceB{slice(0, 2), slice(1, 2)},
			domains: []*poolB{
				pool("r5", 2).unavailable(rejected), pool("r4", 2).unavailable(rejected), pool("r3", 2).unavailable(rejected),
				pool("r2", 2).unavailable(rejected), pool("r1", 2).unavailable(rejected), pool("p0", 2),
			},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (6 exist, 1 free); r1 " + rejected +
				", r2 " + rejected + ", r3 " + rejected + ", and 2 more"},
		},
		{
			name:     "best fit keeps the large domain whole",
			slices:   []*sliceB{slice(0, 2)},
			domains:  []*poolB{pool("big", 4), pool("small", 2)},
			wantPlan: Plan{0: in("small", slot("small-0", 0, 1), slot("small-1", 0, 1))},
		},
		{
			name:        "best fit never costs a slice its only domain",
			slices:      []*sliceB{slice(0, 2), slice(1, 4)},
			domains:     []*poolB{pool("big", 4), pool("small", 2)},
			wantDomains: map[int]string{0: "small", 1: "big"},
		},
		{
			// Slice 0 fits "a" best, but "a" is slice 1's only choice: the
			// matching moves slice 0 to its looser fit.
			name:        "best fit yields to a slice with a single choice",
			slices:      []*sliceB{slice(0, 2), slice(1, 2).only("a-0", "a-1")},
			domains:     []*poolB{pool("a", 2), pool("b", 3)},
			wantDomains: map[int]string{0: "b", 1: "a"},
		},
		{
			name: "constrained slices are matched first",
			slices: []*sliceB{
				slice(0, 1).only("a-0", "b-0"),
				slice(1, 1).only("a-0"),
			},
			domains:     []*poolB{pool("a", 1), pool("b", 1)},
			wantDomains: map[int]string{0: "b", 1: "a"},
		},
		{
			// p0 has more nodes but only one that qualifies; p2 qualifies
			// whole but p1 is the tighter fit among qualifying nodes.
			name:     "only qualifying nodes are used",
			slices:   []*sliceB{slice(0, 2).only("p0-0", "p1-1", "p1-3", "p2-0", "p2-1", "p2-2", "p2-3")},
			domains:  []*poolB{pool("p0", 4), pool("p1", 4), pool("p2", 4)},
			wantPlan: Plan{0: in("p1", slot("p1-1", 0, 1), slot("p1-3", 0, 1))},
		},
		{
			name:     "a domain with too few qualifying nodes is never chosen",
			slices:   []*sliceB{slice(0, 2).only("p0-0", "p1-3")},
			domains:  []*poolB{pool("p0", 4), pool("p1", 4)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "a slice of 2 pods (google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=2x4 (the largest holds 1 such pods)"},
		},
		{
			name:     "slice larger than every domain is unresolvable",
			slices:   []*sliceB{slice(0, 3)},
			domains:  []*poolB{pool("p1", 2), pool("p2", 2)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "a slice of 3 pods (google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=2x4 (the largest holds 2 such pods)"},
		},
		{
			name:     "more slices than domains is unresolvable",
			slices:   []*sliceB{slice(0, 2), slice(1, 2), slice(2, 2)},
			domains:  []*poolB{pool("p1", 2).freeChips(0).unavailable("held by x"), pool("p2", 2)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "3 slices need 3 domains matching gke-tpu-topology=2x4, only 2 exist"},
		},
		{
			name:    "each kind of slice gets its own unresolvable message",
			slices:  []*sliceB{slice(0, 2), slice(1, 2), slice(2, 2), slice(3, 3)},
			domains: []*poolB{pool("p1", 2), pool("p2", 2)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "3 slices need 3 domains matching gke-tpu-topology=2x4, only 2 exist; " +
				"a slice of 3 pods (google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=2x4 (the largest holds 2 such pods)"},
		},
		{
			name:     "unusable nodes shrink a domain now, not forever",
			slices:   []*sliceB{slice(0, 2)},
			domains:  []*poolB{pool("p1", 2).notReady(1)},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (1 exist, 0 free)"},
		},
		{
			name:     "unusable nodes are skipped",
			slices:   []*sliceB{slice(0, 2)},
			domains:  []*poolB{pool("p1", 3).notReady(0)},
			wantPlan: Plan{0: in("p1", slot("p1-1", 0, 1), slot("p1-2", 0, 1))},
		},
		{
			name:     "no qualifying node at all",
			slices:   []*sliceB{slice(0, 1).only().describe("gke-tpu-topology=8x8")},
			domains:  []*poolB{pool("p1", 2)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "a slice of 1 pods (google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=8x8 (the largest holds 0 such pods)"},
		},
		{
			name:        "fixed slice keeps its domain",
			slices:      []*sliceB{slice(0, 2), slice(1, 2).fixed("p1")},
			domains:     []*poolB{pool("p1", 2), pool("p3", 2)},
			wantDomains: map[int]string{0: "p3", 1: "p1"},
		},
		{
			name:    "fixed slice needs room only for the pods it still has to place",
			slices:  []*sliceB{slice(0, 0).fixed("p1"), slice(1, 2)},
			domains: []*poolB{pool("p1", 2).freeChips(0), pool("p2", 2)},
			wantPlan: Plan{
				0: in("p1"),
				1: in("p2", slot("p2-0", 0, 1), slot("p2-1", 0, 1)),
			},
		},
		{
			name:     "fixed slice whose domain is unavailable waits",
			slices:   []*sliceB{slice(0, 1).fixed("p1")},
			domains:  []*poolB{pool("p1", 2).unavailable("held by other"), pool("p2", 2)},
			wantFail: &placement.Failure{Message: "waiting for 1 more domains matching gke-tpu-topology=2x4 (1 exist, 0 free)"},
		},
		{
			// TPU workers go first, one per host; the launcher then takes
			// CPU on the first host.
			name:    "heterogeneous slice: workers first, launcher after",
			slices:  []*sliceB{slice(0, 4).withLauncher()},
			domains: []*poolB{pool("p1", 4)},
			wantPlan: Plan{0: in("p1",
				slot("p1-0", 1, 1), slot("p1-1", 1, 1), slot("p1-2", 1, 1), slot("p1-3", 1, 1),
				slot("p1-0", 0, 1))},
		},
		{
			name:    "heterogeneous slice: launcher goes where CPU is free",
			slices:  []*sliceB{slice(0, 4).withLauncher()},
			domains: []*poolB{pool("p1", 4).freeOn(0, cpu, 500)},
			wantPlan: Plan{0: in("p1",
				slot("p1-0", 1, 1), slot("p1-1", 1, 1), slot("p1-2", 1, 1), slot("p1-3", 1, 1),
				slot("p1-1", 0, 1))},
		},
		{
			name:   "heterogeneous slice: a domain with no CPU left is skipped",
			slices: []*sliceB{slice(0, 4).withLauncher()},
			domains: []*poolB{
				pool("p1", 4).freeOn(0, cpu, 0).freeOn(1, cpu, 0).freeOn(2, cpu, 0).freeOn(3, cpu, 0),
				pool("p2", 5),
			},
			wantPlan: Plan{0: in("p2",
				slot("p2-0", 1, 1), slot("p2-1", 1, 1), slot("p2-2", 1, 1), slot("p2-3", 1, 1),
				slot("p2-0", 0, 1))},
		},
		{
			// A big CPU launcher still goes after workers that ask for more
			// kinds of resource.
			name: "heterogeneous slice: more kinds of resource go first",
			slices: []*sliceB{{s: SliceDemand{Index: 0, Describe: topo2x4, Shapes: []Shape{
				{Count: 1, Request: workload.Resources{cpu: 6000, podsRes: 1000}, Sig: "launcher6"},
				{Count: 2, Request: workload.Resources{tpu: 4000, cpu: 1000, podsRes: 1000}, Sig: "worker+cpu"},
			}}}},
			domains:  []*poolB{pool("p1", 2)},
			wantPlan: Plan{0: in("p1", slot("p1-0", 1, 1), slot("p1-1", 1, 1), slot("p1-0", 0, 1))},
		},
		{
			name:     "heterogeneous slice: the hint counts the largest shape",
			slices:   []*sliceB{slice(0, 5).withLauncher()},
			domains:  []*poolB{pool("p1", 4), pool("p2", 3)},
			wantFail: &placement.Failure{Unresolvable: true, Message: "a slice of 6 pods (cpu=1 each; google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=2x4 (the largest holds 4 such pods)"},
		},
		{
			name:        "no slices, empty plan",
			domains:     []*poolB{pool("p1", 2)},
			wantDomains: map[int]string{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sl, domains := buildSlices(tc.slices), buildDomains(tc.domains)
			before := copyDomains(domains)
			plan, fail := MakePlan(Request{Slices: sl}, domains)
			if diff := cmp.Diff(before, domains); diff != "" {
				t.Errorf("MakePlan changed its input domains (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantFail, fail); diff != "" {
				t.Fatalf("failure (-want +got):\n%s", diff)
			}
			if fail != nil {
				if plan != nil {
					t.Errorf("failure came with a plan: %v", plan)
				}
				return
			}
			checkPlan(t, sl, domains, plan)
			if tc.wantPlan != nil {
				if diff := cmp.Diff(tc.wantPlan, plan); diff != "" {
					t.Errorf("plan (-want +got):\n%s", diff)
				}
			}
			if tc.wantDomains != nil {
				if diff := cmp.Diff(tc.wantDomains, domainsOf(plan)); diff != "" {
					t.Errorf("domains (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// randomDomains builds n domains of 1 to 4 hosts with random free chips,
// unusable nodes and unavailable domains, plus whole free 4-host domains.
func randomDomains(r *rand.Rand, n, whole int) []Domain {
	var out []Domain
	for i := range n {
		b := pool(fmt.Sprintf("r%03d", i), 1+r.IntN(4))
		for j := range b.d.Nodes {
			b.freeOn(j, tpu, int64(r.IntN(5))*1000)
			b.freeOn(j, cpu, int64(r.IntN(3))*1000)
			if r.IntN(10) == 0 {
				b.notReady(j)
			}
		}
		if r.IntN(5) == 0 {
			b.unavailable("held by other")
		}
		out = append(out, b.build())
	}
	for i := range whole {
		out = append(out, pool(fmt.Sprintf("w%03d", i), 4).build())
	}
	r.Shuffle(len(out), func(a, b int) { out[a], out[b] = out[b], out[a] })
	return out
}

// Slices of several kinds over random domains: whenever enough whole
// domains exist the plan succeeds and keeps every promise.
func TestMakePlanInvariantsRandomDomains(t *testing.T) {
	for _, size := range []int{1, 4, 64, 250} {
		for seed := range uint64(3) {
			t.Run(fmt.Sprintf("%d slices seed %d", size, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, uint64(size)))
				domains := randomDomains(r, size*2, size)
				var sl []SliceDemand
				for i := range size {
					b := slice(i, 1+r.IntN(3))
					if r.IntN(3) == 0 {
						b.withLauncher()
					}
					sl = append(sl, b.build())
				}
				plan, fail := MakePlan(Request{Slices: sl}, domains)
				if fail != nil {
					t.Fatalf("no plan: %v", fail)
				}
				checkPlan(t, sl, domains, plan)
			})
		}
	}
}

// Identical slices over random domains, against an independent count of
// the domains that fit: a plan exists iff enough fit now, and waiting is
// hopeless iff too few could ever fit.
func TestMakePlanIdenticalSlicesAgreeWithCount(t *testing.T) {
	fits := func(d Domain, pods int, now bool) bool {
		if now && d.Unavailable != "" {
			return false
		}
		n := 0
		for _, node := range d.Nodes {
			switch {
			case !now:
				n += int(node.Allocatable[tpu] / 4000)
			case node.Usable:
				n += int(node.Free[tpu] / 4000)
			}
		}
		return n >= pods
	}
	for _, size := range []int{1, 4, 64, 250} {
		for seed := range uint64(5) {
			t.Run(fmt.Sprintf("%d slices seed %d", size, seed), func(t *testing.T) {
				r := rand.New(rand.NewPCG(seed, uint64(size)+1000))
				domains := randomDomains(r, size+r.IntN(size+1), 0)
				pods := 1 + r.IntN(4)
				var sl []SliceDemand
				for i := range size {
					sl = append(sl, slice(i, pods).build())
				}
				ever, now := 0, 0
				for _, d := range domains {
					if fits(d, pods, false) {
						ever++
					}
					if fits(d, pods, true) {
						now++
					}
				}
				plan, fail := MakePlan(Request{Slices: sl}, domains)
				var want *placement.Failure
				switch {
				case ever < size && ever == 0:
					want = &placement.Failure{Unresolvable: true, Message: fmt.Sprintf(
						"a slice of %d pods (google.com/tpu=4 each) fits in no domain matching %s (the largest holds %d such pods)", pods, topo2x4, largest(domains))}
				case ever < size:
					want = &placement.Failure{Unresolvable: true, Message: fmt.Sprintf("%d slices need %d domains matching %s, only %d exist", size, size, topo2x4, ever)}
				case now < size:
					want = &placement.Failure{Message: fmt.Sprintf("waiting for %d more domains matching %s (%d exist, %d free)", size-now, topo2x4, ever, now)}
				}
				if diff := cmp.Diff(want, fail); diff != "" {
					t.Fatalf("failure (-want +got):\n%s", diff)
				}
				if fail == nil {
					checkPlan(t, sl, domains, plan)
				}
			})
		}
	}
}

// largest is how many workers the largest domain could ever hold.
func largest(domains []Domain) int {
	m := 0
	for _, d := range domains {
		n := 0
		for _, node := range d.Nodes {
			n += int(node.Allocatable[tpu] / 4000)
		}
		m = max(m, n)
	}
	return m
}

// Identical slices test each domain once, however many there are: n
// slices filling whole pools test the first n pools, each once.
func TestMakePlanIdenticalSlicesShareFitWork(t *testing.T) {
	calls := func(n int) int {
		count := 0
		var sl []SliceDemand
		for i := range n {
			sl = append(sl, slice(i, 4).qualifies("counted", func(string) bool { count++; return true }).build())
		}
		domains := make([]Domain, 0, 512)
		for i := range 512 {
			domains = append(domains, pool(fmt.Sprintf("p%03d", i), 4).build())
		}
		plan, fail := MakePlan(Request{Slices: sl}, domains)
		if fail != nil {
			t.Fatalf("%d slices: %v", n, fail)
		}
		planned := count
		checkPlan(t, sl, domains, plan)
		return planned
	}
	one, many := calls(1), calls(512)
	if many != 512*one {
		t.Errorf("Qualifies called %d times for 1 slice, %d for 512 identical slices; want %d (each of 512 pools tested once)", one, many, 512*one)
	}
}

// Identical slices stop testing domains once as many fill a domain
// perfectly as there are slices; otherwise every domain is tested.
func TestMakePlanStopsAtEnoughPerfectFits(t *testing.T) {
	pools := func(n, nodes int) []Domain {
		var out []Domain
		for i := range n {
			out = append(out, pool(fmt.Sprintf("p%03d", i), nodes).build())
		}
		return out
	}
	tests := []struct {
		name    string
		slices  []*sliceB
		domains []Domain
		tested  int // domains tested
		want    []string
	}{
		{
			name:    "slices filling whole pools: the first free ones",
			slices:  []*sliceB{slice(0, 2), slice(1, 2), slice(2, 2)},
			domains: append([]Domain{pool("a-held", 2).unavailable("held by x").build()}, pools(64, 2)...),
			tested:  4, want: []string{"p000", "p001", "p002"},
		},
		{
			name:    "slices leaving room in every pool: all tested, tightest first",
			slices:  []*sliceB{slice(0, 2), slice(1, 2)},
			domains: append(pools(16, 4), pool("q-small", 2).build()),
			tested:  17, want: []string{"q-small", "p000"},
		},
		{
			name:    "a kept pool: all tested, the kept one first",
			slices:  []*sliceB{slice(0, 2), slice(1, 2)},
			domains: append(pools(16, 2), Domain{Name: "z-kept", Kept: true, Nodes: pool("z-kept", 2).build().Nodes}),
			tested:  17, want: []string{"z-kept", "p000"},
		},
		{
			name:    "slices of two kinds: all tested",
			slices:  []*sliceB{slice(0, 2), slice(1, 2).withLauncher()},
			domains: pools(16, 3),
			tested:  16, want: []string{"p000", "p001"},
		},
		{
			name:    "a pinned slice and one not: all tested",
			slices:  []*sliceB{slice(0, 2).fixed("p009"), slice(1, 2)},
			domains: pools(16, 2),
			tested:  16, want: []string{"p009", "p000"},
		},
		{
			name:    "domains out of name order: all tested",
			slices:  []*sliceB{slice(0, 2)},
			domains: append(pools(8, 2), pool("a-last", 2).build()),
			tested:  9, want: []string{"a-last"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tested := map[string]bool{}
			for _, b := range tc.slices {
				b.qualifies("counted", func(node string) bool {
					tested[node[:strings.LastIndex(node, "-")]] = true
					return true
				})
			}
			sl := buildSlices(tc.slices)
			plan, fail := MakePlan(Request{Slices: sl}, tc.domains)
			if fail != nil {
				t.Fatal(fail)
			}
			checkPlan(t, sl, tc.domains, plan)
			var got []string
			for i := range sl {
				got = append(got, plan[i].Domain)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("planned on %v, want %v", got, tc.want)
			}
			if len(tested) != tc.tested {
				t.Errorf("%d domains tested, want %d", len(tested), tc.tested)
			}
		})
	}
}

// Stopping at enough perfect fits changes no plan and no failure: random
// requests of identical slices are planned as when every domain is tested
// (a trailing unusable domain out of name order turns the stop off).
func TestMakePlanStopSameAsFullSearch(t *testing.T) {
	for seed := range uint64(200) {
		r := rand.New(rand.NewPCG(seed, 7))
		var domains []Domain
		for i := range 4 + r.IntN(60) {
			b := pool(fmt.Sprintf("p%03d", i), 1+r.IntN(4))
			for j := range b.d.Nodes {
				if r.IntN(3) == 0 {
					b.freeOn(j, tpu, int64(r.IntN(4))*1000)
				}
				if r.IntN(12) == 0 {
					b.notReady(j)
				}
				if r.IntN(15) == 0 {
					b.d.Nodes[j].EndsAt = t0.Add(time.Hour)
				}
			}
			if r.IntN(4) == 0 {
				b.unavailable("held by other")
			}
			domains = append(domains, b.build())
		}
		var sl []SliceDemand
		workers := 1 + r.IntN(4)
		for i := range 1 + r.IntN(8) {
			sl = append(sl, slice(i, workers).build())
		}
		req := Request{Slices: sl, Until: t0.Add(2 * time.Hour)}
		plan, fail := MakePlan(req, domains)
		full := append(slices.Clone(domains), Domain{Name: "!", Unavailable: "out of order"})
		wantPlan, wantFail := MakePlan(req, full)
		if diff := cmp.Diff(wantPlan, plan); diff != "" {
			t.Errorf("seed %d: plan differs from the full search (-full +stopped):\n%s", seed, diff)
		}
		if (fail == nil) != (wantFail == nil) || (fail != nil && fail.Message != wantFail.Message) {
			t.Errorf("seed %d: failure %v, full search %v", seed, fail, wantFail)
		}
	}
}

func BenchmarkMakePlan512Slices(b *testing.B) {
	domains := make([]Domain, 0, 512)
	for i := range 512 {
		domains = append(domains, pool(fmt.Sprintf("p%03d", i), 4).build())
	}
	sl := make([]SliceDemand, 0, 512)
	for i := range 512 {
		sl = append(sl, slice(i, 4).build())
	}
	req := Request{Slices: sl}
	b.ReportAllocs()
	for b.Loop() {
		if _, fail := MakePlan(req, domains); fail != nil {
			b.Fatal(fail)
		}
	}
}

// cpuHost is a node with milli CPUs allocatable, free of them.
func cpuHost(name string, milli, free int64) Node {
	return Node{
		Name:        name,
		Allocatable: workload.Resources{cpu: milli, podsRes: 110000},
		Free:        workload.Resources{cpu: free, podsRes: 110000},
		Usable:      true,
	}
}

func TestPlaceUnconfined(t *testing.T) {
	twoHosts := func() []Node { return []Node{cpuHost("n0", 4000, 4000), cpuHost("n1", 4000, 4000)} }
	cases := []struct {
		name     string
		slices   []*sliceB
		nodes    []Node
		want     Plan
		wantFail *placement.Failure
	}{
		{
			name:   "the second slice gets only what the first left",
			slices: []*sliceB{cpuSlice(0, 3, 2000), cpuSlice(1, 1, 2000)},
			nodes:  twoHosts(),
			want: Plan{
				0: {Slots: []placement.Slot{slot("n0", 0, 2), slot("n1", 0, 1)}},
				1: {Slots: []placement.Slot{slot("n1", 0, 1)}},
			},
		},
		{
			name:     "the second slice waits for room the first took",
			slices:   []*sliceB{cpuSlice(0, 3, 2000), cpuSlice(1, 2, 2000)},
			nodes:    twoHosts(),
			wantFail: &placement.Failure{Message: "waiting for room for 2 pods (cpu=2 each) on nodes matching any node"},
		},
		{
			name:     "a slice too large for every node together is unresolvable",
			slices:   []*sliceB{cpuSlice(0, 3, 2000), cpuSlice(1, 5, 2000)},
			nodes:    twoHosts(),
			wantFail: &placement.Failure{Unresolvable: true, Message: "5 pods (cpu=2 each) can never fit on the nodes matching any node together"},
		},
		{
			name:     "used capacity makes a slice wait, named by its selector",
			slices:   []*sliceB{cpuSlice(0, 2, 2000).describe("cloud.google.com/gke-nodepool=cpu")},
			nodes:    []Node{cpuHost("n0", 4000, 1000), cpuHost("n1", 4000, 3000)},
			wantFail: &placement.Failure{Message: "waiting for room for 2 pods (cpu=2 each) on nodes matching cloud.google.com/gke-nodepool=cpu"},
		},
		{
			name:   "unusable nodes are skipped",
			slices: []*sliceB{cpuSlice(0, 2, 2000)},
			nodes: func() []Node {
				n := twoHosts()
				n[0].Usable = false
				return n
			}(),
			want: Plan{0: {Slots: []placement.Slot{slot("n1", 0, 2)}}},
		},
		{
			name:   "only qualifying nodes are used",
			slices: []*sliceB{cpuSlice(0, 1, 2000).only("n1")},
			nodes:  twoHosts(),
			want:   Plan{0: {Slots: []placement.Slot{slot("n1", 0, 1)}}},
		},
		{
			name:   "heterogeneous slice: workers first, launcher after",
			slices: []*sliceB{slice(0, 2).withLauncher()},
			nodes:  pool("p", 2).build().Nodes,
			want:   Plan{0: {Slots: []placement.Slot{slot("p-0", 1, 1), slot("p-1", 1, 1), slot("p-0", 0, 1)}}},
		},
		{
			name:  "no slices",
			nodes: twoHosts(),
			want:  Plan{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			sl := buildSlices(tc.slices)
			before := copyNodes(tc.nodes)
			plan, fail := PlaceUnconfined(sl, tc.nodes, time.Time{})
			if diff := cmp.Diff(before, tc.nodes); diff != "" {
				t.Errorf("PlaceUnconfined changed its input nodes (-before +after):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantFail, fail); diff != "" {
				t.Fatalf("failure (-want +got):\n%s", diff)
			}
			if fail != nil {
				return
			}
			checkSlots(t, sl, tc.nodes, plan)
			if diff := cmp.Diff(tc.want, plan); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
		})
	}
}
