package nodepools

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// autoBlock is a minimal valid autoProvisioning block.
const autoBlock = `
autoProvisioning:
  machines:
  - {type: g2-standard-24, cpu: "24", memory: 96Gi, gpu: {model: nvidia-l4, perNode: 2}}
  flexStart:
    capacity: [{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 4}]
`

func TestParseConfigAutoProvisioning(t *testing.T) {
	l4 := AutoMachine{Type: "g2-standard-24", Template: ExpandedPool{
		Labels: map[string]string{
			corev1.LabelInstanceTypeStable: "g2-standard-24", wellknown.MachineFamilyLabel: "g2",
			wellknown.GPUAcceleratorLabel: "nvidia-l4", corev1.LabelOSStable: "linux", corev1.LabelArchStable: "amd64",
		},
		Taints: []corev1.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}},
		Capacity: corev1.ResourceList{
			corev1.ResourceCPU: resource.MustParse("24"), corev1.ResourceMemory: resource.MustParse("96Gi"),
			corev1.ResourcePods: resource.MustParse("110"), wellknown.ResourceGPU: resource.MustParse("2"),
		},
	}}
	tests := map[string]struct {
		file string
		want *AutoProvisioning
	}{
		"absent block: no auto-provisioning": {file: onePool},
		"defaults": {file: onePool + autoBlock, want: &AutoProvisioning{
			Machines:              []AutoMachine{l4},
			FlexStart:             &Capacity{Delay: 10 * time.Second, Interval: 5 * time.Second, Zones: []ZoneCapacity{{MachineType: "g2-standard-24", Zone: "us-central1-a", Region: "us-central1", MaxNodes: 4}}},
			DrainTime:             2 * time.Minute,
			ScaleDownUnneededTime: 10 * time.Minute,
		}},
		"every field": {file: header + "defaults: {cpu: \"8\"}\npools:\n- name: cpu\n  nodes: 1\n" + `
autoProvisioning:
  drainTime: 30s
  scaleDownUnneededTime: 1m
  machines:
  - {type: g2-standard-24, cpu: "24", memory: 96Gi, gpu: {model: nvidia-l4, perNode: 2}}
  - {type: n4-standard-8, pods: "32", taints: ["dedicated=batch:NoSchedule"]}
  spot:
    delay: 0s
    capacity:
    - {machineType: g2-standard-24, zone: us-central1-a, maxNodes: 0}
    - {machineType: n4-standard-8, zone: us-central1-a, maxNodes: 3}
  flexStart:
    delay: 20s
    interval: 1s
    capacity: [{machineType: g2-standard-24, zone: us-central1-b, maxNodes: 8}]
  onDemand:
    delay: 1s
    capacity: [{machineType: n4-standard-8, zone: europe-west4-a, maxNodes: 1}]
`, want: &AutoProvisioning{
			Machines: []AutoMachine{l4, {Type: "n4-standard-8", Template: ExpandedPool{
				Labels: map[string]string{
					corev1.LabelInstanceTypeStable: "n4-standard-8", wellknown.MachineFamilyLabel: "n4",
					corev1.LabelOSStable: "linux", corev1.LabelArchStable: "amd64",
				},
				Taints: []corev1.Taint{{Key: "dedicated", Value: "batch", Effect: corev1.TaintEffectNoSchedule}},
				Capacity: corev1.ResourceList{
					corev1.ResourceCPU: resource.MustParse("8"), corev1.ResourceMemory: resource.MustParse("128Gi"),
					corev1.ResourcePods: resource.MustParse("32"),
				},
			}}},
			Spot: &Capacity{Zones: []ZoneCapacity{
				{MachineType: "g2-standard-24", Zone: "us-central1-a", Region: "us-central1", MaxNodes: 0},
				{MachineType: "n4-standard-8", Zone: "us-central1-a", Region: "us-central1", MaxNodes: 3},
			}},
			FlexStart:             &Capacity{Delay: 20 * time.Second, Interval: time.Second, Zones: []ZoneCapacity{{MachineType: "g2-standard-24", Zone: "us-central1-b", Region: "us-central1", MaxNodes: 8}}},
			OnDemand:              &Capacity{Delay: time.Second, Zones: []ZoneCapacity{{MachineType: "n4-standard-8", Zone: "europe-west4-a", Region: "europe-west4", MaxNodes: 1}}},
			DrainTime:             30 * time.Second,
			ScaleDownUnneededTime: time.Minute,
		}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, cfg.AutoProvisioning, cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })); diff != "" {
				t.Errorf("autoProvisioning (-want +got):\n%s", diff)
			}
			if tc.want != nil && cfg.AutoProvisioning.Machine("g2-standard-24") == nil {
				t.Error("Machine(g2-standard-24) = nil")
			}
		})
	}
}

