package planner

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// pool builds a domain of n nodes with chips TPU chips each, freeChips of them free per node.
func pool(name string, n int, chips, freeChips int64, holder string) Domain {
	d := Domain{Name: name, Holder: holder}
	for i := range n {
		d.Nodes = append(d.Nodes, Node{
			Name:        fmt.Sprintf("%s-%d", name, i),
			Allocatable: workload.Resources{"google.com/tpu": chips * 1000, "pods": 110000},
			Free:        workload.Resources{"google.com/tpu": freeChips * 1000, "pods": 110000},
			Usable:      true,
		})
	}
	return d
}

func slice(index, pods int, chips int64) SliceDemand {
	return SliceDemand{Index: index, Pods: pods, Request: workload.Resources{"google.com/tpu": chips * 1000, "pods": 1000}, Describe: "gke-tpu-topology=2x4"}
}

func TestMakePlan(t *testing.T) {
	only := func(domains ...string) func(string, *Node) bool {
		return func(d string, _ *Node) bool {
			for _, x := range domains {
				if x == d {
					return true
				}
			}
			return false
		}
	}
	cases := map[string]struct {
		slices          []SliceDemand
		domains         []Domain
		want            Plan
		wantUnresolved  bool
		wantMsgContains string
	}{
		"one slice per pool": {
			slices:  []SliceDemand{slice(0, 2, 4), slice(1, 2, 4), slice(2, 2, 4)},
			domains: []Domain{pool("p1", 2, 4, 4, ""), pool("p2", 2, 4, 4, ""), pool("p3", 2, 4, 4, "")},
			want:    Plan{0: "p1", 1: "p2", 2: "p3"},
		},
		"held domains are not used, own holdings are": {
			slices:  []SliceDemand{slice(0, 2, 4), slice(1, 2, 4)},
			domains: []Domain{pool("p1", 2, 4, 4, "other"), pool("p2", 2, 4, 4, "me"), pool("p3", 2, 4, 4, "")},
			want:    Plan{0: "p2", 1: "p3"},
		},
		"not enough free domains: wait, with counts": {
			slices:          []SliceDemand{slice(0, 2, 4), slice(1, 2, 4)},
			domains:         []Domain{pool("p1", 2, 4, 4, "other"), pool("p2", 2, 4, 4, "other"), pool("p3", 2, 4, 4, "")},
			wantMsgContains: "waiting for 1 more domains matching gke-tpu-topology=2x4 (3 exist, 1 free)",
		},
		"partly used domain is not free enough": {
			slices:          []SliceDemand{slice(0, 2, 4)},
			domains:         []Domain{pool("p1", 2, 4, 2, "")},
			wantMsgContains: "waiting for 1 more domains",
		},
		"best fit keeps the large domain whole": {
			slices:  []SliceDemand{slice(0, 2, 4)},
			domains: []Domain{pool("big", 4, 4, 4, ""), pool("small", 2, 4, 4, "")},
			want:    Plan{0: "small"},
		},
		"best fit never costs a slice its only domain": {
			// Slice 0 fits both; best fit alone would give it "small",
			// leaving slice 1 (4 pods) only "big": the matching does both.
			slices:  []SliceDemand{slice(0, 2, 4), slice(1, 4, 4)},
			domains: []Domain{pool("big", 4, 4, 4, ""), pool("small", 2, 4, 4, "")},
			want:    Plan{0: "small", 1: "big"},
		},
		"constrained slices are matched first": {
			slices: []SliceDemand{
				{Index: 0, Pods: 1, Request: workload.Resources{"pods": 1000}, Qualifies: only("a", "b")},
				{Index: 1, Pods: 1, Request: workload.Resources{"pods": 1000}, Qualifies: only("a")},
			},
			domains: []Domain{pool("a", 1, 4, 4, ""), pool("b", 1, 4, 4, "")},
			want:    Plan{0: "b", 1: "a"},
		},
		"slice larger than every domain is unresolvable": {
			slices:          []SliceDemand{slice(0, 3, 4)},
			domains:         []Domain{pool("p1", 2, 4, 4, ""), pool("p2", 2, 4, 4, "")},
			wantUnresolved:  true,
			wantMsgContains: "a slice of 3 pods (google.com/tpu=4 each) fits in no domain matching gke-tpu-topology=2x4 (the largest holds 2 such pods)",
		},
		"more slices than domains is unresolvable": {
			slices:          []SliceDemand{slice(0, 2, 4), slice(1, 2, 4), slice(2, 2, 4)},
			domains:         []Domain{pool("p1", 2, 4, 0, "x"), pool("p2", 2, 4, 4, "")},
			wantUnresolved:  true,
			wantMsgContains: "3 slices need 3 domains matching gke-tpu-topology=2x4, only 2 exist",
		},
		"unusable nodes shrink a domain now, not forever": {
			slices: []SliceDemand{slice(0, 2, 4)},
			domains: func() []Domain {
				d := pool("p1", 2, 4, 4, "")
				d.Nodes[1].Usable = false
				return []Domain{d}
			}(),
			wantMsgContains: "waiting for 1 more domains matching gke-tpu-topology=2x4 (1 exist, 0 free)",
		},
		"fixed slice keeps its domain": {
			slices: func() []SliceDemand {
				a, b := slice(0, 2, 4), slice(1, 2, 4)
				a.Fixed = "p3"
				return []SliceDemand{a, b}
			}(),
			domains: []Domain{pool("p1", 2, 4, 4, ""), pool("p3", 2, 4, 4, "me")},
			want:    Plan{0: "p3", 1: "p1"},
		},
		"no qualifying node at all": {
			slices:          []SliceDemand{{Index: 0, Pods: 1, Request: workload.Resources{"pods": 1000}, Qualifies: only(), Describe: "gke-tpu-topology=8x8"}},
			domains:         []Domain{pool("p1", 2, 4, 4, "")},
			wantUnresolved:  true,
			wantMsgContains: "matching gke-tpu-topology=8x8",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			plan, fail := MakePlan(Request{Workload: "me", Slices: tc.slices}, tc.domains)
			if tc.wantMsgContains == "" {
				if fail != nil {
					t.Fatalf("unexpected failure: %v", fail)
				}
				if diff := cmp.Diff(tc.want, plan); diff != "" {
					t.Errorf("plan (-want +got):\n%s", diff)
				}
				return
			}
			if fail == nil {
				t.Fatalf("got plan %v, want failure", plan)
			}
			if fail.Unresolvable != tc.wantUnresolved {
				t.Errorf("Unresolvable = %v, want %v (%s)", fail.Unresolvable, tc.wantUnresolved, fail.Message)
			}
			if !strings.Contains(fail.Message, tc.wantMsgContains) {
				t.Errorf("message %q does not contain %q", fail.Message, tc.wantMsgContains)
			}
		})
	}
}

