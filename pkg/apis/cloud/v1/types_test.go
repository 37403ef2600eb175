package v1

import (
	"encoding/json"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	"k8s.io/apiextensions-apiserver/pkg/apiserver/schema/pruning"
	apiservervalidation "k8s.io/apiextensions-apiserver/pkg/apiserver/validation"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// seed001 is seed 001's class as the seed writes it.
const seed001 = `
apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: dws-model-inference-class
spec:
  priorities:
  - machineType: g2-standard-24
    spot: true
  - machineType: g2-standard-24
    maxRunDurationSeconds: 72000
    flexStart:
      enabled: true
      nodeRecycling:
        leadTimeSeconds: 3600
  nodePoolAutoCreation:
    enabled: true
`

// gkeShaped is a class shaped like those of GKE's reference, with many
// fields this package does not model, at every level that has some.
const gkeShaped = `
apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: accelerators
spec:
  description: GPUs first, then TPUs, then CPUs.
  activeMigration:
    optimizeRulePriority: true
  autoscalingPolicy:
    consolidationDelayMinutes: 5
    gpuConsolidationThreshold: 10
  nodePoolAutoCreation:
    enabled: true
    shieldedInstanceConfig:
      enableSecureBoot: true
  nodePoolConfig:
    imageType: cos_containerd
    nodeLabels:
      team: ml
    taints:
    - {key: dedicated, value: ml, effect: NoSchedule}
  priorityDefaults:
    location:
      zones: [us-central1-a, us-central1-b]
  priorities:
  - machineType: g2-standard-24
    gpu:
      type: nvidia-l4
      count: 2
      driverVersion: latest
      gpuSharing:
        gpuSharingStrategy: TIME_SHARING
        maxSharedClientsPerGpu: 2
    reservations:
      affinity: Specific
      specific:
      - name: l4-reservation
    spot: false
  - tpu:
      type: tpu-v5-lite-podslice
      count: 4
      topology: 2x4
    location:
      zones: [us-west4-a]
    flexStart:
      enabled: true
      nodeRecycling:
        leadTimeSeconds: 600
    maxRunDurationSeconds: 86400
  - machineFamily: n4
    minCores: 16
    minMemoryGb: 64
    spot: true
    storage:
      bootDiskSize: 100
  whenUnsatisfiable: DoNotScaleUp
status:
  conditions:
  - type: Health
    status: "True"
    reason: Health
    message: the class is ready
    lastTransitionTime: "2025-06-01T10:00:00Z"
`

func TestSeedClassDecodesStrictly(t *testing.T) {
	var cc ComputeClass
	if err := yaml.UnmarshalStrict([]byte(seed001), &cc); err != nil {
		t.Fatalf("seed 001's class does not decode strictly: %v", err)
	}
	want := ComputeClassSpec{
		Priorities: []Priority{
			{MachineType: "g2-standard-24", Spot: ptr.To(true)},
			{MachineType: "g2-standard-24", MaxRunDurationSeconds: ptr.To[int64](72000),
				FlexStart: &FlexStart{Enabled: true, NodeRecycling: &NodeRecycling{LeadTimeSeconds: ptr.To[int64](3600)}}},
		},
		NodePoolAutoCreation: &NodePoolAutoCreation{Enabled: true},
	}
	if diff := cmp.Diff(want, cc.Spec); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}

	// Encoded again, it is the same document.
	data, err := json.Marshal(&cc)
	if err != nil {
		t.Fatal(err)
	}
	var got, orig map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(seed001), &orig); err != nil {
		t.Fatal(err)
	}
	delete(got["metadata"].(map[string]any), "creationTimestamp")
	delete(got, "status")
	if diff := cmp.Diff(orig, got); diff != "" {
		t.Errorf("round trip (-seed +encoded):\n%s", diff)
	}
}