func TestParseConfigAutoProvisioningErrors(t *testing.T) {
	block := func(s string) string { return onePool + "autoProvisioning:\n" + s }
	const machines = "  machines: [{type: g2-standard-24, gpu: {model: nvidia-l4, perNode: 2}}]\n"
	const flex = "  flexStart: {capacity: [{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 2}]}\n"
	tests := map[string]struct {
		file string
		want []string
	}{
		"unknown field":     {block(machines + flex + "  gpus: 8\n"), []string{`unknown field "autoProvisioning.gpus"`}},
		"no machines":       {block(flex), []string{"autoProvisioning.machines: at least one machine type is required", `autoProvisioning.flexStart.capacity[0].machineType: "g2-standard-24" is not one of autoProvisioning.machines`}},
		"machine type":      {block("  machines: [{cpu: \"8\"}, {type: \"g2 standard\"}]\n"), []string{"autoProvisioning.machines[0].type: is required", `autoProvisioning.machines[1].type: "g2 standard":`}},
		"duplicate machine": {block("  machines: [{type: n4-standard-8}, {type: n4-standard-8}]\n"), []string{`autoProvisioning.machines[1].type: machine type "n4-standard-8" is also machines[0]`}},
		"machine shape": {block("  machines: [{type: g2-standard-24, cpu: many, pods: \"0.5\", gpu: {perNode: 0}, taints: [\"nvidia.com/gpu=x:NoSchedule\", nope]}]\n"),
			[]string{`autoProvisioning.machines[0].cpu: "many" is not a quantity`, "autoProvisioning.machines[0].pods: must be a whole number, got 500m",
				"autoProvisioning.machines[0].gpu.model: is required", "autoProvisioning.machines[0].gpu.perNode: must be positive, got 0",
				`autoProvisioning.machines[0].taints[0]: "nvidia.com/gpu=x:NoSchedule": the nodes get GKE's accelerator taint`, "autoProvisioning.machines[0].taints[1]:"}},
		"durations": {block(machines + flex + "  drainTime: 0s\n  scaleDownUnneededTime: soon\n  spot: {delay: -1s, interval: 1s, capacity: []}\n"),
			[]string{"autoProvisioning.drainTime: must be positive, got 0s", `autoProvisioning.scaleDownUnneededTime: "soon" is not a duration`,
				"autoProvisioning.spot.delay: must be positive, got -1s", "autoProvisioning.spot.interval: only flex-start capacity appears at an interval"}},
		"zero interval": {block(machines + "  flexStart: {interval: 0s, capacity: []}\n"), []string{"autoProvisioning.flexStart.interval: must be positive, got 0s"}},
		"capacity entries": {block(machines + "  onDemand:\n    capacity:\n    - {zone: us-central1-a, maxNodes: 1}\n    - {machineType: g2-standard-24, maxNodes: -1}\n" +
			"    - {machineType: g2-standard-24, zone: us-central1-a, maxNodes: 1}\n    - {machineType: g2-standard-24, zone: us-central1-a, maxNodes: 20000}\n"),
			[]string{"autoProvisioning.onDemand.capacity[0].machineType: is required", "autoProvisioning.onDemand.capacity[1].zone: is required",
				"autoProvisioning.onDemand.capacity[1].maxNodes: must not be negative, got -1", "autoProvisioning.onDemand.capacity[3].zone: g2-standard-24 in us-central1-a is also onDemand.capacity[2]",
				"autoProvisioning.onDemand.capacity[3].maxNodes: must be at most 10000, got 20000"}},
		"too many nodes in all": {block(machines + "  spot: {capacity: [{machineType: g2-standard-24, zone: a, maxNodes: 6000}]}\n  flexStart: {capacity: [{machineType: g2-standard-24, zone: a, maxNodes: 6000}]}\n"),
			[]string{"autoProvisioning.machines: the capacities add up to 12000 nodes, more than the local cluster runs (10000)"}},
		"pool and block errors together": {header + "pools:\n- name: a\nautoProvisioning:\n" + flex,
			[]string{"pools[0].nodes: is required", "autoProvisioning.machines: at least one machine type is required"}},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tc.file))
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

