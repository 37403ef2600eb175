package webhook

// Fuzz targets for what reaches the webhook: any bytes as the object of a
// review, and any well-typed object through the match conditions. The
// seed corpora are the objects of the decision table; `make test-fuzz`
// runs every target.

import (
	"encoding/json"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
)

// fuzzResources are the resources a fuzzed object is reviewed as.
var fuzzResources = []metav1.GroupVersionResource{podsResource, jobsResource, jobSetsResource, lwsResource}

func fuzzSeeds(f *testing.F) {
	for i, r := range fuzzResources {
		f.Add([]byte(`{}`), uint8(i))
		for _, tc := range decisionCases() {
			if tc.resource == r {
				f.Add(rawJSON(f, tc.obj), uint8(i))
			}
		}
	}
}

// Any object, of any of the four resources, is answered without a panic:
// allowed, and when patched, with a patch that applies to the object as
// it came and gives the scheduler to the pod specs the decision names.
func FuzzReview(f *testing.F) {
	fuzzSeeds(f)
	f.Fuzz(func(t *testing.T, raw []byte, which uint8) {
		resource := fuzzResources[int(which)%len(fuzzResources)]
		for _, lookup := range []*fakeLookup{testLookup(), {optedIn: map[string]bool{ns: true, optedNS: true, "": true}}} {
			h := &Handler{Decider: &Decider{Scheduler: scheduler, Lookup: lookup}}
			resp, err := h.Review(t.Context(), &admissionv1.AdmissionRequest{
				UID: "u", Resource: resource, Operation: admissionv1.Create, Object: runtimeRaw(raw),
			})
			if err != nil {
				t.Fatalf("error %v from a lookup that never fails", err)
			}
			if !resp.Allowed || resp.UID != "u" {
				t.Fatalf("response %+v", resp)
			}
			if resp.Patch == nil {
				continue
			}
			patched := applyPatch(t, raw, resp.Patch)
			if !json.Valid(patched) {
				t.Fatalf("patched object is not JSON: %s", patched)
			}
			var ops []patchOp
			if err := json.Unmarshal(resp.Patch, &ops); err != nil || len(ops) < 2 {
				t.Fatalf("patch %s: %v", resp.Patch, err)
			}
		}
	})
}

// Every well-typed object of the four resources (any bytes decoded as the
// kind, then written again, as the apiserver hands it to admission)
// passes the match conditions of both webhooks without an evaluation
// error, which would fail its creation under failurePolicy Fail.
func FuzzMatchConditions(f *testing.F) {
	fuzzSeeds(f)
	ms := matchers(f)
	f.Fuzz(func(t *testing.T, raw []byte, which uint8) {
		resource := fuzzResources[int(which)%len(fuzzResources)]
		var obj any
		switch resource {
		case podsResource:
			obj = &corev1.Pod{}
		case jobsResource:
			obj = &batchv1.Job{}
		case jobSetsResource:
			obj = &jobsetv1alpha2.JobSet{}
		default:
			obj = &LeaderWorkerSet{}
		}
		if json.Unmarshal(raw, obj) != nil {
			return
		}
		typed, err := json.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		for name, m := range ms {
			if _, err := match(m, resource, typed); err != nil {
				t.Fatalf("%s on %s %s: %v", name, resource.Resource, typed, err)
			}
		}
	})
}

func runtimeRaw(raw []byte) runtime.RawExtension { return runtime.RawExtension{Raw: raw} }
