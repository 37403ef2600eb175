package admission_test

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const zone = wellknown.ZoneLabel

// atomic makes the workload's slices share one zone.
func (b *modelBuilder) atomic() *modelBuilder {
	b.w.AtomicKey = zone
	return b
}

// zonal adds two-node v5e pools in zone z.
func (s *snap) zonal(z string, pools ...string) *snap {
	for _, p := range pools {
		s.pool(p, 2, func(b *builders.NodePoolBuilder) { b.Zone(z) })
	}
	return s
}

// split adds a two-node v5e pool whose nodes lie in two zones.
func (s *snap) split(name, z0, z1 string) *snap {
	b := builders.NodePool(name).Nodes(2).TPU(builders.V5e, "2x4", 4)
	s.add(b.Zone(z0).Node(0))
	s.add(b.Zone(z1).Node(1))
	return s
}

// selfAtomic is self, with the snapshot's atomic key taken from the model
// as the state takes it.
func (s *snap) selfAtomic(w *workload.Workload, members ...*state.Pod) *snap {
	s.self(w, members...)
	s.sn.AtomicKey = w.AtomicKey
	return s
}

// queue makes the workload wait for admission through a ClusterQueue with
// one group of google.com/tpu over flavors, each of the given chips of
// nominal quota and standing for the nodes with its labels.
func (s *snap) queue(flavors []*quota.Flavor, chips ...int64) *snap {
	b := quota.NewBook()
	cq := &quota.ClusterQueue{Name: "cq", Quotas: map[quota.FlavorResource]quota.Limit{}, FairWeight: 1000}
	g := quota.Group{Covered: []corev1.ResourceName{wellknown.ResourceTPU}}
	for i, f := range flavors {
		b.SetFlavor(f)
		g.Flavors = append(g.Flavors, f.Name)
		cq.Quotas[quota.FlavorResource{Flavor: f.Name, Resource: wellknown.ResourceTPU}] = quota.Limit{Nominal: chips[i] * 1000}
	}
	cq.Groups = []quota.Group{g}
	b.SetClusterQueue(cq)
	var needs []quota.Need
	for _, sl := range s.sn.Self.Model.Slices {
		needs = append(needs, quota.Need{Slice: sl.Index, Count: int64(sl.Pods), Request: sl.Request})
	}
	s.sn.Quota = &state.QuotaDecision{ClusterQueue: cq, View: b.View(), Needs: needs}
	return s
}

// inUse charges the queue chips of flavor f for other workloads.
func (s *snap) inUse(f string, chips int64) *snap {
	s.sn.Quota.View.Add(&quota.Charge{ClusterQueue: "cq", Usage: quota.Usage{{Flavor: f, Resource: wellknown.ResourceTPU}: chips * 1000}})
	return s
}

func flavor(name string, labels ...string) *quota.Flavor {
	f := &quota.Flavor{Name: name, NodeLabels: map[string]string{}}
	for i := 0; i+1 < len(labels); i += 2 {
		f.NodeLabels[labels[i]] = labels[i+1]
	}
	return f
}

