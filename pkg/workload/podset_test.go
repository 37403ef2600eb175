package workload

import (
	"errors"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// withPodAnnotations puts a on the pod template of r, where Kueue's
// topology annotations of a replicated Job's pod set are read.
func withPodAnnotations(r jobsetv1alpha2.ReplicatedJob, a map[string]string) jobsetv1alpha2.ReplicatedJob {
	r.Template.Spec.Template.Annotations = a
	return r
}

// podAnnotated sets an annotation on a Job's pod template.
func podAnnotated(key, value string) func(*batchv1.Job) {
	return func(j *batchv1.Job) {
		if j.Spec.Template.Annotations == nil {
			j.Spec.Template.Annotations = map[string]string{}
		}
		j.Spec.Template.Annotations[key] = value
	}
}

// topologyShape is what a slice says about its pod set's topology.
type topologyShape struct {
	Name          string
	ReplicatedJob string
	DomainKey     string
	Topology      *TopologyRequest
}

func topologyShapes(w *Workload) []topologyShape {
	var out []topologyShape
	for _, s := range w.Slices {
		out = append(out, topologyShape{s.Name, s.ReplicatedJob, s.DomainKey, s.Topology})
	}
	return out
}

// checkInvalid asserts that err is an *InvalidError of obj naming field
// exactly, whose reason says reason.
func checkInvalid(t *testing.T, err error, obj, field, reason string) {
	t.Helper()
	var ie *InvalidError
	if !errors.As(err, &ie) {
		t.Fatalf("err = %v (%T), want an *InvalidError", err, err)
	}
	if ie.Object != obj {
		t.Errorf("error is about %q, want %q", ie.Object, obj)
	}
	if ie.Field != field {
		t.Errorf("error names field %q, want %q", ie.Field, field)
	}
	if !strings.Contains(ie.Reason, reason) {
		t.Errorf("error reason %q does not say %q", ie.Reason, reason)
	}
}

func TestTopologyOfJobSet(t *testing.T) {
	const (
		block    = wellknown.GCETopologyBlockLabel
		subblock = wellknown.GCETopologySubblockLabel
		host     = wellknown.GCETopologyHostLabel
		pool     = wellknown.NodePoolLabel
	)
	podField := func(i int, key string) string {
		f := "spec.replicatedJobs[" + strconv.Itoa(i) + "].template.spec.template.metadata.annotations"
		if key != "" {
			f += "[" + key + "]"
		}
		return f
	}
	exclusive := map[string]string{wellknown.ExclusiveTopologyAnnotation: pool}
	// blockOfSubblocks asks for all pods in one block, each Job's four
	// pods in one subblock.
	blockOfSubblocks := map[string]string{
		wellknown.RequiredTopologyAnnotation:      block,
		wellknown.SliceRequiredTopologyAnnotation: subblock,
		wellknown.SliceSizeAnnotation:             "4",
	}
	cases := map[string]struct {
		js         *jobsetv1alpha2.JobSet
		defaultKey string
		want       []topologyShape
		// On error: the field named and what the reason says.
		wantField, wantReason string
	}{
		"topology pod set is not confined; the other takes the default": {
			js: jobset(nil,
				withPodAnnotations(rj("workers", 2, 4, nil), blockOfSubblocks),
				rj("driver", 1, 1, nil)),
			defaultKey: pool,
			want: []topologyShape{
				{"js-workers-0", "workers", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: subblock, SliceSize: 4}},
				{"js-workers-1", "workers", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: subblock, SliceSize: 4}},
				{"js-driver-0", "driver", pool, nil},
			},
		},
		"no default key: both unconfined": {
			js: jobset(nil,
				withPodAnnotations(rj("workers", 2, 4, nil), blockOfSubblocks),
				rj("driver", 1, 1, nil)),
			want: []topologyShape{
				{"js-workers-0", "workers", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: subblock, SliceSize: 4}},
				{"js-workers-1", "workers", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: subblock, SliceSize: 4}},
				{"js-driver-0", "driver", "", nil},
			},
		},
		"the pod set is all Jobs of the replicated Job: a slice may span Jobs": {
			js: jobset(nil, withPodAnnotations(rj("workers", 2, 4, nil), map[string]string{
				wellknown.PreferredTopologyAnnotation:     subblock,
				wellknown.SliceRequiredTopologyAnnotation: subblock,
				wellknown.SliceSizeAnnotation:             "8",
			})),
			defaultKey: pool,
			want: []topologyShape{
				{"js-workers-0", "workers", "", &TopologyRequest{Mode: TopologyPreferred, Level: subblock, SliceLevel: subblock, SliceSize: 8}},
				{"js-workers-1", "workers", "", &TopologyRequest{Mode: TopologyPreferred, Level: subblock, SliceLevel: subblock, SliceSize: 8}},
			},
		},
		"slices alone: unconstrained": {
			js: jobset(nil, withPodAnnotations(rj("workers", 1, 4, nil), map[string]string{
				wellknown.SliceRequiredTopologyAnnotation: host,
				wellknown.SliceSizeAnnotation:             "2",
			})),
			defaultKey: pool,
			want: []topologyShape{
				{"js-workers-0", "workers", "", &TopologyRequest{Mode: TopologyUnconstrained, SliceLevel: host, SliceSize: 2}},
			},
		},
		"unconstrained false is no request: the default applies": {
			js: jobset(nil, withPodAnnotations(rj("workers", 1, 4, nil), map[string]string{
				wellknown.UnconstrainedTopologyAnnotation: "false",
			})),
			defaultKey: pool,
			want:       []topologyShape{{"js-workers-0", "workers", pool, nil}},
		},
		"exclusive topology on the JobSet confines a pod set without a request": {
			js:         jobset(exclusive, rj("driver", 1, 1, nil)),
			defaultKey: wellknown.ZoneLabel,
			want:       []topologyShape{{"js-driver-0", "driver", pool, nil}},
		},
		"slice size not dividing the pod set, on the second replicated Job": {
			js: jobset(nil,
				rj("driver", 1, 1, nil),
				withPodAnnotations(rj("workers", 2, 4, nil), map[string]string{
					wellknown.RequiredTopologyAnnotation:      block,
					wellknown.SliceRequiredTopologyAnnotation: host,
					wellknown.SliceSizeAnnotation:             "3",
				})),
			wantField:  podField(1, wellknown.SliceSizeAnnotation),
			wantReason: `"3" does not divide the pod set's 8 pods`,
		},
		"slice size more than the pod set": {
			js: jobset(nil, withPodAnnotations(rj("workers", 2, 4, nil), map[string]string{
				wellknown.RequiredTopologyAnnotation:      block,
				wellknown.SliceRequiredTopologyAnnotation: host,
				wellknown.SliceSizeAnnotation:             "16",
			})),
			wantField:  podField(0, wellknown.SliceSizeAnnotation),
			wantReason: "is more than the pod set's 8 pods",
		},
		"required and preferred together": {
			js: jobset(nil, withPodAnnotations(rj("workers", 1, 4, nil), map[string]string{
				wellknown.RequiredTopologyAnnotation:  block,
				wellknown.PreferredTopologyAnnotation: subblock,
			})),
			wantField:  podField(0, wellknown.PreferredTopologyAnnotation),
			wantReason: "may not be set together with " + wellknown.RequiredTopologyAnnotation,
		},
		"a leader and its workers in one group": {
			js: jobset(nil,
				withPodAnnotations(rj("leader", 1, 1, nil), map[string]string{
					wellknown.RequiredTopologyAnnotation: block,
					wellknown.PodSetGroupNameAnnotation:  "team",
				}),
				withPodAnnotations(rj("workers", 1, 4, nil), map[string]string{
					wellknown.RequiredTopologyAnnotation: block,
					wellknown.PodSetGroupNameAnnotation:  "team",
				})),
			want: []topologyShape{
				{"js-leader-0", "leader", "", &TopologyRequest{Mode: TopologyRequired, Level: block, Group: "team"}},
				{"js-workers-0", "workers", "", &TopologyRequest{Mode: TopologyRequired, Level: block, Group: "team"}},
			},
		},
		"a group's pod sets at two levels": {
			js: jobset(nil,
				withPodAnnotations(rj("leader", 1, 1, nil), map[string]string{
					wellknown.RequiredTopologyAnnotation: block,
					wellknown.PodSetGroupNameAnnotation:  "team",
				}),
				withPodAnnotations(rj("workers", 1, 4, nil), map[string]string{
					wellknown.PreferredTopologyAnnotation: subblock,
					wellknown.PodSetGroupNameAnnotation:   "team",
				})),
			wantField:  podField(1, wellknown.PodSetGroupNameAnnotation),
			wantReason: `"team" groups it with leader, which asks for required ` + block,
		},
		"exclusive topology on the JobSet with a topology request": {
			js:         jobset(exclusive, rj("driver", 1, 1, nil), withPodAnnotations(rj("workers", 2, 4, nil), blockOfSubblocks)),
			wantField:  podField(1, ""),
			wantReason: `for whole domains of "` + pool + `"`,
		},
		"exclusive topology on the replicated Job with a topology request": {
			js: jobset(nil, withPodAnnotations(rj("workers", 2, 4, exclusive), map[string]string{
				wellknown.UnconstrainedTopologyAnnotation: "true",
			})),
			wantField:  podField(0, ""),
			wantReason: "asks for a topology (unconstrained)",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, err := FromJobSet(tc.js, tc.defaultKey)
			if tc.wantField != "" {
				if w != nil {
					t.Errorf("workload = %+v, want none", w)
				}
				checkInvalid(t, err, "JobSet ns/js", tc.wantField, tc.wantReason)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, topologyShapes(w)); diff != "" {
				t.Errorf("slices (-want +got):\n%s", diff)
			}
			if w.Slices[0].Topology != nil && len(w.Slices) > 1 && w.Slices[0].ReplicatedJob == w.Slices[1].ReplicatedJob &&
				w.Slices[0].Topology != w.Slices[1].Topology {
				t.Errorf("the Jobs of one replicated Job carry different requests %p and %p, want one", w.Slices[0].Topology, w.Slices[1].Topology)
			}
		})
	}
}

