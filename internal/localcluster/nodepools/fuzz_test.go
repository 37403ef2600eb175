package nodepools

// Fuzz targets for the node pool file, which users write by hand and edit
// while the cluster runs: any bytes, files built from any field values,
// and the taint and topology syntaxes. Each checks that nothing panics,
// that every error names its field (pools[1].nodes: ...), or is the
// decoder's own for what is not YAML or not of the file's types, and that
// a file Parse accepts gives Nodes the apiserver accepts: ValidateNode, the
// apiserver's own validation, passes on every node, and a file cannot ask
// for more nodes than the local cluster runs.
//
// The seed corpora are the node pool files under manifests/examples and
// the inputs of this package's table tests; `make test-fuzz` runs every
// target.

import (
	"bytes"
	"fmt"
	"io/fs"
	"math/big"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	k8score "k8s.io/kubernetes/pkg/apis/core"
	k8scorev1 "k8s.io/kubernetes/pkg/apis/core/v1"
	k8svalidation "k8s.io/kubernetes/pkg/apis/core/validation"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// fuzzExampleFiles returns the node pool files under manifests/examples.
func fuzzExampleFiles(f *testing.F) [][]byte {
	f.Helper()
	var out [][]byte
	err := filepath.WalkDir("../../../manifests/examples", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".yaml") {
			return err
		}
		data, err := os.ReadFile(path)
		if err == nil && strings.Contains(string(data), "\nkind: "+Kind+"\n") {
			out = append(out, data)
		}
		return err
	})
	if err != nil || len(out) == 0 {
		f.Fatalf("no node pool files in manifests/examples (err %v)", err)
	}
	return out
}

// fuzzTableFiles are inputs of the table tests, valid and not.
var fuzzTableFiles = []string{
	header + "pools:\n- name: v5e\n  count: 3\n  zone: us-west4-a\n  tpu: {accelerator: tpu-v5-lite-podslice, topology: 2x4, chipsPerNode: 4}\n",
	header + "defaults: {zone: europe-west4-b, cpu: \"16\", memory: 64Gi}\npools:\n- name: l4\n  nodes: 2\n  memory: 32Gi\n  machineType: g2-standard-48\n" +
		"  gpu: {model: nvidia-l4, perNode: 4}\n  acceleratorTaint: false\n  taints: [\"dedicated=inference:NoSchedule\"]\n  labels: {team: serving}\n",
	header + "pools:\n- name: a\n  nodes: 1\n  gpus: 3\n",
	header + "pools:\n- name: t\n  nodes: 3\n  tpu: {accelerator: a, topology: 4x4, chipsPerNode: 4}\n",
	header + "pools:\n- name: t\n  tpu: {accelerator: a, topology: 2x3, chipsPerNode: 4}\n",
	header + "pools:\n- name: v5e-1\n  nodes: 1\n- name: v5e\n  count: 2\n  nodes: 1\n",
	header + "pools:\n- name: a\n- name: b\n  nodes: 1\n  cpu: \"-2\"\n",
	onePool + "queuedProvisioning:\n  delay: 0s\n  bookingTime: 90s\n  machine: {type: g2-standard-48, accelerator: nvidia-l4, gpusPerNode: 4, pods: \"32\"," +
		" taints: [\"cloud.google.com/gke-queued=true:NoSchedule\"]}\n  zones: [{name: us-central1-a, maxNodes: 2}, {name: us-central1-b, maxNodes: 1}]\n",
	onePool + "queuedProvisioning:\n  delay: soon\n  machine: {gpusPerNode: 4}\n  zones: [{name: us-central1-a, maxNodes: 1}, {name: us-central1-a}]\n",
	onePool + autoBlock,
	header + "pools:\n- name: gpu-h100\n  count: 2\n  gpu: {model: nvidia-h100-80gb, perNode: 8}\n  topology: {blocks: 2, subblocksPerBlock: 2, hostsPerSubblock: 4}\n",
	header + "pools:\n- name: h\n  nodes: 3\n  topology: {blocks: 0, subblocksPerBlock: 2, hostsPerSubblock: 2}\n",
	onePool + "autoProvisioning:\n  drainTime: 0s\n  machines: [{type: g2-standard-24, gpu: {perNode: 0}}, {type: g2-standard-24}]\n" +
		"  spot: {interval: 1s, capacity: [{machineType: a2, zone: \"a b\", maxNodes: -1}]}\n",
}

