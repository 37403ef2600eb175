package v1

import (
	"encoding/json"
	"os"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"sigs.k8s.io/yaml"
)

// A ProvisioningRequest as the autoscaler's documentation and clients write
// it, status included. Decoding it strictly catches a field whose JSON name
// differs from the published one.
const published = `
apiVersion: autoscaling.x-k8s.io/v1
kind: ProvisioningRequest
metadata:
  name: sample-job-dws-prov-1
  namespace: default
spec:
  provisioningClassName: queued-provisioning.gke.io
  parameters:
    maxRunDurationSeconds: "600"
  podSets:
  - count: 4
    podTemplateRef:
      name: ppt-sample-job-dws-prov-1-main
status:
  conditions:
  - type: Provisioned
    status: "True"
    reason: Provisioned
    message: capacity is ready
    lastTransitionTime: "2025-01-03T13:56:08Z"
  provisioningClassDetails:
    zone: us-central1-a
`

func TestPublishedShapeRoundTrips(t *testing.T) {
	var pr ProvisioningRequest
	if err := yaml.UnmarshalStrict([]byte(published), &pr); err != nil {
		t.Fatalf("the published shape does not decode strictly: %v", err)
	}
	want := ProvisioningRequestSpec{
		ProvisioningClassName: "queued-provisioning.gke.io",
		Parameters:            map[string]Parameter{"maxRunDurationSeconds": "600"},
		PodSets:               []PodSet{{PodTemplateRef: Reference{Name: "ppt-sample-job-dws-prov-1-main"}, Count: 4}},
	}
	if diff := cmp.Diff(want, pr.Spec); diff != "" {
		t.Errorf("spec (-want +got):\n%s", diff)
	}
	if len(pr.Status.Conditions) != 1 || pr.Status.Conditions[0].Type != Provisioned ||
		pr.Status.Conditions[0].Status != metav1.ConditionTrue || pr.Status.ProvisioningClassDetails["zone"] != "us-central1-a" {
		t.Errorf("status %+v", pr.Status)
	}

	// Encoded again, it is the same document.
	data, err := json.Marshal(&pr)
	if err != nil {
		t.Fatal(err)
	}
	var got, orig map[string]any
	if err := json.Unmarshal(data, &got); err != nil {
		t.Fatal(err)
	}
	if err := yaml.Unmarshal([]byte(published), &orig); err != nil {
		t.Fatal(err)
	}
	delete(got["metadata"].(map[string]any), "creationTimestamp")
	if diff := cmp.Diff(orig, got); diff != "" {
		t.Errorf("round trip (-published +encoded):\n%s", diff)
	}
}

func TestDeepCopyIsIndependent(t *testing.T) {
	var pr ProvisioningRequest
	if err := yaml.UnmarshalStrict([]byte(published), &pr); err != nil {
		t.Fatal(err)
	}
	cp := pr.DeepCopy()
	cp.Spec.Parameters["maxRunDurationSeconds"] = "1200"
	cp.Spec.PodSets[0].Count = 8
	cp.Status.Conditions[0].Status = metav1.ConditionFalse
	cp.Status.ProvisioningClassDetails["zone"] = "elsewhere"
	if pr.Spec.Parameters["maxRunDurationSeconds"] != "600" || pr.Spec.PodSets[0].Count != 4 ||
		pr.Status.Conditions[0].Status != metav1.ConditionTrue || pr.Status.ProvisioningClassDetails["zone"] != "us-central1-a" {
		t.Errorf("changing the copy changed the original: %+v", pr)
	}
	var obj runtime.Object = &ProvisioningRequestList{Items: []ProvisioningRequest{pr}}
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
		&ProvisioningRequest{}:     "ProvisioningRequest",
		&ProvisioningRequestList{}: "ProvisioningRequestList",
	} {
		gvks, _, err := scheme.ObjectKinds(obj)
		if err != nil {
			t.Fatal(err)
		}
		if want := SchemeGroupVersion.WithKind(kind); len(gvks) != 1 || gvks[0] != want {
			t.Errorf("%T registered as %v, want %v", obj, gvks, want)
		}
	}
	if got := Resource("provisioningrequests").String(); got != "provisioningrequests.autoscaling.x-k8s.io" {
		t.Errorf("Resource: %s", got)
	}
}