func TestPlanAtomic(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).atomic().obj()
	plain := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).obj()
	// init (group 0, 1 pod) then workers (group 1, 2 Jobs × 2 pods).
	grouped := jobSetModel("a").slices(1, 1, pool, 0, tpuSpec()).slices(2, 2, pool, 1, tpuSpec()).atomic().obj()
	initOn := func(node string) []*state.Pod {
		return append([]*state.Pod{member(grouped, 0, 0, tpuSpec()).on(node).p}, all(grouped, tpuSpec())[1:]...)
	}
	pg := podGroupModel("pg", 3).atomic().obj()
	mixed := jobSetModel("a").slices(1, 2, pool, 0, tpuSpec()).slices(1, 2, "", 0, tpuSpec()).atomic().obj()
	const (
		v5e      = "gke-tpu-accelerator=tpu-v5-lite-podslice"
		noRoom   = "no topology.kubernetes.io/zone has room for all 2 slices: "
		twoOfOne = "2 slices need 2 domains matching " + v5e + ", only 1 exist"
	)
	cases := map[string]struct {
		sn               *snap
		want             map[int]sliceAt
		wantFlavors      map[int]string
		wantFail         string
		wantUnresolvable bool
		wantReason       string
	}{
		"capacity split 1+1 over two zones stays unplaced": {
			sn:               snapshot().zonal("us-a", "a1").zonal("us-b", "b1").selfAtomic(js, all(js, tpuSpec())...),
			wantFail:         noRoom + "us-a, us-b: " + twoOfOne,
			wantUnresolvable: true,
		},
		"without the annotation the same cluster places it across zones": {
			sn:   snapshot().zonal("us-a", "a1").zonal("us-b", "b1").selfAtomic(plain, all(plain, tpuSpec())...),
			want: map[int]sliceAt{0: both("a1"), 1: both("b1")},
		},
		"placed in the one zone with two free domains": {
			sn:   snapshot().zonal("us-a", "a1").zonal("us-b", "b1", "b2").selfAtomic(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("b1"), 1: both("b2")},
		},
		"the zone with the most free domains first": {
			sn:   snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2", "b3").selfAtomic(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("b1"), 1: both("b2")},
		},
		"equally roomy zones: by name": {
			sn:   snapshot().zonal("us-b", "b1", "b2").zonal("us-a", "a1", "a2").selfAtomic(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("a1"), 1: both("a2")},
		},
		"a roomier zone that cannot take the gang is passed over": {
			// us-a has three free pools, but of another accelerator.
			sn: snapshot().zonal("us-a", "a1").
				pool("a2", 2, func(b *builders.NodePoolBuilder) {
					b.Zone("us-a").Label(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice")
				}).
				pool("a3", 2, func(b *builders.NodePoolBuilder) {
					b.Zone("us-a").Label(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice")
				}).
				zonal("us-b", "b1", "b2").selfAtomic(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("b1"), 1: both("b2")},
		},
		"waits while the only zone with enough domains is busy": {
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1").heldBy("a2", other("x")).
				selfAtomic(js, all(js, tpuSpec())...),
			wantFail: noRoom + "us-a: waiting for 1 more domains matching " + v5e + " (2 exist, 1 free); us-b: " + twoOfOne,
		},
		"a domain spread over two zones fits neither": {
			sn: snapshot().zonal("us-a", "a1").split("ab", "us-a", "us-b").zonal("us-b", "b1").
				selfAtomic(js, all(js, tpuSpec())...),
			wantFail:         noRoom + "us-a, us-b: " + twoOfOne,
			wantUnresolvable: true,
		},
		"a domain spread over two zones is passed over for whole ones": {
			sn: snapshot().split("a0", "us-a", "us-b").zonal("us-a", "a1", "a2").
				selfAtomic(js, all(js, tpuSpec())...),
			want: map[int]sliceAt{0: both("a1"), 1: both("a2")},
		},
		"nodes without the label never qualify": {
			sn:               snapshot().pool("p1", 2).pool("p2", 2).zonal("us-a", "a1").selfAtomic(js, all(js, tpuSpec())...),
			wantFail:         noRoom + "us-a: " + twoOfOne,
			wantUnresolvable: true,
		},
		"no node has the label": {
			sn:               snapshot().pool("p1", 2).pool("p2", 2).selfAtomic(js, all(js, tpuSpec())...),
			wantFail:         "no node it may use has the label topology.kubernetes.io/zone, and all 2 slices must land within one topology.kubernetes.io/zone",
			wantUnresolvable: true,
		},
		"unconfined gang: within one zone's nodes": {
			sn: snapshot().zonal("us-a", "a1").pool("b1", 3, func(b *builders.NodePoolBuilder) { b.Zone("us-b") }).
				selfAtomic(pg, all(pg, spec().TPU("4"))...),
			want: map[int]sliceAt{0: {Slots: []placement.Slot{slot("b1-node-0", 0, 1), slot("b1-node-1", 0, 1), slot("b1-node-2", 0, 1)}}},
		},
		"unconfined gang larger than any zone": {
			sn:               snapshot().zonal("us-a", "a1").zonal("us-b", "b1").selfAtomic(pg, all(pg, spec().TPU("4"))...),
			wantFail:         "no topology.kubernetes.io/zone has room for its slice: us-a, us-b: 3 pods (google.com/tpu=4 each) can never fit on the nodes matching any node together",
			wantUnresolvable: true,
		},
		"confined and unconfined slices share the zone": {
			sn: snapshot().zonal("us-a", "a1").zonal("us-b", "b1", "b2").selfAtomic(mixed, all(mixed, tpuSpec())...),
			want: map[int]sliceAt{
				0: both("b1"),
				1: {Slots: []placement.Slot{slot("b2-node-0", 0, 1), slot("b2-node-1", 0, 1)}},
			},
		},
		"a running startup group pins its zone": {
			// us-b is roomier, but the init pod runs in us-a.
			sn: snapshot().pool("a1", 3, func(b *builders.NodePoolBuilder) { b.Zone("us-a") }).zonal("us-a", "a2", "a3").
				zonal("us-b", "b1", "b2", "b3", "b4").use("a1-node-0", 4).
				heldBy("a1", workload.Holder{Key: grouped.Key, UID: grouped.UID}).
				selfAtomic(grouped, initOn("a1-node-0")...).active(1, 2),
			want: map[int]sliceAt{1: both("a2"), 2: both("a3")},
		},
		"the pinned zone has no room": {
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").use("a1-node-0", 4).
				heldBy("a1", workload.Holder{Key: grouped.Key, UID: grouped.UID}).
				selfAtomic(grouped, initOn("a1-node-0")...).active(1, 2),
			wantFail: "topology.kubernetes.io/zone=us-a, where the workload already runs, has no room for all 2 slices: " +
				"waiting for 1 more domains matching " + v5e + " (2 exist, 1 free)",
		},
		"placed pods under two zones leave none": {
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").
				selfAtomic(js, member(js, 0, 0, tpuSpec()).on("a1-node-0").p, member(js, 0, 1, tpuSpec()).p,
					member(js, 1, 0, tpuSpec()).on("b1-node-0").p, member(js, 1, 1, tpuSpec()).p),
			wantFail: "pods of the workload already run in two values of topology.kubernetes.io/zone (a-0-0 in us-a, a-1-0 in us-b): its slices cannot all land within one",
		},
		"a placed pod on a node without the label leaves none": {
			sn: snapshot().pool("p1", 2).zonal("us-a", "a1", "a2").
				selfAtomic(js, member(js, 0, 0, tpuSpec()).on("p1-node-0").p, member(js, 0, 1, tpuSpec()).p,
					member(js, 1, 0, tpuSpec()).p, member(js, 1, 1, tpuSpec()).p),
			wantFail: "pod a-0-0 of the workload runs on node p1-node-0, which has no topology.kubernetes.io/zone: its slices cannot all land within one topology.kubernetes.io/zone",
		},
		"zonal flavors: the zone whose flavor has quota for the whole gang": {
			// Without the key, slice 0 would take us-a's 8 chips and slice
			// 1 us-b's.
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").selfAtomic(js, all(js, tpuSpec())...).
				queue([]*quota.Flavor{flavor("fa", zone, "us-a"), flavor("fb", zone, "us-b")}, 8, 16),
			want:        map[int]sliceAt{0: both("b1"), 1: both("b2")},
			wantFlavors: map[int]string{0: "fb", 1: "fb"},
		},
		"flavors by pool: only a flavor with nodes in the zone": {
			sn: snapshot().pool("a1", 2, func(b *builders.NodePoolBuilder) { b.Zone("us-a").Label("pool-type", "x") }).
				pool("a2", 2, func(b *builders.NodePoolBuilder) { b.Zone("us-a").Label("pool-type", "x") }).
				pool("b1", 2, func(b *builders.NodePoolBuilder) { b.Zone("us-b").Label("pool-type", "y") }).
				pool("b2", 2, func(b *builders.NodePoolBuilder) { b.Zone("us-b").Label("pool-type", "y") }).
				pool("b3", 2, func(b *builders.NodePoolBuilder) { b.Zone("us-b").Label("pool-type", "y") }).
				selfAtomic(js, all(js, tpuSpec())...).
				queue([]*quota.Flavor{flavor("y", "pool-type", "y"), flavor("x", "pool-type", "x")}, 8, 16),
			want:        map[int]sliceAt{0: both("a1"), 1: both("a2")},
			wantFlavors: map[int]string{0: "x", 1: "x"},
		},
		"quota short alike in every zone: the quota's own message": {
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").selfAtomic(js, all(js, tpuSpec())...).
				queue([]*quota.Flavor{flavor("v5e", wellknown.TPUAcceleratorLabel, builders.V5e)}, 16).inUse("v5e", 8),
			wantFail: "insufficient quota in ClusterQueue cq: flavor v5e (google.com/tpu: 8 for slice 1 (16 for the workload), " +
				"0 available (nominal 16, 8 in use, 8 for the workload's other slices))",
			wantReason: quota.ReasonQuotaExceeded,
		},
		"quota short in one zone, domains busy in the other": {
			sn: snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").heldBy("b1", other("x")).
				selfAtomic(js, all(js, tpuSpec())...).
				queue([]*quota.Flavor{flavor("fa", zone, "us-a"), flavor("fb", zone, "us-b")}, 16, 16).inUse("fa", 8),
			wantFail: noRoom + "us-a: insufficient quota in ClusterQueue cq: flavor fa (google.com/tpu: 8 for slice 1 (16 for the workload), " +
				"0 available (nominal 16, 8 in use, 8 for the workload's other slices)); us-b: waiting for 1 more domains matching " + v5e + " (2 exist, 1 free)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r, fail := admission.Plan(tc.sn.sn)
			if tc.wantFail != "" {
				if fail == nil {
					t.Fatalf("plan = %v, want failure %q", placements(r), tc.wantFail)
				}
				if fail.Message != tc.wantFail || fail.Unresolvable != tc.wantUnresolvable || fail.Reason != tc.wantReason {
					t.Errorf("failure = %q (unresolvable %v, reason %q),\nwant      %q (unresolvable %v, reason %q)",
						fail.Message, fail.Unresolvable, fail.Reason, tc.wantFail, tc.wantUnresolvable, tc.wantReason)
				}
				return
			}
			if fail != nil {
				t.Fatalf("plan: %v", fail)
			}
			if diff := cmp.Diff(tc.want, placements(r)); diff != "" {
				t.Errorf("plan (-want +got):\n%s", diff)
			}
			if tc.wantFlavors != nil {
				got := map[int]string{}
				for i, byResource := range r.Charge.Flavors {
					got[i] = byResource[wellknown.ResourceTPU]
				}
				if diff := cmp.Diff(tc.wantFlavors, got); diff != "" {
					t.Errorf("charged flavors (-want +got):\n%s", diff)
				}
			}
			if tc.sn.sn.AtomicKey == "" {
				return
			}
			// Every planned node lies in one zone.
			zones := map[string]bool{}
			for _, sr := range r.Slices {
				for _, s := range sr.Slots {
					zones[tc.sn.sn.Nodes[s.Node].Node.Labels()[zone]] = true
				}
			}
			if len(zones) != 1 {
				t.Errorf("planned nodes lie in zones %v, want one", slices.Sorted(maps.Keys(zones)))
			}
		})
	}
}

