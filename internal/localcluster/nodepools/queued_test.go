package nodepools

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

const onePool = header + "pools:\n- name: cpu\n  nodes: 1\n"

func TestParseConfigQueuedProvisioning(t *testing.T) {
	tests := map[string]struct {
		file string
		want *QueuedProvisioning
	}{
		"absent block: no provisioner": {
			file: onePool,
		},
		"defaults from the file and built in": {
			file: header + "defaults: {cpu: \"48\"}\n" + "pools:\n- name: cpu\n  nodes: 1\n" + `
queuedProvisioning:
  machine: {accelerator: nvidia-l4, gpusPerNode: 4}
  zones: [{name: us-central1-a, maxNodes: 2}]
`,
			want: &QueuedProvisioning{
				Delay:       5 * time.Second,
				BookingTime: 10 * time.Minute,
				Machine: Machine{
					Accelerator: "nvidia-l4",
					Capacity: corev1.ResourceList{
						corev1.ResourceCPU:    resource.MustParse("48"),
						corev1.ResourceMemory: resource.MustParse("128Gi"),
						corev1.ResourcePods:   resource.MustParse("110"),
						wellknown.ResourceGPU: resource.MustParse("4"),
					},
					Taints: []corev1.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}},
				},
				Zones: []Zone{{Name: "us-central1-a", Region: "us-central1", MaxNodes: 2}},
			},
		},
		"every field": {
			file: onePool + `
queuedProvisioning:
  delay: 0s
  bookingTime: 90s
  machine:
    type: g2-standard-48
    accelerator: nvidia-l4
    gpusPerNode: 4
    cpu: "48"
    memory: 192Gi
    pods: "32"
    taints: ["cloud.google.com/gke-queued=true:NoSchedule"]
  zones:
  - {name: us-central1-a, maxNodes: 2}
  - {name: us-central1-b, maxNodes: 3}
`,
			want: &QueuedProvisioning{
				Delay:       0,
				BookingTime: 90 * time.Second,
				Machine: Machine{
					Type:        "g2-standard-48",
					Accelerator: "nvidia-l4",
					Capacity: corev1.ResourceList{
						corev1.ResourceCPU:    resource.MustParse("48"),
						corev1.ResourceMemory: resource.MustParse("192Gi"),
						corev1.ResourcePods:   resource.MustParse("32"),
						wellknown.ResourceGPU: resource.MustParse("4"),
					},
					Taints: []corev1.Taint{
						{Key: "cloud.google.com/gke-queued", Value: "true", Effect: corev1.TaintEffectNoSchedule},
						{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule},
					},
				},
				Zones: []Zone{
					{Name: "us-central1-a", Region: "us-central1", MaxNodes: 2},
					{Name: "us-central1-b", Region: "us-central1", MaxNodes: 3},
				},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			cfg, err := ParseConfig([]byte(tc.file))
			if err != nil {
				t.Fatal(err)
			}
			if len(cfg.Pools) != 1 {
				t.Errorf("pools = %v", names(cfg.Pools))
			}
			if diff := cmp.Diff(tc.want, cfg.QueuedProvisioning, cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })); diff != "" {
				t.Errorf("queuedProvisioning (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseConfigQueuedProvisioningErrors(t *testing.T) {
	block := func(s string) string { return onePool + "queuedProvisioning:\n" + s }
	const machine = "  machine: {accelerator: nvidia-l4, gpusPerNode: 4}\n"
	const zones = "  zones: [{name: us-central1-a, maxNodes: 2}]\n"
	tests := map[string]struct {
		file string
		want []string
	}{
		"unknown field":       {block(machine + zones + "  gpus: 8\n"), []string{`unknown field "queuedProvisioning.gpus"`}},
		"bad delay":           {block("  delay: soon\n" + machine + zones), []string{`queuedProvisioning.delay: "soon" is not a duration`}},
		"negative delay":      {block("  delay: -1s\n" + machine + zones), []string{"queuedProvisioning.delay: must be positive"}},
		"zero booking time":   {block("  bookingTime: 0s\n" + machine + zones), []string{"queuedProvisioning.bookingTime: must be positive"}},
		"missing accelerator": {block("  machine: {gpusPerNode: 4}\n" + zones), []string{"queuedProvisioning.machine.accelerator: is required"}},
		"no gpus":             {block("  machine: {accelerator: nvidia-l4}\n" + zones), []string{"queuedProvisioning.machine.gpusPerNode: must be positive, got 0"}},
		"bad cpu":             {block("  machine: {accelerator: nvidia-l4, gpusPerNode: 1, cpu: many}\n" + zones), []string{`queuedProvisioning.machine.cpu: "many" is not a quantity`}},
		"bad machine type":    {block("  machine: {accelerator: nvidia-l4, gpusPerNode: 1, type: \"g2 standard\"}\n" + zones), []string{"queuedProvisioning.machine.type:"}},
		"bad taint":           {block("  machine: {accelerator: nvidia-l4, gpusPerNode: 1, taints: [queued]}\n" + zones), []string{"queuedProvisioning.machine.taints[0]:"}},
		"no zones":            {block(machine + "  zones: []\n"), []string{"queuedProvisioning.zones: at least one zone is required"}},
		"fractional pods":     {block("  machine: {accelerator: nvidia-l4, gpusPerNode: 1, pods: \"0.5\"}\n" + zones), []string{"queuedProvisioning.machine.pods: must be a whole number, got 500m"}},
		"a taint clashing with the GPU taint": {block("  machine: {accelerator: nvidia-l4, gpusPerNode: 1, taints: [\"nvidia.com/gpu=x:NoSchedule\"]}\n" + zones),
			[]string{`queuedProvisioning.machine.taints[0]: "nvidia.com/gpu=x:NoSchedule": the nodes get GKE's accelerator taint nvidia.com/gpu=present:NoSchedule; every provisioned node gets it`}},
		"zone without name":  {block(machine + "  zones: [{maxNodes: 1}]\n"), []string{"queuedProvisioning.zones[0].name: is required"}},
		"zone without nodes": {block(machine + "  zones: [{name: us-central1-a}]\n"), []string{"queuedProvisioning.zones[0].maxNodes: must be positive, got 0"}},
		"duplicate zone": {block(machine + "  zones: [{name: us-central1-a, maxNodes: 1}, {name: us-central1-a, maxNodes: 2}]\n"),
			[]string{`queuedProvisioning.zones[1].name: zone "us-central1-a" is also listed as zones[0]`}},
		"pool and block errors together": {header + "pools:\n- name: a\nqueuedProvisioning:\n" + zones,
			[]string{"pools[0].nodes: is required", "queuedProvisioning.machine.accelerator: is required"}},
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
			// Parse, which only returns the pools, rejects the file too.
			if _, err := Parse([]byte(tc.file)); err == nil {
				t.Error("Parse accepted the file")
			}
		})
	}
}
