package localcluster

import (
	"context"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/kwok/pkg/apis/internalversion"
	"sigs.k8s.io/kwok/pkg/apis/v1alpha1"
	"sigs.k8s.io/kwok/pkg/utils/lifecycle"
	"sigs.k8s.io/yaml"
)

// The pod stages KWOK may take a pod through next, by name: a deleted pod
// simply goes, but one evicted through the Eviction API first turns
// Failed (keeping its DisruptionTarget condition), as a kubelet ends it,
// so that a Job's podFailurePolicy sees it and replaces it; then it goes.
func TestKWOKPodStagesOfEvictedPods(t *testing.T) {
	out, err := renderKWOKConfig(0)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := DecodeYAML(out)
	if err != nil {
		t.Fatal(err)
	}
	var stages []*internalversion.Stage
	for _, o := range objs {
		if o.GetKind() != "Stage" {
			continue
		}
		data, err := o.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		var s v1alpha1.Stage
		if err := yaml.Unmarshal(data, &s); err != nil {
			t.Fatal(err)
		}
		if s.Spec.ResourceRef.Kind != "Pod" {
			continue
		}
		in, err := internalversion.ConvertToInternalStage(&s)
		if err != nil {
			t.Fatal(err)
		}
		stages = append(stages, in)
	}
	lc, err := lifecycle.NewLifecycle(stages)
	if err != nil {
		t.Fatal(err)
	}
	deleted := metav1.Now()
	evicted := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "EvictionByEvictionAPI"}
	preempted := corev1.PodCondition{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: corev1.PodReasonPreemptionByScheduler}
	pod := func(phase corev1.PodPhase, conds ...corev1.PodCondition) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", DeletionTimestamp: &deleted},
			Spec:   corev1.PodSpec{NodeName: "n", Containers: []corev1.Container{{Name: "c", Image: "i"}}},
			Status: corev1.PodStatus{Phase: phase, Conditions: append([]corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionTrue}}, conds...)}}
	}
	for name, tc := range map[string]struct {
		pod  *corev1.Pod
		want []string
	}{
		"deleted":                         {pod(corev1.PodRunning), []string{"pod-delete"}},
		"preempted by the scheduler":      {pod(corev1.PodRunning, preempted), []string{"pod-delete"}},
		"evicted, running":                {pod(corev1.PodRunning, evicted), []string{"pod-evicted"}},
		"evicted, its containers stopped": {pod(corev1.PodFailed, evicted), []string{"pod-evicted-gone"}},
	} {
		t.Run(name, func(t *testing.T) {
			matched, err := lc.ListAllPossible(context.Background(), &lifecycle.Event{Labels: tc.pod.Labels, Annotations: tc.pod.Annotations, Data: tc.pod})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range matched {
				got = append(got, s.Name())
			}
			slices.Sort(got)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("stages (-want +got):\n%s", diff)
			}
		})
	}
}