// Atomic plans, quota included, read the snapshot and change nothing in it.
func TestPlanAtomicLeavesTheSnapshotAlone(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).atomic().obj()
	build := func() *state.Snapshot {
		return snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").heldBy("b1", other("x")).
			selfAtomic(js, all(js, tpuSpec())...).
			queue([]*quota.Flavor{flavor("fb", zone, "us-b"), flavor("fa", zone, "us-a")}, 16, 16).sn
	}
	sn := build()
	if _, fail := admission.Plan(sn); fail != nil {
		t.Fatalf("plan: %v", fail)
	}
	opts := cmp.Options{
		cmp.Comparer(func(a, b *topology.Node) bool { return a.Name == b.Name && a.Usable == b.Usable }),
		cmpopts.IgnoreUnexported(state.Pod{}),
		cmpopts.IgnoreFields(state.Snapshot{}, "Qualifiers"), cmpopts.IgnoreUnexported(state.Snapshot{}),
		cmp.Comparer(func(a, b *quota.View) bool { return true }),
		cmpopts.IgnoreFields(state.QuotaDecision{}, "Needs"),
	}
	if diff := cmp.Diff(build(), sn, opts); diff != "" {
		t.Errorf("Plan changed the snapshot (-before +after):\n%s", diff)
	}
}