// The typed client reads a real class, unknown fields and all, and gets
// the fields it models.
func TestGKEShapedClassDecodes(t *testing.T) {
	var cc ComputeClass
	if err := yaml.Unmarshal([]byte(gkeShaped), &cc); err != nil {
		t.Fatal(err)
	}
	if len(cc.Spec.Priorities) != 3 || cc.Spec.WhenUnsatisfiable != DoNotScaleUp || !cc.Spec.NodePoolAutoCreation.Enabled {
		t.Fatalf("spec %+v", cc.Spec)
	}
	p0, p1, p2 := cc.Spec.Priorities[0], cc.Spec.Priorities[1], cc.Spec.Priorities[2]
	if p0.GPU == nil || p0.GPU.Type != "nvidia-l4" || p0.GPU.Count != 2 || p0.Spot == nil || *p0.Spot {
		t.Errorf("priority 0 %+v", p0)
	}
	if p1.TPU == nil || p1.TPU.Topology != "2x4" || p1.TPU.Count != 4 || !p1.FlexStart.Enabled ||
		*p1.FlexStart.NodeRecycling.LeadTimeSeconds != 600 || *p1.MaxRunDurationSeconds != 86400 {
		t.Errorf("priority 1 %+v", p1)
	}
	if p2.MachineFamily != "n4" || *p2.MinCores != 16 || !*p2.Spot {
		t.Errorf("priority 2 %+v", p2)
	}
	if len(cc.Status.Conditions) != 1 || cc.Status.Conditions[0].Type != "Health" {
		t.Errorf("status %+v", cc.Status)
	}
}

// crdSchema reads the generated CRD and returns its v1 schema as the
// apiserver uses it: structural (for pruning) and as a validator.
func crdSchema(t *testing.T) (*apiextensionsv1.CustomResourceDefinition, *structuralschema.Structural, apiservervalidation.SchemaValidator) {
	t.Helper()
	data, err := os.ReadFile("../../../../manifests/crds/cloud.google.com_computeclasses.yaml")
	if err != nil {
		t.Fatalf("%v (run 'make generate')", err)
	}
	var crd apiextensionsv1.CustomResourceDefinition
	if err := yaml.UnmarshalStrict(data, &crd); err != nil {
		t.Fatal(err)
	}
	if len(crd.Spec.Versions) != 1 {
		t.Fatalf("%d versions, want v1 only", len(crd.Spec.Versions))
	}
	var internal apiextensions.JSONSchemaProps
	if err := apiextensionsv1.Convert_v1_JSONSchemaProps_To_apiextensions_JSONSchemaProps(crd.Spec.Versions[0].Schema.OpenAPIV3Schema, &internal, nil); err != nil {
		t.Fatal(err)
	}
	structural, err := structuralschema.NewStructural(&internal)
	if err != nil {
		t.Fatal(err)
	}
	validator, _, err := apiservervalidation.NewSchemaValidator(&internal)
	if err != nil {
		t.Fatal(err)
	}
	return &crd, structural, validator
}

// admit does to a class what the apiserver does on create with
// fieldValidation=Strict (kubectl's default): fields the schema would
// prune are errors, then the schema's validation.
func admit(t *testing.T, s *structuralschema.Structural, v apiservervalidation.SchemaValidator, doc string) []string {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	var errs []string
	for _, path := range pruning.PruneWithOptions(obj, s, true, structuralschema.UnknownFieldPathOptions{TrackUnknownFieldPaths: true}) {
		errs = append(errs, "unknown field "+path)
	}
	for _, e := range apiservervalidation.ValidateCustomResource(field.NewPath(""), obj, v) {
		errs = append(errs, e.Error())
	}
	return errs
}

func TestCRDAcceptsClassesAsWritten(t *testing.T) {
	_, s, v := crdSchema(t)
	for name, doc := range map[string]string{"seed 001": seed001, "GKE-shaped": gkeShaped} {
		if errs := admit(t, s, v, doc); len(errs) > 0 {
			t.Errorf("%s class rejected: %v", name, errs)
		}
	}
	// What is outside the kept objects is still reported, as the
	// apiserver's strict field validation does.
	if errs := admit(t, s, v, seed001+"extra: field\n"); !slices.Contains(errs, "unknown field extra") {
		t.Errorf("a top-level unknown field gives %v", errs)
	}
}

