package webhook

import (
	"encoding/json"
	"strings"
	"testing"

	jsonpatch "github.com/evanphx/json-patch/v5"
	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// applyPatch applies a JSON patch as the apiserver does.
func applyPatch(t testing.TB, raw, patch []byte) []byte {
	t.Helper()
	p, err := jsonpatch.DecodePatch(patch)
	if err != nil {
		t.Fatalf("patch %s: %v", patch, err)
	}
	out, err := p.Apply(raw)
	if err != nil {
		t.Fatalf("applying %s: %v", patch, err)
	}
	return out
}

// Every decision of the table, written as a patch and applied to the
// object as the request carries it, gives exactly the pod specs it names
// the scheduler, the reason annotation, and the queue name where it says;
// nothing else changes.
func TestPatchAppliesDecisions(t *testing.T) {
	for _, tc := range decisionCases() {
		if !tc.want.Mutates() {
			continue
		}
		t.Run(tc.name, func(t *testing.T) {
			raw := rawJSON(t, tc.obj)
			patch, err := Patch(raw, tc.want, scheduler)
			if err != nil {
				t.Fatal(err)
			}
			patched := applyPatch(t, raw, patch)
			var before, after map[string]any
			if err := json.Unmarshal(raw, &before); err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(patched, &after); err != nil {
				t.Fatal(err)
			}
			// What the patch should have done, done by hand on the
			// decoded object.
			for _, spec := range tc.want.PodSpecs {
				setAt(t, before, append(append(Path{}, spec...), "schedulerName"), scheduler)
			}
			key := "labels"
			if len(tc.want.Queue) > 63 {
				key = "annotations"
			}
			for _, meta := range tc.want.QueueLabels {
				setAt(t, before, append(append(Path{}, meta...), key, wellknown.QueueNameLabel), tc.want.Queue)
			}
			setAt(t, before, Path{"metadata", "annotations", wellknown.SchedulerNameReasonAnnotation}, tc.want.Reason)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("patched object (-want +got):\n%s\npatch: %s", diff, patch)
			}
		})
	}
}

// setAt sets path in a decoded JSON object, making the objects it lacks.
func setAt(t testing.TB, root map[string]any, path Path, value any) {
	t.Helper()
	var node any = root
	for i, seg := range path {
		switch s := seg.(type) {
		case string:
			m := node.(map[string]any)
			if i == len(path)-1 {
				m[s] = value
				return
			}
			if m[s] == nil {
				m[s] = map[string]any{}
			}
			node = m[s]
		case int:
			node = node.([]any)[s]
		}
	}
}

func TestPatch(t *testing.T) {
	for _, tc := range []struct {
		name    string
		raw     string
		d       Decision
		want    string
		wantErr string
	}{
		{
			name: "nothing to change",
			raw:  `{}`,
			d:    Decision{Reason: "why"},
			want: ``,
		},
		{
			name: "replaces default-scheduler, adds to existing annotations",
			raw:  `{"metadata":{"annotations":{"a":"b"}},"spec":{"schedulerName":"default-scheduler"}}`,
			d:    Decision{PodSpecs: []Path{{"spec"}}, Reason: "why"},
			want: `{"metadata":{"annotations":{"a":"b","multislice-scheduler.io/scheduler-name-reason":"why"}},"spec":{"schedulerName":"multislice-scheduler"}}`,
		},
		{
			name: "adds metadata and annotations the object lacks",
			raw:  `{"spec":{}}`,
			d:    Decision{PodSpecs: []Path{{"spec"}}, Reason: "why"},
			want: `{"metadata":{"annotations":{"multislice-scheduler.io/scheduler-name-reason":"why"}},"spec":{"schedulerName":"multislice-scheduler"}}`,
		},
		{
			name: "a null parent is replaced",
			raw:  `{"metadata":{"annotations":null},"spec":null}`,
			d:    Decision{PodSpecs: []Path{{"spec"}}, Reason: "why"},
			want: `{"metadata":{"annotations":{"multislice-scheduler.io/scheduler-name-reason":"why"}},"spec":{"schedulerName":"multislice-scheduler"}}`,
		},
		{
			name: "queue labels of two templates, one without metadata",
			raw:  `{"metadata":{},"t":[{"spec":{}},{"metadata":{"labels":{"x":"y"}},"spec":{}}]}`,
			d: Decision{PodSpecs: []Path{{"t", 0, "spec"}, {"t", 1, "spec"}}, QueueLabels: []Path{{"t", 0, "metadata"}, {"t", 1, "metadata"}},
				Queue: "q"},
			want: `{"metadata":{},"t":[` +
				`{"metadata":{"labels":{"kueue.x-k8s.io/queue-name":"q"}},"spec":{"schedulerName":"multislice-scheduler"}},` +
				`{"metadata":{"labels":{"kueue.x-k8s.io/queue-name":"q","x":"y"}},"spec":{"schedulerName":"multislice-scheduler"}}]}`,
		},
		{
			name: "a queue name too long for a label is an annotation",
			raw:  `{"t":{"spec":{}}}`,
			d:    Decision{PodSpecs: []Path{{"t", "spec"}}, QueueLabels: []Path{{"t", "metadata"}}, Queue: longQueue},
			want: `{"t":{"metadata":{"annotations":{"kueue.x-k8s.io/queue-name":"` + longQueue + `"}},"spec":{"schedulerName":"multislice-scheduler"}}}`,
		},
		{
			name:    "a spec that is not an object",
			raw:     `{"spec":"oops"}`,
			d:       Decision{PodSpecs: []Path{{"spec"}}},
			wantErr: "/spec is not an object",
		},
		{
			name:    "an index past the list",
			raw:     `{"l":[]}`,
			d:       Decision{PodSpecs: []Path{{"l", 0, "spec"}}},
			wantErr: "/l has no item 0",
		},
		{
			name:    "a list that would have to be made up",
			raw:     `{}`,
			d:       Decision{PodSpecs: []Path{{"l", 0, "spec"}}},
			wantErr: "/l: has no list to hold item 0",
		},
		{
			name:    "not JSON",
			raw:     `{`,
			d:       Decision{PodSpecs: []Path{{"spec"}}},
			wantErr: "decoding the object",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			patch, err := Patch([]byte(tc.raw), tc.d, scheduler)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error %v, want one containing %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if patch != nil {
					t.Fatalf("patch %s, want none", patch)
				}
				return
			}
			got := applyPatch(t, []byte(tc.raw), patch)
			if !jsonpatch.Equal(got, []byte(tc.want)) {
				t.Errorf("patched:\n%s\nwant:\n%s\npatch: %s", got, tc.want, patch)
			}
		})
	}
}

