package nodepools

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

const header = "apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: NodePools\n"

func TestParseValid(t *testing.T) {
	tests := []struct {
		name  string
		file  string
		check func(t *testing.T, pools []ExpandedPool)
	}{
		{
			name: "tpu pool count expands, nodes derived from topology",
			file: header + `
pools:
- name: v5e
  count: 3
  zone: us-west4-a
  tpu: {accelerator: tpu-v5-lite-podslice, topology: 2x4, chipsPerNode: 4}
`,
			check: func(t *testing.T, pools []ExpandedPool) {
				if got := names(pools); !cmp.Equal(got, []string{"v5e-0", "v5e-1", "v5e-2"}) {
					t.Fatalf("names = %v", got)
				}
				p := pools[1]
				if p.Nodes != 2 {
					t.Errorf("nodes = %d, want 2 (8 chips / 4 per node)", p.Nodes)
				}
				wantLabels := map[string]string{
					wellknown.NodePoolLabel:       "v5e-1",
					wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice",
					wellknown.TPUTopologyLabel:    "2x4",
					wellknown.ZoneLabel:           "us-west4-a",
					corev1.LabelTopologyRegion:    "us-west4",
					corev1.LabelOSStable:          "linux",
					corev1.LabelArchStable:        "amd64",
				}
				if diff := cmp.Diff(wantLabels, p.Labels); diff != "" {
					t.Errorf("labels (-want +got):\n%s", diff)
				}
				if q := p.Capacity[wellknown.ResourceTPU]; q.Value() != 4 {
					t.Errorf("google.com/tpu = %s, want 4", q.String())
				}
				if diff := cmp.Diff([]corev1.Taint{{Key: "google.com/tpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}}, p.Taints); diff != "" {
					t.Errorf("taints (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "single pool keeps its name; defaults and explicit values",
			file: header + `
defaults: {zone: europe-west4-b, cpu: "16", memory: 64Gi}
pools:
- name: l4
  nodes: 2
  memory: 32Gi
  machineType: g2-standard-48
  gpu: {model: nvidia-l4, perNode: 4}
  acceleratorTaint: false
  taints: ["dedicated=inference:NoSchedule"]
  labels: {team: serving}
`,
			check: func(t *testing.T, pools []ExpandedPool) {
				if len(pools) != 1 || pools[0].Name != "l4" || pools[0].Nodes != 2 {
					t.Fatalf("pools = %+v", pools)
				}
				p := pools[0]
				want := corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("16"),
					corev1.ResourceMemory: resource.MustParse("32Gi"),
					corev1.ResourcePods:   resource.MustParse("110"),
					wellknown.ResourceGPU: resource.MustParse("4"),
				}
				if !equalResources(want, p.Capacity) {
					t.Errorf("capacity = %v, want %v", p.Capacity, want)
				}
				for k, v := range map[string]string{
					wellknown.GPUAcceleratorLabel:  "nvidia-l4",
					wellknown.ZoneLabel:            "europe-west4-b",
					corev1.LabelInstanceTypeStable: "g2-standard-48",
					"team":                         "serving",
				} {
					if p.Labels[k] != v {
						t.Errorf("label %s = %q, want %q", k, p.Labels[k], v)
					}
				}
				if diff := cmp.Diff([]corev1.Taint{{Key: "dedicated", Value: "inference", Effect: corev1.TaintEffectNoSchedule}}, p.Taints); diff != "" {
					t.Errorf("taints (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "a zone whose prefix is no region; the accelerator taint written out once",
			file: header + "pools:\n- name: v6e\n  zone: a--b\n  taints: [\"google.com/tpu=present:NoSchedule\"]\n  tpu: {accelerator: tpu-v6e-slice, topology: 4x4, chipsPerNode: 4}\n",
			check: func(t *testing.T, pools []ExpandedPool) {
				if region, ok := pools[0].Labels[corev1.LabelTopologyRegion]; ok {
					t.Errorf("region label %q", region)
				}
				if diff := cmp.Diff([]corev1.Taint{{Key: "google.com/tpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}}, pools[0].Taints); diff != "" {
					t.Errorf("taints (-want +got):\n%s", diff)
				}
			},
		},
		{
			name: "gpu pool with a topology: nodes follow from it, each pool of a count its own",
			file: header + `
pools:
- name: h100
  count: 2
  zone: us-central1-a
  gpu: {model: nvidia-h100-80gb, perNode: 8}
  topology: {blocks: 2, subblocksPerBlock: 2, hostsPerSubblock: 4}
`,
			check: func(t *testing.T, pools []ExpandedPool) {
				if got := names(pools); !cmp.Equal(got, []string{"h100-0", "h100-1"}) {
					t.Fatalf("names = %v", got)
				}
				for _, p := range pools {
					if p.Nodes != 16 {
						t.Errorf("%s: nodes = %d, want 16 (2 × 2 × 4)", p.Name, p.Nodes)
					}
					if diff := cmp.Diff(&GPUTopology{Blocks: 2, SubblocksPerBlock: 2, HostsPerSubblock: 4}, p.Topology); diff != "" {
						t.Errorf("%s: topology (-want +got):\n%s", p.Name, diff)
					}
					// Per node, not per pool.
					if _, ok := p.Labels[wellknown.GCETopologyBlockLabel]; ok {
						t.Errorf("%s: pool labels %v", p.Name, p.Labels)
					}
				}
				if pools[0].Topology == pools[1].Topology {
					t.Error("the pools share one topology")
				}
			},
		},
		{
			name: "gpu pool with a topology and the matching node count",
			file: header + "pools:\n- name: h100\n  nodes: 6\n  gpu: {model: nvidia-h100-80gb, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 3, hostsPerSubblock: 2}\n",
			check: func(t *testing.T, pools []ExpandedPool) {
				if pools[0].Nodes != 6 {
					t.Errorf("nodes = %d", pools[0].Nodes)
				}
			},
		},
		{
			name: "explicit node count that matches the topology",
			file: header + "pools:\n- name: v6e\n  nodes: 4\n  tpu: {accelerator: tpu-v6e-slice, topology: 4x4, chipsPerNode: 4}\n",
			check: func(t *testing.T, pools []ExpandedPool) {
				if pools[0].Nodes != 4 {
					t.Errorf("nodes = %d", pools[0].Nodes)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			pools, err := Parse([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			tc.check(t, pools)
		})
	}
}

func TestParseErrorsNameTheField(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string
	}{
		{"empty", "", []string{"empty node pool file"}},
		{"wrong kind", "apiVersion: v1\nkind: Node\npools: [{name: a, nodes: 1}]\n", []string{"apiVersion: must be", "kind: must be"}},
		{"unknown field", header + "pools:\n- name: a\n  nodes: 1\n  gpus: 3\n", []string{`unknown field "pools[0].gpus"`}},
		{"no pools", header + "pools: []\n", []string{"pools: at least one pool"}},
		{"missing name", header + "pools:\n- nodes: 1\n", []string{"pools[0].name: is required"}},
		{"bad name", header + "pools:\n- name: Bad_Name\n  nodes: 1\n", []string{"pools[0].name:"}},
		{"cpu pool without nodes", header + "pools:\n- name: cpu\n", []string{"pools[0].nodes: is required"}},
		{"negative count", header + "pools:\n- name: a\n  nodes: 1\n  count: -1\n", []string{"pools[0].count: must not be negative"}},
		{"bad quantity", header + "pools:\n- name: a\n  nodes: 1\n  memory: lots\n", []string{`pools[0].memory: "lots" is not a quantity`}},
		{"bad default", header + "defaults: {cpu: x}\npools:\n- name: a\n  nodes: 1\n", []string{`defaults.cpu: "x" is not a quantity`}},
		{"bad topology", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 2by4, chipsPerNode: 4}\n", []string{"pools[0].tpu.topology:"}},
		{"missing topology", header + "pools:\n- name: t\n  tpu: {accelerator: a, chipsPerNode: 4}\n", []string{"pools[0].tpu.topology: is required"}},
		{"missing accelerator", header + "pools:\n- name: t\n  tpu: {topology: 2x4, chipsPerNode: 4}\n", []string{"pools[0].tpu.accelerator: is required"}},
		{"nodes disagree with topology", header + "pools:\n- name: ok\n  nodes: 1\n- name: t\n  nodes: 3\n  tpu: {accelerator: a, topology: 4x4, chipsPerNode: 4}\n",
			[]string{"pools[1].nodes: 3 nodes × 4 chips = 12 chips, but topology 4x4 has 16 chips"}},
		{"chips not divisible", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 2x3, chipsPerNode: 4}\n", []string{"pools[0].tpu.chipsPerNode: topology 2x3 has 6 chips, not a multiple of 4"}},
		{"tpu and gpu", header + "pools:\n- name: t\n  nodes: 1\n  tpu: {accelerator: a, topology: 2x2, chipsPerNode: 4}\n  gpu: {model: m, perNode: 1}\n", []string{"pools[0].gpu: a pool has either tpu or gpu"}},
		{"gpu count", header + "pools:\n- name: g\n  nodes: 1\n  gpu: {model: nvidia-l4, perNode: 0}\n", []string{"pools[0].gpu.perNode: must be positive"}},
		{"bad taint", header + "pools:\n- name: a\n  nodes: 1\n  taints: [\"k=v\"]\n", []string{"pools[0].taints[0]:", "want key[=value]:Effect"}},
		{"bad taint effect", header + "pools:\n- name: a\n  nodes: 1\n  taints: [\"k=v:Sometimes\"]\n", []string{"pools[0].taints[0]:", "effect must be"}},
		{"bad label", header + "pools:\n- name: a\n  nodes: 1\n  labels: {\"a b\": x}\n", []string{`pools[0].labels: key "a b"`}},
		{"duplicate pool from count", header + "pools:\n- name: v5e-1\n  nodes: 1\n- name: v5e\n  count: 2\n  nodes: 1\n", []string{`pools[1].name: pool "v5e-1" is also defined by pools[0]`}},
		{"several errors at once", header + "pools:\n- name: a\n- name: b\n  nodes: 1\n  cpu: \"-2\"\n", []string{"pools[0].nodes", "pools[1].cpu: must be positive"}},
		// Caught by FuzzParseFields: each passed validation, and then either
		// allocated without bound or made nodes the apiserver rejects.
		{"huge count", header + "pools:\n- name: a\n  nodes: 1\n  count: 1000000000\n", []string{"pools[0].count: must be at most 10000, got 1000000000"}},
		{"huge node number", header + "pools:\n- name: a\n  nodes: 1000000000\n", []string{"pools[0].nodes: must be at most 10000"}},
		{"too many nodes in all", header + "pools:\n- name: a\n  nodes: 6000\n- name: b\n  nodes: 6000\n", []string{"pools: 12000 nodes in all, more than the local cluster runs (10000)"}},
		{"a topology label set by hand too", header + "pools:\n- name: h100\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 1, hostsPerSubblock: 2}\n  labels: {cloud.google.com/gce-topology-block: b0}\n",
			[]string{`pools[0].labels: key "cloud.google.com/gce-topology-block": topology sets it on each node`}},
		{"topology of too many nodes", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 1000x1000, chipsPerNode: 1}\n", []string{"pools[0].tpu.topology: topology 1000x1000 has 1000000 chips"}},
		{"overflowing topology", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 9223372036854775807x2, chipsPerNode: 1}\n", []string{"pools[0].tpu.topology:", "more chips than can be counted"}},
		{"signed topology, no label value", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: +2x4, chipsPerNode: 4}\n", []string{`pools[0].tpu.topology: "+2x4": dimension "+2"`}},
		{"node name too long for its hostname label", header + "pools:\n- name: " + strings.Repeat("p", 60) + "\n  nodes: 1\n", []string{"pools[0].name: too long: node " + strings.Repeat("p", 60) + "-node-0 has 67 characters"}},
		{"fractional pods", header + "pools:\n- name: a\n  nodes: 1\n  pods: \"1.5\"\n", []string{"pools[0].pods: must be a whole number, got 1500m"}},
		{"two taints of one key and effect", header + "pools:\n- name: a\n  nodes: 1\n  taints: [\"a=b:NoSchedule\", \"a=c:NoSchedule\"]\n", []string{`pools[0].taints[1]: "a=c:NoSchedule": a node has one taint of key a and effect NoSchedule; taints[0] is another`}},
		{"topology disagrees with nodes", header + "pools:\n- name: h100\n  nodes: 12\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 2, subblocksPerBlock: 2, hostsPerSubblock: 4}\n",
			[]string{"pools[0].nodes: 12 nodes, but topology 2 blocks × 2 subblocks × 4 hosts has 16 (one node a host)"}},
		{"topology counts below one", header + "pools:\n- name: h100\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 0, subblocksPerBlock: -1}\n",
			[]string{"pools[0].topology.blocks: must be at least 1, got 0", "pools[0].topology.subblocksPerBlock: must be at least 1, got -1",
				"pools[0].topology.hostsPerSubblock: must be at least 1, got 0"}},
		{"topology without gpu", header + "pools:\n- name: cpu\n  topology: {blocks: 1, subblocksPerBlock: 1, hostsPerSubblock: 2}\n",
			[]string{"pools[0].topology: only a GPU pool has GKE's topology of blocks, subblocks and hosts (set gpu)"}},
		{"topology on a tpu pool", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 2x4, chipsPerNode: 4}\n  topology: {blocks: 1, subblocksPerBlock: 1, hostsPerSubblock: 2}\n",
			[]string{"pools[0].topology: only a GPU pool"}},
		{"topology of too many nodes", header + "pools:\n- name: h100\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 10000, subblocksPerBlock: 10000, hostsPerSubblock: 10000}\n",
			[]string{"pools[0].topology: 10000 blocks × 10000 subblocks × 10000 hosts = 1000000000000 nodes: more than 10000"}},
		{"huge topology count", header + "pools:\n- name: h100\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 1, hostsPerSubblock: 1000000000}\n",
			[]string{"pools[0].topology.hostsPerSubblock: must be at most 10000"}},
		// Node pppp…-1-node-99 has 63 characters, its host label 64.
		{"host label too long", header + "pools:\n- name: " + strings.Repeat("p", 53) + "\n  count: 2\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 10, hostsPerSubblock: 10}\n",
			[]string{"pools[0].topology: the last node's cloud.google.com/gce-topology-host label \"" + strings.Repeat("p", 53) + "-1-b0-s9-h9\": must be no more than 63 bytes"}},
		{"a taint clashing with the accelerator taint", header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 2x4, chipsPerNode: 4}\n  taints: [\"google.com/tpu=x:NoSchedule\"]\n",
			[]string{`pools[0].taints[0]: "google.com/tpu=x:NoSchedule": the nodes get GKE's accelerator taint google.com/tpu=present:NoSchedule; set acceleratorTaint: false`}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse([]byte(tc.file))
			if err == nil {
				t.Fatal("no error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
		})
	}
}

func TestTopologyChips(t *testing.T) {
	tests := []struct {
		in      string
		want    int64
		wantErr bool
	}{
		{"2x4", 8, false},
		{"4x4", 16, false},
		{"4x4x4", 64, false},
		{"1x1", 1, false},
		{"8", 0, true},
		{"2x0", 0, true},
		{"2x4x4x4", 0, true},
		{"axb", 0, true},
		{"", 0, true},
		{"+2x4", 0, true},
		{"9223372036854775807x2", 0, true},
		{"3037000500x3037000500", 0, true},
		{strings.Repeat("0", 62) + "2x4", 0, true}, // not a label value
	}
	for _, tc := range tests {
		got, err := TopologyChips(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("TopologyChips(%q) = %d, %v; want %d, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

func TestParseTaint(t *testing.T) {
	tests := []struct {
		in      string
		want    corev1.Taint
		wantErr bool
	}{
		{"google.com/tpu=present:NoSchedule", corev1.Taint{Key: "google.com/tpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}, false},
		{"spot:PreferNoSchedule", corev1.Taint{Key: "spot", Effect: corev1.TaintEffectPreferNoSchedule}, false},
		{"a=b:NoExecute", corev1.Taint{Key: "a", Value: "b", Effect: corev1.TaintEffectNoExecute}, false},
		{"a=b", corev1.Taint{}, true},
		{"=b:NoSchedule", corev1.Taint{}, true},
		{"a=b:noschedule", corev1.Taint{}, true},
	}
	for _, tc := range tests {
		got, err := ParseTaint(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseTaint(%q) = %+v, %v; want %+v, err=%v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// The shipped example file must stay valid and describe the pools the
// examples and the end-to-end tests rely on.
func TestShippedExampleFile(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	path := filepath.Join(filepath.Dir(self), "..", "..", "..", "manifests", "examples", "nodepools.yaml")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	cfg, err := LoadConfig(path)
	if err != nil {
		t.Fatal(err)
	}
	pools := cfg.Pools
	count := map[string]int{}
	for _, p := range pools {
		key := p.Labels[wellknown.TPUAcceleratorLabel] + "/" + p.Labels[wellknown.TPUTopologyLabel] + p.Labels[wellknown.GPUAcceleratorLabel]
		count[key]++
	}
	for key, want := range map[string]int{"tpu-v5-lite-podslice/2x4": 3, "tpu-v6e-slice/4x4": 4} {
		if count[key] != want {
			t.Errorf("%d pools of %s, want %d", count[key], key, want)
		}
	}
	// The GPU fleet of the gpu-topology examples, whose ResourceFlavor
	// selects it by name and whose ClusterQueue has its 128 GPUs.
	h100 := slices.IndexFunc(pools, func(p ExpandedPool) bool { return p.Name == "gpu-h100" })
	if h100 < 0 {
		t.Fatalf("no pool gpu-h100 among %v", names(pools))
	}
	if p := pools[h100]; !cmp.Equal(p.Topology, &GPUTopology{Blocks: 2, SubblocksPerBlock: 2, HostsPerSubblock: 4}) ||
		p.Labels[wellknown.GPUAcceleratorLabel] != "nvidia-h100-80gb" || p.Capacity.Name(wellknown.ResourceGPU, resource.DecimalSI).Value() != 8 {
		t.Errorf("pool gpu-h100: topology %+v, labels %v, capacity %v; want 2 blocks × 2 subblocks × 4 hosts of 8 nvidia-h100-80gb", p.Topology, p.Labels, p.Capacity)
	}
	// Seed 003's GPU Job runs on queued provisioning in the zones its
	// README section names.
	qp := cfg.QueuedProvisioning
	if qp == nil {
		t.Fatal("no queuedProvisioning block")
	}
	var zones []string
	for _, z := range qp.Zones {
		zones = append(zones, z.Name)
	}
	if diff := cmp.Diff([]string{"us-central1-a", "us-central1-b"}, zones); diff != "" {
		t.Errorf("queued provisioning zones (-want +got):\n%s", diff)
	}
	if qp.Machine.Accelerator != "nvidia-l4" {
		t.Errorf("queued provisioning accelerator = %q", qp.Machine.Accelerator)
	}
}

func names(pools []ExpandedPool) []string {
	var out []string
	for _, p := range pools {
		out = append(out, p.Name)
	}
	return out
}

func equalResources(a, b corev1.ResourceList) bool {
	if len(a) != len(b) {
		return false
	}
	for k, q := range a {
		o, ok := b[k]
		if !ok || q.Cmp(o) != 0 {
			return false
		}
	}
	return true
}
