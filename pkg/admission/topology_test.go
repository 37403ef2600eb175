package admission_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const (
	block    = wellknown.GCETopologyBlockLabel
	subblock = wellknown.GCETopologySubblockLabel
)

// gpuFleet adds blocks × subblocks × hosts nodes of 8 GPUs, named
// b<i>-s<j>-h<k> and labelled as GKE labels them, in node group "gpu".
func (s *snap) gpuFleet(blocks, subblocks, hosts int) *snap {
	for b := range blocks {
		for sb := range subblocks {
			for h := range hosts {
				name := fmt.Sprintf("b%d-s%d-h%d", b, sb, h)
				s.add(builders.Node(name).GPU("nvidia-h100-80gb", 8).
					Label(corev1.LabelHostname, name).Label("node-group", "gpu").
					Label(block, fmt.Sprintf("b%d", b)).Label(subblock, fmt.Sprintf("s%d", sb)).
					Label(wellknown.GCETopologyHostLabel, name).Obj())
			}
		}
	}
	return s
}

// gpus takes GPUs from a node's free room.
func (s *snap) gpus(node string, n int64) *snap {
	s.sn.Nodes[node].Free[wellknown.ResourceGPU] -= n * 1000
	return s
}

// gpuQueue makes the workload wait for admission through a ClusterQueue
// of nvidia.com/gpu over flavor f, with room for every pod.
func (s *snap) gpuQueue(f *quota.Flavor) *snap {
	b := quota.NewBook()
	b.SetFlavor(f)
	cq := &quota.ClusterQueue{Name: "cq", FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceGPU}, Flavors: []string{f.Name}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: f.Name, Resource: wellknown.ResourceGPU}: {Nominal: 10000 * 1000}}}
	b.SetClusterQueue(cq)
	var needs []quota.Need
	for _, sl := range s.sn.Self.Model.Slices {
		needs = append(needs, quota.Need{Slice: sl.Index, Count: int64(sl.Pods), Request: sl.Request})
	}
	s.sn.Quota = &state.QuotaDecision{ClusterQueue: cq, View: b.View(), Needs: needs}
	return s
}

// gpuFlavor is a flavor of the "gpu" node group arranged by block,
// subblock and host.
func gpuFlavor() *quota.Flavor {
	return &quota.Flavor{Name: "gpu", NodeLabels: map[string]string{"node-group": "gpu"},
		Topology: "gke", TopologyLevels: []string{block, subblock, corev1.LabelHostname}}
}

// gpuPod asks for 2 GPUs: four fit on a node.
func gpuPod() *builders.PodBuilder { return spec().Request(wellknown.ResourceGPU, "2") }

// topoModel is a JobSet of n Jobs of pods pods, all one pod set asking r.
func topoModel(n, pods int, r workload.TopologyRequest) *workload.Workload {
	w := jobSetModel("a").slices(n, pods, "", 0, gpuPod()).obj()
	for i := range w.Slices {
		w.Slices[i].ReplicatedJob = "workers"
		w.Slices[i].Topology = &r
	}
	return w
}

// onNodes is where a slice's pods go, node → pods, with the labels its
// reservation pins.
type onNodes struct {
	Pods   map[string]int
	Labels map[string]string
}

