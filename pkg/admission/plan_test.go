package admission_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const pool = wellknown.NodePoolLabel

// ---- pod specs ----

// spec starts the pod spec of a slice or member that asks for nothing.
func spec() *builders.PodBuilder { return builders.Pod("ns", "").NoRequests() }

// tpuSpec is a v5e worker asking for 4 chips.
func tpuSpec() *builders.PodBuilder {
	return spec().TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e)
}

// ---- workloads ----

type modelBuilder struct{ w *workload.Workload }

func jobSetModel(name string) *modelBuilder {
	return &modelBuilder{w: &workload.Workload{
		Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}, UID: types.UID(name + "-uid"), Groups: 1,
	}}
}

func podGroupModel(name string, minMember int) *modelBuilder {
	return &modelBuilder{w: &workload.Workload{
		Key: workload.Key{Source: workload.SourcePodGroup, Namespace: "ns", Name: name}, UID: types.UID(name + "-uid"), Groups: 1,
		Slices: []workload.Slice{{Name: name, Pods: minMember}},
	}}
}

// slices adds n slices of pods pods each, confined to domainKey ("" for
// none), in startup group group, created from template.
func (b *modelBuilder) slices(n, pods int, domainKey string, group int, template *builders.PodBuilder) *modelBuilder {
	for range n {
		i := len(b.w.Slices)
		spec := &template.Obj().Spec
		b.w.Slices = append(b.w.Slices, workload.Slice{
			Index: i, Name: fmt.Sprintf("%s-%d", b.w.Key.Name, i), Pods: pods,
			Request: workload.PodRequests(spec), Template: spec, DomainKey: domainKey, Group: group,
		})
		b.w.Groups = max(b.w.Groups, group+1)
	}
	return b
}

func (b *modelBuilder) obj() *workload.Workload { return b.w }

// ---- member pods ----

type memberBuilder struct{ p *state.Pod }

// member is pod index of slice of w, shaped by s.
func member(w *workload.Workload, slice, index int, s *builders.PodBuilder) *memberBuilder {
	name := fmt.Sprintf("%s-%d-%d", w.Key.Name, slice, index)
	spec := &s.Obj().Spec
	req := workload.PodRequests(spec)
	return &memberBuilder{p: &state.Pod{
		UID: types.UID(name), Namespace: w.Key.Namespace, Name: name, Gang: true,
		Member: workload.Member{Key: w.Key, Slice: slice, Leader: index == 0, HasIndex: w.Key.Source == workload.SourceJobSet, OwnerUID: w.UID},
		Spec:   spec, Request: req, RequestSig: req.String(),
	}}
}

func (b *memberBuilder) named(name string) *memberBuilder {
	b.p.Name, b.p.UID = name, types.UID(name)
	return b
}

func (b *memberBuilder) on(node string) *memberBuilder {
	b.p.Node = node
	return b
}

// all is every pod of every slice of w, pending, shaped by s.
func all(w *workload.Workload, s *builders.PodBuilder) []*state.Pod {
	var out []*state.Pod
	for i, sl := range w.Slices {
		for j := range sl.Pods {
			out = append(out, member(w, i, j, s).p)
		}
	}
	return out
}

// ---- snapshots ----

type snap struct{ sn *state.Snapshot }

func snapshot() *snap {
	return &snap{sn: &state.Snapshot{Nodes: map[string]*state.NodeView{}, Domains: map[string]map[string][]string{}, Workloads: map[workload.Key]*state.WorkloadView{}}}
}

// pool adds node pool name of n v5e 2x4 hosts with 4 chips and 8 CPUs
// each; edit changes the pool before its nodes are built.
func (s *snap) pool(name string, n int, edit ...func(*builders.NodePoolBuilder)) *snap {
	b := builders.NodePool(name).Nodes(n).TPU(builders.V5e, "2x4", 4)
	for _, e := range edit {
		e(b)
	}
	for _, node := range b.Build() {
		s.add(node)
	}
	return s
}

// cpuNode adds a node of no pool, with 8 CPUs and no chips.
func (s *snap) cpuNode(name string) *snap { return s.add(builders.Node(name).Obj()) }

