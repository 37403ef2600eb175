package provisioning

import (
	"math"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestBackoff(t *testing.T) {
	r := Retry{Limit: 3, Base: time.Minute, Max: 30 * time.Minute}
	for attempt, want := range map[int32]time.Duration{1: time.Minute, 2: 2 * time.Minute, 3: 4 * time.Minute, 5: 16 * time.Minute, 6: 30 * time.Minute, 40: 30 * time.Minute} {
		if got := r.Backoff(attempt); got != want {
			t.Errorf("Backoff(%d) = %v, want %v", attempt, got, want)
		}
	}
	// Caught by FuzzResolve: a negative base gave negative backoffs (and
	// a zero one looped once per attempt, 2^31 times here).
	for _, r := range []Retry{{Base: -time.Minute, Max: time.Hour}, {Base: 0, Max: time.Hour}, {Base: time.Minute, Max: -time.Minute}} {
		if got := r.Backoff(math.MaxInt32); got != 0 {
			t.Errorf("%+v: Backoff = %v, want 0", r, got)
		}
	}
}

func TestRequestName(t *testing.T) {
	if got := RequestName("job-sample-job", "dws-prov", 2); got != "job-sample-job-dws-prov-2" {
		t.Errorf("RequestName = %q", got)
	}
	long := RequestName(strings.Repeat("a", 300), "dws-prov", 1)
	if len(long) > 253 || long == RequestName(strings.Repeat("a", 300), "dws-prov", 2) {
		t.Errorf("long name %q (%d chars) not shortened to a distinct valid name", long, len(long))
	}
	if got := PodTemplateName("r-1", "0"); got != "ppt-r-1-0" {
		t.Errorf("PodTemplateName = %q", got)
	}
}

func TestParametersAndMaxRunDuration(t *testing.T) {
	c := &Check{Parameters: map[string]string{"maxRunDurationSeconds": "3600", "other": "x"}}
	got := Parameters(c, map[string]string{"provreq.kueue.x-k8s.io/maxRunDurationSeconds": "600", "unrelated": "y"})
	if got["maxRunDurationSeconds"] != "600" || got["other"] != "x" || len(got) != 2 {
		t.Errorf("Parameters = %v", got)
	}
	if Parameters(&Check{}, nil) != nil {
		t.Error("no parameters should be nil")
	}
	cases := map[string]struct {
		v       string
		want    time.Duration
		wantErr bool
	}{
		"seconds": {v: "600", want: 10 * time.Minute},
		"zero":    {v: "0", wantErr: true},
		"junk":    {v: "10m", wantErr: true},
		"sign":    {v: "+5", wantErr: true},
		"largest": {v: "9223372036", want: 9223372036 * time.Second},
		// Caught by FuzzResolve: it used to overflow into a negative duration.
		"more than a duration holds": {v: "9223372037", wantErr: true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			d, err := MaxRunDuration(map[string]autoscalingv1.Parameter{"maxRunDurationSeconds": autoscalingv1.Parameter(tc.v)})
			if (err != nil) != tc.wantErr || d != tc.want {
				t.Errorf("MaxRunDuration(%q) = %v, %v", tc.v, d, err)
			}
		})
	}
	if d, err := MaxRunDuration(nil); d != 0 || err != nil {
		t.Errorf("absent: %v, %v", d, err)
	}
}

func TestPodSetsKeepManagedSlices(t *testing.T) {
	gpu := &corev1.PodSpec{Containers: []corev1.Container{{Name: "c"}}}
	w := &workload.Workload{Slices: []workload.Slice{
		{Index: 0, Pods: 2, Template: gpu, Request: workload.Resources{"nvidia.com/gpu": 1, "cpu": 100}},
		{Index: 1, Pods: 1, Template: gpu, Request: workload.Resources{"cpu": 100}},
	}}
	if got := PodSets(&Check{ManagedResources: []corev1.ResourceName{"nvidia.com/gpu"}}, w, []int{0, 1}); len(got) != 1 || got[0].Name != "0" || got[0].Count != 2 {
		t.Errorf("managed pod sets = %+v", got)
	}
	if got := PodSets(&Check{}, w, []int{0, 1}); len(got) != 2 {
		t.Errorf("unmanaged pod sets = %+v", got)
	}
}