// fuzzErrorLine matches the start of each error Parse returns for a YAML
// document: a field of the file, or the JSON decoder's message naming the
// field it could not decode.
var fuzzErrorLine = regexp.MustCompile(`^(apiVersion|kind|pools|defaults\.[a-z]+|(queuedProvisioning|autoProvisioning)(\.[a-zA-Z]+(\[\d+\])?)*)(\[\d+\](\.[a-zA-Z]+(\.[a-zA-Z]+)?(\[\d+\])?)?)?: ` +
	`|^empty node pool file$|^error unmarshaling JSON: |^json: |^(unknown|duplicate) field "`)

// fuzzCheckFile parses data and checks the result: the YAML decoder's error
// for what is not YAML, else each error against fuzzErrorLine, an accepted
// file with fuzzCheckConfig. It returns the error.
func fuzzCheckFile(t *testing.T, data []byte) error {
	t.Helper()
	cfg, err := ParseConfig(data)
	pools, perr := Parse(data)
	if (err == nil) != (perr == nil) || len(pools) != len(cfg.Pools) {
		t.Fatalf("ParseConfig: %v; Parse: %v", err, perr)
	}
	if _, yerr := yaml.YAMLToJSONStrict(data); len(bytes.TrimSpace(data)) > 0 && yerr != nil {
		// Not YAML: the decoder's error as it is, which names the line
		// where it can.
		if err == nil || err.Error() != yerr.Error() {
			t.Fatalf("error %v for a file the YAML decoder rejects with %v", err, yerr)
		}
		return err
	}
	if err != nil {
		for _, e := range fuzzLeafErrors(err) {
			if !fuzzErrorLine.MatchString(e.Error()) {
				t.Fatalf("error %q names no field (in %q)", e, err)
			}
		}
		return err
	}
	fuzzCheckConfig(t, cfg)
	return nil
}

// fuzzLeafErrors flattens the errors.Join trees Parse returns.
func fuzzLeafErrors(err error) []error {
	joined, ok := err.(interface{ Unwrap() []error })
	if !ok {
		return []error{err}
	}
	var out []error
	for _, e := range joined.Unwrap() {
		out = append(out, fuzzLeafErrors(e)...)
	}
	return out
}

// fuzzCheckConfig checks an accepted file: pools with unique valid names,
// 1..maxNodes nodes in all, and Nodes the apiserver accepts (ValidateNode),
// with the pools' labels and taints; a queuedProvisioning block with
// durations, zones and taints the provisioner can use as they are.
func fuzzCheckConfig(t *testing.T, cfg Config) {
	t.Helper()
	total, seen := 0, map[string]bool{}
	for _, p := range cfg.Pools {
		if len(validation.IsDNS1123Label(p.Name)) > 0 || seen[p.Name] || p.Nodes < 1 {
			t.Fatalf("pool %q (seen %v) of %d nodes", p.Name, seen[p.Name], p.Nodes)
		}
		seen[p.Name] = true
		total += p.Nodes
		if total > maxNodes {
			t.Fatalf("accepted %d nodes or more, more than %d", total, maxNodes)
		}
	}
	nodes := Nodes(cfg.Pools)
	if len(nodes) != total {
		t.Fatalf("%d nodes, want %d", len(nodes), total)
	}
	topologies := map[string]*GPUTopology{}
	for _, p := range cfg.Pools {
		if topo := p.Topology; topo != nil {
			if topo.Blocks < 1 || topo.SubblocksPerBlock < 1 || topo.HostsPerSubblock < 1 || p.Nodes != topo.Blocks*topo.SubblocksPerBlock*topo.HostsPerSubblock {
				t.Fatalf("pool %s of %d nodes has topology %+v", p.Name, p.Nodes, *topo)
			}
			topologies[p.Name] = topo
		}
	}
	hosts := map[string]string{}
	names := map[string]bool{}
	for _, n := range nodes {
		if pool := n.Labels[wellknown.NodePoolLabel]; topologies[pool] != nil {
			// GKE's GPU topology labels: each value under its parent's,
			// the pool's name first; each host one node.
			b, sb, h := n.Labels[wellknown.GCETopologyBlockLabel], n.Labels[wellknown.GCETopologySubblockLabel], n.Labels[wellknown.GCETopologyHostLabel]
			if !strings.HasPrefix(b, pool+"-b") || !strings.HasPrefix(sb, b+"-s") || !strings.HasPrefix(h, sb+"-h") || hosts[h] != "" {
				t.Fatalf("node %s of pool %s: block %q, subblock %q, host %q (host also of %q)", n.Name, pool, b, sb, h, hosts[h])
			}
			hosts[h] = n.Name
		}
		if names[n.Name] {
			t.Fatalf("two nodes named %s", n.Name)
		}
		names[n.Name] = true
		var internal k8score.Node
		if err := k8scorev1.Convert_v1_Node_To_core_Node(n, &internal, nil); err != nil {
			t.Fatalf("node %s: %v", n.Name, err)
		}
		if errs := k8svalidation.ValidateNode(&internal); len(errs) > 0 {
			t.Fatalf("the apiserver would reject node %s: %v", n.Name, errs.ToAggregate())
		}
		if n.Labels[wellknown.NodePoolLabel] == "" || n.Labels[ManagedLabel] != "true" {
			t.Fatalf("node %s labels %v", n.Name, n.Labels)
		}
	}
	fuzzCheckAutoProvisioning(t, cfg.AutoProvisioning)
	q := cfg.QueuedProvisioning
	if q == nil {
		return
	}
	if q.Delay < 0 || q.BookingTime <= 0 || len(q.Zones) == 0 || q.Machine.Capacity.Name(wellknown.ResourceGPU, "").Sign() <= 0 {
		t.Fatalf("queued provisioning %+v", q)
	}
	fuzzCheckTaints(t, q.Machine.Taints)
	zones := map[string]bool{}
	for _, z := range q.Zones {
		if zones[z.Name] || z.MaxNodes < 1 || len(validation.IsValidLabelValue(z.Name)) > 0 || len(validation.IsValidLabelValue(z.Region)) > 0 {
			t.Fatalf("zone %+v", z)
		}
		zones[z.Name] = true
	}
}

