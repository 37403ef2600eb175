package provisioning

// Fuzz targets for what users write that a provisioning check reads: the
// AdmissionCheck and its ProvisioningRequestConfig (parameters, managed
// resources, retry strategy, podSetUpdates), a workload's
// provreq.kueue.x-k8s.io/ annotations, and the names of the objects made
// from them. Each checks that nothing panics and that bad input comes back
// as an error or a check Problem naming the field, never as a request the
// apiserver rejects or a duration that overflowed.
//
// The seed corpora are the AdmissionCheck, ProvisioningRequestConfig and
// Job of manifests/examples (seed 003) and the inputs of this package's
// table tests; `make test-fuzz` runs every target.

import (
	"fmt"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/util/validation"
	"sigs.k8s.io/yaml"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// fuzzSeedDocs returns the documents of kind in the manifest at path
// (under manifests/examples).
func fuzzSeedDocs(f *testing.F, path, kind string) [][]byte {
	f.Helper()
	data, err := os.ReadFile("../../manifests/examples/" + path)
	if err != nil {
		f.Fatal(err)
	}
	var out [][]byte
	for _, doc := range strings.Split(string(data), "\n---\n") {
		if strings.Contains(doc, "\nkind: "+kind+"\n") {
			out = append(out, []byte(doc))
		}
	}
	if len(out) == 0 {
		f.Fatalf("no %s in %s", kind, path)
	}
	return out
}

const maxRunParam = wellknown.MaxRunDurationSecondsParameter

// Bits of the flags argument of FuzzResolve.
const (
	fuzzNoParameters = 1 << iota
	fuzzNoConfig
	fuzzRetry
	fuzzLimit
	fuzzBase
	fuzzMax
	fuzzPodSetUpdates
)

// FuzzResolve resolves an AdmissionCheck with a ProvisioningRequestConfig
// of any class, parameters, managed resources, retry strategy and
// podSetUpdates. Another controller's check is not ours; ours always
// comes back, with a Problem naming the object and field when it cannot
// be used, else with a class requests can carry, retries that are not
// negative and node selector keys that are label keys. Whatever it
// resolves to, Parameters merges it with a workload's annotations
// (provreq.kueue.x-k8s.io/<key> wins, others are left out) and
// MaxRunDuration reads exactly the seconds given or names the parameter;
// Backoff stays within 0..Max and grows with the attempt, whatever the
// attempt; NodeSelector reads exactly the configured details;
// PodSets keeps the managed slices asked for, in order.
func FuzzResolve(f *testing.F) {
	for _, doc := range fuzzSeedDocs(f, "queues/seed-003-dws.yaml", "ProvisioningRequestConfig") {
		var cfg multislicev1alpha1.ProvisioningRequestConfig
		if err := yaml.Unmarshal(doc, &cfg); err != nil {
			f.Fatal(err)
		}
		f.Add(multislicev1alpha1.ProvisioningRequestControllerName, "ProvisioningRequestConfig", cfg.Spec.ProvisioningClassName, maxRunParam, "600",
			string(cfg.Spec.ManagedResources[0]), uint8(0), int32(0), int32(0), int32(0), "", "", int32(1), "nodePool", "dws-1", uint8(3), "app", "x")
	}
	ours := multislicev1alpha1.ProvisioningRequestControllerName
	f.Add(ours, "ProvisioningRequestConfig", "queued-provisioning.gke.io", "", "", "nvidia.com/gpu", uint8(fuzzRetry|fuzzLimit|fuzzBase), int32(1), int32(5), int32(0),
		"cloud.google.com/gke-nodepool", "nodePool", int32(3), "nodePool", "dws-1", uint8(1), "app", "x")
	f.Add(ours, "ProvisioningRequestConfig", "queued-provisioning.gke.io", "", "", "", uint8(fuzzRetry|fuzzLimit|fuzzBase|fuzzMax|fuzzPodSetUpdates), int32(-1), int32(-60), int32(-1),
		"bad key!", "", int32(math.MaxInt32), "zone", "us-central1-a", uint8(2), "app", "x")
	f.Add(ours, "ProvisioningRequestConfig", "Not A Class", maxRunParam, "soon", "cpu", uint8(fuzzRetry|fuzzBase|fuzzMax), int32(0), int32(0), int32(math.MaxInt32),
		"", "", int32(-5), "", "", uint8(0), "app", "x")
	f.Add("example.com/other", "ProvisioningRequestConfig", "x", "", "", "", uint8(0), int32(0), int32(0), int32(0), "", "", int32(1), "", "", uint8(0), "app", "x")
	f.Add(ours, "ConfigMap", "x", "", "", "", uint8(0), int32(0), int32(0), int32(0), "", "", int32(1), "", "", uint8(0), "app", "x")
	f.Add(ours, "ProvisioningRequestConfig", "x", "", "", "", uint8(fuzzNoConfig), int32(0), int32(0), int32(0), "", "", int32(1), "", "", uint8(0), "app", "x")
	f.Add(ours, "ProvisioningRequestConfig", "x", "", "", "", uint8(fuzzNoParameters), int32(0), int32(0), int32(0), "", "", int32(1), "", "", uint8(0), "app", "x")
	// A workload's annotations, and maxRunDurationSeconds from the
	// config and from the workload.
	for _, doc := range fuzzSeedDocs(f, "dws-gpu/job.yaml", "Job") {
		var obj struct {
			Metadata struct{ Annotations map[string]string }
		}
		if err := yaml.Unmarshal(doc, &obj); err != nil {
			f.Fatal(err)
		}
		for k, v := range obj.Metadata.Annotations {
			f.Add(ours, "ProvisioningRequestConfig", "queued-provisioning.gke.io", maxRunParam, "3600", "", uint8(0), int32(0), int32(0), int32(0),
				"", "", int32(1), "", "", uint8(0), k, v)
		}
	}
	for _, v := range []string{"600", "0", "10m", "+5", "-1", "00600", "9223372036", "9223372037", "9223372036854775807", " 600", "6e2"} {
		f.Add(ours, "ProvisioningRequestConfig", "queued-provisioning.gke.io", maxRunParam, v, "", uint8(0), int32(0), int32(0), int32(0),
			"", "", int32(1), "", "", uint8(0), "app", "x")
		f.Add(ours, "ProvisioningRequestConfig", "queued-provisioning.gke.io", maxRunParam, "3600", "", uint8(0), int32(0), int32(0), int32(0),
			"", "", int32(1), "", "", uint8(0), wellknown.ProvReqAnnotationPrefix+maxRunParam, v)
	}
	f.Fuzz(func(t *testing.T, controller, kind, class, paramKey, paramValue, managed string, flags uint8, limit, base, maxSeconds int32,
		selKey, selDetail string, attempt int32, detailKey, detailValue string, place uint8, annKey, annValue string) {
		ac := &multislicev1alpha1.AdmissionCheck{Spec: multislicev1alpha1.AdmissionCheckSpec{ControllerName: controller}}
		ac.Name = "dws-prov"
		if flags&fuzzNoParameters == 0 {
			ac.Spec.Parameters = &multislicev1alpha1.AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: kind, Name: "dws-config"}
		}
		var cfg *multislicev1alpha1.ProvisioningRequestConfig
		if flags&fuzzNoConfig == 0 {
			cfg = &multislicev1alpha1.ProvisioningRequestConfig{Spec: multislicev1alpha1.ProvisioningRequestConfigSpec{
				ProvisioningClassName: class,
				Parameters:            map[string]multislicev1alpha1.Parameter{paramKey: multislicev1alpha1.Parameter(paramValue)},
			}}
			cfg.Name = "dws-config"
			if managed != "" {
				cfg.Spec.ManagedResources = []corev1.ResourceName{corev1.ResourceName(managed)}
			}
			if flags&fuzzRetry != 0 {
				rs := &multislicev1alpha1.ProvisioningRequestRetryStrategy{}
				if flags&fuzzLimit != 0 {
					rs.BackoffLimitCount = &limit
				}
				if flags&fuzzBase != 0 {
					rs.BackoffBaseSeconds = &base
				}
				if flags&fuzzMax != 0 {
					rs.BackoffMaxSeconds = &maxSeconds
				}
				cfg.Spec.RetryStrategy = rs
			}
			if flags&fuzzPodSetUpdates != 0 {
				cfg.Spec.PodSetUpdates = &multislicev1alpha1.ProvisioningRequestPodSetUpdates{
					NodeSelector: []multislicev1alpha1.ProvisioningRequestPodSetUpdatesNodeSelector{{Key: selKey, ValueFromProvisioningClassDetail: selDetail}}}
			}
		}

		c, isOurs := Resolve(ac, cfg)
		if controller != ours {
			if c != nil || isOurs {
				t.Fatalf("another controller's check resolved as ours: %+v", c)
			}
			return
		}
		if c == nil || !isOurs || c.Name != "dws-prov" {
			t.Fatalf("Resolve = %+v, %v", c, isOurs)
		}
		// What makes the check unusable, each with the field to name.
		var problems []string
		switch {
		case ac.Spec.Parameters == nil:
			problems = append(problems, "spec.parameters")
		case kind != "ProvisioningRequestConfig":
			problems = append(problems, "spec.parameters.kind")
		case cfg == nil:
			problems = append(problems, "not found")
		default:
			if len(validation.IsDNS1123Subdomain(class)) > 0 {
				problems = append(problems, "spec.provisioningClassName")
			}
			if len(paramValue) > 255 {
				problems = append(problems, "spec.parameters["+paramKey+"]")
			}
			if paramKey == maxRunParam {
				if _, err := MaxRunDuration(map[string]autoscalingv1.Parameter{maxRunParam: autoscalingv1.Parameter(paramValue)}); err != nil {
					problems = append(problems, "spec.parameters["+maxRunParam+"]")
				}
			}
			for field, v := range map[string]int32{"backoffLimitCount": limit, "backoffBaseSeconds": base, "backoffMaxSeconds": maxSeconds} {
				bit := map[string]uint8{"backoffLimitCount": fuzzLimit, "backoffBaseSeconds": fuzzBase, "backoffMaxSeconds": fuzzMax}[field]
				if flags&fuzzRetry != 0 && flags&bit != 0 && v < 0 {
					problems = append(problems, "spec.retryStrategy."+field)
				}
			}
			if flags&fuzzPodSetUpdates != 0 {
				if len(validation.IsQualifiedName(selKey)) > 0 {
					problems = append(problems, "spec.podSetUpdates.nodeSelector[0].key")
				}
				if selDetail == "" {
					problems = append(problems, "spec.podSetUpdates.nodeSelector[0].valueFromProvisioningClassDetail")
				}
			}
		}
		if len(problems) > 0 {
			named := false
			for _, p := range problems {
				named = named || strings.Contains(c.Problem, p)
			}
			if !named || !(strings.HasPrefix(c.Problem, "AdmissionCheck dws-prov") || strings.HasPrefix(c.Problem, "ProvisioningRequestConfig dws-config")) {
				t.Fatalf("Problem %q names none of %q", c.Problem, problems)
			}
		} else {
			if c.Problem != "" {
				t.Fatalf("a usable check has Problem %q", c.Problem)
			}
			if c.Class != class || c.Retry.Limit < 0 || c.Retry.Base < 0 || c.Retry.Max < 0 {
				t.Fatalf("resolved %+v", c)
			}
			for _, e := range c.NodeSelector {
				if len(validation.IsQualifiedName(e.Key)) > 0 || e.Detail == "" {
					t.Fatalf("node selector entry %+v", e)
				}
			}
		}

		// Parameters: the check's, overridden by the workload's
		// provreq.kueue.x-k8s.io/<key> annotations (only those); the
		// run duration is exactly the seconds given, or an error naming
		// the parameter for anything but a canonical positive number of
		// seconds that a duration holds.
		annotations := map[string]string{annKey: annValue, "app": "x"}
		got := Parameters(c, annotations)
		want := map[string]autoscalingv1.Parameter{}
		for k, v := range c.Parameters {
			want[k] = autoscalingv1.Parameter(v)
		}
		if key, ok := strings.CutPrefix(annKey, wellknown.ProvReqAnnotationPrefix); ok && key != "" {
			want[key] = autoscalingv1.Parameter(annValue)
		}
		if len(got) != len(want) || (len(want) == 0 && got != nil) {
			t.Fatalf("Parameters = %v, want %v", got, want)
		}
		for k, v := range want {
			if got[k] != v {
				t.Fatalf("Parameters = %v, want %v", got, want)
			}
		}
		d, err := MaxRunDuration(got)
		v, set := got[maxRunParam]
		n, perr := strconv.ParseInt(string(v), 10, 64)
		switch {
		case !set:
			if d != 0 || err != nil {
				t.Fatalf("MaxRunDuration without the parameter = %v, %v", d, err)
			}
		case perr == nil && n > 0 && strconv.FormatInt(n, 10) == string(v) && n <= int64(math.MaxInt64/time.Second):
			if err != nil || d != time.Duration(n)*time.Second {
				t.Fatalf("MaxRunDuration(%q) = %v, %v; want %d seconds", v, d, err, n)
			}
		default:
			if err == nil || d != 0 || !strings.HasPrefix(err.Error(), maxRunParam+": "+strconv.Quote(string(v))) {
				t.Fatalf("MaxRunDuration(%q) = %v, %v; want an error naming %s", v, d, err, maxRunParam)
			}
		}

		// Backoff, however the retry strategy resolved, and as the raw
		// values would have it.
		raw := Retry{Limit: limit, Base: time.Duration(base) * time.Second, Max: time.Duration(maxSeconds) * time.Second}
		for _, r := range []Retry{c.Retry, raw} {
			for _, a := range []int32{1, 2, 3, 10, 40, 64, 100, attempt, math.MaxInt32} {
				d := r.Backoff(a)
				if d < 0 || d > max(r.Max, 0) || (a == 1 && d != max(0, min(r.Base, r.Max))) {
					t.Fatalf("Backoff(%d) = %v with %+v", a, d, r)
				}
			}
			prev := time.Duration(0)
			for a := int32(1); a < 70; a++ {
				d := r.Backoff(a)
				if d < prev {
					t.Fatalf("Backoff(%d) = %v, less than Backoff(%d) = %v, with %+v", a, d, a-1, prev, r)
				}
				prev = d
			}
		}

		// NodeSelector reads the configured details, or names one missing.
		details := map[string]autoscalingv1.Detail{detailKey: autoscalingv1.Detail(detailValue)}
		sel, missing := NodeSelector(c, details)
		switch {
		case len(c.NodeSelector) == 0:
			if missing != "" || (detailKey != NodePoolDetail && sel != nil) {
				t.Fatalf("NodeSelector without podSetUpdates = %v, %q for details %v", sel, missing, details)
			}
		case missing != "":
			if _, ok := details[missing]; ok || sel != nil {
				t.Fatalf("NodeSelector = %v, missing %q of details %v", sel, missing, details)
			}
		default:
			for _, e := range c.NodeSelector {
				if v, ok := details[e.Detail]; !ok || !slices.Equal(sel[e.Key], []string{string(v)}) {
					t.Fatalf("NodeSelector = %v for %+v and details %v", sel, c.NodeSelector, details)
				}
			}
		}

		// PodSets keeps the slices asked for that ask for a managed
		// resource, in order.
		spec := &corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}
		w := &workload.Workload{Slices: []workload.Slice{
			{Index: 0, Pods: 2, Template: spec, Request: workload.Resources{wellknown.ResourceGPU: 1000, corev1.ResourcePods: 1000}},
			{Index: 1, Pods: 1, Template: spec, Request: workload.Resources{corev1.ResourceCPU: 100, corev1.ResourcePods: 1000}},
			{Index: 2, Pods: 3, Request: workload.Resources{wellknown.ResourceGPU: 1000}},
		}}
		var slices []int
		for i := range w.Slices {
			if place&(1<<i) != 0 {
				slices = append(slices, i)
			}
		}
		var wantSets []string
		for _, i := range slices {
			s := w.Slices[i]
			if s.Template != nil && (len(c.ManagedResources) == 0 || s.Request[c.ManagedResources[0]] > 0) {
				wantSets = append(wantSets, fmt.Sprint(i))
			}
		}
		sets := PodSets(c, w, slices)
		if len(sets) != len(wantSets) {
			t.Fatalf("PodSets = %+v, want slices %v", sets, wantSets)
		}
		for i, ps := range sets {
			if ps.Name != wantSets[i] || ps.Template == nil {
				t.Fatalf("PodSets = %+v, want slices %v", sets, wantSets)
			}
			if j, _ := strconv.Atoi(ps.Name); int(ps.Count) != w.Slices[j].Pods {
				t.Fatalf("PodSets = %+v: %d pods for slice %d of %d", sets, ps.Count, j, w.Slices[j].Pods)
			}
			// A shared template is an earlier pod set's own, and equal.
			if ps.Shares != "" {
				k := -1
				for o := range i {
					if sets[o].Name == ps.Shares {
						k = o
					}
				}
				if k < 0 || sets[k].Shares != "" || !apiequality.Semantic.DeepEqual(sets[k].Template, ps.Template) {
					t.Fatalf("PodSets = %+v: pod set %s shares %q, not an earlier pod set with its own equal template", sets, ps.Name, ps.Shares)
				}
			}
		}
	})
}