func TestPlanTopology(t *testing.T) {
	required := func(level string) workload.TopologyRequest {
		return workload.TopologyRequest{Mode: workload.TopologyRequired, Level: level}
	}
	preferred := func(level string) workload.TopologyRequest {
		return workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: level}
	}
	withSlices := func(r workload.TopologyRequest, level string, size int32) workload.TopologyRequest {
		r.SliceLevel, r.SliceSize = level, size
		return r
	}
	// every node of subblock b/s holding four pods.
	whole := func(b, s string) map[string]int {
		out := map[string]int{}
		for h := range 4 {
			out[fmt.Sprintf("%s-%s-h%d", b, s, h)] = 4
		}
		return out
	}
	in := func(b, s string) map[string]string {
		l := map[string]string{"node-group": "gpu", block: b}
		if s != "" {
			l[subblock] = s
		}
		return l
	}
	sub16 := topoModel(1, 16, required(subblock))
	type topoCase struct {
		w        *workload.Workload
		sn       func(*snap) *snap
		flavor   *quota.Flavor
		want     map[int]onNodes
		wantFail string
		// unresolvable: no change in other workloads helps.
		unresolvable bool
	}
	cases := map[string]topoCase{
		"a required subblock: the pod set fills one": {
			w:    sub16,
			want: map[int]onNodes{0: {Pods: whole("b0", "s0"), Labels: in("b0", "s0")}},
		},
		"the tightest subblock that holds the pod set, keeping whole ones whole": {
			w: topoModel(1, 8, required(subblock)),
			sn: func(s *snap) *snap {
				return s.gpus("b1-s1-h0", 8).gpus("b1-s1-h1", 8)
			},
			want: map[int]onNodes{0: {Pods: map[string]int{"b1-s1-h2": 4, "b1-s1-h3": 4}, Labels: in("b1", "s1")}},
		},
		"a subblock with a used GPU is passed over for one that holds all": {
			w:    sub16,
			sn:   func(s *snap) *snap { return s.gpus("b0-s0-h0", 1) },
			want: map[int]onNodes{0: {Pods: whole("b0", "s1"), Labels: in("b0", "s1")}},
		},
		"a required subblock no subblock will ever hold, saying the largest": {
			w:            topoModel(1, 17, required(subblock)),
			wantFail:     "pod set workers: needs 17 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 16 (4 tried); each pod asks for 2 nvidia.com/gpu",
			unresolvable: true,
		},
		"a required subblock none holds now waits for room": {
			w: topoModel(1, 16, required(subblock)),
			sn: func(s *snap) *snap {
				for _, n := range []string{"b0-s0-h0", "b0-s1-h0", "b1-s0-h0", "b1-s1-h0"} {
					s.gpus(n, 2)
				}
				return s
			},
			wantFail: "needs 16 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 15 (4 tried)",
		},
		"a preferred subblock climbs to a block when no subblock holds it": {
			w: topoModel(1, 24, preferred(subblock)),
			want: map[int]onNodes{0: {Pods: func() map[string]int {
				m := whole("b0", "s0")
				maps.Copy(m, map[string]int{"b0-s1-h0": 4, "b0-s1-h1": 4})
				return m
			}(), Labels: in("b0", "")}},
		},
		"slices of a required block, each in one subblock": {
			w: topoModel(2, 16, withSlices(required(block), subblock, 16)),
			want: map[int]onNodes{
				0: {Pods: whole("b0", "s0"), Labels: in("b0", "s0")},
				1: {Pods: whole("b0", "s1"), Labels: in("b0", "s1")},
			},
		},
		"nodes reserved for another workload or not taking pods are left out": {
			w: sub16,
			sn: func(s *snap) *snap {
				s.sn.Nodes["b0-s0-h1"].Reserved = true
				s.sn.Nodes["b0-s1-h2"].Node.Usable = false
				return s
			},
			want: map[int]onNodes{0: {Pods: whole("b1", "s0"), Labels: in("b1", "s0")}},
		},
		"a flavor that names no topology": {
			w:            sub16,
			flavor:       &quota.Flavor{Name: "plain", NodeLabels: map[string]string{"node-group": "gpu"}},
			wantFail:     "pod set workers asks for a topology (required cloud.google.com/gce-topology-subblock), but ResourceFlavor plain it is charged to names none",
			unresolvable: true,
		},
		"a flavor whose topology does not exist": {
			w:            sub16,
			flavor:       &quota.Flavor{Name: "gpu", NodeLabels: map[string]string{"node-group": "gpu"}, Topology: "missing"},
			wantFail:     `pod set workers: ResourceFlavor gpu names Topology "missing", which does not exist`,
			unresolvable: true,
		},
		"a level the flavor's topology lacks names the annotation": {
			w:            topoModel(1, 4, required("example.com/rack")),
			wantFail:     "pod set workers: annotation kueue.x-k8s.io/podset-required-topology: \"example.com/rack\" is not a level of the topology",
			unresolvable: true,
		},
	}
	// Slice 1 of a pod set whose slice 0 runs in b1/s1 joins it there,
	// though b0/s0 fits it tighter.
	partly := topoModel(2, 4, required(subblock))
	partlyMembers := all(partly, gpuPod())
	for i, m := range partlyMembers[:4] {
		m.Node = fmt.Sprintf("b1-s1-h%d", i)
	}
	cases["a pod set partly placed: the rest joins its required domain"] = topoCase{
		w: partly,
		sn: func(s *snap) *snap {
			s = s.self(partly, partlyMembers...).active(1)
			for i := range 4 {
				s.gpus(fmt.Sprintf("b1-s1-h%d", i), 2)
				// b0/s0 is the tightest subblock that holds 4 pods.
				s.gpus(fmt.Sprintf("b0-s0-h%d", i), 4)
			}
			return s
		},
		want: map[int]onNodes{1: {Pods: map[string]int{"b1-s1-h0": 3, "b1-s1-h1": 1}, Labels: in("b1", "s1")}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			s := snapshot().gpuFleet(2, 2, 4).self(tc.w, all(tc.w, gpuPod())...)
			if tc.sn != nil {
				s = tc.sn(s)
			}
			f := tc.flavor
			if f == nil {
				f = gpuFlavor()
			}
			s.gpuQueue(f)
			r, fail := admission.Plan(s.sn)
			if tc.wantFail != "" {
				if fail == nil {
					t.Fatalf("planned %+v, want failure %q", r, tc.wantFail)
				}
				if !strings.Contains(fail.Message, tc.wantFail) || fail.Unresolvable != tc.unresolvable {
					t.Fatalf("failure %q (unresolvable %v), want %q (unresolvable %v)", fail.Message, fail.Unresolvable, tc.wantFail, tc.unresolvable)
				}
				return
			}
			if fail != nil {
				t.Fatalf("failed: %s", fail.Message)
			}
			got := map[int]onNodes{}
			for i, sr := range r.Slices {
				on := onNodes{Pods: map[string]int{}, Labels: sr.NodeLabels}
				if sr.DomainKey != "" {
					t.Errorf("slice %d confined to %s=%s; a topology slice shares its domains", i, sr.DomainKey, sr.Domain)
				}
				for _, sl := range sr.Slots {
					on.Pods[sl.Node] += sl.Count
				}
				got[i] = on
			}
			if d := cmp.Diff(tc.want, got); d != "" {
				t.Errorf("placement (-want +got):\n%s", d)
			}
		})
	}
}

