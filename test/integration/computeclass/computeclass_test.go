// Package computeclass_test installs the generated ComputeClass CRD on a
// real kube-apiserver and checks what it serves: seed 001's class and a
// class shaped like GKE's reference, with the many fields we do not model,
// are accepted as written under kubectl's default strict field validation,
// keep every field, and read back through the typed client; the fields we
// model are still validated.
package computeclass_test

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }

var resource = schema.GroupVersionResource{Group: "cloud.google.com", Version: "v1", Resource: "computeclasses"}

// gkeShaped has fields this project does not model at every level.
const gkeShaped = `
apiVersion: cloud.google.com/v1
kind: ComputeClass
metadata:
  name: gke-shaped
spec:
  description: L4 GPUs, flex-start, then spot.
  activeMigration: {optimizeRulePriority: true}
  autoscalingPolicy: {consolidationDelayMinutes: 5}
  nodePoolAutoCreation: {enabled: true, shieldedInstanceConfig: {enableSecureBoot: true}}
  nodePoolConfig:
    imageType: cos_containerd
    taints: [{key: dedicated, value: ml, effect: NoSchedule}]
  priorityDefaults:
    location: {zones: [us-central1-a]}
  priorities:
  - machineType: g2-standard-24
    gpu: {type: nvidia-l4, count: 2, driverVersion: latest, gpuSharing: {gpuSharingStrategy: TIME_SHARING}}
    flexStart: {enabled: true, nodeRecycling: {leadTimeSeconds: 600}}
    maxRunDurationSeconds: 86400
    reservations: {affinity: None}
    storage: {bootDiskSize: 100}
  - machineFamily: g2
    spot: true
    minCores: 24
    minMemoryGb: 96
  whenUnsatisfiable: DoNotScaleUp
`

func TestComputeClassAPI(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallComputeClassCRD(t)
	dyn := dynamic.NewForConfigOrDie(cp.Config).Resource(resource)
	typed := versioned.NewForConfigOrDie(cp.Config).CloudV1().ComputeClasses()

	seed, err := os.ReadFile(harness.RepoPath(t, "manifests/examples/flex-start/computeclass.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	short, err := os.ReadFile(harness.RepoPath(t, "manifests/examples/flex-start/computeclass-short.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	strict := metav1.CreateOptions{FieldValidation: metav1.FieldValidationStrict}
	for name, doc := range map[string]string{"seed 001": string(seed), "GKE-shaped": gkeShaped} {
		t.Run(name, func(t *testing.T) {
			var obj unstructured.Unstructured
			if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
				t.Fatal(err)
			}
			got, err := dyn.Create(t.Context(), &obj, strict)
			if err != nil {
				t.Fatalf("rejected: %v", err)
			}
			// Every field is kept, those we do not model included.
			if diff := cmp.Diff(normalized(t, obj.Object["spec"]), normalized(t, got.Object["spec"])); diff != "" {
				t.Errorf("spec as stored (-applied +stored):\n%s", diff)
			}
			cc, err := typed.Get(t.Context(), obj.GetName(), metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := computeclass.Validate(cc); err != nil {
				t.Errorf("Validate: %v", err)
			}
			if len(cc.Spec.Priorities) != 2 || !cc.Spec.NodePoolAutoCreation.Enabled {
				t.Errorf("typed read %+v", cc.Spec)
			}
		})
	}

	// The short variant replaces the seed's class under its name.
	var obj unstructured.Unstructured
	if err := yaml.Unmarshal(short, &obj.Object); err != nil {
		t.Fatal(err)
	}
	cur, err := dyn.Get(t.Context(), obj.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	obj.SetResourceVersion(cur.GetResourceVersion())
	if _, err := dyn.Update(t.Context(), &obj, metav1.UpdateOptions{FieldValidation: metav1.FieldValidationStrict}); err != nil {
		t.Fatalf("short variant: %v", err)
	}
	cc, err := typed.Get(t.Context(), obj.GetName(), metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if lt := computeclass.PriorityRunWindow(&cc.Spec.Priorities[1], cc.CreationTimestamp.Time); lt.End.Sub(lt.Created).Seconds() != 300 || lt.End.Sub(lt.RecycleAt).Seconds() != 120 {
		t.Errorf("short variant lifetime %+v", lt)
	}

	for name, tc := range map[string]struct{ spec, want string }{
		"a run time of zero":         {"priorities: [{machineType: g2-standard-24, maxRunDurationSeconds: 0}]", "maxRunDurationSeconds"},
		"cores as a string":          {`priorities: [{machineFamily: g2, minCores: "24"}]`, "minCores"},
		"no GPUs":                    {"priorities: [{gpu: {type: nvidia-l4, count: 0}}]", "gpu.count"},
		"a negative lead time":       {"priorities: [{flexStart: {enabled: true, nodeRecycling: {leadTimeSeconds: -1}}}]", "leadTimeSeconds"},
		"an unknown fallback":        {"priorities: [{machineFamily: n4}]\n  whenUnsatisfiable: Sometimes", "whenUnsatisfiable"},
		"an unknown top-level field": {"priorities: [{machineFamily: n4}]\nextra: 1", `unknown field "extra"`},
	} {
		t.Run(name, func(t *testing.T) {
			doc := "apiVersion: cloud.google.com/v1\nkind: ComputeClass\nmetadata: {name: invalid}\nspec:\n  " + tc.spec + "\n"
			var obj unstructured.Unstructured
			if err := yaml.Unmarshal([]byte(doc), &obj.Object); err != nil {
				t.Fatal(err)
			}
			_, err := dyn.Create(t.Context(), &obj, strict)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one about %s", err, tc.want)
			}
		})
	}
}

// normalized is v through JSON, so that numbers compare alike.
func normalized(t *testing.T, v any) any {
	t.Helper()
	data, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		t.Fatal(err)
	}
	return out
}