func (s *snap) add(node *corev1.Node) *snap {
	alloc := workload.FromList(node.Status.Allocatable)
	free := workload.Resources{}
	for k, v := range alloc {
		free[k] = v
	}
	s.sn.Nodes[node.Name] = &state.NodeView{
		Node: &topology.Node{Name: node.Name, Obj: node, Allocatable: alloc, Usable: topology.Usable(node)},
		Free: free,
	}
	if v, ok := node.Labels[pool]; ok {
		if s.sn.Domains[pool] == nil {
			s.sn.Domains[pool] = map[string][]string{}
		}
		s.sn.Domains[pool][v] = append(s.sn.Domains[pool][v], node.Name)
		slices.Sort(s.sn.Domains[pool][v])
	}
	return s
}

// use takes chips from a node's free room.
func (s *snap) use(node string, chips int64) *snap {
	s.sn.Nodes[node].Free[wellknown.ResourceTPU] -= chips * 1000
	return s
}

func (s *snap) nodesOf(p string) []*state.NodeView {
	var out []*state.NodeView
	for _, n := range s.sn.Domains[pool][p] {
		out = append(out, s.sn.Nodes[n])
	}
	return out
}

// heldBy makes the pods of h hold every node of pool p.
func (s *snap) heldBy(p string, h workload.Holder) *snap {
	for _, n := range s.nodesOf(p) {
		if n.Holders == nil {
			n.Holders = map[workload.Holder]int{}
		}
		n.Holders[h]++
	}
	return s
}

func (s *snap) reservedBy(p string, k workload.Key) *snap {
	for _, n := range s.nodesOf(p) {
		n.Reserved, n.ReservedBy = true, k
	}
	return s
}

// self sets the workload to place, with its members; every slice is
// active unless active says otherwise.
func (s *snap) self(w *workload.Workload, members ...*state.Pod) *snap {
	v := &state.WorkloadView{
		Key: w.Key, Holder: workload.Holder{Key: w.Key, UID: w.UID}, Model: w,
		Members: slices.Clone(members), Rejected: map[topology.DomainRef]string{},
	}
	slices.SortFunc(v.Members, func(a, b *state.Pod) int { return strings.Compare(a.Name, b.Name) })
	for i := range w.Slices {
		v.Active = append(v.Active, i)
	}
	s.sn.Self = v
	s.sn.Workloads[w.Key] = v
	return s
}

func (s *snap) active(idx ...int) *snap {
	s.sn.Self.Active = idx
	return s
}

func (s *snap) staged() *snap {
	s.sn.Self.Staged = true
	return s
}

func (s *snap) rejected(d topology.DomainRef, why string) *snap {
	s.sn.Self.Rejected[d] = placement.RejectedPrefix + why
	return s
}

// sliceAt is what a test compares of a slice's reservation.
type sliceAt struct {
	Domain string
	Slots  []placement.Slot
}

func slot(node string, shape, count int) placement.Slot {
	return placement.Slot{Node: node, Shape: shape, Count: count}
}

// both is one 4-chip pod on each node of a two-node pool.
func both(p string) sliceAt {
	return sliceAt{Domain: p, Slots: []placement.Slot{slot(p+"-node-0", 0, 1), slot(p+"-node-1", 0, 1)}}
}

func other(name string) workload.Holder {
	return workload.Holder{Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}, UID: types.UID(name + "-uid")}
}

