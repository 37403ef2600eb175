package v1alpha1

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"
)

// documents splits a multi-document YAML file of the repository into its
// documents, keyed by kind.
func documents(t *testing.T, rel string) map[string][]byte {
	t.Helper()
	data, err := os.ReadFile("../../../../" + rel)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]byte{}
	r := utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))
	for {
		doc, err := r.Read()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		var meta struct{ Kind string }
		if err := yaml.Unmarshal(doc, &meta); err != nil {
			t.Fatal(err)
		}
		out[meta.Kind] = doc
	}
}

// Seed 003's AdmissionCheck and ProvisioningRequestConfig, written for
// Kueue, decode strictly into our types: every field name is Kueue's.
func TestSeed003DecodesStrictly(t *testing.T) {
	docs := documents(t, "manifests/examples/queues/seed-003-dws.yaml")

	var ac AdmissionCheck
	if err := yaml.UnmarshalStrict(docs["AdmissionCheck"], &ac); err != nil {
		t.Fatalf("AdmissionCheck: %v", err)
	}
	if diff := cmp.Diff(AdmissionCheckSpec{
		ControllerName: ProvisioningRequestControllerName,
		Parameters:     &AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "dws-config"},
	}, ac.Spec); diff != "" {
		t.Errorf("AdmissionCheck spec (-want +got):\n%s", diff)
	}

	var prc ProvisioningRequestConfig
	if err := yaml.UnmarshalStrict(docs["ProvisioningRequestConfig"], &prc); err != nil {
		t.Fatalf("ProvisioningRequestConfig: %v", err)
	}
	if diff := cmp.Diff(ProvisioningRequestConfigSpec{
		ProvisioningClassName: "queued-provisioning.gke.io",
		ManagedResources:      []corev1.ResourceName{"nvidia.com/gpu"},
	}, prc.Spec); diff != "" {
		t.Errorf("ProvisioningRequestConfig spec (-want +got):\n%s", diff)
	}
}

// The CRD's defaults of retryStrategy are the Default* constants (Kueue's),
// whether the whole strategy or one of its fields is left out.
func TestRetryStrategyDefaultsMatchCRD(t *testing.T) {
	data, err := os.ReadFile("../../../../manifests/crds/multislice.dev_provisioningrequestconfigs.yaml")
	if err != nil {
		t.Fatalf("%v (run 'make generate')", err)
	}
	var crd struct {
		Spec struct {
			Versions []struct {
				Schema struct {
					OpenAPIV3Schema struct {
						Properties struct {
							Spec struct {
								Properties struct {
									RetryStrategy struct {
										Default    map[string]int32
										Properties map[string]struct{ Default int32 }
									} `json:"retryStrategy"`
								}
							}
						}
					} `json:"openAPIV3Schema"`
				}
			}
		}
	}
	if err := yaml.Unmarshal(data, &crd); err != nil {
		t.Fatal(err)
	}
	if len(crd.Spec.Versions) != 1 {
		t.Fatalf("%d versions", len(crd.Spec.Versions))
	}
	rs := crd.Spec.Versions[0].Schema.OpenAPIV3Schema.Properties.Spec.Properties.RetryStrategy
	want := map[string]int32{
		"backoffLimitCount":  DefaultBackoffLimitCount,
		"backoffBaseSeconds": DefaultBackoffBaseSeconds,
		"backoffMaxSeconds":  DefaultBackoffMaxSeconds,
	}
	if diff := cmp.Diff(want, rs.Default); diff != "" {
		t.Errorf("retryStrategy default (-constants +CRD):\n%s", diff)
	}
	fields := map[string]int32{}
	for name, p := range rs.Properties {
		fields[name] = p.Default
	}
	if diff := cmp.Diff(want, fields); diff != "" {
		t.Errorf("retryStrategy field defaults (-constants +CRD):\n%s", diff)
	}
}

func TestProvisioningKindsRoundTrip(t *testing.T) {
	prc := &ProvisioningRequestConfig{
		Spec: ProvisioningRequestConfigSpec{
			ProvisioningClassName: "queued-provisioning.gke.io",
			Parameters:            map[string]Parameter{"maxRunDurationSeconds": "600"},
			ManagedResources:      []corev1.ResourceName{"nvidia.com/gpu"},
			RetryStrategy: &ProvisioningRequestRetryStrategy{
				BackoffLimitCount: ptr.To[int32](0), BackoffBaseSeconds: ptr.To[int32](60), BackoffMaxSeconds: ptr.To[int32](1800),
			},
			PodSetUpdates: &ProvisioningRequestPodSetUpdates{NodeSelector: []ProvisioningRequestPodSetUpdatesNodeSelector{
				{Key: "topology.kubernetes.io/zone", ValueFromProvisioningClassDetail: "zone"},
			}},
			PodSetMergePolicy: ptr.To(IdenticalPodTemplates),
		},
	}
	ac := &AdmissionCheck{Spec: AdmissionCheckSpec{
		ControllerName:    ProvisioningRequestControllerName,
		RetryDelayMinutes: ptr.To[int64](15),
		Parameters:        &AdmissionCheckParametersReference{APIGroup: GroupName, Kind: "ProvisioningRequestConfig", Name: "dws-config"},
	}}
	for _, obj := range []runtime.Object{prc, ac} {
		data, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		back := obj.DeepCopyObject()
		if err := json.Unmarshal(data, back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(obj, back); diff != "" {
			t.Errorf("%T round trip (-written +read):\n%s", obj, diff)
		}
	}

	// Zero backoffLimitCount ("no retries") is kept, not dropped as empty.
	data, _ := json.Marshal(prc.Spec.RetryStrategy)
	if string(data) != `{"backoffLimitCount":0,"backoffBaseSeconds":60,"backoffMaxSeconds":1800}` {
		t.Errorf("retryStrategy encodes as %s", data)
	}

	cp := prc.DeepCopy()
	cp.Spec.Parameters["maxRunDurationSeconds"] = "1"
	*cp.Spec.RetryStrategy.BackoffLimitCount = 5
	cp.Spec.PodSetUpdates.NodeSelector[0].Key = "other"
	if prc.Spec.Parameters["maxRunDurationSeconds"] != "600" || *prc.Spec.RetryStrategy.BackoffLimitCount != 0 ||
		prc.Spec.PodSetUpdates.NodeSelector[0].Key != "topology.kubernetes.io/zone" {
		t.Errorf("changing the copy changed the original: %+v", prc.Spec)
	}
}

func TestProvisioningKindsRegistered(t *testing.T) {
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatal(err)
	}
	for _, kind := range []string{"AdmissionCheck", "AdmissionCheckList", "ProvisioningRequestConfig", "ProvisioningRequestConfigList"} {
		if !scheme.Recognizes(SchemeGroupVersion.WithKind(kind)) {
			t.Errorf("%s not registered", kind)
		}
	}
}