// fuzzCheckAutoProvisioning checks an accepted autoProvisioning block:
// positive times, machines of unique types whose nodes the apiserver
// accepts, capacities naming those machines in valid zones.
func fuzzCheckAutoProvisioning(t *testing.T, a *AutoProvisioning) {
	t.Helper()
	if a == nil {
		return
	}
	if a.DrainTime <= 0 || a.ScaleDownUnneededTime <= 0 || len(a.Machines) == 0 {
		t.Fatalf("auto-provisioning %+v", a)
	}
	for _, m := range a.Machines {
		if a.Machine(m.Type) != &a.Machines[slices.IndexFunc(a.Machines, func(o AutoMachine) bool { return o.Type == m.Type })] {
			t.Fatalf("machine %s is not found as itself", m.Type)
		}
		fuzzCheckTaints(t, m.Template.Taints)
		n := m.Template.BuildNode("n")
		var internal k8score.Node
		if err := k8scorev1.Convert_v1_Node_To_core_Node(n, &internal, nil); err != nil {
			t.Fatal(err)
		}
		if errs := k8svalidation.ValidateNode(&internal); len(errs) > 0 {
			t.Fatalf("the apiserver would reject a node of machine %s: %v", m.Type, errs.ToAggregate())
		}
	}
	for _, c := range []*Capacity{a.Spot, a.FlexStart, a.OnDemand} {
		if c == nil {
			continue
		}
		if c.Delay < 0 || (c == a.FlexStart) != (c.Interval > 0) {
			t.Fatalf("capacity %+v", c)
		}
		for _, z := range c.Zones {
			if a.Machine(z.MachineType) == nil || z.MaxNodes < 0 || len(validation.IsValidLabelValue(z.Zone)) > 0 || len(validation.IsValidLabelValue(z.Region)) > 0 {
				t.Fatalf("zone capacity %+v", z)
			}
		}
	}
}

// fuzzCheckTaints checks that taints can all be on one node: valid, and
// unique by key and effect.
func fuzzCheckTaints(t *testing.T, taints []corev1.Taint) {
	t.Helper()
	seen := map[string]bool{}
	for _, taint := range taints {
		if seen[taintKey(taint)] || len(validation.IsQualifiedName(taint.Key)) > 0 || len(validation.IsValidLabelValue(taint.Value)) > 0 {
			t.Fatalf("taints %v", taints)
		}
		seen[taintKey(taint)] = true
	}
}