func TestPlan(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).obj()
	three := jobSetModel("a").slices(3, 2, pool, 0, tpuSpec()).obj()
	// init (group 0, 1 pod) then workers (group 1, 2 Jobs × 2 pods).
	grouped := jobSetModel("a").slices(1, 1, pool, 0, tpuSpec()).slices(2, 2, pool, 1, tpuSpec()).obj()
	pg := podGroupModel("pg", 3).obj()
	typo := jobSetModel("a").slices(2, 2, "example.com/no-such-pool", 0, tpuSpec()).obj()
	mixed := jobSetModel("a").slices(1, 2, pool, 0, tpuSpec()).slices(1, 2, "", 0, tpuSpec()).obj()
	taint := func(b *builders.NodePoolBuilder) {
		b.Taint(corev1.Taint{Key: "example.com/maintenance", Effect: corev1.TaintEffectNoSchedule})
	}
	cases := map[string]struct {
		sn               *snap
		want             map[int]sliceAt
		wantShapes       map[int][]string
		wantFail         string
		wantUnresolvable bool
	}{
		"unknown workload": {
			sn:       snapshot().pool("pool-1", 2),
			wantFail: "the workload is not known yet",
		},
		"an exclusive-topology key no node has is named": {
			sn:               snapshot().pool("pool-1", 2).self(typo, all(typo, tpuSpec())...),
			wantFail:         "no node carries the label example.com/no-such-pool that its exclusive topology names, so its 2 confined slice(s) have no domain at all: label the nodes of its node pools, or fix the exclusive-topology key",
			wantUnresolvable: true,
		},
		"each slice on its own free pool, tightest first": {
			sn:         snapshot().pool("big", 4).pool("pool-1", 2).pool("pool-2", 2).self(js, all(js, tpuSpec())...),
			want:       map[int]sliceAt{0: both("pool-1"), 1: both("pool-2")},
			wantShapes: map[int][]string{0: {"google.com/tpu=4"}, 1: {"google.com/tpu=4"}},
		},
		"a pool held by another workload": {
			sn:   snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).heldBy("pool-1", other("x")).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"a pool held by a deleted object of the same name": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).
				heldBy("pool-1", workload.Holder{Key: js.Key, UID: "a-old-uid"}).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"a pool reserved for another workload": {
			sn:   snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).reservedBy("pool-2", other("x").Key).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-1"), 1: both("pool-3")},
		},
		"a pool where the workload's pods were rejected": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).self(js, all(js, tpuSpec())...).
				rejected(topology.DomainRef{Key: pool, Value: "pool-1"}, "host port conflict"),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"the rejected pool was the only free one": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).heldBy("pool-2", other("x")).self(js, all(js, tpuSpec())...).
				rejected(topology.DomainRef{Key: pool, Value: "pool-1"}, "host port conflict"),
			wantFail: "waiting for 2 more domains matching gke-tpu-accelerator=tpu-v5-lite-podslice (2 exist, 0 free); " +
				"pool-1 rejected the slice's pods: host port conflict",
		},
		"fewer pools than slices": {
			sn:               snapshot().pool("pool-1", 2).pool("pool-2", 2).self(three, all(three, tpuSpec())...),
			wantFail:         "3 slices need 3 domains matching gke-tpu-accelerator=tpu-v5-lite-podslice, only 2 exist",
			wantUnresolvable: true,
		},
		"a pool with a used chip does not fit a slice now": {
			sn:   snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).use("pool-1-node-1", 1).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"a pool with a NotReady node does not fit a slice now": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).self(js, all(js, tpuSpec())...).
				do(func(s *snap) { s.sn.Nodes["pool-2-node-0"].Node.Usable = false }),
			want: map[int]sliceAt{0: both("pool-1"), 1: both("pool-3")},
		},
		"pools of another accelerator do not qualify": {
			sn: snapshot().pool("pool-1", 2, func(b *builders.NodePoolBuilder) { b.Label(wellknown.TPUAcceleratorLabel, "tpu-v5p-slice") }).
				pool("pool-2", 2).pool("pool-3", 2).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"untolerated taints disqualify": {
			sn:   snapshot().pool("pool-1", 2, taint).pool("pool-2", 2).pool("pool-3", 2).self(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("pool-2"), 1: both("pool-3")},
		},
		"tolerated taints do not": {
			sn: snapshot().pool("pool-1", 2, taint).pool("pool-2", 2).pool("pool-3", 2).
				self(js, all(js, tpuSpec().Toleration(corev1.Toleration{Key: "example.com/maintenance", Operator: corev1.TolerationOpExists}))...),
			want: map[int]sliceAt{0: both("pool-1"), 1: both("pool-2")},
		},
		"only the active startup group is planned": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).
				self(grouped, all(grouped, tpuSpec())[1:]...).active(1, 2),
			want: map[int]sliceAt{1: both("pool-1"), 2: both("pool-2")},
		},
		"a running startup group keeps its pool from the next": {
			// pool-1 would still fit a worker slice beside the init pod.
			sn: snapshot().pool("pool-1", 3).pool("pool-2", 2).pool("pool-3", 3).use("pool-1-node-0", 4).
				heldBy("pool-1", workload.Holder{Key: grouped.Key, UID: grouped.UID}).
				self(grouped, append([]*state.Pod{member(grouped, 0, 0, tpuSpec()).on("pool-1-node-0").p}, all(grouped, tpuSpec())[1:]...)...),
			want: map[int]sliceAt{1: both("pool-2"), 2: {Domain: "pool-3", Slots: []placement.Slot{slot("pool-3-node-0", 0, 1), slot("pool-3-node-1", 0, 1)}}},
		},
		"a partly placed slice stays in its pool": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).use("pool-3-node-0", 4).
				heldBy("pool-3", workload.Holder{Key: js.Key, UID: js.UID}).
				self(js, member(js, 0, 0, tpuSpec()).on("pool-3-node-0").p, member(js, 0, 1, tpuSpec()).p,
					member(js, 1, 0, tpuSpec()).p, member(js, 1, 1, tpuSpec()).p),
			want: map[int]sliceAt{
				0: {Domain: "pool-3", Slots: []placement.Slot{slot("pool-3-node-1", 0, 1)}},
				1: both("pool-1"),
			},
		},
		"followers not created yet are shaped like their leader": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).
				self(js, member(js, 0, 0, tpuSpec()).p, member(js, 1, 0, tpuSpec()).p).staged(),
			want: map[int]sliceAt{0: both("pool-1"), 1: both("pool-2")},
		},
		"a slice without pods is shaped from its template": {
			sn:   snapshot().pool("pool-1", 2).pool("pool-2", 2).self(js),
			want: map[int]sliceAt{0: both("pool-1"), 1: both("pool-2")},
		},
		"heterogeneous PodGroup: every member sized from its own request": {
			sn: snapshot().cpuNode("cpu-0").pool("pool-1", 2).self(pg,
				member(pg, 0, 0, spec().CPU("1")).named("pg-launcher").p,
				member(pg, 0, 1, spec().TPU("4")).named("pg-worker-0").p,
				member(pg, 0, 2, spec().TPU("4")).named("pg-worker-1").p),
			want: map[int]sliceAt{0: {Slots: []placement.Slot{
				slot("pool-1-node-0", 1, 1), slot("pool-1-node-1", 1, 1), slot("cpu-0", 0, 1),
			}}},
			wantShapes: map[int][]string{0: {"cpu=1", "google.com/tpu=4"}},
		},
		"PodGroup members beyond minMember are not planned": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).self(pg,
				member(pg, 0, 0, spec().TPU("4")).named("pg-a").p,
				member(pg, 0, 1, spec().TPU("4")).named("pg-b").p,
				member(pg, 0, 2, spec().TPU("4")).named("pg-c").p,
				member(pg, 0, 3, spec().TPU("4")).named("pg-d").p),
			want: map[int]sliceAt{0: {Slots: []placement.Slot{
				slot("pool-1-node-0", 0, 1), slot("pool-1-node-1", 0, 1), slot("pool-2-node-0", 0, 1),
			}}},
		},
		"unconfined gang larger than the free chips": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).use("pool-1-node-0", 4).use("pool-2-node-1", 4).
				self(pg, all(pg, spec().TPU("4"))...),
			wantFail: "waiting for room for 3 pods (google.com/tpu=4 each) on nodes matching any node",
		},
		"unconfined gang larger than the cluster": {
			sn:               snapshot().pool("pool-1", 2).self(pg, all(pg, spec().TPU("4"))...),
			wantFail:         "3 pods (google.com/tpu=4 each) can never fit on the nodes matching any node together",
			wantUnresolvable: true,
		},
		"unconfined pods avoid reserved nodes and rejected nodes": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).reservedBy("pool-1", other("x").Key).
				self(pg, all(pg, spec().TPU("4"))...).rejected(topology.DomainRef{Value: "pool-2-node-0"}, "volume conflict"),
			want: map[int]sliceAt{0: {Slots: []placement.Slot{
				slot("pool-2-node-1", 0, 1), slot("pool-3-node-0", 0, 1), slot("pool-3-node-1", 0, 1),
			}}},
		},
		"unconfined slices stay off the pools of confined ones": {
			sn: snapshot().pool("pool-1", 2).pool("pool-2", 2).self(mixed, all(mixed, tpuSpec())...),
			want: map[int]sliceAt{
				0: both("pool-1"),
				1: {Slots: []placement.Slot{slot("pool-2-node-0", 0, 1), slot("pool-2-node-1", 0, 1)}},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, fail := admission.Plan(tc.sn.sn)
			if tc.wantFail != "" {
				if fail == nil {
					t.Fatalf("plan = %v, want failure %q", placements(r), tc.wantFail)
				}
				if fail.Message != tc.wantFail || fail.Unresolvable != tc.wantUnresolvable {
					t.Errorf("failure = %q (unresolvable %v), want %q (unresolvable %v)", fail.Message, fail.Unresolvable, tc.wantFail, tc.wantUnresolvable)
				}
				if r != nil {
					t.Errorf("a failed plan returned a reservation")
				}
				return
			}
			if fail != nil {
				t.Fatalf("plan: %v", fail)
			}
			if diff := cmp.Diff(tc.want, placements(r)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			self := tc.sn.sn.Self
			if r.Holder != self.Holder || r.Attempt != self.Model.RestartAttempt || r.Staged != self.Staged {
				t.Errorf("reservation holder %v attempt %d staged %v, want %v %d %v", r.Holder, r.Attempt, r.Staged, self.Holder, self.Model.RestartAttempt, self.Staged)
			}
			for i, sr := range r.Slices {
				if sr.DomainKey != self.Model.Slices[i].DomainKey {
					t.Errorf("slice %d: domain key %q, want %q", i, sr.DomainKey, self.Model.Slices[i].DomainKey)
				}
				if want, ok := tc.wantShapes[i]; ok {
					var got []string
					for _, sh := range sr.Shapes {
						got = append(got, sh.Sig)
					}
					if diff := cmp.Diff(want, got); diff != "" {
						t.Errorf("slice %d shapes (-want +got):\n%s", i, diff)
					}
				}
			}
		})
	}
}