// Pod sets whose templates are equal share one PodTemplate: the first's.
func TestPodSetsShareEqualTemplates(t *testing.T) {
	spec := func(image string) *corev1.PodSpec {
		return &corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: image}}}
	}
	a := spec("a")
	for _, tc := range []struct {
		name      string
		templates []*corev1.PodSpec
		want      []string // each pod set's PodTemplate, in request r
	}{
		{"one slice", []*corev1.PodSpec{a}, []string{"ppt-r-0"}},
		{"slices of one replicated Job", []*corev1.PodSpec{a, a, a}, []string{"ppt-r-0", "ppt-r-0", "ppt-r-0"}},
		{"equal, not the same object", []*corev1.PodSpec{a, spec("a")}, []string{"ppt-r-0", "ppt-r-0"}},
		{"two replicated Jobs, interleaved", []*corev1.PodSpec{a, spec("b"), a, spec("b")}, []string{"ppt-r-0", "ppt-r-1", "ppt-r-0", "ppt-r-1"}},
		{"all different", []*corev1.PodSpec{a, spec("b"), spec("c")}, []string{"ppt-r-0", "ppt-r-1", "ppt-r-2"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &workload.Workload{}
			var all []int
			for i, tmpl := range tc.templates {
				w.Slices = append(w.Slices, workload.Slice{Index: i, Pods: 2, Template: tmpl, Request: workload.Resources{"cpu": 100}})
				all = append(all, i)
			}
			var got []string
			owners := map[string]bool{}
			for _, ps := range PodSets(&Check{}, w, all) {
				got = append(got, ps.TemplateName("r"))
				if ps.Shares == "" {
					owners[ps.TemplateName("r")] = true
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("templates %v, want %v", got, tc.want)
			}
			for _, name := range got {
				if !owners[name] {
					t.Errorf("PodTemplate %s is referred to, and no pod set makes it", name)
				}
			}
		})
	}
}

func TestRead(t *testing.T) {
	cond := func(typ string, status metav1.ConditionStatus) metav1.Condition {
		return metav1.Condition{Type: typ, Status: status, Message: typ + " message"}
	}
	cases := map[string]struct {
		conds []metav1.Condition
		want  Outcome
	}{
		"nothing":      {want: Pending},
		"accepted":     {conds: []metav1.Condition{cond(autoscalingv1.Accepted, metav1.ConditionTrue)}, want: Pending},
		"provisioned":  {conds: []metav1.Condition{cond(autoscalingv1.Provisioned, metav1.ConditionTrue)}, want: Provisioned},
		"not yet":      {conds: []metav1.Condition{cond(autoscalingv1.Provisioned, metav1.ConditionFalse)}, want: Pending},
		"failed":       {conds: []metav1.Condition{cond(autoscalingv1.Failed, metav1.ConditionTrue)}, want: Failed},
		"expired":      {conds: []metav1.Condition{cond(autoscalingv1.Provisioned, metav1.ConditionTrue), cond(autoscalingv1.BookingExpired, metav1.ConditionTrue)}, want: BookingExpired},
		"revoked wins": {conds: []metav1.Condition{cond(autoscalingv1.Provisioned, metav1.ConditionTrue), cond(autoscalingv1.BookingExpired, metav1.ConditionTrue), cond(autoscalingv1.CapacityRevoked, metav1.ConditionTrue)}, want: CapacityRevoked},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got, msg := Read(tc.conds); got != tc.want || msg == "" {
				t.Errorf("Read = %v %q, want %v", got, msg, tc.want)
			}
		})
	}
}

