package autoprovision

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var epoch = time.Date(2025, 6, 1, 8, 0, 0, 0, time.UTC)

const class = "dws-model-inference-class"

// classPod is a pod selecting the class, requesting 2 L4 GPUs, created at
// epoch + at.
func classPod(name string, at time.Duration) *builders.PodBuilder {
	return builders.Pod("default", name).NodeSelector(wellknown.ComputeClassLabel, class).
		Request(wellknown.ResourceGPU, "2").Created(epoch.Add(at))
}

// ofJob makes a pod one of the Job's, controlled by it, and exclusive per
// node pool as JobSet's webhook leaves it when exclusive is set.
func ofJob(b *builders.PodBuilder, job *batchv1.Job, exclusive bool) *corev1.Pod {
	if exclusive {
		b.Annotation(wellknown.ExclusiveTopologyAnnotation, wellknown.NodePoolLabel)
	}
	p := b.Obj()
	p.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(job, batchv1.SchemeGroupVersion.WithKind("Job"))}
	return p
}

func TestGroups(t *testing.T) {
	slice0 := builders.Job("default", "flex-demo-slice-0").Parallelism(2).Obj()
	slice1 := builders.Job("default", "flex-demo-slice-1").Parallelism(2).Obj()
	jobs := func(ns, name string) (*batchv1.Job, bool) {
		for _, j := range []*batchv1.Job{slice0, slice1} {
			if j.Namespace == ns && j.Name == name {
				return j, true
			}
		}
		return nil, false
	}
	pools := map[string]string{"nap-a-0": "nap-a"}
	nodePool := func(n string) string { return pools[n] }
	type want struct {
		Key, Ref  string
		Size      int
		Exclusive bool
		Pool      string
		Pending   []string
		Bound     int
	}
	summarize := func(gs []*Group) []want {
		var out []want
		for _, g := range gs {
			w := want{Key: g.Key, Ref: g.Ref, Size: g.Size, Exclusive: g.Exclusive, Pool: g.Pool, Bound: g.Bound}
			for _, p := range g.Pending {
				w.Pending = append(w.Pending, p.Name)
			}
			out = append(out, w)
		}
		return out
	}
	deleted := classPod("going", 0).Obj()
	deleted.DeletionTimestamp = &metav1.Time{Time: epoch}
	for name, tc := range map[string]struct {
		pods []*corev1.Pod
		want []want
	}{
		"JobSet leaders only: each Job a group sized by its parallelism": {
			pods: []*corev1.Pod{ofJob(classPod("slice-1-0", time.Second), slice1, true), ofJob(classPod("slice-0-0", 0), slice0, true)},
			want: []want{
				{Key: "job/default/flex-demo-slice-0/flex-demo-slice-0-uid", Ref: "default/flex-demo-slice-0", Size: 2, Exclusive: true, Pending: []string{"slice-0-0"}},
				{Key: "job/default/flex-demo-slice-1/flex-demo-slice-1-uid", Ref: "default/flex-demo-slice-1", Size: 2, Exclusive: true, Pending: []string{"slice-1-0"}},
			},
		},
		"a bound leader pins its followers' group to its pool": {
			pods: []*corev1.Pod{ofJob(classPod("slice-0-0", 0).NodeName("nap-a-0"), slice0, true), ofJob(classPod("slice-0-1", time.Second), slice0, true)},
			want: []want{{Key: "job/default/flex-demo-slice-0/flex-demo-slice-0-uid", Ref: "default/flex-demo-slice-0", Size: 2, Exclusive: true, Pool: "nap-a", Pending: []string{"slice-0-1"}, Bound: 1}},
		},
		"followers pinned by node selector": {
			pods: []*corev1.Pod{ofJob(classPod("slice-0-1", 0).NodeSelector(wellknown.NodePoolLabel, "nap-b"), slice0, true)},
			want: []want{{Key: "job/default/flex-demo-slice-0/flex-demo-slice-0-uid", Ref: "default/flex-demo-slice-0", Size: 2, Exclusive: true, Pool: "nap-b", Pending: []string{"slice-0-1"}}},
		},
		"all bound: no demand": {
			pods: []*corev1.Pod{ofJob(classPod("slice-0-0", 0).NodeName("nap-a-0"), slice0, true), ofJob(classPod("slice-0-1", 0).NodeName("nap-a-0"), slice0, true)},
		},
		"a lone pod, a gated one, an ended one, one being deleted, one of no class": {
			pods: []*corev1.Pod{
				classPod("alone", 0).Obj(), classPod("gated", 0).Gate("wait").Obj(), classPod("done", 0).Phase(corev1.PodSucceeded).Obj(), deleted,
				builders.Pod("default", "plain").Obj(),
			},
			want: []want{{Key: "pod/default/alone", Ref: "default/alone", Size: 1, Pending: []string{"alone"}}},
		},
		"a Job not seen yet: as many as its pods": {
			pods: []*corev1.Pod{
				ofJob(classPod("x-0", 0), builders.Job("default", "unknown").Obj(), false),
				ofJob(classPod("x-1", 0), builders.Job("default", "unknown").Obj(), false),
			},
			want: []want{{Key: "job/default/unknown/unknown-uid", Ref: "default/unknown", Size: 2, Pending: []string{"x-0", "x-1"}}},
		},
		"a Job re-created under its name is another group": {
			pods: []*corev1.Pod{ofJob(classPod("slice-0-0", 0), func() *batchv1.Job { j := slice0.DeepCopy(); j.UID = types.UID("new"); return j }(), true)},
			want: []want{{Key: "job/default/flex-demo-slice-0/new", Ref: "default/flex-demo-slice-0", Size: 1, Exclusive: true, Pending: []string{"slice-0-0"}}},
		},
	} {
		t.Run(name, func(t *testing.T) {
			got := summarize(Groups(tc.pods, jobs, nodePool))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("groups (-want +got):\n%s", diff)
			}
		})
	}
}
