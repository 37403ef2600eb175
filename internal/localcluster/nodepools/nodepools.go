// Package nodepools reads the declarative file that describes the simulated
// accelerator node pools of the local cluster, and turns it into the Node
// objects that KWOK keeps alive.
//
// A pool is what GKE calls a node pool: a set of identical nodes sharing the
// cloud.google.com/gke-nodepool label. A multi-host TPU pool is one slice, so
// its node count follows from its topology and chips per node.
//
// The file may also configure the simulated queued provisioner
// (queuedProvisioning, queued.go) and the simulated node auto-provisioning
// for ComputeClasses (autoProvisioning, autoprovisioning.go); the nodes
// they create are not the file's and applying the file leaves them alone.
package nodepools

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	kjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// APIVersion and Kind identify a node pool file.
const (
	APIVersion = "localcluster.multislice-scheduler.io/v1alpha1"
	Kind       = "NodePools"
)

// File is the document in a node pool file.
type File struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	// Defaults apply to every pool that leaves the field empty.
	Defaults Defaults `json:"defaults,omitempty"`
	// Pools lists the pools; a pool with count N expands to N pools.
	Pools []Pool `json:"pools"`
	// QueuedProvisioning, when present, runs a simulated provider of
	// queued-provisioning.gke.io ProvisioningRequests (queued.go).
	QueuedProvisioning *QueuedProvisioningSpec `json:"queuedProvisioning,omitempty"`
	// AutoProvisioning, when present, runs a simulated GKE node
	// auto-provisioning for ComputeClasses (autoprovisioning.go).
	AutoProvisioning *AutoProvisioningSpec `json:"autoProvisioning,omitempty"`
}

// Config is a validated node pool file.
type Config struct {
	// Pools are the file's pools, each with a count of one.
	Pools []ExpandedPool
	// QueuedProvisioning is nil when the file has no queuedProvisioning
	// block: then no provisioner runs.
	QueuedProvisioning *QueuedProvisioning
	// AutoProvisioning is nil when the file has no autoProvisioning block:
	// then no node auto-provisioning runs.
	AutoProvisioning *AutoProvisioning
}

// Defaults are the per-node values a pool inherits.
type Defaults struct {
	Zone   string `json:"zone,omitempty"`
	CPU    string `json:"cpu,omitempty"`
	Memory string `json:"memory,omitempty"`
	Pods   string `json:"pods,omitempty"`
}

// Pool describes one pool, or `count` identical ones.
type Pool struct {
	// Name of the pool (the gke-nodepool label). With count > 1 the pools
	// are named <name>-0 … <name>-<count-1>.
	Name  string `json:"name"`
	Count int    `json:"count,omitempty"`
	// Nodes per pool. For a TPU pool it may be left out: it is the topology's
	// chip count divided by chipsPerNode. So for a GPU pool with a
	// topology: it is blocks × subblocksPerBlock × hostsPerSubblock.
	Nodes       int               `json:"nodes,omitempty"`
	Zone        string            `json:"zone,omitempty"`
	MachineType string            `json:"machineType,omitempty"`
	CPU         string            `json:"cpu,omitempty"`
	Memory      string            `json:"memory,omitempty"`
	Pods        string            `json:"pods,omitempty"`
	TPU         *TPU              `json:"tpu,omitempty"`
	GPU         *GPU              `json:"gpu,omitempty"`
	Labels      map[string]string `json:"labels,omitempty"`
	// Taints in kubectl syntax, key[=value]:Effect. TPU and GPU pools also
	// get GKE's accelerator taint (google.com/tpu=present:NoSchedule,
	// nvidia.com/gpu=present:NoSchedule) unless acceleratorTaint is false.
	Taints           []string `json:"taints,omitempty"`
	AcceleratorTaint *bool    `json:"acceleratorTaint,omitempty"`
	// Topology, for a GPU pool only, places its nodes in GKE's topology
	// of blocks, subblocks and hosts and labels them so (GPUTopology).
	Topology *GPUTopology `json:"topology,omitempty"`
}

// TPU makes a pool a TPU slice.
type TPU struct {
	// Accelerator is the gke-tpu-accelerator label, e.g. tpu-v5-lite-podslice.
	Accelerator string `json:"accelerator"`
	// Topology is the gke-tpu-topology label, e.g. 2x4 or 4x4.
	Topology string `json:"topology"`
	// ChipsPerNode is each node's google.com/tpu capacity.
	ChipsPerNode int64 `json:"chipsPerNode"`
}

