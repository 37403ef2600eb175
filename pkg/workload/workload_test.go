package workload

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func ptr[T any](v T) *T { return &v }

func rj(name string, replicas, parallelism int32, annotations map[string]string) jobsetv1alpha2.ReplicatedJob {
	return jobsetv1alpha2.ReplicatedJob{
		Name: name, Replicas: replicas,
		Template: batchv1.JobTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Annotations: annotations},
			Spec: batchv1.JobSpec{
				Parallelism: ptr(parallelism),
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name: "c",
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						wellknown.ResourceTPU: resource.MustParse("4"),
					}},
				}}}},
			},
		},
	}
}

func jobset(annotations map[string]string, jobs ...jobsetv1alpha2.ReplicatedJob) *jobsetv1alpha2.JobSet {
	return &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "js", UID: "u1", Annotations: annotations,
			CreationTimestamp: metav1.NewTime(time.Unix(100, 0))},
		Spec: jobsetv1alpha2.JobSetSpec{ReplicatedJobs: jobs},
	}
}

type sliceShape struct {
	Index     int
	Name      string
	Pods      int
	DomainKey string
}

func shapes(w *Workload) []sliceShape {
	var out []sliceShape
	for _, s := range w.Slices {
		out = append(out, sliceShape{s.Index, s.Name, s.Pods, s.DomainKey})
	}
	return out
}

func TestFromJobSet(t *testing.T) {
	pool := map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}
	cases := map[string]struct {
		js         *jobsetv1alpha2.JobSet
		defaultKey string
		want       []sliceShape
		wantErr    string
	}{
		"two slices of four, exclusive on the pool": {
			js: jobset(pool, rj("slice", 2, 4, nil)),
			want: []sliceShape{
				{0, "js-slice-0", 4, wellknown.NodePoolLabel},
				{1, "js-slice-1", 4, wellknown.NodePoolLabel},
			},
		},
		"global index runs across replicated jobs; job-level key wins": {
			js: jobset(pool, rj("a", 1, 2, nil), rj("b", 2, 1, map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.ZoneLabel})),
			want: []sliceShape{
				{0, "js-a-0", 2, wellknown.NodePoolLabel},
				{1, "js-b-0", 1, wellknown.ZoneLabel},
				{2, "js-b-1", 1, wellknown.ZoneLabel},
			},
		},
		"no exclusive topology: unconfined gang": {
			js:   jobset(nil, rj("slice", 1, 2, nil)),
			want: []sliceShape{{0, "js-slice-0", 2, ""}},
		},
		"default domain key applies when none is named": {
			js:         jobset(nil, rj("slice", 1, 2, nil)),
			defaultKey: wellknown.NodePoolLabel,
			want:       []sliceShape{{0, "js-slice-0", 2, wellknown.NodePoolLabel}},
		},
		"completions cap parallelism": {
			js: func() *jobsetv1alpha2.JobSet {
				j := jobset(nil, rj("slice", 1, 4, nil))
				j.Spec.ReplicatedJobs[0].Template.Spec.Completions = ptr(int32(2))
				return j
			}(),
			want: []sliceShape{{0, "js-slice-0", 2, ""}},
		},
		"malformed topology key": {
			js:      jobset(map[string]string{wellknown.ExclusiveTopologyAnnotation: "bad key!"}, rj("slice", 1, 2, nil)),
			wantErr: "metadata.annotations[alpha.jobset.sigs.k8s.io/exclusive-topology]",
		},
		"zero parallelism": {
			js:      jobset(nil, rj("slice", 1, 0, nil)),
			wantErr: "spec.replicatedJobs[0].template.spec.parallelism",
		},
		"negative replicas": {
			js:      jobset(nil, rj("slice", -1, 1, nil)),
			wantErr: "spec.replicatedJobs[0].replicas",
		},
		// Caught by FuzzFromJobSet: zero completions were reported as the
		// parallelism's fault; a request too large to count wrapped.
		"zero completions": {
			js: func() *jobsetv1alpha2.JobSet {
				j := jobset(nil, rj("slice", 1, 4, nil))
				j.Spec.ReplicatedJobs[0].Template.Spec.Completions = ptr(int32(0))
				return j
			}(),
			wantErr: "spec.replicatedJobs[0].template.spec.completions: must be positive, got 0",
		},
		"a request too large to count": {
			js: func() *jobsetv1alpha2.JobSet {
				j := jobset(nil, rj("slice", 1, 4, nil))
				j.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.Containers[0].Resources.Requests[wellknown.ResourceTPU] = resource.MustParse("1e30")
				return j
			}(),
			wantErr: "spec.replicatedJobs[0].template.spec.template.spec: its pods ask for 1e30 of google.com/tpu each, more than can be counted",
		},
		"no jobs": {
			js:      jobset(nil, rj("slice", 0, 1, nil)),
			wantErr: "no Jobs to schedule",
		},
		"absurdly many jobs": {
			js:      jobset(nil, rj("slice", 1<<20, 1, nil)),
			wantErr: "more than 10000 Jobs",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, err := FromJobSet(tc.js, tc.defaultKey)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to name %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, shapes(w)); diff != "" {
				t.Errorf("slices (-want +got):\n%s", diff)
			}
			if got := w.Slices[0].Request[wellknown.ResourceTPU]; got != 4000 {
				t.Errorf("per-pod TPU request = %d milli, want 4000", got)
			}
		})
	}
}

