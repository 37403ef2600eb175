package quota

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestAssign(t *testing.T) {
	onlyV6e := func(f *Flavor) bool { return f.Name == "v6e" }
	cpuTPU := queue("mixed").
		group([]corev1.ResourceName{corev1.ResourceCPU}, "cpu").
		group([]corev1.ResourceName{tpu}, "v5e", "v6e").
		quota("cpu", corev1.ResourceCPU, 10, -1, -1).quota("v5e", tpu, 8, -1, -1).quota("v6e", tpu, 16, -1, -1).build()
	cases := []struct {
		name     string
		queue    *ClusterQueue
		used     map[string]int64 // chips already charged per flavor
		needs    []Need
		excluded Exclusions
		// want maps slice → flavor of google.com/tpu; reason is the
		// problem's reason instead.
		want   map[int]string
		reason string
		config bool
	}{
		{name: "first flavor in order", queue: tpuQueue("q", "", 8, "v5e", "v6e"),
			needs: []Need{tpus(0, 2, 4)}, want: map[int]string{0: "v5e"}},
		{name: "next flavor when the first is full", queue: tpuQueue("q", "", 8, "v5e", "v6e"),
			used: map[string]int64{"v5e": 4}, needs: []Need{tpus(0, 2, 4)}, want: map[int]string{0: "v6e"}},
		{name: "slices of one workload add up", queue: tpuQueue("q", "", 8, "v5e", "v6e"),
			needs: []Need{tpus(0, 2, 4), tpus(1, 2, 4)}, want: map[int]string{0: "v5e", 1: "v6e"}},
		{name: "incompatible flavor skipped", queue: tpuQueue("q", "", 8, "v5e", "v6e"),
			needs: []Need{{Slice: 0, Count: 2, Request: workload.Resources{tpu: 4000}, Compatible: onlyV6e}}, want: map[int]string{0: "v6e"}},
		{name: "excluded flavor skipped", queue: tpuQueue("q", "", 8, "v5e", "v6e"),
			needs: []Need{tpus(0, 2, 4)}, excluded: Exclusions{0: {"v5e": true}}, want: map[int]string{0: "v6e"}},
		{name: "quota exceeded for now", queue: tpuQueue("q", "", 8, "v5e"),
			used: map[string]int64{"v5e": 4}, needs: []Need{tpus(0, 2, 4)}, reason: ReasonQuotaExceeded},
		{name: "more than the queue can ever admit", queue: tpuQueue("q", "", 8, "v5e"),
			needs: []Need{tpus(0, 2, 4), tpus(1, 2, 4)}, reason: ReasonExceedsQuotaForever, config: true},
		{name: "uncovered resource", queue: tpuQueue("q", "", 8, "v5e"),
			needs:  []Need{{Slice: 0, Count: 1, Request: workload.Resources{tpu: 4000, corev1.ResourceCPU: 1000}}},
			reason: ReasonResourceNotCovered, config: true},
		{name: "no compatible flavor", queue: tpuQueue("q", "", 8, "v5e"),
			needs:  []Need{{Slice: 0, Count: 1, Request: workload.Resources{tpu: 4000}, Compatible: onlyV6e}},
			reason: ReasonNoCompatibleFlavor, config: true},
		{name: "two groups charge two flavors", queue: cpuTPU,
			needs: []Need{{Slice: 0, Count: 2, Request: workload.Resources{tpu: 4000, corev1.ResourceCPU: 2000}}},
			want:  map[int]string{0: "v5e"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := book([]string{"v5e", "v6e", "cpu"}, tc.queue)
			for f, chips := range tc.used {
				b.Charge(key("used-"+f), charge(tc.queue.Name, f, chips))
			}
			c, p := b.View().Assign(b.ClusterQueue(tc.queue.Name), tc.needs, tc.excluded)
			if tc.reason != "" {
				if p == nil || p.Reason != tc.reason || p.Config != tc.config {
					t.Fatalf("got charge %+v, problem %+v; want reason %s (config %v)", c, p, tc.reason, tc.config)
				}
				if !strings.Contains(p.Message, tc.queue.Name) {
					t.Errorf("message %q does not name the queue", p.Message)
				}
				return
			}
			if p != nil {
				t.Fatalf("problem: %v", p)
			}
			total := map[string]int64{}
			for _, n := range tc.needs {
				f := c.Flavors[n.Slice][tpu]
				if f != tc.want[n.Slice] {
					t.Errorf("slice %d on %q, want %q", n.Slice, f, tc.want[n.Slice])
				}
				total[f] += n.total(tpu)
			}
			for f, v := range total {
				if got := c.Usage[FlavorResource{Flavor: f, Resource: tpu}]; got != v {
					t.Errorf("charged %d of %s, want %d", got, f, v)
				}
			}
			if _, pods := c.Usage[FlavorResource{Flavor: "v5e", Resource: corev1.ResourcePods}]; pods {
				t.Errorf("pods charged without a group covering them")
			}
		})
	}
}