func TestTopologyOfJob(t *testing.T) {
	const (
		block = wellknown.GCETopologyBlockLabel
		host  = wellknown.GCETopologyHostLabel
		pool  = wellknown.NodePoolLabel
	)
	const annotationsField = "spec.template.metadata.annotations"
	cases := map[string]struct {
		job        *batchv1.Job
		defaultKey string
		want       topologyShape
		// On error: the field named and what the reason says.
		wantField, wantReason string
	}{
		"required: not confined despite the default key": {
			job:        job(4, podAnnotated(wellknown.RequiredTopologyAnnotation, block)),
			defaultKey: pool,
			want:       topologyShape{"train", "", "", &TopologyRequest{Mode: TopologyRequired, Level: block}},
		},
		"required with slices": {
			job: job(8, podAnnotated(wellknown.RequiredTopologyAnnotation, block),
				podAnnotated(wellknown.SliceRequiredTopologyAnnotation, host), podAnnotated(wellknown.SliceSizeAnnotation, "4")),
			defaultKey: pool,
			want:       topologyShape{"train", "", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: host, SliceSize: 4}},
		},
		"unconstrained true": {
			job:        job(4, podAnnotated(wellknown.UnconstrainedTopologyAnnotation, "true")),
			defaultKey: pool,
			want:       topologyShape{"train", "", "", &TopologyRequest{Mode: TopologyUnconstrained}},
		},
		"no request: the default applies": {
			job:        job(4),
			defaultKey: pool,
			want:       topologyShape{"train", "", pool, nil},
		},
		"unconstrained false is no request: the default applies": {
			job:        job(4, podAnnotated(wellknown.UnconstrainedTopologyAnnotation, "false")),
			defaultKey: pool,
			want:       topologyShape{"train", "", pool, nil},
		},
		"annotations on the Job, not its pod template, ask for nothing": {
			job:        job(4, annotated(wellknown.RequiredTopologyAnnotation, block)),
			defaultKey: pool,
			want:       topologyShape{"train", "", pool, nil},
		},
		"a request valid when the Job starts stays valid as its pods complete": {
			job: job(4, completions(8), succeeded(6), podAnnotated(wellknown.RequiredTopologyAnnotation, block),
				podAnnotated(wellknown.SliceRequiredTopologyAnnotation, host), podAnnotated(wellknown.SliceSizeAnnotation, "4")),
			want: topologyShape{"train", "", "", &TopologyRequest{Mode: TopologyRequired, Level: block, SliceLevel: host, SliceSize: 4}},
		},
		"slice size not dividing the pods": {
			job: job(4, podAnnotated(wellknown.RequiredTopologyAnnotation, block),
				podAnnotated(wellknown.SliceRequiredTopologyAnnotation, host), podAnnotated(wellknown.SliceSizeAnnotation, "3")),
			wantField:  annotationsField + "[" + wellknown.SliceSizeAnnotation + "]",
			wantReason: `"3" does not divide the pod set's 4 pods`,
		},
		"unconstrained not a boolean": {
			job:        job(4, podAnnotated(wellknown.UnconstrainedTopologyAnnotation, "yes")),
			wantField:  annotationsField + "[" + wellknown.UnconstrainedTopologyAnnotation + "]",
			wantReason: "is not a boolean",
		},
		"a group of one pod set": {
			job:  job(4, podAnnotated(wellknown.PreferredTopologyAnnotation, block), podAnnotated(wellknown.PodSetGroupNameAnnotation, "team")),
			want: topologyShape{"train", "", "", &TopologyRequest{Mode: TopologyPreferred, Level: block, Group: "team"}},
		},
		"JobSet's exclusive-topology annotation with a topology request": {
			job: job(4, annotated(wellknown.ExclusiveTopologyAnnotation, pool),
				podAnnotated(wellknown.RequiredTopologyAnnotation, block)),
			wantField:  annotationsField,
			wantReason: `for whole domains of "` + pool + `"`,
		},
		"our domain key annotation with a topology request": {
			job: job(4, annotated(wellknown.DomainKeyAnnotation, pool),
				podAnnotated(wellknown.UnconstrainedTopologyAnnotation, "true")),
			wantField:  annotationsField,
			wantReason: `for whole domains of "` + pool + `"`,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, err := FromJob(tc.job, tc.defaultKey)
			if tc.wantField != "" {
				if w != nil {
					t.Errorf("workload = %+v, want none", w)
				}
				checkInvalid(t, err, "Job ns/train", tc.wantField, tc.wantReason)
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]topologyShape{tc.want}, topologyShapes(w)); diff != "" {
				t.Errorf("slices (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTopologyPodSets(t *testing.T) {
	workers := &TopologyRequest{Mode: TopologyRequired, Level: wellknown.GCETopologyBlockLabel}
	ps := &TopologyRequest{Mode: TopologyUnconstrained, SliceLevel: wellknown.GCETopologyHostLabel, SliceSize: 2}
	// The slices of a JobSet: a driver without a request, then workers
	// and parameter servers with theirs.
	w := &Workload{Slices: []Slice{
		{Index: 0, Name: "js-driver-0", ReplicatedJob: "driver", Pods: 1},
		{Index: 1, Name: "js-workers-0", ReplicatedJob: "workers", Pods: 4, Topology: workers},
		{Index: 2, Name: "js-workers-1", ReplicatedJob: "workers", Pods: 4, Topology: workers},
		{Index: 3, Name: "js-ps-0", ReplicatedJob: "ps", Pods: 2, Topology: ps},
		{Index: 4, Name: "js-ps-1", ReplicatedJob: "ps", Pods: 2, Topology: ps},
		{Index: 5, Name: "js-workers-2", ReplicatedJob: "workers", Pods: 4, Topology: workers},
	}}
	// A Job's one slice names no replicated Job: its pod set is named
	// after the slice.
	jobWorkload := &Workload{Slices: []Slice{{Index: 0, Name: "train", Pods: 8, Topology: workers}}}
	cases := map[string]struct {
		w    *Workload
		in   []int
		want []PodSet
	}{
		"all slices: grouped by replicated Job, in order of first slice": {
			w:  w,
			in: []int{0, 1, 2, 3, 4, 5},
			want: []PodSet{
				{Name: "workers", Slices: []int{1, 2, 5}, Pods: 12, Request: workers},
				{Name: "ps", Slices: []int{3, 4}, Pods: 4, Request: ps},
			},
		},
		"only the slices in in": {
			w:  w,
			in: []int{2, 3},
			want: []PodSet{
				{Name: "workers", Slices: []int{2}, Pods: 4, Request: workers},
				{Name: "ps", Slices: []int{3}, Pods: 2, Request: ps},
			},
		},
		"a pod set whose first slice in in comes first": {
			w:  w,
			in: []int{3, 4, 5},
			want: []PodSet{
				{Name: "ps", Slices: []int{3, 4}, Pods: 4, Request: ps},
				{Name: "workers", Slices: []int{5}, Pods: 4, Request: workers},
			},
		},
		"in, in any order: slices in index order": {
			w:  w,
			in: []int{5, 4, 1, 3},
			want: []PodSet{
				{Name: "workers", Slices: []int{1, 5}, Pods: 8, Request: workers},
				{Name: "ps", Slices: []int{3, 4}, Pods: 4, Request: ps},
			},
		},
		"no slice with a request": {
			w:  w,
			in: []int{0},
		},
		"no slices": {
			w: w,
		},
		"a Job's slice is named after itself": {
			w:    jobWorkload,
			in:   []int{0},
			want: []PodSet{{Name: "train", Slices: []int{0}, Pods: 8, Request: workers}},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := tc.w.TopologyPodSets(tc.in)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("TopologyPodSets(%v) (-want +got):\n%s", tc.in, diff)
			}
			for _, p := range got {
				for _, i := range p.Slices {
					if p.Request != tc.w.Slices[i].Topology {
						t.Errorf("pod set %s carries request %p, its slice %d %p", p.Name, p.Request, i, tc.w.Slices[i].Topology)
					}
				}
			}
		})
	}
}