func TestFromJobSetStateAndAttempt(t *testing.T) {
	js := jobset(nil, rj("slice", 1, 1, nil))
	js.Status.Restarts = 3
	w, err := FromJobSet(js, "")
	if err != nil || w.RestartAttempt != 3 || w.Finished || !w.Created.Equal(time.Unix(100, 0)) {
		t.Fatalf("w = %+v, err = %v", w, err)
	}
	js.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	if w, _ := FromJobSet(js, ""); !w.Finished {
		t.Error("completed JobSet not finished")
	}
	js.Status.Conditions = nil
	js.Spec.Suspend = ptr(true)
	if w, _ := FromJobSet(js, ""); !w.Finished {
		t.Error("suspended JobSet not finished")
	}
}

func pod(labels map[string]string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "p", Labels: labels}}
}

func TestMemberOf(t *testing.T) {
	js := Key{Source: SourceJobSet, Namespace: "ns", Name: "js"}
	cases := map[string]struct {
		labels   map[string]string
		want     Member
		isMember bool
		wantErr  string
	}{
		"plain pod": {labels: map[string]string{"app": "x"}},
		"jobset leader": {
			labels:   map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "2", wellknown.RestartAttemptLabel: "1", wellknown.JobCompletionIndexLabel: "0"},
			want:     Member{Key: js, Slice: 2, Leader: true, HasIndex: true, RestartAttempt: 1},
			isMember: true,
		},
		"jobset follower without restart label": {
			labels:   map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0", wellknown.JobCompletionIndexLabel: "3"},
			want:     Member{Key: js, Slice: 0, HasIndex: true, Index: 3},
			isMember: true,
		},
		"non-indexed job pod": {
			labels:   map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0"},
			want:     Member{Key: js},
			isMember: true,
		},
		"garbage index":      {labels: map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "x"}, isMember: true, wantErr: "job-global-index"},
		"negative index":     {labels: map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "-1"}, isMember: true, wantErr: "job-global-index"},
		"missing index":      {labels: map[string]string{wellknown.JobSetNameLabel: "js"}, isMember: true, wantErr: "missing"},
		"garbage attempt":    {labels: map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0", wellknown.RestartAttemptLabel: "9999999999999"}, isMember: true, wantErr: "restart-attempt"},
		"garbage completion": {labels: map[string]string{wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0", wellknown.JobCompletionIndexLabel: "first"}, isMember: true, wantErr: "job-completion-index"},
		"empty jobset name":  {labels: map[string]string{wellknown.JobSetNameLabel: ""}, isMember: true, wantErr: "empty JobSet name"},
		"podgroup member": {
			labels:   map[string]string{wellknown.PodGroupLabel: "pg"},
			want:     Member{Key: Key{Source: SourcePodGroup, Namespace: "ns", Name: "pg"}},
			isMember: true,
		},
		"empty podgroup": {labels: map[string]string{wellknown.PodGroupLabel: ""}, isMember: true, wantErr: "empty PodGroup name"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, isMember, err := MemberOf(pod(tc.labels))
			checkMember(t, m, isMember, err, tc.want, tc.isMember, tc.wantErr)
		})
	}
}

func TestFromPodGroup(t *testing.T) {
	pg := &schedv1alpha1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "pg"}, Spec: schedv1alpha1.PodGroupSpec{MinMember: 3}}
	w, err := FromPodGroup(pg, nil, "")
	if err != nil || len(w.Slices) != 1 || w.Slices[0].Pods != 3 || w.Slices[0].DomainKey != "" || w.Confined() {
		t.Fatalf("w = %+v, err = %v", w, err)
	}
	pg.Annotations = map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel}
	if w, _ := FromPodGroup(pg, nil, ""); w.Slices[0].DomainKey != wellknown.NodePoolLabel {
		t.Errorf("annotation did not confine the group: %+v", w.Slices[0])
	}
	pg.Spec.MinMember = 0
	if _, err := FromPodGroup(pg, nil, ""); err == nil || !strings.Contains(err.Error(), "spec.minMember") {
		t.Errorf("err = %v", err)
	}
}

// A long name is cut and hashed into a valid object name, also when the cut
// falls right after a dot (caught by FuzzNames in pkg/provisioning).
func TestObjectName(t *testing.T) {
	for _, name := range []string{"train", strings.Repeat("a", 250), strings.Repeat("a", 232) + "." + strings.Repeat("b", 17)} {
		got := Key{Source: SourceJobSet, Namespace: "ns", Name: name}.ObjectName()
		if errs := validation.IsDNS1123Subdomain(got); len(errs) > 0 {
			t.Errorf("ObjectName of %q = %q: %v", name, got, errs)
		}
	}
}

func TestResources(t *testing.T) {
	free := Resources{wellknown.ResourceTPU: 8000, corev1.ResourcePods: 110000}
	if got := free.Count(Resources{wellknown.ResourceTPU: 4000, corev1.ResourcePods: 1000}); got != 2 {
		t.Errorf("Count = %d, want 2", got)
	}
	if got := free.Count(Resources{}); got != -1 {
		t.Errorf("Count of nothing = %d, want -1", got)
	}
	if got := (Resources{corev1.ResourceCPU: 1500, wellknown.ResourceTPU: 4000, corev1.ResourcePods: 1000}).String(); got != "cpu=1500m, google.com/tpu=4" {
		t.Errorf("String = %q", got)
	}
}

// checkMember compares a membership read with what a case wants: an error
// containing wantErr, or the member want.
func checkMember(t *testing.T, m Member, isMember bool, err error, want Member, wantMember bool, wantErr string) {
	t.Helper()
	if isMember != wantMember {
		t.Fatalf("isMember = %v, want %v", isMember, wantMember)
	}
	if wantErr != "" {
		if err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Fatalf("err = %v, want %q", err, wantErr)
		}
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want, m); diff != "" {
		t.Errorf("member (-want +got):\n%s", diff)
	}
}