// Preemption simulates victims through Plan, so it frees room in one zone:
// the lowest-priority workload alone would free a pool in the other zone
// of the gang's only free pool.
func TestPreemptAtomic(t *testing.T) {
	for _, tc := range []struct {
		name        string
		atomic      bool
		wantVictims string
		wantDomains []string
	}{
		{name: "without the key", wantVictims: "y", wantDomains: []string{"a1", "b1"}},
		{name: "within one zone", atomic: true, wantVictims: "x", wantDomains: []string{"a1", "a2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := jobSetModel("high").slices(2, 2, pool, 0, tpuSpec())
			if tc.atomic {
				b.atomic()
			}
			js := b.obj()
			s := snapshot().zonal("us-a", "a1", "a2").zonal("us-b", "b1", "b2").
				selfAtomic(js, all(js, tpuSpec())...).priority(100).
				running("x", 50, 0, "a2").running("y", 5, 0, "b1").running("z", 6, 0, "b2")
			d, fail := admission.Preempt(s.sn)
			if fail != nil {
				t.Fatalf("Preempt failed: %v", fail)
			}
			if got := keyNames(d.Victims); got != tc.wantVictims {
				t.Errorf("victims %s, want %s", got, tc.wantVictims)
			}
			var got []string
			for _, sr := range d.Plan.Slices {
				got = append(got, sr.Domain)
			}
			slices.Sort(got)
			if !slices.Equal(got, tc.wantDomains) {
				t.Errorf("plan domains %v, want %v", got, tc.wantDomains)
			}
		})
	}
}

