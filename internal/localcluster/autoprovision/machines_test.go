package autoprovision

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// fileBlock is the autoProvisioning block of the tests: g2-standard-24
// (2 L4 GPUs) and n4-standard-8 (CPU) machines; spot, flex-start and
// on-demand capacity in us-central1-a and -b.
const fileBlock = `
autoProvisioning:
  drainTime: 30s
  scaleDownUnneededTime: 1m
  machines:
  - {type: g2-standard-24, cpu: "24", memory: 96Gi, gpu: {model: nvidia-l4, perNode: 2}}
  - {type: n4-standard-8, cpu: "8", memory: 32Gi}
  spot:
    delay: 5s
    capacity:
    - {machineType: g2-standard-24, zone: us-central1-a, maxNodes: 4}
  flexStart:
    delay: 10s
    interval: 5s
    capacity:
    - {machineType: g2-standard-24, zone: us-central1-a, maxNodes: 8}
    - {machineType: g2-standard-24, zone: us-central1-b, maxNodes: 2}
  onDemand:
    delay: 1s
    capacity:
    - {machineType: n4-standard-8, zone: us-central1-b, maxNodes: 2}
`

// testConfig parses an autoProvisioning block (fileBlock when empty),
// changed by edit.
func testConfig(t testing.TB, edit func(string) string) *Config {
	t.Helper()
	block := fileBlock
	if edit != nil {
		block = edit(block)
	}
	cfg, err := nodepools.ParseConfig([]byte("apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: NodePools\npools:\n- {name: cpu, nodes: 1}\n" + block))
	if err != nil {
		t.Fatal(err)
	}
	return cfg.AutoProvisioning
}

// seedClass is seed 001's class, with its durations.
func seedClass(maxRun, lead int64) *cloudv1.ComputeClass {
	return builders.ComputeClass(class).Spot("g2-standard-24").FlexStart("g2-standard-24", maxRun, lead).Obj()
}

func gpuGroup(size int) *Group {
	return &Group{Key: "job/default/j/uid", Ref: "default/j", Class: class, Size: size, Exclusive: true, Selector: map[string]string{},
		Requests: corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("2"), corev1.ResourceCPU: resource.MustParse("1")}}
}

