package provisioner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// testConfig is the shipped example's block: nodes of 2 L4 GPUs, 24 CPUs
// and 96Gi; us-central1-a holds 2 nodes, us-central1-b one.
func testConfig() *Config {
	return &Config{
		Delay:       5 * time.Second,
		BookingTime: 10 * time.Minute,
		Machine: nodepools.Machine{
			Type:        "g2-standard-24",
			Accelerator: "nvidia-l4",
			Capacity: corev1.ResourceList{
				corev1.ResourceCPU:    resource.MustParse("24"),
				corev1.ResourceMemory: resource.MustParse("96Gi"),
				corev1.ResourcePods:   resource.MustParse("110"),
				wellknown.ResourceGPU: resource.MustParse("2"),
			},
			Taints: []corev1.Taint{{Key: "nvidia.com/gpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}},
		},
		Zones: []nodepools.Zone{
			{Name: "us-central1-a", Region: "us-central1", MaxNodes: 2},
			{Name: "us-central1-b", Region: "us-central1", MaxNodes: 1},
		},
	}
}

// seedTemplate is the PodTemplate Kueue makes of seed 003's Job: one GPU,
// the document's node selector as written.
func seedTemplate(name string) *corev1.PodTemplate {
	return template(name, map[string]string{wellknown.NodePoolLabel: "NODEPOOL_NAME"}, resources("100m", "100Mi", 1))
}

func resources(cpu, memory string, gpus int64) corev1.ResourceRequirements {
	r := corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(cpu), corev1.ResourceMemory: resource.MustParse(memory)}
	if gpus > 0 {
		r[wellknown.ResourceGPU] = *resource.NewQuantity(gpus, resource.DecimalSI)
	}
	return corev1.ResourceRequirements{Requests: r, Limits: r.DeepCopy()}
}

func template(name string, selector map[string]string, res corev1.ResourceRequirements) *corev1.PodTemplate {
	return &corev1.PodTemplate{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			NodeSelector: selector,
			Tolerations:  []corev1.Toleration{{Key: "nvidia.com/gpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}},
			Containers:   []corev1.Container{{Name: "job", Image: "sleep", Resources: res}},
		}},
	}
}

func request(name string, params map[string]autoscalingv1.Parameter, podSets ...autoscalingv1.PodSet) *autoscalingv1.ProvisioningRequest {
	return &autoscalingv1.ProvisioningRequest{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: "default"},
		Spec: autoscalingv1.ProvisioningRequestSpec{
			ProvisioningClassName: wellknown.QueuedProvisioningClass,
			Parameters:            params,
			PodSets:               podSets,
		},
	}
}

func podSet(template string, count int32) autoscalingv1.PodSet {
	return autoscalingv1.PodSet{PodTemplateRef: autoscalingv1.Reference{Name: template}, Count: count}
}

func lookupIn(templates ...*corev1.PodTemplate) TemplateLookup {
	return func(name string) (*corev1.PodTemplate, bool) {
		for _, t := range templates {
			if t.Name == name {
				return t, true
			}
		}
		return nil, false
	}
}

var bothZones = []string{"us-central1-a", "us-central1-b"}