func TestPointerEscapes(t *testing.T) {
	if got, want := pointer(Path{"metadata", "annotations", "a.io/b~c", 3}), "/metadata/annotations/a.io~1b~0c/3"; got != want {
		t.Errorf("pointer = %q, want %q", got, want)
	}
}

// The patched objects decode as their kinds, with the scheduler set
// where the scheduler reads it.
func TestPatchedObjectsDecode(t *testing.T) {
	for _, tc := range decisionCases() {
		if !tc.want.Mutates() {
			continue
		}
		raw := rawJSON(t, tc.obj)
		patch, err := Patch(raw, tc.want, scheduler)
		if err != nil {
			t.Fatal(err)
		}
		patched := applyPatch(t, raw, patch)
		var names []string
		switch tc.obj.(type) {
		case *corev1.Pod:
			var o corev1.Pod
			mustUnmarshal(t, patched, &o)
			names = append(names, o.Spec.SchedulerName)
		case *batchv1.Job:
			var o batchv1.Job
			mustUnmarshal(t, patched, &o)
			names = append(names, o.Spec.Template.Spec.SchedulerName)
		case *jobsetv1alpha2.JobSet:
			var o jobsetv1alpha2.JobSet
			mustUnmarshal(t, patched, &o)
			for _, rj := range o.Spec.ReplicatedJobs {
				if n := rj.Template.Spec.Template.Spec.SchedulerName; n != "volcano" {
					names = append(names, n)
				}
			}
		case *LeaderWorkerSet:
			var o LeaderWorkerSet
			mustUnmarshal(t, patched, &o)
			for _, tmpl := range []*corev1.PodTemplateSpec{o.Spec.LeaderWorkerTemplate.LeaderTemplate, &o.Spec.LeaderWorkerTemplate.WorkerTemplate} {
				if tmpl == nil || tmpl.Spec.SchedulerName == "volcano" {
					continue
				}
				names = append(names, tmpl.Spec.SchedulerName)
				if q := wellknown.QueueName(tmpl.Labels, tmpl.Annotations); tc.want.Queue != "" && q != tc.want.Queue {
					t.Errorf("%s: a template of our scheduler names queue %q, want %q", tc.name, q, tc.want.Queue)
				}
			}
		}
		for _, n := range names {
			if n != scheduler {
				t.Errorf("%s: patched pod spec names scheduler %q", tc.name, n)
			}
		}
	}
}

func mustUnmarshal(t testing.TB, data []byte, into any) {
	t.Helper()
	if err := json.Unmarshal(data, into); err != nil {
		t.Fatal(err)
	}
}