// Many zones: the message stays bounded.
func TestPlanAtomicManyZones(t *testing.T) {
	js := jobSetModel("a").slices(2, 2, pool, 0, tpuSpec()).atomic().obj()
	s := snapshot()
	for i := range 8 {
		s.zonal(fmt.Sprintf("zone-%d", i), fmt.Sprintf("p%d", i))
	}
	_, fail := admission.Plan(s.selfAtomic(js, all(js, tpuSpec())...).sn)
	want := "no topology.kubernetes.io/zone has room for all 2 slices: zone-0, zone-1, zone-2 and 5 more: " +
		"2 slices need 2 domains matching gke-tpu-accelerator=tpu-v5-lite-podslice, only 1 exist"
	if fail == nil || fail.Message != want || !fail.Unresolvable {
		t.Errorf("failure = %+v, want an unresolvable %q", fail, want)
	}
}

// BenchmarkPlanAtomic plans a 16-slice gang on 1000 two-node pools over 4
// zones, against the same plan without the key: "FirstZone" fits in the
// first zone tried; "LastZone" fits only in the last (the three roomier
// zones have free pools of another accelerator and too few of the gang's).
func BenchmarkPlanAtomic(b *testing.B) {
	const pools, zones, gang = 1000, 4, 16
	build := func(lastZoneOnly, atomic bool) *state.Snapshot {
		mb := jobSetModel("a").slices(gang, 2, pool, 0, tpuSpec())
		if atomic {
			mb.atomic()
		}
		js := mb.obj()
		s := snapshot()
		for i := range pools {
			z := i % zones
			name := fmt.Sprintf("p%04d", i)
			v6e := lastZoneOnly && z < zones-1 && i/zones >= 50
			s.pool(name, 2, func(nb *builders.NodePoolBuilder) {
				nb.Zone(fmt.Sprintf("zone-%d", z))
				if v6e {
					nb.Label(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice")
				}
			})
			switch {
			case lastZoneOnly && z < zones-1 && i/zones < 50 && i/zones >= gang-1:
				s.heldBy(name, other(fmt.Sprintf("w%04d", i)))
			case lastZoneOnly && z == zones-1 && i/zones >= 2*gang:
				s.heldBy(name, other(fmt.Sprintf("w%04d", i)))
			}
		}
		return s.selfAtomic(js, all(js, tpuSpec())...).sn
	}
	for _, tc := range []struct {
		name                 string
		lastZoneOnly, atomic bool
	}{
		{"NonAtomic", false, false},
		{"FirstZone", false, true},
		{"NonAtomic_Busy", true, false},
		{"LastZone", true, true},
	} {
		b.Run(tc.name, func(b *testing.B) {
			sn := build(tc.lastZoneOnly, tc.atomic)
			r, fail := admission.Plan(sn)
			if fail != nil {
				b.Fatal(fail)
			}
			if tc.lastZoneOnly && tc.atomic {
				for _, sr := range r.Slices {
					if z := sn.Nodes[sr.Slots[0].Node].Node.Labels()[zone]; !strings.HasSuffix(z, fmt.Sprint(zones-1)) {
						b.Fatalf("slice on %s in %s, want the last zone", sr.Domain, z)
					}
				}
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, fail := admission.Plan(sn); fail != nil {
					b.Fatal(fail)
				}
			}
		})
	}
}