// FuzzParse parses any bytes as a node pool file, seeded with the files
// of manifests/examples and the table tests' inputs.
func FuzzParse(f *testing.F) {
	for _, data := range fuzzExampleFiles(f) {
		f.Add(data)
	}
	for _, s := range fuzzTableFiles {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fuzzCheckFile(t, data)
	})
}

// FuzzParseFields builds a file of one pool (and a queuedProvisioning
// block) from any field values, so that the fuzzer explores values rather
// than YAML syntax: counts and node numbers negative, zero and huge,
// quantities, names, zones, TPU topologies, GPU pools' blocks, subblocks
// and hosts (accel bit 4), taints and labels. Besides the
// checks of FuzzParse, each invalid field must be reported under its name,
// and ParseTaint and TopologyChips are checked on the taint and topology
// alone (fuzzCheckTaintAndTopology).
func FuzzParseFields(f *testing.F) {
	f.Add("tpu-v5e-2x4", 3, 0, "us-west4-a", "ct5lp-hightpu-4t", "224", "400Gi", "", uint8(1), "tpu-v5-lite-podslice", "2x4", int64(4),
		"team", "ml", "dedicated=ml:NoSchedule", uint8(0), "5s", "us-central1-a", 2, int64(4), "", 0, 0, 0)
	f.Add("gpu-l4", 0, 2, "us-central1-a", "g2-standard-48", "48", "192Gi", "110", uint8(2), "nvidia-l4", "", int64(4),
		"", "", "", uint8(2), "", "us-central1-b", 1, int64(1), "cloud.google.com/gke-queued=true:NoSchedule", 0, 0, 0)
	f.Add("default-pool", 0, 1, "", "", "8", "32Gi", "", uint8(0), "", "", int64(0), "", "", "", uint8(0), "", "", 0, int64(0), "", 0, 0, 0)
	f.Add("t", 1000000000, 0, "a--b", "x", "1e100", "-1", "1.5", uint8(1), "a", "9223372036854775807x2", int64(1),
		"a b", "", "google.com/tpu=x:NoSchedule", uint8(1), "-1s", "us-central1-a", -1, int64(-4), "nvidia.com/gpu=present:NoSchedule", 0, 0, 0)
	f.Add(strings.Repeat("p", 60), 0, 1, "", "", "", "", "", uint8(0), "", "", int64(0), "", "", "", uint8(0), "", "", 0, int64(0), "", 0, 0, 0)
	f.Add("a", 0, 1, "a--b", "", "", "", "1.5", uint8(0), "", "", int64(0), "", "", "", uint8(0), "", "a.-b", 1, int64(1), "", 0, 0, 0)
	f.Add("v6e", 0, 0, "", "", "", "", "", uint8(1), "tpu-v6e-slice", "4x4", int64(4), "", "", "google.com/tpu=x:NoSchedule", uint8(0), "", "us-east5-b", 1, int64(1), "nvidia.com/gpu=present:NoSchedule", 0, 0, 0)
	f.Add(strings.Repeat("p", 60), 2, 1, "", "", "", "", "", uint8(3), "a", "+2x4", int64(4), "", "", "k=v", uint8(0), "", "zone.-x", 1, int64(1), "", 0, 0, 0)
	// Both accelerators, neither with a per-node count: every field is named.
	f.Add("0", 0, 1, "", "", "0", "0", "", uint8(3), "", "", int64(0), "", "", "", uint8(0), "", "", 0, int64(0), "", 0, 0, 0)
	// GPU pools with a topology (accel bit 4): valid, one disagreeing with
	// nodes, one without gpu, counts below one and huge, a host label too long.
	f.Add("gpu-h100", 0, 0, "us-central1-a", "a3-highgpu-8g", "208", "1872Gi", "", uint8(6), "nvidia-h100-80gb", "", int64(8),
		"", "", "", uint8(0), "", "", 0, int64(0), "", 2, 2, 4)
	f.Add("h100", 3, 0, "", "", "", "", "", uint8(6), "nvidia-h100-80gb", "", int64(8), "", "", "", uint8(2), "", "", 0, int64(0), "", 1, 3, 2)
	f.Add("h100", 0, 12, "", "", "", "", "", uint8(6), "nvidia-h100-80gb", "", int64(8), "", "", "", uint8(0), "", "", 0, int64(0), "", 2, 2, 4)
	f.Add("cpu", 0, 0, "", "", "", "", "", uint8(4), "", "", int64(0), "", "", "", uint8(0), "", "", 0, int64(0), "", 1, 1, 2)
	f.Add("h100", 0, 0, "", "", "", "", "", uint8(7), "a", "2x4", int64(4), "", "", "", uint8(0), "", "", 0, int64(0), "", 0, -1, 1000000000)
	f.Add("h", 0, 0, "", "", "", "", "", uint8(6), "m", "", int64(1), "", "", "", uint8(0), "", "", 0, int64(0), "", 10000, 10000, 10000)
	f.Add(strings.Repeat("p", 53), 2, 0, "", "", "", "", "", uint8(6), "m", "", int64(1), "", "", "", uint8(0), "", "", 0, int64(0), "", 1, 10, 10)
	// The table tests' taints and topologies, each in an otherwise valid
	// TPU pool.
	for _, s := range []struct{ taint, topology string }{
		{"google.com/tpu=present:NoSchedule", "2x4"}, {"spot:PreferNoSchedule", "4x4x4"}, {"a=b:NoExecute", "1x1"},
		{"a=b", "8"}, {"=b:NoSchedule", "2x0"}, {"a=b:noschedule", "2x4x4x4"}, {"a=b=c:NoSchedule", "axb"}, {"", ""},
		{"k:v:NoSchedule", "+2x4"}, {"a/b/c=d:NoExecute", "9223372036854775807x2"}, {"x=" + strings.Repeat("v", 64) + ":NoSchedule", "3037000500x3037000500"},
	} {
		f.Add("t", 0, 0, "", "", "", "", "", uint8(1), "tpu-v5-lite-podslice", s.topology, int64(1), "", "", s.taint, uint8(2), "", "", 0, int64(0), "", 0, 0, 0)
	}
	f.Fuzz(func(t *testing.T, name string, count, nodes int, zone, machineType, cpu, memory, pods string, accel uint8, accelerator, topology string,
		perNode int64, labelKey, labelValue, taint string, acceleratorTaint uint8, delay, queuedZone string, zoneMaxNodes int, gpusPerNode int64, queuedTaint string,
		blocks, subblocks, hosts int) {
		p := Pool{Name: name, Count: count, Nodes: nodes, Zone: zone, MachineType: machineType, CPU: cpu, Memory: memory, Pods: pods}
		if accel&1 != 0 {
			p.TPU = &TPU{Accelerator: accelerator, Topology: topology, ChipsPerNode: perNode}
		}
		if accel&2 != 0 {
			p.GPU = &GPU{Model: accelerator, PerNode: perNode}
		}
		if accel&4 != 0 {
			p.Topology = &GPUTopology{Blocks: blocks, SubblocksPerBlock: subblocks, HostsPerSubblock: hosts}
		}
		if labelKey != "" {
			p.Labels = map[string]string{labelKey: labelValue}
		}
		if taint != "" {
			p.Taints = []string{taint}
		}
		if acceleratorTaint != 0 {
			p.AcceleratorTaint = &[]bool{acceleratorTaint == 1}[0]
		}
		file := File{APIVersion: APIVersion, Kind: Kind, Pools: []Pool{p}}
		if queuedZone != "" {
			file.QueuedProvisioning = &QueuedProvisioningSpec{Delay: delay,
				Machine: MachineSpec{Accelerator: "nvidia-l4", GPUsPerNode: gpusPerNode, Type: machineType},
				Zones:   []ZoneSpec{{Name: queuedZone, MaxNodes: zoneMaxNodes}}}
			if queuedTaint != "" {
				file.QueuedProvisioning.Machine.Taints = []string{queuedTaint}
			}
		}
		data, err := yaml.Marshal(file)
		if err != nil {
			return // a value YAML cannot hold (control characters): no file has it
		}
		fuzzCheckTaintAndTopology(t, taint, topology)
		err = fuzzCheckFile(t, data)
		longest := name // of the pools the entry expands to
		if count > 1 {
			longest = fmt.Sprintf("%s-%d", name, count-1)
		}
		for field, bad := range map[string]bool{
			"pools[0].count":                         count < 0 || count > maxNodes,
			"pools[0].nodes":                         nodes < 0 || nodes > maxNodes,
			"pools[0].nodes: is required":            p.TPU == nil && p.Topology == nil && nodes == 0,
			"pools[0].name":                          len(validation.IsDNS1123Label(longest)) > 0,
			"pools[0].zone":                          zone != "" && len(validation.IsValidLabelValue(zone)) > 0,
			"pools[0].machineType":                   machineType != "" && len(validation.IsValidLabelValue(machineType)) > 0,
			"pools[0].labels":                        labelKey != "" && len(validation.IsQualifiedName(labelKey)) > 0,
			"pools[0].taints[0]":                     taint != "" && !strings.Contains(taint, ":"),
			"pools[0].gpu: a pool has either":        p.TPU != nil && p.GPU != nil,
			"pools[0].tpu.chipsPerNode":              p.TPU != nil && perNode <= 0,
			"pools[0].gpu.perNode":                   p.GPU != nil && p.TPU == nil && perNode <= 0,
			"pools[0].topology.blocks":               p.Topology != nil && (blocks < 1 || blocks > maxNodes),
			"pools[0].topology.subblocksPerBlock":    p.Topology != nil && (subblocks < 1 || subblocks > maxNodes),
			"pools[0].topology.hostsPerSubblock":     p.Topology != nil && (hosts < 1 || hosts > maxNodes),
			"pools[0].topology: only a GPU pool":     p.Topology != nil && p.GPU == nil,
			"pools[0].nodes: ":                       p.Topology != nil && blocks > 0 && subblocks > 0 && hosts > 0 && nodes != 0 && int64(nodes) != int64(blocks)*int64(subblocks)*int64(hosts),
			"queuedProvisioning.zones[0].name":       queuedZone != "" && len(validation.IsValidLabelValue(queuedZone)) > 0,
			"queuedProvisioning.zones[0].maxNodes":   queuedZone != "" && zoneMaxNodes <= 0,
			"queuedProvisioning.machine.gpusPerNode": queuedZone != "" && gpusPerNode <= 0,
			"queuedProvisioning.machine.type":        queuedZone != "" && len(validation.IsValidLabelValue(machineType)) > 0,
			"queuedProvisioning.machine.taints[0]":   queuedZone != "" && queuedTaint != "" && !strings.Contains(queuedTaint, ":"),
		} {
			if bad && (err == nil || !strings.Contains(err.Error(), field)) {
				t.Fatalf("%s is invalid, but the error is %v (file:\n%s)", field, err, data)
			}
		}
	})
}