func TestResolve(t *testing.T) {
	ac := func(controller string, params *multislicev1alpha1.AdmissionCheckParametersReference) *multislicev1alpha1.AdmissionCheck {
		a := &multislicev1alpha1.AdmissionCheck{Spec: multislicev1alpha1.AdmissionCheckSpec{ControllerName: controller, Parameters: params}}
		a.Name = "dws-prov"
		return a
	}
	ref := &multislicev1alpha1.AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "dws-config"}
	cfg := &multislicev1alpha1.ProvisioningRequestConfig{Spec: multislicev1alpha1.ProvisioningRequestConfigSpec{
		ProvisioningClassName: "queued-provisioning.gke.io",
		ManagedResources:      []corev1.ResourceName{"nvidia.com/gpu"},
		RetryStrategy:         &multislicev1alpha1.ProvisioningRequestRetryStrategy{BackoffLimitCount: ptr.To[int32](1), BackoffBaseSeconds: ptr.To[int32](5)},
	}}
	if _, ours := Resolve(ac("example.com/other", ref), cfg); ours {
		t.Error("another controller's check resolved as ours")
	}
	c, ours := Resolve(ac(multislicev1alpha1.ProvisioningRequestControllerName, ref), cfg)
	if !ours || c.Problem != "" || c.Class != "queued-provisioning.gke.io" || c.Retry.Limit != 1 || c.Retry.Base != 5*time.Second || c.Retry.Max != 1800*time.Second {
		t.Errorf("resolved %+v", c)
	}
	for name, tc := range map[string]struct {
		ref *multislicev1alpha1.AdmissionCheckParametersReference
		cfg *multislicev1alpha1.ProvisioningRequestConfig
	}{
		"no parameters": {cfg: cfg},
		"wrong kind":    {ref: &multislicev1alpha1.AdmissionCheckParametersReference{Kind: "ConfigMap", Name: "x"}, cfg: cfg},
		"missing":       {ref: ref},
	} {
		if c, _ := Resolve(ac(multislicev1alpha1.ProvisioningRequestControllerName, tc.ref), tc.cfg); c.Problem == "" {
			t.Errorf("%s: no problem reported", name)
		}
	}
	// Caught by FuzzResolve: configs the CRD would reject, resolved as if
	// they were fine.
	type spec = multislicev1alpha1.ProvisioningRequestConfigSpec
	long := multislicev1alpha1.Parameter(strings.Repeat("v", 256))
	for name, tc := range map[string]struct {
		edit func(*spec)
		want string
	}{
		"no class":       {func(s *spec) { s.ProvisioningClassName = "" }, "spec.provisioningClassName:"},
		"negative base":  {func(s *spec) { s.RetryStrategy.BackoffBaseSeconds = ptr.To[int32](-60) }, "spec.retryStrategy.backoffBaseSeconds: must not be negative, got -60"},
		"negative limit": {func(s *spec) { s.RetryStrategy.BackoffLimitCount = ptr.To[int32](-1) }, "spec.retryStrategy.backoffLimitCount: must not be negative"},
		"bad run duration": {func(s *spec) { s.Parameters = map[string]multislicev1alpha1.Parameter{"maxRunDurationSeconds": "10m"} },
			`spec.parameters[maxRunDurationSeconds]: "10m" is not a positive number of seconds`},
		"long parameter": {func(s *spec) { s.Parameters = map[string]multislicev1alpha1.Parameter{"x": long} },
			"spec.parameters[x]: longer than 255 characters"},
		"node selector key": {func(s *spec) {
			s.PodSetUpdates = &multislicev1alpha1.ProvisioningRequestPodSetUpdates{NodeSelector: []multislicev1alpha1.ProvisioningRequestPodSetUpdatesNodeSelector{
				{Key: "bad key!", ValueFromProvisioningClassDetail: "nodePool"}}}
		}, `spec.podSetUpdates.nodeSelector[0].key: "bad key!" is not a node label key`},
	} {
		bad := cfg.DeepCopy()
		tc.edit(&bad.Spec)
		c, _ := Resolve(ac(multislicev1alpha1.ProvisioningRequestControllerName, ref), bad)
		if want := "ProvisioningRequestConfig dws-config, named by AdmissionCheck dws-prov: " + tc.want; !strings.HasPrefix(c.Problem, want) {
			t.Errorf("%s: Problem %q, want %q", name, c.Problem, want)
		}
	}
}