// BuildNode is the node builder of the file's pools and of node
// auto-provisioning: the template's labels, taints and capacity, a
// hostname, KWOK's annotation, and no ManagedLabel.
func TestBuildNode(t *testing.T) {
	cfg, err := ParseConfig([]byte(onePool + autoBlock))
	if err != nil {
		t.Fatal(err)
	}
	n := cfg.AutoProvisioning.Machines[0].Template.BuildNode("nap-1")
	gpus := n.Status.Allocatable[wellknown.ResourceGPU]
	if n.Name != "nap-1" || n.Labels[corev1.LabelHostname] != "nap-1" || n.Labels[ManagedLabel] != "" || n.Annotations[KWOKNodeAnnotation] != "fake" ||
		gpus.Value() != 2 || len(n.Spec.Taints) != 1 || n.Labels[corev1.LabelInstanceTypeStable] != "g2-standard-24" {
		t.Errorf("node %+v", n)
	}
	// The template is not shared with the node.
	n.Labels["x"] = "y"
	n.Spec.Taints[0].Value = "changed"
	if cfg.AutoProvisioning.Machines[0].Template.Labels["x"] != "" || cfg.AutoProvisioning.Machines[0].Template.Taints[0].Value != "present" {
		t.Error("the node shares its template's maps")
	}
}

// FuzzAutoProvisioningFields builds an autoProvisioning block from any
// field values: every invalid field is reported under its name, and an
// accepted block gives capacities the auto-provisioning can use as they
// are (fuzzCheckConfig).
func FuzzAutoProvisioningFields(f *testing.F) {
	f.Add("g2-standard-24", "24", "nvidia-l4", int64(2), "", "g2-standard-24", "us-central1-a", 4, "10s", "5s", "30s", "1m", uint8(7))
	f.Add("", "many", "", int64(0), "nvidia.com/gpu=x:NoSchedule", "n4", "a b", -1, "-1s", "0s", "0s", "soon", uint8(1))
	f.Add("n4-standard-8", "8", "", int64(0), "dedicated=batch:NoSchedule", "n4-standard-8", "europe-west4-a", 0, "", "", "", "", uint8(2))
	f.Fuzz(func(t *testing.T, machineType, cpu, gpuModel string, gpus int64, taint, capMachine, zone string, zoneMax int, delay, interval, drain, unneeded string, kinds uint8) {
		m := AutoMachineSpec{Type: machineType, CPU: cpu}
		if gpuModel != "" || gpus != 0 {
			m.GPU = &GPU{Model: gpuModel, PerNode: gpus}
		}
		if taint != "" {
			m.Taints = []string{taint}
		}
		c := &CapacitySpec{Delay: delay, Capacity: []ZoneCapacitySpec{{MachineType: capMachine, Zone: zone, MaxNodes: zoneMax}}}
		spec := &AutoProvisioningSpec{Machines: []AutoMachineSpec{m}, DrainTime: drain, ScaleDownUnneededTime: unneeded}
		if kinds&1 != 0 {
			spec.Spot = c
		}
		if kinds&2 != 0 {
			fc := *c
			fc.Interval = interval
			spec.FlexStart = &fc
		}
		if kinds&4 != 0 {
			spec.OnDemand = c
		}
		file := File{APIVersion: APIVersion, Kind: Kind, Pools: []Pool{{Name: "cpu", Nodes: 1}}, AutoProvisioning: spec}
		data, err := yaml.Marshal(file)
		if err != nil {
			return
		}
		err = fuzzCheckFile(t, data)
		hasCapacity := kinds&7 != 0
		for field, bad := range map[string]bool{
			"autoProvisioning.machines[0].type":    machineType == "" || invalidLabelValue(machineType),
			"autoProvisioning.machines[0].gpu":     m.GPU != nil && (gpuModel == "" || gpus <= 0),
			"autoProvisioning.machines[0].taints":  taint != "" && !strings.Contains(taint, ":"),
			"autoProvisioning.drainTime":           drain != "" && !positiveDuration(drain),
			"autoProvisioning.scaleDownUnneeded":   unneeded != "" && !positiveDuration(unneeded),
			".capacity[0].machineType":             hasCapacity && capMachine != machineType,
			".capacity[0].zone":                    hasCapacity && (zone == "" || invalidLabelValue(zone)),
			".capacity[0].maxNodes":                hasCapacity && (zoneMax < 0 || zoneMax > maxNodes),
			"autoProvisioning.flexStart.interval:": kinds&2 != 0 && interval != "" && !positiveDuration(interval),
		} {
			if bad && (err == nil || !strings.Contains(err.Error(), field)) {
				t.Fatalf("%s is invalid, but the error is %v (file:\n%s)", field, err, data)
			}
		}
	})
}

func positiveDuration(s string) bool {
	d, err := time.ParseDuration(s)
	return err == nil && d > 0
}

func invalidLabelValue(s string) bool { return len(validation.IsValidLabelValue(s)) > 0 }
