package provisioner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func TestBaseName(t *testing.T) {
	long := strings.Repeat("very-long-workload-name-", 10)
	tests := map[string]struct {
		ref        Ref
		uid        types.UID
		wantPrefix string
	}{
		"short":                   {Ref{"default", "job-sample-job-dws-prov-1"}, "uid-1", "default-job-sample-job-dws-prov-1-"},
		"dots become dashes":      {Ref{"team-a", "train.v2"}, "uid-2", "team-a-train-v2-"},
		"long names are cut":      {Ref{"default", long}, "uid-3", "default-very-long-workload-name-very-lon-"},
		"cut at 40 characters":    {Ref{"default", "abcdefghijklmnopqrstuvwxyzabcdefg-hij"}, "uid-4", "default-abcdefghijklmnopqrstuvwxyzabcdef-"},
		"a dash at the cut drops": {Ref{"default", "abcdefghijklmnopqrstuvwxyzabcde-fghij"}, "uid-5", "default-abcdefghijklmnopqrstuvwxyzabcde-"},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got := BaseName(tc.ref, tc.uid)
			if !strings.HasPrefix(got, tc.wantPrefix) || len(got) != len(tc.wantPrefix)+5 {
				t.Errorf("BaseName = %q, want %q + 5 hex digits", got, tc.wantPrefix)
			}
			for _, msg := range validation.IsValidLabelValue(got) {
				t.Errorf("%q is no label value: %s", got, msg)
			}
			for _, msg := range validation.IsDNS1123Subdomain(got + "-999") {
				t.Errorf("%q is no node name: %s", got, msg)
			}
		})
	}
	if a, b := BaseName(Ref{"default", "r"}, "uid-1"), BaseName(Ref{"default", "r"}, "uid-2"); a == b {
		t.Errorf("a request re-created under the same name gets the same nodes: %s", a)
	}
}

func TestNodes(t *testing.T) {
	cfg := testConfig()
	ref := Ref{"default", "job-sample-job-dws-prov-1"}
	uid := types.UID("0b7e3c52-9d7c-4c1e-9a55-2f2f7f0f6a11")
	d := Demand{
		PodSets: []PodSetDemand{
			{Template: "leader", Pods: 1, PodsPerNode: 2, Nodes: 1, Pool: "NODEPOOL_NAME", Labels: map[string]string{"team": "ml"}},
			{Template: "workers", Pods: 2, PodsPerNode: 1, Nodes: 2, Pool: "workers", Labels: map[string]string{}},
		},
		Nodes: 3,
	}
	nodes := Nodes(ref, uid, d, cfg.Zones[0], cfg)
	base := BaseName(ref, uid)
	var names []string
	for _, n := range nodes {
		names = append(names, n.Name)
	}
	if diff := cmp.Diff([]string{base + "-0", base + "-1", base + "-2"}, names); diff != "" {
		t.Fatalf("names (-want +got):\n%s", diff)
	}
	wantLabels := map[string]string{
		wellknown.NodePoolLabel:        "NODEPOOL_NAME",
		wellknown.ZoneLabel:            "us-central1-a",
		corev1.LabelTopologyRegion:     "us-central1",
		wellknown.GPUAcceleratorLabel:  "nvidia-l4",
		corev1.LabelInstanceTypeStable: "g2-standard-24",
		corev1.LabelOSStable:           "linux",
		corev1.LabelArchStable:         "amd64",
		corev1.LabelHostname:           base + "-0",
		nodepools.ProvisionedLabel:     string(uid),
		"team":                         "ml",
	}
	if diff := cmp.Diff(wantLabels, nodes[0].Labels); diff != "" {
		t.Errorf("labels of the first node (-want +got):\n%s", diff)
	}
	if got := nodes[2].Labels[wellknown.NodePoolLabel]; got != "workers" {
		t.Errorf("third node in pool %q, want workers", got)
	}
	if _, ok := nodes[2].Labels["team"]; ok {
		t.Errorf("the workers' nodes got the leader's selector labels: %v", nodes[2].Labels)
	}
	wantAnnotations := map[string]string{nodepools.KWOKNodeAnnotation: "fake", RequestAnnotation: "default/job-sample-job-dws-prov-1"}
	if diff := cmp.Diff(wantAnnotations, nodes[1].Annotations); diff != "" {
		t.Errorf("annotations (-want +got):\n%s", diff)
	}
	wantTaints := []corev1.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}}
	if diff := cmp.Diff(wantTaints, nodes[1].Spec.Taints); diff != "" {
		t.Errorf("taints (-want +got):\n%s", diff)
	}
	for _, res := range []corev1.ResourceList{nodes[0].Status.Capacity, nodes[0].Status.Allocatable} {
		if q := res[wellknown.ResourceGPU]; q.Cmp(resource.MustParse("2")) != 0 {
			t.Errorf("nvidia.com/gpu = %s, want 2", q.String())
		}
		if q := res[corev1.ResourceCPU]; q.Cmp(resource.MustParse("24")) != 0 {
			t.Errorf("cpu = %s, want 24", q.String())
		}
	}
	// The nodes share nothing with the configuration they came from.
	nodes[0].Status.Capacity[corev1.ResourceCPU] = resource.MustParse("1")
	nodes[0].Spec.Taints[0].Value = "changed"
	if q := cfg.Machine.Capacity[corev1.ResourceCPU]; q.Cmp(resource.MustParse("24")) != 0 || cfg.Machine.Taints[0].Value != "present" {
		t.Errorf("Nodes aliased the configuration")
	}
}

// Applying the node pool file (nodepools.Diff, as ApplyNodePools does)
// leaves provisioned nodes alone even though no pool of the file has them.
func TestNodePoolFileLeavesProvisionedNodesAlone(t *testing.T) {
	cfg := testConfig()
	d := Demand{PodSets: []PodSetDemand{{Pods: 2, PodsPerNode: 1, Nodes: 2, Pool: "NODEPOOL_NAME"}}, Nodes: 2}
	existing := Nodes(Ref{"default", "r"}, "uid-1", d, cfg.Zones[0], cfg)
	pools, err := nodepools.Parse([]byte("apiVersion: localcluster.multislice-scheduler.io/v1alpha1\nkind: NodePools\npools: [{name: cpu, nodes: 1}]\n"))
	if err != nil {
		t.Fatal(err)
	}
	plan := nodepools.Diff(nodepools.Nodes(pools), existing)
	if len(plan.Delete)+len(plan.Update)+len(plan.UpdateStatus) != 0 || len(plan.Create) != 1 {
		t.Errorf("plan touches provisioned nodes: %+v", plan)
	}
}