func TestComputeDemand(t *testing.T) {
	limitsOnly := template("limits", nil, corev1.ResourceRequirements{Limits: corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("2")}})
	withInit := template("init", nil, resources("1", "1Gi", 1))
	withInit.Template.Spec.InitContainers = []corev1.Container{{Name: "warm-up", Resources: resources("1", "1Gi", 2)}}
	withSidecar := template("sidecar", nil, resources("10", "1Gi", 0))
	withSidecar.Template.Spec.InitContainers = []corev1.Container{{Name: "proxy", RestartPolicy: ptr.To(corev1.ContainerRestartPolicyAlways), Resources: resources("2", "1Gi", 0)}}

	tests := map[string]struct {
		req       *autoscalingv1.ProvisioningRequest
		templates []*corev1.PodTemplate
		want      Demand
	}{
		"seed 003: one GPU pod on the pool its node selector names": {
			req:       request("job-sample-job-dws-prov-1", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "600"}, podSet("ppt-1", 1)),
			templates: []*corev1.PodTemplate{seedTemplate("ppt-1")},
			want: Demand{
				PodSets:        []PodSetDemand{{Template: "ppt-1", Pods: 1, PodsPerNode: 2, Nodes: 1, Pool: "NODEPOOL_NAME", Labels: map[string]string{}}},
				Nodes:          1,
				Zones:          bothZones,
				MaxRunDuration: 600 * time.Second,
			},
		},
		"GPUs limit the pods per node; the remainder takes a node": {
			req:       request("r", nil, podSet("gpu", 5)),
			templates: []*corev1.PodTemplate{seedTemplate("gpu")},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "gpu", Pods: 5, PodsPerNode: 2, Nodes: 3, Pool: "NODEPOOL_NAME", Labels: map[string]string{}}},
				Nodes:   3,
				Zones:   bothZones,
			},
		},
		"CPU limits the pods per node; no pool asked for: the derived name": {
			req:       request("r", nil, podSet("cpu", 4)),
			templates: []*corev1.PodTemplate{template("cpu", nil, resources("10", "1Gi", 0))},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "cpu", Pods: 4, PodsPerNode: 2, Nodes: 2, Pool: "default-r-x", Labels: map[string]string{}}},
				Nodes:   2,
				Zones:   bothZones,
			},
		},
		"limits stand in for missing requests": {
			req:       request("r", nil, podSet("limits", 2)),
			templates: []*corev1.PodTemplate{limitsOnly},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "limits", Pods: 2, PodsPerNode: 1, Nodes: 2, Pool: "default-r-x", Labels: map[string]string{}}},
				Nodes:   2,
				Zones:   bothZones,
			},
		},
		"an init container asking for more counts": {
			req:       request("r", nil, podSet("init", 2)),
			templates: []*corev1.PodTemplate{withInit},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "init", Pods: 2, PodsPerNode: 1, Nodes: 2, Pool: "default-r-x", Labels: map[string]string{}}},
				Nodes:   2,
				Zones:   bothZones,
			},
		},
		"a sidecar adds to the containers": {
			req:       request("r", nil, podSet("sidecar", 2)),
			templates: []*corev1.PodTemplate{withSidecar},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "sidecar", Pods: 2, PodsPerNode: 2, Nodes: 1, Pool: "default-r-x", Labels: map[string]string{}}},
				Nodes:   1,
				Zones:   bothZones,
			},
		},
		"other selector keys are copied, matching fixed labels accepted, the zone narrows": {
			req: request("r", nil, podSet("sel", 1)),
			templates: []*corev1.PodTemplate{template("sel", map[string]string{
				"team": "ml", wellknown.GPUAcceleratorLabel: "nvidia-l4", corev1.LabelInstanceTypeStable: "g2-standard-24",
				wellknown.ZoneLabel: "us-central1-b", corev1.LabelOSStable: "linux",
			}, resources("1", "1Gi", 1))},
			want: Demand{
				PodSets: []PodSetDemand{{Template: "sel", Pods: 1, PodsPerNode: 2, Nodes: 1, Pool: "default-r-x", Labels: map[string]string{"team": "ml"}}},
				Nodes:   1,
				Zones:   []string{"us-central1-b"},
			},
		},
		"two pod sets: nodes add up, zones intersect, pools differ": {
			req: request("r", nil, podSet("leader", 1), podSet("workers", 4)),
			templates: []*corev1.PodTemplate{
				template("leader", map[string]string{corev1.LabelTopologyRegion: "us-central1"}, resources("1", "1Gi", 0)),
				template("workers", map[string]string{wellknown.NodePoolLabel: "workers", wellknown.ZoneLabel: "us-central1-a"}, resources("1", "1Gi", 2)),
			},
			want: Demand{
				PodSets: []PodSetDemand{
					{Template: "leader", Pods: 1, PodsPerNode: 24, Nodes: 1, Pool: "default-r-x", Labels: map[string]string{}},
					{Template: "workers", Pods: 4, PodsPerNode: 1, Nodes: 4, Pool: "workers", Labels: map[string]string{}},
				},
				Nodes: 5,
				Zones: []string{"us-central1-a"},
			},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, problem := ComputeDemand(tc.req, lookupIn(tc.templates...), testConfig(), "default-r-x")
			if problem != nil {
				t.Fatalf("problem: %v", problem)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("demand (-want +got):\n%s", diff)
			}
		})
	}
}

