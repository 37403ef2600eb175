package webhook

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"

	admissionv1 "k8s.io/api/admission/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// maxReviewBytes bounds a request body: the apiserver's own limit on an
// object (3 MiB) with room for the review around it.
const maxReviewBytes = 8 << 20

// The resources Review decides for, as Rules registers them.
var (
	podsResource    = metav1.GroupVersionResource{Version: "v1", Resource: "pods"}
	jobsResource    = metav1.GroupVersionResource{Group: "batch", Version: "v1", Resource: "jobs"}
	jobSetsResource = metav1.GroupVersionResource{Group: "jobset.x-k8s.io", Version: "v1alpha2", Resource: "jobsets"}
	lwsResource     = metav1.GroupVersionResource{Group: wellknown.LWSGroup, Version: wellknown.LWSVersion, Resource: wellknown.LWSResource}
)

// Handler serves AdmissionReview (admission.k8s.io/v1) requests.
type Handler struct {
	Decider *Decider
}

// ServeHTTP answers one review: 200 with the response, whatever it
// decides; 400 for a body that is no review; 500 when deciding needed the
// API and could not read it, so that the webhook's failure policy, not
// the webhook, decides what becomes of the object.
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		http.Error(w, "only POST", http.StatusMethodNotAllowed)
		return
	}
	if ct, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || ct != "application/json" {
		http.Error(w, "the body must be application/json", http.StatusUnsupportedMediaType)
		return
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxReviewBytes))
	if err != nil {
		http.Error(w, "reading the body: "+err.Error(), http.StatusBadRequest)
		return
	}
	out, status, err := h.ReviewJSON(r.Context(), body)
	if err != nil {
		http.Error(w, err.Error(), status)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(out)
}

// ReviewJSON decides a review given as JSON and returns the review to send
// back. On error, status is the HTTP status to answer with.
func (h *Handler) ReviewJSON(ctx context.Context, body []byte) ([]byte, int, error) {
	var review admissionv1.AdmissionReview
	if err := json.Unmarshal(body, &review); err != nil {
		return nil, http.StatusBadRequest, fmt.Errorf("not an AdmissionReview: %w", err)
	}
	if review.Request == nil {
		return nil, http.StatusBadRequest, errors.New("the AdmissionReview has no request")
	}
	resp, err := h.Review(ctx, review.Request)
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	out, err := json.Marshal(admissionv1.AdmissionReview{
		TypeMeta: metav1.TypeMeta{APIVersion: admissionv1.SchemeGroupVersion.String(), Kind: "AdmissionReview"},
		Response: resp,
	})
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	return out, http.StatusOK, nil
}

// Review decides one request. It never denies: an object it does not
// decide for, or cannot read, is allowed as it is (with a warning when it
// could not be read); an error means the API could not be read.
func (h *Handler) Review(ctx context.Context, req *admissionv1.AdmissionRequest) (*admissionv1.AdmissionResponse, error) {
	resp := &admissionv1.AdmissionResponse{UID: req.UID, Allowed: true}
	if req.Operation != admissionv1.Create || req.SubResource != "" {
		return resp, nil
	}
	raw := req.Object.Raw
	dec, kind, err := h.decide(ctx, req.Resource, raw)
	var unreadable *unreadableError
	switch {
	case errors.As(err, &unreadable):
		resp.Warnings = []string{fmt.Sprintf("multislice-webhook could not read the %s, whose schedulerName is left as written: %v", kind, unreadable.err)}
		return resp, nil
	case err != nil:
		return nil, fmt.Errorf("deciding whether the %s %s/%s is %s's: %w", kind, req.Namespace, req.Name, h.Decider.Scheduler, err)
	case !dec.Mutates():
		return resp, nil
	}
	patch, err := Patch(raw, dec, h.Decider.Scheduler)
	if err != nil {
		resp.Warnings = []string{fmt.Sprintf("multislice-webhook could not patch the %s, whose schedulerName is left as written: %v", kind, err)}
		return resp, nil
	}
	klog.FromContext(ctx).V(2).Info("Giving pods this scheduler", "kind", kind, "namespace", req.Namespace, "name", objectName(req), "reason", dec.Reason)
	resp.Patch = patch
	resp.PatchType = ptr.To(admissionv1.PatchTypeJSONPatch)
	resp.AuditAnnotations = map[string]string{"scheduler-name-reason": dec.Reason}
	return resp, nil
}

// unreadableError: the object could not be decoded as its kind.
type unreadableError struct{ err error }

func (e *unreadableError) Error() string { return e.err.Error() }

// decide decodes raw as the resource says and decides for it; kind names
// the object's kind for messages.
func (h *Handler) decide(ctx context.Context, resource metav1.GroupVersionResource, raw []byte) (Decision, string, error) {
	unmarshal := func(into any) error {
		if len(raw) == 0 {
			return &unreadableError{errors.New("the request has no object")}
		}
		if err := json.Unmarshal(raw, into); err != nil {
			return &unreadableError{err}
		}
		return nil
	}
	switch resource {
	case podsResource:
		var pod corev1.Pod
		if err := unmarshal(&pod); err != nil {
			return Decision{}, "Pod", err
		}
		d, err := h.Decider.Pod(ctx, &pod)
		return d, "Pod", err
	case jobsResource:
		var job batchv1.Job
		if err := unmarshal(&job); err != nil {
			return Decision{}, "Job", err
		}
		d, err := h.Decider.Job(ctx, &job)
		return d, "Job", err
	case jobSetsResource:
		var js jobsetv1alpha2.JobSet
		if err := unmarshal(&js); err != nil {
			return Decision{}, "JobSet", err
		}
		d, err := h.Decider.JobSet(ctx, &js)
		return d, "JobSet", err
	case lwsResource:
		var lws LeaderWorkerSet
		if err := unmarshal(&lws); err != nil {
			return Decision{}, "LeaderWorkerSet", err
		}
		d, err := h.Decider.LeaderWorkerSet(ctx, &lws)
		return d, "LeaderWorkerSet", err
	}
	return Decision{}, schema.GroupVersionResource(resource).String(), nil
}

// objectName is the request's object name, or its generateName prefix
// for an object that has none yet (pods of a Job, say).
func objectName(req *admissionv1.AdmissionRequest) string {
	if req.Name != "" {
		return req.Name
	}
	var m struct {
		Metadata metav1.ObjectMeta `json:"metadata"`
	}
	if json.Unmarshal(req.Object.Raw, &m) == nil && m.Metadata.GenerateName != "" {
		return m.Metadata.GenerateName + "*"
	}
	return ""
}