// TestCRDMatchesPublishedSchema checks the generated CRD against the rules
// of the autoscaler's published one, rule by rule (descriptions aside):
// what the scheduler creates must pass the real CRD, and the tests that
// install ours check against the same rules.
func TestCRDMatchesPublishedSchema(t *testing.T) {
	data, err := os.ReadFile("../../../../manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml")
	if err != nil {
		t.Fatalf("%v (run 'make generate')", err)
	}
	var crd map[string]any
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	immutable := []any{map[string]any{"message": "Value is immutable", "rule": "self == oldSelf"}}
	dnsSubdomain := `^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	const schema = "spec.versions.0.schema.openAPIV3Schema."
	const spec = schema + "properties.spec."
	const podSet = spec + "properties.podSets.items."
	const status = schema + "properties.status.properties."
	for path, want := range map[string]any{
		"spec.group":                   "autoscaling.x-k8s.io",
		"spec.scope":                   "Namespaced",
		"spec.names.kind":              "ProvisioningRequest",
		"spec.names.plural":            "provisioningrequests",
		"spec.names.shortNames":        []any{"provreq", "provreqs"},
		"spec.versions.0.name":         "v1",
		"spec.versions.0.served":       true,
		"spec.versions.0.storage":      true,
		"spec.versions.0.subresources": map[string]any{"status": map[string]any{}},
		schema + "required":            []any{"spec"},
		spec + "required":              []any{"podSets", "provisioningClassName"},

		spec + "properties.podSets.minItems":                           1.0,
		spec + "properties.podSets.maxItems":                           32.0,
		spec + "properties.podSets.x-kubernetes-validations":           immutable,
		podSet + "required":                                            []any{"count", "podTemplateRef"},
		podSet + "properties.count.minimum":                            1.0,
		podSet + "properties.count.format":                             "int32",
		podSet + "properties.podTemplateRef.required":                  []any{"name"},
		podSet + "properties.podTemplateRef.properties.name.maxLength": 253.0,
		podSet + "properties.podTemplateRef.properties.name.pattern":   dnsSubdomain,

		spec + "properties.provisioningClassName.maxLength":                253.0,
		spec + "properties.provisioningClassName.pattern":                  dnsSubdomain,
		spec + "properties.provisioningClassName.x-kubernetes-validations": immutable,

		spec + "properties.parameters.maxProperties":                       100.0,
		spec + "properties.parameters.additionalProperties.maxLength":      255.0,
		spec + "properties.parameters.x-kubernetes-validations":            immutable,
		status + "conditions.x-kubernetes-list-type":                       "map",
		status + "conditions.x-kubernetes-list-map-keys":                   []any{"type"},
		status + "provisioningClassDetails.maxProperties":                  64.0,
		status + "provisioningClassDetails.additionalProperties.maxLength": 32768.0,
	} {
		got, ok := lookup(crd, path)
		if !ok {
			t.Errorf("%s: missing", path)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s (-published +generated):\n%s", path, diff)
		}
	}
	// v1beta1 is served beside it, not stored, with the same schema: an
	// object written as either reads back unchanged as the other.
	versions := crd["spec"].(map[string]any)["versions"].([]any)
	if len(versions) != 2 {
		t.Fatalf("%d versions, want v1 and v1beta1", len(versions))
	}
	beta := versions[1].(map[string]any)
	if beta["name"] != "v1beta1" || beta["served"] != true || beta["storage"] != false {
		t.Errorf("second version %v %v %v, want v1beta1 served, not stored", beta["name"], beta["served"], beta["storage"])
	}
	v1 := versions[0].(map[string]any)
	for _, field := range []string{"schema", "subresources", "additionalPrinterColumns"} {
		if diff := cmp.Diff(withoutDescriptions(v1[field]), withoutDescriptions(beta[field])); diff != "" {
			t.Errorf("v1beta1's %s differs from v1's (-v1 +v1beta1):\n%s", field, diff)
		}
	}
	if conv, set := crd["spec"].(map[string]any)["conversion"]; set {
		t.Errorf("conversion %v: the versions share one schema and need none", conv)
	}
}

// withoutDescriptions is v with every schema description dropped: the
// versions' documentation may differ, their rules may not.
func withoutDescriptions(v any) any {
	switch x := v.(type) {
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			if k != "description" {
				out[k] = withoutDescriptions(e)
			}
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = withoutDescriptions(e)
		}
		return out
	}
	return v
}

// lookup follows a dotted path through maps and (by index) lists.
func lookup(v any, path string) (any, bool) {
	for _, key := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = x[key]; !ok {
				return nil, false
			}
		case []any:
			i, err := strconv.Atoi(key)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}
