package chaos

import (
	"fmt"
	"os"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// WriteSchedulerConfig copies the shipped KubeSchedulerConfiguration (src)
// to dst with MultisliceGang's permitTimeoutSeconds and
// followerTimeoutSeconds set to timeout: a soak of minutes must see gangs
// time out, not wait the shipped 300 s. Everything else stays as shipped.
func WriteSchedulerConfig(src, dst string, timeout time.Duration) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	out, err := withGangTimeouts(data, int64(timeout/time.Second))
	if err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	return os.WriteFile(dst, out, 0o644)
}

// withGangTimeouts sets MultisliceGang's timeouts in every profile that
// configures the plugin.
func withGangTimeouts(config []byte, seconds int64) ([]byte, error) {
	var doc map[string]any
	if err := yaml.Unmarshal(config, &doc); err != nil {
		return nil, err
	}
	profiles, _ := doc["profiles"].([]any)
	found := false
	for _, p := range profiles {
		profile, _ := p.(map[string]any)
		plugins, _ := profile["pluginConfig"].([]any)
		for _, pc := range plugins {
			entry, _ := pc.(map[string]any)
			if entry["name"] != "MultisliceGang" {
				continue
			}
			args, _ := entry["args"].(map[string]any)
			if args == nil {
				args = map[string]any{"apiVersion": "kubescheduler.config.k8s.io/v1", "kind": "MultisliceGangArgs"}
				entry["args"] = args
			}
			args["permitTimeoutSeconds"] = seconds
			args["followerTimeoutSeconds"] = seconds
			found = true
		}
	}
	if !found {
		return nil, fmt.Errorf("no profile configures MultisliceGang in pluginConfig")
	}
	return yaml.Marshal(doc)
}

// Accelerator is one TPU slice shape of the fleet: the node labels of its
// pools, and the pods of 4 chips one slice takes.
type Accelerator struct {
	Flavor      string
	Accelerator string
	Topology    string
	PodsPer     int
}

// The fleet's TPU shapes (manifests/examples/nodepools.yaml): three v5e
// 2x4 pools of 2 hosts, four v6e 4x4 pools of 4 hosts, 4 chips a host.
var (
	V5e = Accelerator{Flavor: "v5e-2x4", Accelerator: "tpu-v5-lite-podslice", Topology: "2x4", PodsPer: 2}
	V6e = Accelerator{Flavor: "v6e-4x4", Accelerator: "tpu-v6e-slice", Topology: "4x4", PodsPer: 4}
)

// ChipsPerPod is what every generated TPU pod requests.
const ChipsPerPod = 4

// Queue objects of the soak.
const (
	Cohort = "chaos"
	QueueA = "team-a"
	QueueB = "team-b"
	// QueueGPU is the GPU fleet's queue: its flavor names Topology
	// GPUTopology, so its workloads' pod sets are placed in the fleet's
	// blocks and subblocks.
	QueueGPU = "team-gpu"
)

// The GPU fleet (manifests/examples/nodepools.yaml): pool gpu-h100 of 2
// blocks × 2 subblocks × 4 hosts of 8 GPUs, labelled as GKE labels them.
const (
	GPUPool          = "gpu-h100"
	GPUFlavor        = "h100"
	GPUTopology      = "chaos-gpu"
	GPUsPerHost      = 8
	HostsPerSubblock = 4
)

// GPUTopologyObject is the fleet's Topology: block, subblock, host.
func GPUTopologyObject() *multislicev1alpha1.Topology {
	return &multislicev1alpha1.Topology{
		ObjectMeta: metav1.ObjectMeta{Name: GPUTopology},
		Spec: multislicev1alpha1.TopologySpec{Levels: []multislicev1alpha1.TopologyLevel{
			{NodeLabel: wellknown.GCETopologyBlockLabel}, {NodeLabel: wellknown.GCETopologySubblockLabel}, {NodeLabel: corev1.LabelHostname},
		}},
	}
}