func TestCRDValidatesModelledFields(t *testing.T) {
	_, s, v := crdSchema(t)
	for _, tc := range []struct {
		name, priority, spec, want string
	}{
		{"zero run time", "maxRunDurationSeconds: 0", "", "maxRunDurationSeconds"},
		{"negative lead time", "flexStart: {enabled: true, nodeRecycling: {leadTimeSeconds: -1}}", "", "leadTimeSeconds"},
		{"cores as a string", `minCores: "16"`, "", "minCores"},
		{"spot as a string", `spot: "yes"`, "", "spot"},
		{"no GPUs", "gpu: {type: nvidia-l4, count: 0}", "", "gpu.count"},
		{"unknown policy", "machineType: n4-standard-8", "whenUnsatisfiable: Sometimes", "whenUnsatisfiable"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := "apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata: {name: c}\nspec:\n  priorities:\n  - " + tc.priority + "\n"
			if tc.spec != "" {
				doc += "  " + tc.spec + "\n"
			}
			errs := admit(t, s, v, doc)
			if !slices.ContainsFunc(errs, func(e string) bool { return strings.Contains(e, tc.want) }) {
				t.Errorf("errors %v, want one about %s", errs, tc.want)
			}
		})
	}
}

func TestCRDShape(t *testing.T) {
	crd, s, _ := crdSchema(t)
	if crd.Name != "computeclasses.cloud.google.com" || crd.Spec.Group != GroupName || crd.Spec.Scope != apiextensionsv1.ClusterScoped ||
		crd.Spec.Names.Kind != "ComputeClass" || crd.Spec.Names.Plural != "computeclasses" {
		t.Errorf("CRD %s serves %s %s %s (%s)", crd.Name, crd.Spec.Group, crd.Spec.Names.Kind, crd.Spec.Names.Plural, crd.Spec.Scope)
	}
	ver := crd.Spec.Versions[0]
	if ver.Name != SchemeGroupVersion.Version || !ver.Served || !ver.Storage || ver.Subresources == nil || ver.Subresources.Status == nil {
		t.Errorf("version %s served %v storage %v subresources %+v", ver.Name, ver.Served, ver.Storage, ver.Subresources)
	}
	spec := s.Properties["spec"]
	for path, node := range map[string]structuralschema.Structural{
		"spec":              spec,
		"spec.priorities[]": *spec.Properties["priorities"].Items,
		"status":            s.Properties["status"],
	} {
		if !node.XPreserveUnknownFields {
			t.Errorf("%s does not keep unknown fields", path)
		}
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	var cc ComputeClass
	if err := yaml.Unmarshal([]byte(gkeShaped), &cc); err != nil {
		t.Fatal(err)
	}
	cp := cc.DeepCopy()
	*cp.Spec.Priorities[1].FlexStart.NodeRecycling.LeadTimeSeconds = 1
	*cp.Spec.Priorities[2].MinCores = 1
	cp.Spec.Priorities[0].GPU.Count = 8
	cp.Status.Conditions[0].Status = "False"
	if *cc.Spec.Priorities[1].FlexStart.NodeRecycling.LeadTimeSeconds != 600 || *cc.Spec.Priorities[2].MinCores != 16 ||
		cc.Spec.Priorities[0].GPU.Count != 2 || cc.Status.Conditions[0].Status != "True" {
		t.Errorf("changing the copy changed the original: %+v", cc)
	}
	var obj runtime.Object = &ComputeClassList{Items: []ComputeClass{cc}}
	if !reflect.DeepEqual(obj, obj.DeepCopyObject()) {
		t.Error("list copy differs")
	}
}

func TestSchemeRegistration(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for obj, kind := range map[runtime.Object]string{
		&ComputeClass{}:     "ComputeClass",
		&ComputeClassList{}: "ComputeClassList",
	} {
		gvks, _, err := scheme.ObjectKinds(obj)
		if err != nil {
			t.Fatal(err)
		}
		if want := SchemeGroupVersion.WithKind(kind); len(gvks) != 1 || gvks[0] != want {
			t.Errorf("%T registered as %v, want %v", obj, gvks, want)
		}
	}
	if got := Resource("computeclasses").String(); got != "computeclasses.cloud.google.com" {
		t.Errorf("Resource: %s", got)
	}
}