// FuzzNames names the Workload object, ProvisioningRequest and
// PodTemplates of any workload, check and attempt as the scheduler does
// (workload.Key.ObjectName, RequestName, PodTemplateName). From valid
// object names (a workload's, an AdmissionCheck's: DNS subdomains) come
// valid object names, whatever their length; attempts get distinct
// requests, and pod sets distinct templates.
func FuzzNames(f *testing.F) {
	f.Add("Job", "sample-job", "dws-prov", int32(1), uint16(0))
	f.Add("JobSet", "multislice-2slice", "dws-prov", int32(2), uint16(1))
	f.Add("PodGroup", strings.Repeat("a", 300), "dws-prov", int32(1), uint16(3))
	f.Add("JobSet", strings.Repeat("a", 232)+"."+strings.Repeat("b", 17), "prov.check", int32(0), uint16(9999))
	f.Add("Pod", strings.Repeat("a.", 120)+"b", strings.Repeat("c", 253), int32(-1), uint16(7))
	f.Fuzz(func(t *testing.T, source, name, check string, attempt int32, podSet uint16) {
		valid := func(s string) bool { return len(validation.IsDNS1123Subdomain(s)) == 0 }
		switch workload.Source(source) {
		case workload.SourceJobSet, workload.SourceJob, workload.SourcePodGroup, workload.SourcePod:
		default:
			return
		}
		key := workload.Key{Source: workload.Source(source), Namespace: "ns", Name: name}
		wl := key.ObjectName()
		if valid(name) && !valid(wl) {
			t.Fatalf("Workload %q of %v: %v", wl, key, validation.IsDNS1123Subdomain(wl))
		}
		req := RequestName(wl, check, attempt)
		if req != RequestName(wl, check, attempt) || (attempt < math.MaxInt32 && req == RequestName(wl, check, attempt+1)) {
			t.Fatalf("RequestName(%q, %q, %d) = %q is not one name per attempt", wl, check, attempt, req)
		}
		tmpl := PodTemplateName(req, fmt.Sprint(podSet))
		if tmpl == PodTemplateName(req, fmt.Sprint(int(podSet)+1)) {
			t.Fatalf("PodTemplateName(%q, %d) = %q for two pod sets", req, podSet, tmpl)
		}
		if !valid(wl) || !valid(check) {
			return
		}
		if !valid(req) {
			t.Fatalf("RequestName(%q, %q, %d) = %q: %v", wl, check, attempt, req, validation.IsDNS1123Subdomain(req))
		}
		if !valid(tmpl) {
			t.Fatalf("PodTemplateName(%q, %d) = %q: %v", req, podSet, tmpl, validation.IsDNS1123Subdomain(tmpl))
		}
	})
}