// QueueObjects are the soak's queues: a ResourceFlavor per TPU accelerator
// and two ClusterQueues in one cohort whose quotas are smaller than the
// fleet (v5e: 16 of 24 chips, v6e: 48 of 64), with a borrowing and a
// lending limit so that cohort lending is exercised, both preempting lower
// priorities within the queue; the GPU fleet's flavor and queue; and a
// LocalQueue in namespace for each.
func QueueObjects(namespace string) ([]*multislicev1alpha1.ResourceFlavor, []*multislicev1alpha1.ClusterQueue, []*multislicev1alpha1.LocalQueue) {
	var flavors []*multislicev1alpha1.ResourceFlavor
	for _, a := range []Accelerator{V5e, V6e} {
		flavors = append(flavors, &multislicev1alpha1.ResourceFlavor{
			ObjectMeta: metav1.ObjectMeta{Name: a.Flavor},
			Spec: multislicev1alpha1.ResourceFlavorSpec{NodeLabels: map[string]string{
				wellknown.TPUAcceleratorLabel: a.Accelerator, wellknown.TPUTopologyLabel: a.Topology,
			}},
		})
	}
	chips := func(n int64) resource.Quantity { return *resource.NewQuantity(n, resource.DecimalSI) }
	ptr := func(n int64) *resource.Quantity { q := chips(n); return &q }
	cq := func(name string, v5e, v6e multislicev1alpha1.ResourceQuota) *multislicev1alpha1.ClusterQueue {
		v5e.Name, v6e.Name = wellknown.ResourceTPU, wellknown.ResourceTPU
		return &multislicev1alpha1.ClusterQueue{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: multislicev1alpha1.ClusterQueueSpec{
				NamespaceSelector: &metav1.LabelSelector{},
				Cohort:            Cohort,
				ResourceGroups: []multislicev1alpha1.ResourceGroup{{
					Flavors: []multislicev1alpha1.FlavorQuotas{
						{Name: V5e.Flavor, Resources: []multislicev1alpha1.ResourceQuota{v5e}},
						{Name: V6e.Flavor, Resources: []multislicev1alpha1.ResourceQuota{v6e}},
					},
				}},
				Preemption: &multislicev1alpha1.ClusterQueuePreemption{
					WithinClusterQueue:  multislicev1alpha1.PreemptionPolicyLowerPriority,
					ReclaimWithinCohort: multislicev1alpha1.PreemptionPolicyLowerPriority,
				},
			},
		}
	}
	queues := []*multislicev1alpha1.ClusterQueue{
		cq(QueueA,
			multislicev1alpha1.ResourceQuota{NominalQuota: chips(8), BorrowingLimit: ptr(8)},
			multislicev1alpha1.ResourceQuota{NominalQuota: chips(32)}),
		cq(QueueB,
			multislicev1alpha1.ResourceQuota{NominalQuota: chips(8)},
			multislicev1alpha1.ResourceQuota{NominalQuota: chips(16), LendingLimit: ptr(8)}),
	}
	// The GPU queue: 96 of the fleet's 128 GPUs, outside the TPU cohort,
	// preempting lower priorities within itself; its flavor places pod
	// sets by the fleet's Topology.
	flavors = append(flavors, &multislicev1alpha1.ResourceFlavor{
		ObjectMeta: metav1.ObjectMeta{Name: GPUFlavor},
		Spec: multislicev1alpha1.ResourceFlavorSpec{
			NodeLabels:   map[string]string{wellknown.NodePoolLabel: GPUPool},
			TopologyName: GPUTopology,
			Tolerations:  []corev1.Toleration{gpuToleration},
		},
	})
	queues = append(queues, &multislicev1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: QueueGPU},
		Spec: multislicev1alpha1.ClusterQueueSpec{
			NamespaceSelector: &metav1.LabelSelector{},
			ResourceGroups: []multislicev1alpha1.ResourceGroup{{
				Flavors: []multislicev1alpha1.FlavorQuotas{{Name: GPUFlavor, Resources: []multislicev1alpha1.ResourceQuota{
					{Name: wellknown.ResourceGPU, NominalQuota: chips(96)},
				}}},
			}},
			Preemption: &multislicev1alpha1.ClusterQueuePreemption{WithinClusterQueue: multislicev1alpha1.PreemptionPolicyLowerPriority},
		},
	})
	var locals []*multislicev1alpha1.LocalQueue
	for _, name := range []string{QueueA, QueueB, QueueGPU} {
		locals = append(locals, &multislicev1alpha1.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
			Spec:       multislicev1alpha1.LocalQueueSpec{ClusterQueue: name},
		})
	}
	return flavors, queues, locals
}

// gpuToleration tolerates GKE's taint of GPU nodes.
var gpuToleration = corev1.Toleration{Key: wellknown.ResourceGPU.String(), Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}
