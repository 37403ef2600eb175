package webhook

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	admissionv1 "k8s.io/api/admission/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// reviewBody is an AdmissionReview of the creation of raw as resource.
func reviewBody(t testing.TB, resource metav1.GroupVersionResource, op admissionv1.Operation, namespace string, raw []byte) []byte {
	t.Helper()
	body, err := json.Marshal(admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: "admission.k8s.io/v1", Kind: "AdmissionReview"},
		Request: &admissionv1.AdmissionRequest{
			UID: types.UID("req-1"), Resource: resource, Operation: op, Namespace: namespace,
			Object: runtime.RawExtension{Raw: raw},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	return body
}

// post sends body to a Handler over HTTP and returns the status and the
// decoded response (nil unless 200).
func post(t testing.TB, h http.Handler, body []byte) (int, *admissionv1.AdmissionResponse, string) {
	t.Helper()
	srv := httptest.NewServer(h)
	defer srv.Close()
	resp, err := http.Post(srv.URL, "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	data, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return resp.StatusCode, nil, string(data)
	}
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(data, &review); err != nil {
		t.Fatalf("response %s: %v", data, err)
	}
	if review.APIVersion != "admission.k8s.io/v1" || review.Kind != "AdmissionReview" {
		t.Errorf("response is a %s %s", review.APIVersion, review.Kind)
	}
	return resp.StatusCode, review.Response, string(data)
}

// Over HTTP, every object of the table is allowed, with the patch of its
// decision and its reason as an audit annotation, or with no patch.
func TestHandlerServesDecisions(t *testing.T) {
	h := &Handler{Decider: &Decider{Scheduler: scheduler, Lookup: testLookup()}}
	for _, tc := range decisionCases() {
		t.Run(tc.name, func(t *testing.T) {
			raw := rawJSON(t, tc.obj)
			status, resp, body := post(t, h, reviewBody(t, tc.resource, admissionv1.Create, ns, raw))
			if status != http.StatusOK {
				t.Fatalf("status %d: %s", status, body)
			}
			if resp.UID != "req-1" || !resp.Allowed {
				t.Fatalf("response uid %q allowed %v, want req-1 allowed", resp.UID, resp.Allowed)
			}
			if !tc.want.Mutates() {
				if resp.Patch != nil || resp.PatchType != nil {
					t.Errorf("patch %s for an object not decided for", resp.Patch)
				}
				return
			}
			if resp.PatchType == nil || *resp.PatchType != admissionv1.PatchTypeJSONPatch {
				t.Fatalf("patch type %v", resp.PatchType)
			}
			want, err := Patch(raw, tc.want, scheduler)
			if err != nil {
				t.Fatal(err)
			}
			if string(resp.Patch) != string(want) {
				t.Errorf("patch %s, want %s", resp.Patch, want)
			}
			if resp.AuditAnnotations["scheduler-name-reason"] != tc.want.Reason {
				t.Errorf("audit annotations %v, want the reason %q", resp.AuditAnnotations, tc.want.Reason)
			}
		})
	}
}

func TestHandler(t *testing.T) {
	queuedPod := rawJSON(t, builders.Pod(ns, "p").Label(wellknown.QueueNameLabel, ourQueue).Obj())
	for _, tc := range []struct {
		name        string
		body        []byte
		method      string
		contentType string
		lookupErr   error
		wantStatus  int
		wantPatch   bool
		wantWarning string
		wantBody    string
	}{
		{name: "a queued pod is patched",
			body: reviewBody(t, podsResource, admissionv1.Create, ns, queuedPod), wantStatus: 200, wantPatch: true},
		{name: "an update is allowed as it is",
			body: reviewBody(t, podsResource, admissionv1.Update, ns, queuedPod), wantStatus: 200},
		{name: "a resource not decided for is allowed as it is",
			body: reviewBody(t, metav1.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, admissionv1.Create, ns, queuedPod), wantStatus: 200},
		{name: "an object that is not its kind is allowed, with a warning",
			body: reviewBody(t, podsResource, admissionv1.Create, ns, []byte(`{"spec":{"containers":"no"}}`)), wantStatus: 200,
			wantWarning: "multislice-webhook could not read the Pod, whose schedulerName is left as written"},
		{name: "a request without its object is allowed, with a warning",
			body: reviewBody(t, jobsResource, admissionv1.Create, ns, nil), wantStatus: 200,
			wantWarning: "the request has no object"},
		{name: "the API unreadable: 500, for the failure policy to decide",
			body: reviewBody(t, podsResource, admissionv1.Create, ns, queuedPod), lookupErr: errors.New("connection refused"),
			wantStatus: 500, wantBody: "deciding whether the Pod team/ is multislice-scheduler's: looking up LocalQueue team/ours: connection refused"},
		{name: "not a review", body: []byte(`[]`), wantStatus: 400, wantBody: "not an AdmissionReview"},
		{name: "a review without a request", body: []byte(`{"apiVersion":"admission.k8s.io/v1","kind":"AdmissionReview"}`), wantStatus: 400,
			wantBody: "no request"},
		{name: "GET", method: http.MethodGet, wantStatus: 405},
		{name: "not JSON", body: []byte(`x`), contentType: "text/plain", wantStatus: 415},
	} {
		t.Run(tc.name, func(t *testing.T) {
			lookup := testLookup()
			lookup.err = tc.lookupErr
			srv := httptest.NewServer(&Handler{Decider: &Decider{Scheduler: scheduler, Lookup: lookup}})
			defer srv.Close()
			method, ct := tc.method, tc.contentType
			if method == "" {
				method = http.MethodPost
			}
			if ct == "" {
				ct = "application/json; charset=utf-8"
			}
			req, err := http.NewRequestWithContext(t.Context(), method, srv.URL, bytes.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("Content-Type", ct)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer func() { _ = resp.Body.Close() }()
			data, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.wantStatus {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.wantStatus, data)
			}
			if !strings.Contains(string(data), tc.wantBody) {
				t.Errorf("body %s, want it to contain %q", data, tc.wantBody)
			}
			if resp.StatusCode != 200 {
				return
			}
			var review admissionv1.AdmissionReview
			if err := json.Unmarshal(data, &review); err != nil {
				t.Fatal(err)
			}
			r := review.Response
			if !r.Allowed {
				t.Errorf("denied: %+v", r.Result)
			}
			if got := r.Patch != nil; got != tc.wantPatch {
				t.Errorf("patch %s, want one: %v", r.Patch, tc.wantPatch)
			}
			if tc.wantWarning == "" && len(r.Warnings) > 0 || tc.wantWarning != "" && (len(r.Warnings) != 1 || !strings.Contains(r.Warnings[0], tc.wantWarning)) {
				t.Errorf("warnings %q, want %q", r.Warnings, tc.wantWarning)
			}
		})
	}
}

// A pod created from a generateName is logged by its prefix.
func TestObjectName(t *testing.T) {
	pod := builders.Pod(ns, "").Obj()
	pod.GenerateName = "sample-job-"
	req := &admissionv1.AdmissionRequest{Object: runtime.RawExtension{Raw: rawJSON(t, pod)}}
	if got := objectName(req); got != "sample-job-*" {
		t.Errorf("objectName = %q", got)
	}
	req.Name = "named"
	if got := objectName(req); got != "named" {
		t.Errorf("objectName = %q", got)
	}
}