// Plan reads the snapshot and changes nothing in it.
func TestPlanLeavesTheSnapshotAlone(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).obj()
	build := func() *state.Snapshot {
		return snapshot().pool("pool-1", 2).pool("pool-2", 2).pool("pool-3", 2).heldBy("pool-1", other("x")).self(js, all(js, tpuSpec())...).sn
	}
	sn := build()
	if _, fail := admission.Plan(sn); fail != nil {
		t.Fatalf("plan: %v", fail)
	}
	opts := cmp.Options{
		cmp.Comparer(func(a, b *topology.Node) bool { return a.Name == b.Name && a.Usable == b.Usable }),
		cmpopts.IgnoreUnexported(state.Pod{}),
		// Plans memoise node qualifiers on the snapshot; that is not a change.
		cmpopts.IgnoreFields(state.Snapshot{}, "Qualifiers"), cmpopts.IgnoreUnexported(state.Snapshot{}),
	}
	if diff := cmp.Diff(build(), sn, opts); diff != "" {
		t.Errorf("Plan changed the snapshot (-before +after):\n%s", diff)
	}
}

func placements(r *state.Reservation) map[int]sliceAt {
	out := map[int]sliceAt{}
	for i, sr := range r.Slices {
		out[i] = sliceAt{Domain: sr.Domain, Slots: sr.Slots}
	}
	return out
}

func (s *snap) do(f func(*snap)) *snap {
	f(s)
	return s
}