func TestComputeDemandProblems(t *testing.T) {
	tests := map[string]struct {
		req       *autoscalingv1.ProvisioningRequest
		templates []*corev1.PodTemplate
		want      Problem
	}{
		"no pod sets": {
			req:  request("r", nil),
			want: Problem{Reason: ReasonInvalidRequest, Message: "spec.podSets: at least one pod set is required"},
		},
		"zero pods": {
			req:       request("r", nil, podSet("t", 0)),
			templates: []*corev1.PodTemplate{seedTemplate("t")},
			want:      Problem{Reason: ReasonInvalidRequest, Message: "spec.podSets[0].count: must be at least 1, got 0"},
		},
		"bad maxRunDurationSeconds": {
			req:       request("r", map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": "ten minutes"}, podSet("t", 1)),
			templates: []*corev1.PodTemplate{seedTemplate("t")},
			want:      Problem{Reason: ReasonInvalidRequest, Message: `parameters.maxRunDurationSeconds: "ten minutes" is not a positive number of seconds`},
		},
		"PodTemplate not created yet: wait": {
			req:       request("r", nil, podSet("t", 1), podSet("u", 1)),
			templates: []*corev1.PodTemplate{seedTemplate("u")},
			want:      Problem{Reason: ReasonPodTemplateNotFound, Message: "waiting for PodTemplate t in namespace default", Wait: true},
		},
		"more GPUs per pod than a node has": {
			req:       request("r", nil, podSet("big", 1)),
			templates: []*corev1.PodTemplate{template("big", nil, resources("1", "1Gi", 4))},
			want:      Problem{Reason: ReasonNotSatisfiable, Message: "pod set 0 (PodTemplate big) requests nvidia.com/gpu 4, more than a provisioned node's 2"},
		},
		"a resource the machine does not have": {
			req: request("r", nil, podSet("tpu", 1)),
			templates: []*corev1.PodTemplate{template("tpu", nil, corev1.ResourceRequirements{
				Requests: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")}})},
			want: Problem{Reason: ReasonNotSatisfiable, Message: "pod set 0 (PodTemplate tpu) requests google.com/tpu 4, which the provisioned machine does not have"},
		},
		"another accelerator": {
			req:       request("r", nil, podSet("h100", 1)),
			templates: []*corev1.PodTemplate{template("h100", map[string]string{wellknown.GPUAcceleratorLabel: "nvidia-h100-80gb"}, resources("1", "1Gi", 1))},
			want: Problem{Reason: ReasonNotSatisfiable,
				Message: "pod set 0 (PodTemplate h100) selects cloud.google.com/gke-accelerator=nvidia-h100-80gb, but provisioned nodes have cloud.google.com/gke-accelerator=nvidia-l4"},
		},
		"a host name": {
			req:       request("r", nil, podSet("host", 1)),
			templates: []*corev1.PodTemplate{template("host", map[string]string{corev1.LabelHostname: "node-1"}, resources("1", "1Gi", 1))},
			want:      Problem{Reason: ReasonNotSatisfiable, Message: "pod set 0 (PodTemplate host) selects kubernetes.io/hostname=node-1, which no new node can have"},
		},
		"a zone the provisioner does not have": {
			req:       request("r", nil, podSet("z", 1)),
			templates: []*corev1.PodTemplate{template("z", map[string]string{wellknown.ZoneLabel: "europe-west4-a"}, resources("1", "1Gi", 1))},
			want:      Problem{Reason: ReasonNotSatisfiable, Message: "pod set 0 (PodTemplate z) selects zone europe-west4-a; the provisioner's zones are us-central1-a, us-central1-b"},
		},
		"pod sets in different zones": {
			req: request("r", nil, podSet("a", 1), podSet("b", 1)),
			templates: []*corev1.PodTemplate{
				template("a", map[string]string{wellknown.ZoneLabel: "us-central1-a"}, resources("1", "1Gi", 1)),
				template("b", map[string]string{wellknown.ZoneLabel: "us-central1-b"}, resources("1", "1Gi", 1)),
			},
			want: Problem{Reason: ReasonNotSatisfiable, Message: "the node selectors of the pod sets allow no single zone of us-central1-a, us-central1-b"},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			_, problem := ComputeDemand(tc.req, lookupIn(tc.templates...), testConfig(), "default-r-x")
			if problem == nil {
				t.Fatal("no problem")
			}
			if diff := cmp.Diff(tc.want, *problem); diff != "" {
				t.Errorf("problem (-want +got):\n%s", diff)
			}
		})
	}
}