// GPU gives each node of a pool GPUs.
type GPU struct {
	// Model is the gke-accelerator label, e.g. nvidia-l4.
	Model string `json:"model"`
	// PerNode is each node's nvidia.com/gpu capacity.
	PerNode int64 `json:"perNode"`
}

// GPUTopology arranges a GPU pool's nodes as GKE arranges GPU fleets:
// blocks of subblocksPerBlock subblocks of hostsPerSubblock hosts, one node
// a host. The pool has blocks × subblocksPerBlock × hostsPerSubblock nodes
// (nodes may be left out; if given it must be that product).
//
// Its nodes are labelled in node order, hosts of a subblock first: with P
// the pool's name (<name>-<i> for a pool of a count), node P-node-n is
// host h = n mod hostsPerSubblock of subblock s = (n div hostsPerSubblock)
// mod subblocksPerBlock of block b = n div (subblocksPerBlock ×
// hostsPerSubblock), and carries
//
//	cloud.google.com/gce-topology-block:    P-b<b>
//	cloud.google.com/gce-topology-subblock: P-b<b>-s<s>
//	cloud.google.com/gce-topology-host:     P-b<b>-s<s>-h<h>
//
// Each value names its parents and its pool, so values are unique
// across the file's pools, as GKE's are across a fleet.
type GPUTopology struct {
	Blocks            int `json:"blocks"`
	SubblocksPerBlock int `json:"subblocksPerBlock"`
	HostsPerSubblock  int `json:"hostsPerSubblock"`
}

// describe says what the topology is, e.g. "2 blocks × 2 subblocks × 4 hosts".
func (t *GPUTopology) describe() string {
	return fmt.Sprintf("%d blocks × %d subblocks × %d hosts", t.Blocks, t.SubblocksPerBlock, t.HostsPerSubblock)
}

// maxNodes bounds the nodes of a file, and so the count and nodes of each
// pool: every node is a KWOK node of the one local cluster, and a file
// asking for more (count: 1000000) is a mistake to report, not to try.
const maxNodes = 10000

// Built-in per-node defaults when neither the pool nor the file's defaults
// set a value.
const (
	defaultZone   = "us-central2-b"
	defaultCPU    = "32"
	defaultMemory = "128Gi"
	defaultPods   = "110"
)

// ExpandedPool is one concrete pool after defaults and count are applied.
type ExpandedPool struct {
	Name     string
	Nodes    int
	Labels   map[string]string
	Taints   []corev1.Taint
	Capacity corev1.ResourceList
	// Topology, when set, gives each node GKE's GPU topology labels
	// (TopologyLabels); Nodes is then its node count.
	Topology *GPUTopology
}

// NodeName is the name of the pool's i-th node.
func (p ExpandedPool) NodeName(i int) string { return fmt.Sprintf("%s-node-%d", p.Name, i) }

// TopologyLabels returns the GKE GPU topology labels of the pool's i-th
// node (GPUTopology says how they are named), nil for a pool without
// topology.
func (p ExpandedPool) TopologyLabels(i int) map[string]string {
	t := p.Topology
	if t == nil || t.SubblocksPerBlock < 1 || t.HostsPerSubblock < 1 {
		return nil
	}
	block := fmt.Sprintf("%s-b%d", p.Name, i/(t.SubblocksPerBlock*t.HostsPerSubblock))
	subblock := fmt.Sprintf("%s-s%d", block, i/t.HostsPerSubblock%t.SubblocksPerBlock)
	return map[string]string{
		wellknown.GCETopologyBlockLabel:    block,
		wellknown.GCETopologySubblockLabel: subblock,
		wellknown.GCETopologyHostLabel:     fmt.Sprintf("%s-h%d", subblock, i%t.HostsPerSubblock),
	}
}

// Load reads and validates a node pool file.
func Load(path string) ([]ExpandedPool, error) {
	cfg, err := LoadConfig(path)
	return cfg.Pools, err
}

// LoadConfig reads and validates a node pool file, queuedProvisioning
// block included.
func LoadConfig(path string) (Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return Config{}, err
	}
	cfg, err := ParseConfig(data)
	if err != nil {
		return Config{}, fmt.Errorf("%s: %w", path, err)
	}
	return cfg, nil
}

// Parse decodes a node pool file strictly (unknown fields are errors) and
// validates it. Errors name the offending field, e.g. pools[2].tpu.topology.
func Parse(data []byte) ([]ExpandedPool, error) {
	cfg, err := ParseConfig(data)
	return cfg.Pools, err
}