// Every plan uses distinct domains with room for each slice, on many shapes.
func TestMakePlanInvariantsManyDomains(t *testing.T) {
	for _, size := range []int{1, 4, 64, 250} {
		var domains []Domain
		for i := range size * 2 {
			nodes := 2 + i%3
			holder := ""
			if i%5 == 0 {
				holder = "other"
			}
			domains = append(domains, pool(fmt.Sprintf("p%03d", i), nodes, 4, 4, holder))
		}
		var sl []SliceDemand
		for i := range size {
			sl = append(sl, slice(i, 2+i%2, 4))
		}
		plan, fail := MakePlan(Request{Workload: "me", Slices: sl}, domains)
		if fail != nil {
			t.Fatalf("size %d: %v", size, fail)
		}
		used := map[string]bool{}
		byName := map[string]*Domain{}
		for i := range domains {
			byName[domains[i].Name] = &domains[i]
		}
		for _, s := range sl {
			d := plan[s.Index]
			if used[d] {
				t.Fatalf("size %d: domain %s given twice", size, d)
			}
			used[d] = true
			if byName[d].Holder != "" {
				t.Fatalf("size %d: held domain %s used", size, d)
			}
			if capacity(&s, byName[d], true) < s.Pods {
				t.Fatalf("size %d: slice %d does not fit in %s", size, s.Index, d)
			}
		}
	}
}

func TestMakePlanFixedSliceNeedsRoomOnlyForItsUnboundPods(t *testing.T) {
	a, b := slice(0, 2, 4), slice(1, 2, 4)
	a.Fixed, a.Bound = "p1", 2
	plan, fail := MakePlan(Request{Workload: "me", Slices: []SliceDemand{a, b}},
		[]Domain{pool("p1", 2, 4, 0, "me"), pool("p2", 2, 4, 4, "")})
	if fail != nil {
		t.Fatal(fail)
	}
	if diff := cmp.Diff(Plan{0: "p1", 1: "p2"}, plan); diff != "" {
		t.Errorf("plan (-want +got):\n%s", diff)
	}
}