func TestOptionsFor(t *testing.T) {
	cfg := testConfig(t, nil)
	type opt struct {
		Priority int
		Kind     computeclass.Capacity
		Machine  string
		PerNode  int
		Zones    []string
	}
	for name, tc := range map[string]struct {
		class *cloudv1.ComputeClass
		group func(*Group)
		cfg   *Config
		want  []opt
		why   []string
	}{
		"seed 001: spot, then flex-start": {class: seedClass(72000, 3600),
			want: []opt{{0, computeclass.Spot, "g2-standard-24", 1, []string{"us-central1-a"}}, {1, computeclass.FlexStart, "g2-standard-24", 1, []string{"us-central1-a", "us-central1-b"}}}},
		"a zone selector": {class: seedClass(72000, 3600), group: func(g *Group) { g.Selector[wellknown.ZoneLabel] = "us-central1-b" },
			want: []opt{{1, computeclass.FlexStart, "g2-standard-24", 1, []string{"us-central1-b"}}},
			why:  []string{"priority 0 (spot g2-standard-24): no spot capacity of g2-standard-24 is configured in a zone the pods allow"}},
		"pods selecting spot": {class: seedClass(72000, 3600), group: func(g *Group) { g.Selector[wellknown.SpotLabel] = "true" },
			want: []opt{{0, computeclass.Spot, "g2-standard-24", 1, []string{"us-central1-a"}}},
			why:  []string{"priority 1 (flex-start g2-standard-24): the pods select spot nodes"}},
		"smaller pods share nodes": {class: seedClass(72000, 3600), group: func(g *Group) { g.Requests[wellknown.ResourceGPU] = resource.MustParse("1") },
			want: []opt{{0, computeclass.Spot, "g2-standard-24", 2, []string{"us-central1-a"}}, {1, computeclass.FlexStart, "g2-standard-24", 2, []string{"us-central1-a", "us-central1-b"}}}},
		"no spot capacity configured": {class: seedClass(72000, 3600), cfg: func() *Config { c := testConfig(t, nil); c.Spot = nil; return c }(),
			want: []opt{{1, computeclass.FlexStart, "g2-standard-24", 1, []string{"us-central1-a", "us-central1-b"}}},
			why:  []string{"priority 0 (spot g2-standard-24): no spot capacity is configured"}},
		"machine family, GPU and cores": {class: builders.ComputeClass(class).
			Priority(cloudv1.Priority{MachineFamily: "g2", GPU: &cloudv1.GPU{Type: "nvidia-l4", Count: 2}, MinCores: ptr.To[int32](16), FlexStart: &cloudv1.FlexStart{Enabled: true}}).
			Priority(cloudv1.Priority{GPU: &cloudv1.GPU{Type: "nvidia-h100-80gb", Count: 8}, FlexStart: &cloudv1.FlexStart{Enabled: true}}).
			Priority(cloudv1.Priority{TPU: &cloudv1.TPU{Type: "tpu-v6e-slice", Count: 4, Topology: "4x4"}}).
			OnDemand("a3-highgpu-8g").OnDemand("n4-standard-8").Obj(),
			want: []opt{{0, computeclass.FlexStart, "g2-standard-24", 1, []string{"us-central1-a", "us-central1-b"}}},
			why: []string{
				"priority 1 (flex-start 8 × nvidia-h100-80gb): g2-standard-24 has not 8 × nvidia-h100-80gb per node; n4-standard-8 has not 8 × nvidia-h100-80gb per node",
				"priority 2 (on-demand tpu-v6e-slice 4x4): TPU priorities are not simulated",
				"priority 3 (on-demand a3-highgpu-8g): machine type a3-highgpu-8g is not among autoProvisioning.machines",
				"priority 4 (on-demand n4-standard-8): a pod of default/j requests nvidia.com/gpu 2, which is not a resource of n4-standard-8",
			}},
	} {
		t.Run(name, func(t *testing.T) {
			g := gpuGroup(2)
			if tc.group != nil {
				tc.group(g)
			}
			c := cfg
			if tc.cfg != nil {
				c = tc.cfg
			}
			opts, why := OptionsFor(tc.class, g, c)
			var got []opt
			for _, o := range opts {
				var zones []string
				for _, z := range o.Zones {
					zones = append(zones, z.Zone)
				}
				got = append(got, opt{o.Priority, o.Kind, o.Machine.Type, o.PerNode, zones})
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("options (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.why, why); diff != "" {
				t.Errorf("why (-want +got):\n%s", diff)
			}
		})
	}
}

func TestChooseZone(t *testing.T) {
	cfg := testConfig(t, nil)
	opts, _ := OptionsFor(seedClass(72000, 3600), gpuGroup(2), cfg)
	spot, flex := opts[0], opts[1]
	key := func(k computeclass.Capacity, zone string) capKey { return capKey{k, "g2-standard-24", zone} }
	for name, tc := range map[string]struct {
		o            Option
		n            int
		nodes, queue map[capKey]int
		zone         string
		why          string
	}{
		"spot has room":               {o: spot, n: 2, nodes: map[capKey]int{key(computeclass.Spot, "us-central1-a"): 2}, zone: "us-central1-a"},
		"spot full":                   {o: spot, n: 2, nodes: map[capKey]int{key(computeclass.Spot, "us-central1-a"): 2}, queue: map[capKey]int{key(computeclass.Spot, "us-central1-a"): 1}, why: "no spot capacity for 2 nodes of g2-standard-24 in one zone (us-central1-a has 1 of 4 free)"},
		"flex: the zone most free":    {o: flex, n: 2, nodes: map[capKey]int{key(computeclass.FlexStart, "us-central1-a"): 7}, zone: "us-central1-b"},
		"flex: queued when full":      {o: flex, n: 2, nodes: map[capKey]int{key(computeclass.FlexStart, "us-central1-a"): 8, key(computeclass.FlexStart, "us-central1-b"): 2}, zone: "us-central1-a"},
		"flex: no zone ever holds it": {o: flex, n: 9, why: "no zone ever holds 9 nodes of flex-start g2-standard-24 (us-central1-a has 8 of 8 free, us-central1-b has 2 of 2 free)"},
	} {
		t.Run(name, func(t *testing.T) {
			u := NewUsage()
			for k, v := range tc.nodes {
				u.Nodes[k] = v
			}
			for k, v := range tc.queue {
				u.Queued[k] = v
			}
			z, ok, why := ChooseZone(tc.o, tc.n, u)
			if ok != (tc.zone != "") || z.Zone != tc.zone || why != tc.why {
				t.Errorf("ChooseZone = %s, %v, %q; want %q, %q", z.Zone, ok, why, tc.zone, tc.why)
			}
		})
	}
}

func TestDecideLife(t *testing.T) {
	short := seedClass(180, 90).Spec.Priorities[1]
	lt := computeclass.PriorityRunWindow(&short, epoch)
	drain := 30 * time.Second
	at := func(d time.Duration) time.Time { return epoch.Add(d) }
	for name, tc := range map[string]struct {
		life NodeLife
		now  time.Duration
		step Step
		next time.Time
	}{
		"young":                            {NodeLife{Lifetime: lt}, 10 * time.Second, Keep, at(90 * time.Second)},
		"recycling: request a replacement": {NodeLife{Lifetime: lt}, 90 * time.Second, RequestReplacement, at(180 * time.Second)},
		"replacement queued":               {NodeLife{Lifetime: lt, Replacement: true}, 100 * time.Second, Keep, at(180 * time.Second)},
		"replacement Ready: cordon":        {NodeLife{Lifetime: lt, Replacement: true, ReplacementReady: true}, 101 * time.Second, Cordon, at(180 * time.Second)},
		"cordoned: draining":               {NodeLife{Lifetime: lt, Replacement: true, ReplacementReady: true, RecycledAt: at(101 * time.Second)}, 110 * time.Second, Keep, at(131 * time.Second)},
		"drained":                          {NodeLife{Lifetime: lt, Replacement: true, ReplacementReady: true, RecycledAt: at(101 * time.Second)}, 131 * time.Second, Drained, time.Time{}},
		"cordoned late: the end of life comes first": {NodeLife{Lifetime: lt, Replacement: true, ReplacementReady: true, RecycledAt: at(170 * time.Second)}, 175 * time.Second, Keep, at(180 * time.Second)},
		"end of life, whatever is under way":         {NodeLife{Lifetime: lt, Replacement: true}, 180 * time.Second, EndOfLife, time.Time{}},
		"spot: no end":                               {NodeLife{Lifetime: computeclass.RunWindow{Created: epoch}}, 1000 * time.Hour, Keep, time.Time{}},
	} {
		t.Run(name, func(t *testing.T) {
			step, next := DecideLife(tc.life, drain, at(tc.now))
			if step != tc.step || !next.Equal(tc.next) {
				t.Errorf("DecideLife = %q, %s; want %q, %s", step, next, tc.step, tc.next)
			}
		})
	}
}

func TestDescribePriority(t *testing.T) {
	c := seedClass(72000, 3600)
	if got := DescribePriority(1, &c.Spec.Priorities[1]); got != "priority 1 (flex-start g2-standard-24)" {
		t.Errorf("got %q", got)
	}
	p := cloudv1.Priority{MachineFamily: "g2", GPU: &cloudv1.GPU{Type: "nvidia-l4", Count: 2}, Spot: ptr.To(true)}
	if got := DescribePriority(0, &p); !strings.HasPrefix(got, "priority 0 (spot g2 family, 2 × nvidia-l4") {
		t.Errorf("got %q", got)
	}
}