// ParseConfig is Parse that also returns the file's queuedProvisioning
// and autoProvisioning blocks.
func ParseConfig(data []byte) (Config, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		return Config{}, errors.New("empty node pool file")
	}
	jsonData, err := yaml.YAMLToJSONStrict(data)
	if err != nil {
		return Config{}, err
	}
	var f File
	strictErrs, err := kjson.UnmarshalStrict(jsonData, &f)
	if err != nil {
		return Config{}, err
	}
	if len(strictErrs) > 0 {
		return Config{}, errors.Join(strictErrs...)
	}
	return f.Config()
}

// Expand validates the file and returns its pools, each with a count of one.
func (f *File) Expand() ([]ExpandedPool, error) {
	cfg, err := f.Config()
	return cfg.Pools, err
}

// Config validates the whole file: its pools and its queuedProvisioning
// and autoProvisioning blocks. Every error is reported, each naming its field.
func (f *File) Config() (Config, error) {
	var errs []error
	if f.APIVersion != APIVersion {
		errs = append(errs, fmt.Errorf("apiVersion: must be %q, got %q", APIVersion, f.APIVersion))
	}
	if f.Kind != Kind {
		errs = append(errs, fmt.Errorf("kind: must be %q, got %q", Kind, f.Kind))
	}
	if len(f.Pools) == 0 {
		errs = append(errs, errors.New("pools: at least one pool is required"))
	}
	for field, v := range map[string]string{"defaults.cpu": f.Defaults.CPU, "defaults.memory": f.Defaults.Memory, "defaults.pods": f.Defaults.Pods} {
		if v != "" {
			if _, err := resource.ParseQuantity(v); err != nil {
				errs = append(errs, fmt.Errorf("%s: %q is not a quantity", field, v))
			}
		}
	}
	var out []ExpandedPool
	seen := map[string]string{}
	total := 0
	for i := range f.Pools {
		field := fmt.Sprintf("pools[%d]", i)
		pools, err := f.Pools[i].expand(field, f.Defaults)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		for _, p := range pools {
			total += p.Nodes
			if prev, dup := seen[p.Name]; dup {
				errs = append(errs, fmt.Errorf("%s.name: pool %q is also defined by %s", field, p.Name, prev))
				continue
			}
			seen[p.Name] = field
			out = append(out, p)
		}
	}
	if total > maxNodes {
		errs = append(errs, fmt.Errorf("pools: %d nodes in all, more than the local cluster runs (%d)", total, maxNodes))
	}
	var queued *QueuedProvisioning
	if f.QueuedProvisioning != nil {
		var err error
		if queued, err = f.QueuedProvisioning.expand(f.Defaults); err != nil {
			errs = append(errs, err)
		}
	}
	var auto *AutoProvisioning
	if f.AutoProvisioning != nil {
		var err error
		if auto, err = f.AutoProvisioning.expand(f.Defaults); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) > 0 {
		return Config{}, errors.Join(errs...)
	}
	return Config{Pools: out, QueuedProvisioning: queued, AutoProvisioning: auto}, nil
}