func TestNodeSelectorFromDetails(t *testing.T) {
	cfg := &multislicev1alpha1.ProvisioningRequestConfig{Spec: multislicev1alpha1.ProvisioningRequestConfigSpec{
		ProvisioningClassName: "queued-provisioning.gke.io",
		PodSetUpdates: &multislicev1alpha1.ProvisioningRequestPodSetUpdates{NodeSelector: []multislicev1alpha1.ProvisioningRequestPodSetUpdatesNodeSelector{
			{Key: "cloud.google.com/gke-nodepool", ValueFromProvisioningClassDetail: "nodePool"}}},
	}}
	ac := &multislicev1alpha1.AdmissionCheck{Spec: multislicev1alpha1.AdmissionCheckSpec{ControllerName: multislicev1alpha1.ProvisioningRequestControllerName,
		Parameters: &multislicev1alpha1.AdmissionCheckParametersReference{Kind: "ProvisioningRequestConfig", Name: "c"}}}
	c, _ := Resolve(ac, cfg)
	sel, missing := NodeSelector(c, map[string]autoscalingv1.Detail{"nodePool": "dws-1", "zone": "us-central1-a"})
	if missing != "" || len(sel) != 1 || !slices.Equal(sel["cloud.google.com/gke-nodepool"], []string{"dws-1"}) {
		t.Errorf("NodeSelector = %v, missing %q", sel, missing)
	}
	if _, missing := NodeSelector(c, nil); missing != "nodePool" {
		t.Errorf("missing detail %q, want nodePool", missing)
	}
}

// Without podSetUpdates (seed 003's config), a provisioned workload goes to
// the node pools its request reports, and anywhere its selectors allow only
// when the request reports none.
func TestNodeSelectorWithoutPodSetUpdates(t *testing.T) {
	for _, tc := range []struct {
		name    string
		details map[string]autoscalingv1.Detail
		want    Selector
	}{
		{"the pool reported", map[string]autoscalingv1.Detail{"nodePool": "dws-1", "zone": "us-central1-a"}, Selector{"cloud.google.com/gke-nodepool": {"dws-1"}}},
		{"pools reported, comma-separated", map[string]autoscalingv1.Detail{"nodePool": "dws-1, dws-2,dws-1"}, Selector{"cloud.google.com/gke-nodepool": {"dws-1", "dws-2"}}},
		{"nothing reported", map[string]autoscalingv1.Detail{"zone": "us-central1-a"}, nil},
		{"an empty pool", map[string]autoscalingv1.Detail{"nodePool": " , "}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			sel, missing := NodeSelector(&Check{}, tc.details)
			if missing != "" || !reflect.DeepEqual(sel, tc.want) {
				t.Errorf("NodeSelector = %v (%q), want %v", sel, missing, tc.want)
			}
		})
	}
	sel := Selector{"cloud.google.com/gke-nodepool": {"dws-1", "dws-2"}}
	for labels, want := range map[string]bool{"dws-1": true, "dws-2": true, "decoy": false, "": false} {
		l := map[string]string{}
		if labels != "" {
			l["cloud.google.com/gke-nodepool"] = labels
		}
		if got := sel.Matches(l); got != want {
			t.Errorf("Matches(%v) = %v, want %v", l, got, want)
		}
	}
	if !Selector(nil).Matches(nil) {
		t.Error("a nil selector matches every node")
	}
}