// Two pod sets of one workload share the fleet: the second is placed
// around what the first took, in the same plan.
func TestPlanTopologyPodSetsShareNodes(t *testing.T) {
	r := workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblock}
	w := jobSetModel("a").slices(2, 12, "", 0, gpuPod()).obj()
	for i := range w.Slices {
		w.Slices[i].ReplicatedJob = fmt.Sprintf("set-%d", i)
		w.Slices[i].Topology = &r
	}
	s := snapshot().gpuFleet(1, 2, 4).self(w, all(w, gpuPod())...).gpuQueue(gpuFlavor())
	res, fail := admission.Plan(s.sn)
	if fail != nil {
		t.Fatalf("failed: %s", fail.Message)
	}
	seen := map[string]int{}
	for i, sr := range res.Slices {
		sub := sr.NodeLabels[subblock]
		for _, sl := range sr.Slots {
			if !strings.Contains(sl.Node, "-"+sub+"-") {
				t.Errorf("slice %d has pods on %s, outside its subblock %s", i, sl.Node, sub)
			}
			seen[sl.Node] += sl.Count
		}
	}
	for node, n := range seen {
		if n > 4 {
			t.Errorf("%s takes %d pods of 2 GPUs; it has 8 GPUs", node, n)
		}
	}
	if got := slices.Sorted(maps.Keys(seen)); len(got) != 6 {
		t.Errorf("pods on %v, want 24 pods on 6 nodes", got)
	}
}

// A slice placed by topology keeps the placement's rank order: completion
// index i goes to the i-th pod's node, so consecutive pods share a host,
// then a subblock; a pod whose rank's room is gone may use the slice's
// other planned nodes.
func TestTopologyRankOrder(t *testing.T) {
	w := topoModel(1, 6, workload.TopologyRequest{Mode: workload.TopologyRequired, Level: block})
	members := all(w, gpuPod())
	// b0/s0 takes 4 pods (two on h0, two on h1; h2, h3 full), b0/s1 16.
	s := snapshot().gpuFleet(1, 2, 4).self(w, members...).gpuQueue(gpuFlavor()).
		gpus("b0-s0-h0", 4).gpus("b0-s0-h1", 4).gpus("b0-s0-h2", 8).gpus("b0-s0-h3", 8)
	r, fail := admission.Plan(s.sn)
	if fail != nil {
		t.Fatalf("failed: %s", fail.Message)
	}
	sr := r.Slices[0]
	// The block's share goes to its largest subblock first, which takes
	// it all; there, to the largest hosts first.
	if want := []string{"b0-s1-h0", "b0-s1-h0", "b0-s1-h0", "b0-s1-h0", "b0-s1-h1", "b0-s1-h1"}; !slices.Equal(sr.Ranks, want) {
		t.Errorf("ranks %v, want %v", sr.Ranks, want)
	}
	// Pods of one node are consecutive ranks, and every rank is a node
	// with room planned.
	seen := map[string]bool{}
	for i, n := range sr.Ranks {
		if i > 0 && sr.Ranks[i-1] != n && seen[n] {
			t.Errorf("ranks %v: node %s's pods are not consecutive", sr.Ranks, n)
		}
		seen[n] = true
	}
	if len(sr.Ranks) != 6 {
		t.Fatalf("ranks %v, want one per pod", sr.Ranks)
	}
	for i, m := range members {
		m.Member.Index = i
		if got := admission.ReservedNodes(r, m, nil); !slices.Equal(got, []string{sr.Ranks[i]}) {
			t.Errorf("pod %d may go to %v, want its rank's node %s", i, got, sr.Ranks[i])
		}
	}
	// The rank's room used up (another pod took it): the slice's other
	// planned nodes.
	for j := range sr.Slots {
		if sr.Slots[j].Node == sr.Ranks[0] {
			sr.Slots[j].Count = 0
		}
	}
	if got := admission.ReservedNodes(r, members[0], nil); slices.Contains(got, sr.Ranks[0]) || len(got) == 0 {
		t.Errorf("pod 0, its rank's room used, may go to %v, want the slice's other nodes", got)
	}
}