func (p *Pool) expand(field string, d Defaults) ([]ExpandedPool, error) {
	var errs []error
	fail := func(sub, format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s.%s: %s", field, sub, fmt.Sprintf(format, args...)))
	}

	count := p.Count
	switch {
	case count < 0:
		fail("count", "must not be negative, got %d", count)
	case count > maxNodes:
		fail("count", "must be at most %d, got %d", maxNodes, count)
	case count == 0:
		count = 1
	}
	// The longest generated pool name must still be a valid label value
	// (and node names too, below).
	longest := p.Name
	if p.Count > 1 {
		longest += "-" + strconv.Itoa(count-1)
	}
	if p.Name == "" {
		fail("name", "is required")
	} else {
		for _, msg := range validation.IsDNS1123Label(longest) {
			fail("name", "%q: %s", longest, msg)
		}
	}

	capacity := corev1.ResourceList{}
	quantity := func(sub, value, fallback, def string, res corev1.ResourceName) {
		if q, ok := positiveQuantity(fail, sub, firstNonEmpty(value, fallback, def)); ok {
			capacity[res] = q
		}
	}
	quantity("cpu", p.CPU, d.CPU, defaultCPU, corev1.ResourceCPU)
	quantity("memory", p.Memory, d.Memory, defaultMemory, corev1.ResourceMemory)
	quantity("pods", p.Pods, d.Pods, defaultPods, corev1.ResourcePods)
	wholePods(fail, "pods", capacity)

	labels := map[string]string{}
	for k, v := range p.Labels {
		for _, msg := range validation.IsQualifiedName(k) {
			fail("labels", "key %q: %s", k, msg)
		}
		for _, msg := range validation.IsValidLabelValue(v) {
			fail("labels", "value of %q: %s", k, msg)
		}
		labels[k] = v
	}
	zone := firstNonEmpty(p.Zone, d.Zone, defaultZone)
	for _, msg := range validation.IsValidLabelValue(zone) {
		fail("zone", "%q: %s", zone, msg)
	}
	labels[wellknown.ZoneLabel] = zone
	if region, ok := regionOf(zone); ok {
		labels[corev1.LabelTopologyRegion] = region
	}
	if p.MachineType != "" {
		for _, msg := range validation.IsValidLabelValue(p.MachineType) {
			fail("machineType", "%q: %s", p.MachineType, msg)
		}
		labels[corev1.LabelInstanceTypeStable] = p.MachineType
	}
	labels[corev1.LabelOSStable] = "linux"
	labels[corev1.LabelArchStable] = "amd64"

	var accelerator corev1.ResourceName
	if p.AcceleratorTaint == nil || *p.AcceleratorTaint {
		switch {
		case p.TPU != nil && p.GPU == nil:
			accelerator = wellknown.ResourceTPU
		case p.GPU != nil && p.TPU == nil:
			accelerator = wellknown.ResourceGPU
		}
	}
	taints := parseTaints(fail, "taints", p.Taints, accelerator, "set acceleratorTaint: false to set your own")

	nodes := p.Nodes
	switch {
	case p.Nodes < 0:
		fail("nodes", "must be positive, got %d", p.Nodes)
	case p.Nodes > maxNodes:
		fail("nodes", "must be at most %d, got %d", maxNodes, p.Nodes)
	}
	// Both sections are checked even when both are given, so one pass
	// names every field the user must change.
	if p.TPU != nil && p.GPU != nil {
		fail("gpu", "a pool has either tpu or gpu, not both")
	}
	if p.TPU != nil {
		t := p.TPU
		if t.Accelerator == "" {
			fail("tpu.accelerator", "is required (e.g. tpu-v5-lite-podslice)")
		} else {
			for _, msg := range validation.IsValidLabelValue(t.Accelerator) {
				fail("tpu.accelerator", "%q: %s", t.Accelerator, msg)
			}
		}
		if t.ChipsPerNode <= 0 {
			fail("tpu.chipsPerNode", "must be positive, got %d", t.ChipsPerNode)
		}
		chips, err := TopologyChips(t.Topology)
		if err != nil {
			fail("tpu.topology", "%v", err)
		} else if t.ChipsPerNode > 0 {
			switch {
			case chips%t.ChipsPerNode != 0:
				fail("tpu.chipsPerNode", "topology %s has %d chips, not a multiple of %d chips per node", t.Topology, chips, t.ChipsPerNode)
			case nodes == 0 && chips/t.ChipsPerNode > maxNodes:
				fail("tpu.topology", "topology %s has %d chips, %d nodes of %d chips: more than %d", t.Topology, chips, chips/t.ChipsPerNode, t.ChipsPerNode, maxNodes)
			case nodes == 0:
				nodes = int(chips / t.ChipsPerNode)
			case int64(nodes)*t.ChipsPerNode != chips:
				fail("nodes", "%d nodes × %d chips = %d chips, but topology %s has %d chips", nodes, t.ChipsPerNode, int64(nodes)*t.ChipsPerNode, t.Topology, chips)
			}
		}
		labels[wellknown.TPUAcceleratorLabel] = t.Accelerator
		labels[wellknown.TPUTopologyLabel] = t.Topology
		capacity[wellknown.ResourceTPU] = *resource.NewQuantity(t.ChipsPerNode, resource.DecimalSI)
	}
	if p.GPU != nil {
		g := p.GPU
		if g.Model == "" {
			fail("gpu.model", "is required (e.g. nvidia-l4)")
		} else {
			for _, msg := range validation.IsValidLabelValue(g.Model) {
				fail("gpu.model", "%q: %s", g.Model, msg)
			}
		}
		if g.PerNode <= 0 {
			fail("gpu.perNode", "must be positive, got %d", g.PerNode)
		}
		labels[wellknown.GPUAcceleratorLabel] = g.Model
		capacity[wellknown.ResourceGPU] = *resource.NewQuantity(g.PerNode, resource.DecimalSI)
	}
	var topology *GPUTopology
	if p.Topology != nil {
		t := *p.Topology
		valid := true
		for _, c := range []struct {
			sub string
			n   int
		}{{"topology.blocks", t.Blocks}, {"topology.subblocksPerBlock", t.SubblocksPerBlock}, {"topology.hostsPerSubblock", t.HostsPerSubblock}} {
			switch {
			case c.n < 1:
				fail(c.sub, "must be at least 1, got %d", c.n)
				valid = false
			case c.n > maxNodes:
				fail(c.sub, "must be at most %d, got %d", maxNodes, c.n)
				valid = false
			}
		}
		if p.GPU == nil {
			fail("topology", "only a GPU pool has GKE's topology of blocks, subblocks and hosts (set gpu)")
		}
		for _, k := range []string{wellknown.GCETopologyBlockLabel, wellknown.GCETopologySubblockLabel, wellknown.GCETopologyHostLabel} {
			if _, ok := p.Labels[k]; ok {
				fail("labels", "key %q: topology sets it on each node", k)
			}
		}
		// Each count is at most maxNodes: the product does not overflow.
		total := int64(t.Blocks) * int64(t.SubblocksPerBlock) * int64(t.HostsPerSubblock)
		switch {
		case !valid:
		case total > maxNodes:
			fail("topology", "%s = %d nodes: more than %d", t.describe(), total, maxNodes)
		case p.Nodes != 0 && int64(p.Nodes) != total:
			fail("nodes", "%d nodes, but topology %s has %d (one node a host)", p.Nodes, t.describe(), total)
		default:
			nodes = int(total)
			topology = &t
			// The host label is the longest of the three; the last
			// pool of a count has the longest name, and its last node
			// the longest indices. (A bad name is reported above.)
			last := ExpandedPool{Name: longest, Topology: &t}.TopologyLabels(nodes - 1)[wellknown.GCETopologyHostLabel]
			if p.Name != "" && len(validation.IsDNS1123Label(longest)) == 0 {
				for _, msg := range validation.IsValidLabelValue(last) {
					fail("topology", "the last node's %s label %q: %s", wellknown.GCETopologyHostLabel, last, msg)
				}
			}
		}
	}
	if nodes == 0 && p.Nodes == 0 && p.TPU == nil && p.Topology == nil {
		fail("nodes", "is required for a pool without tpu or topology")
	}
	// A node's name is also its kubernetes.io/hostname label.
	if p.Name != "" && nodes > 0 && nodes <= maxNodes {
		if node := (ExpandedPool{Name: longest}).NodeName(nodes - 1); len(node) > validation.LabelValueMaxLength {
			fail("name", "too long: node %s has %d characters, more than its %s label may have (%d)",
				node, len(node), corev1.LabelHostname, validation.LabelValueMaxLength)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}

	out := make([]ExpandedPool, 0, count)
	for i := range count {
		name := p.Name
		if p.Count > 1 {
			name = fmt.Sprintf("%s-%d", p.Name, i)
		}
		l := make(map[string]string, len(labels)+1)
		for k, v := range labels {
			l[k] = v
		}
		l[wellknown.NodePoolLabel] = name
		out = append(out, ExpandedPool{
			Name:     name,
			Nodes:    nodes,
			Labels:   l,
			Taints:   slices.Clone(taints),
			Capacity: capacity.DeepCopy(),
			Topology: cloneTopology(topology),
		})
	}
	return out, nil
}

func cloneTopology(t *GPUTopology) *GPUTopology {
	if t == nil {
		return nil
	}
	c := *t
	return &c
}

// TopologyChips returns the number of chips of a TPU topology such as 2x4
// or 4x4x4. The topology is also the nodes' gke-tpu-topology label, so it
// must be a label value.
func TopologyChips(topology string) (int64, error) {
	if topology == "" {
		return 0, errors.New("is required (e.g. 2x4)")
	}
	dims := strings.Split(topology, "x")
	if len(dims) < 2 || len(dims) > 3 {
		return 0, fmt.Errorf("%q must have 2 or 3 dimensions, like 2x4 or 4x4x4", topology)
	}
	chips := int64(1)
	for _, d := range dims {
		n, err := strconv.ParseInt(d, 10, 64)
		if err != nil || n <= 0 || strings.Trim(d, "0123456789") != "" {
			return 0, fmt.Errorf("%q: dimension %q is not a positive integer", topology, d)
		}
		if chips > math.MaxInt64/n {
			return 0, fmt.Errorf("%q: more chips than can be counted", topology)
		}
		chips *= n
	}
	for _, msg := range validation.IsValidLabelValue(topology) {
		return 0, fmt.Errorf("%q: %s", topology, msg)
	}
	return chips, nil
}

// ParseTaint parses kubectl's taint syntax: key[=value]:Effect.
func ParseTaint(s string) (corev1.Taint, error) {
	keyValue, effect, ok := strings.Cut(s, ":")
	if !ok {
		return corev1.Taint{}, fmt.Errorf("%q: want key[=value]:Effect", s)
	}
	key, value, _ := strings.Cut(keyValue, "=")
	for _, msg := range validation.IsQualifiedName(key) {
		return corev1.Taint{}, fmt.Errorf("%q: key: %s", s, msg)
	}
	for _, msg := range validation.IsValidLabelValue(value) {
		return corev1.Taint{}, fmt.Errorf("%q: value: %s", s, msg)
	}
	e := corev1.TaintEffect(effect)
	switch e {
	case corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute:
	default:
		return corev1.Taint{}, fmt.Errorf("%q: effect must be NoSchedule, PreferNoSchedule or NoExecute", s)
	}
	return corev1.Taint{Key: key, Value: value, Effect: e}, nil
}

// regionOf derives a GCP region from a zone: us-east5-b → us-east5. A
// zone whose prefix is no label value (a--b) has no region.
func regionOf(zone string) (string, bool) {
	i := strings.LastIndex(zone, "-")
	if i <= 0 || i == len(zone)-1 || len(zone)-i > 2 || len(validation.IsValidLabelValue(zone[:i])) > 0 {
		return "", false
	}
	return zone[:i], true
}

// parseTaints parses the taints at field sub and adds GKE's accelerator
// taint of accelerator (accelerator=present:NoSchedule; none for ""). A
// node has one taint of a key and effect: a second one is reported through
// fail, and so is one of the accelerator taint's key and effect with
// another value (how says what to do instead).
func parseTaints(fail func(sub, format string, args ...any), sub string, list []string, accelerator corev1.ResourceName, how string) []corev1.Taint {
	var out []corev1.Taint
	first := map[string]int{} // key and effect → index in list
	for j, s := range list {
		field := fmt.Sprintf("%s[%d]", sub, j)
		t, err := ParseTaint(s)
		if err != nil {
			fail(field, "%v", err)
			continue
		}
		if i, dup := first[taintKey(t)]; dup {
			fail(field, "%q: a node has one taint of key %s and effect %s; %s[%d] is another", s, t.Key, t.Effect, sub, i)
			continue
		}
		first[taintKey(t)] = j
		out = append(out, t)
	}
	if accelerator == "" {
		return out
	}
	want := corev1.Taint{Key: string(accelerator), Value: "present", Effect: corev1.TaintEffectNoSchedule}
	for _, t := range out {
		if taintKey(t) == taintKey(want) {
			if t.Value != want.Value {
				j := first[taintKey(t)]
				fail(fmt.Sprintf("%s[%d]", sub, j), "%q: the nodes get GKE's accelerator taint %s=%s:%s; %s", list[j], want.Key, want.Value, want.Effect, how)
			}
			return out
		}
	}
	return append(out, want)
}

// wholePods reports through fail a pods capacity that is not a whole
// number (the apiserver rejects such a node).
func wholePods(fail func(sub, format string, args ...any), sub string, capacity corev1.ResourceList) {
	if q, ok := capacity[corev1.ResourcePods]; ok {
		if _, whole := q.AsInt64(); !whole {
			fail(sub, "must be a whole number, got %s", q.String())
		}
	}
}

func firstNonEmpty(values ...string) string {
	for _, v := range values {
		if v != "" {
			return v
		}
	}
	return ""
}

// positiveQuantity parses v, a quantity that must be positive, reporting
// what is wrong with it through fail under the field sub.
func positiveQuantity(fail func(sub, format string, args ...any), sub, v string) (resource.Quantity, bool) {
	q, err := resource.ParseQuantity(v)
	if err != nil {
		fail(sub, "%q is not a quantity", v)
		return q, false
	}
	if q.Sign() <= 0 {
		fail(sub, "must be positive, got %s", v)
		return q, false
	}
	return q, true
}