// fuzzCheckTaintAndTopology parses a taint and a TPU topology on their
// own. An accepted taint is valid on a node and reads back the same from
// its kubectl form; an accepted topology becomes a node label as it is,
// and its chip count is the product of its dimensions, not an overflowed
// one. An error about a taint quotes it.
func fuzzCheckTaintAndTopology(t *testing.T, s, topology string) {
	t.Helper()
	taint, err := ParseTaint(s)
	if err != nil {
		if !strings.HasPrefix(err.Error(), fmt.Sprintf("%q: ", s)) {
			t.Fatalf("ParseTaint(%q): error %q does not quote the taint", s, err)
		}
	} else {
		var internal k8score.Taint
		if err := k8scorev1.Convert_v1_Taint_To_core_Taint(&taint, &internal, nil); err != nil {
			t.Fatal(err)
		}
		node := &k8score.Node{}
		node.Name = "n"
		node.Spec.Taints = []k8score.Taint{internal}
		if errs := k8svalidation.ValidateNode(node); len(errs) > 0 {
			t.Fatalf("ParseTaint(%q) = %+v, which the apiserver rejects: %v", s, taint, errs.ToAggregate())
		}
		text := taint.Key
		if taint.Value != "" {
			text += "=" + taint.Value
		}
		if again, err := ParseTaint(text + ":" + string(taint.Effect)); err != nil || again != taint {
			t.Fatalf("ParseTaint(%q) = %+v, which reads back as %+v, %v", s, taint, again, err)
		}
	}

	chips, err := TopologyChips(topology)
	if err != nil {
		if err.Error() == "" {
			t.Fatalf("TopologyChips(%q): empty error", topology)
		}
		return
	}
	product := big.NewInt(1)
	for _, d := range strings.Split(topology, "x") {
		n, ok := new(big.Int).SetString(d, 10)
		if !ok {
			t.Fatalf("TopologyChips(%q) = %d, but %q is no number", topology, chips, d)
		}
		product.Mul(product, n)
	}
	if chips < 1 || product.Cmp(big.NewInt(chips)) != 0 || len(validation.IsValidLabelValue(topology)) > 0 {
		t.Fatalf("TopologyChips(%q) = %d; the dimensions multiply to %s; label value errors %v",
			topology, chips, product, validation.IsValidLabelValue(topology))
	}
}