func TestAssignChargesCPUToItsOwnGroup(t *testing.T) {
	q := queue("mixed").
		group([]corev1.ResourceName{corev1.ResourceCPU}, "cpu").
		group([]corev1.ResourceName{tpu}, "v5e").
		quota("cpu", corev1.ResourceCPU, 10, -1, -1).quota("v5e", tpu, 8, -1, -1).build()
	b := book([]string{"v5e", "cpu"}, q)
	c, p := b.View().Assign(q, []Need{{Slice: 0, Count: 2, Request: workload.Resources{tpu: 4000, corev1.ResourceCPU: 1500}}}, nil)
	if p != nil {
		t.Fatal(p)
	}
	if got := c.Usage[FlavorResource{Flavor: "cpu", Resource: corev1.ResourceCPU}]; got != 3000 {
		t.Fatalf("cpu charged %d, want 3000", got)
	}
	if c.Flavors[0][corev1.ResourceCPU] != "cpu" || c.Flavors[0][tpu] != "v5e" {
		t.Fatalf("flavors %v", c.Flavors[0])
	}
}

func TestShape(t *testing.T) {
	tpu := func(chips int64, sel string) []Need {
		return []Need{{Slice: 0, Count: 1, Request: workload.Resources{"google.com/tpu": chips * 1000, "cpu": 500}, CompatibleKey: sel}}
	}
	if Shape(tpu(8, "a=b,")) != Shape(tpu(8, "a=b,")) {
		t.Error("equal needs have different shapes")
	}
	for _, other := range [][]Need{tpu(4, "a=b,"), tpu(8, "a=c,"), append(tpu(8, "a=b,"), tpu(8, "a=b,")...)} {
		if Shape(tpu(8, "a=b,")) == Shape(other) {
			t.Errorf("needs %v and %v share a shape", tpu(8, "a=b,"), other)
		}
	}
}

// The figures of an insufficient-quota message add up: what is available
// is the nominal quota less what is in use, less what the workload's other
// slices take, less what the cohort uses of it, or plus what it may borrow.
func TestQuotaMessagesAddUp(t *testing.T) {
	cases := []struct {
		name  string
		cqs   []*ClusterQueue
		used  map[string]int64 // chips charged per ClusterQueue, flavor v5e
		needs []Need
		want  string
	}{{
		name:  "in use",
		cqs:   []*ClusterQueue{tpuQueue("a", "", 32, "v5e")},
		used:  map[string]int64{"a": 24},
		needs: []Need{tpus(0, 4, 4)},
		want:  "google.com/tpu: 16 requested, 8 available (nominal 32, 24 in use)",
	}, {
		name:  "the workload's other slices",
		cqs:   []*ClusterQueue{tpuQueue("a", "", 32, "v5e")},
		used:  map[string]int64{"a": 16},
		needs: []Need{tpus(0, 2, 4), tpus(1, 4, 4)},
		want:  "google.com/tpu: 16 for slice 1 (24 for the workload), 8 available (nominal 32, 16 in use, 8 for the workload's other slices)",
	}, {
		name:  "lent to the cohort",
		cqs:   []*ClusterQueue{tpuQueue("a", "co", 32, "v5e"), tpuQueue("b", "co", 8, "v5e")},
		used:  map[string]int64{"a": 16, "b": 24},
		needs: []Need{tpus(0, 4, 4)},
		want:  "google.com/tpu: 16 requested, 0 available (nominal 32, 16 in use, 16 lent to cohort co and in use there)",
	}, {
		name:  "borrowable from the cohort",
		cqs:   []*ClusterQueue{tpuQueue("a", "co", 8, "v5e"), tpuQueue("b", "co", 8, "v5e")},
		used:  map[string]int64{"a": 8},
		needs: []Need{tpus(0, 4, 4)},
		want:  "google.com/tpu: 16 requested, 8 available (nominal 8, 8 in use, 8 borrowable from cohort co)",
	}}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := book([]string{"v5e"}, tc.cqs...)
			for cq, chips := range tc.used {
				b.Charge(key("used-"+cq), charge(cq, "v5e", chips))
			}
			_, p := b.View().Assign(b.ClusterQueue("a"), tc.needs, nil)
			if p == nil || !strings.Contains(p.Message, tc.want) {
				t.Fatalf("problem %+v; want a message saying %q", p, tc.want)
			}
		})
	}
}
