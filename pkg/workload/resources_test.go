package workload

import (
	"math"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func TestPodRequests(t *testing.T) {
	q := resource.MustParse
	cases := []struct {
		name string
		spec corev1.PodSpec
		want Resources
	}{
		{name: "limits only count as requests, as the apiserver defaults them",
			spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{
				Limits: corev1.ResourceList{"google.com/tpu": q("4"), corev1.ResourceMemory: q("1Gi")}}}}},
			want: Resources{corev1.ResourcePods: 1000, "google.com/tpu": 4000, corev1.ResourceMemory: 1024 * 1024 * 1024 * 1000}},
		{name: "a request below its limit is the request",
			spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceCPU: q("500m")}, Limits: corev1.ResourceList{corev1.ResourceCPU: q("2")}}}}},
			want: Resources{corev1.ResourcePods: 1000, corev1.ResourceCPU: 500}},
		{name: "init containers and sidecars as the scheduler counts them",
			spec: corev1.PodSpec{
				InitContainers: []corev1.Container{{Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{corev1.ResourceCPU: q("3")}}}},
				Containers:     []corev1.Container{{Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: q("1")}}}}},
			want: Resources{corev1.ResourcePods: 1000, corev1.ResourceCPU: 3000}},
		// Caught by FuzzFromPodGroup: a pods request replaced the pod slot,
		// and an amount too large for milli-units counted as nothing.
		{name: "one pod slot, whatever a container asks for",
			spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourcePods: q("5")}}}}},
			want: Resources{corev1.ResourcePods: 1000}},
		{name: "too large to count: fits nowhere",
			spec: corev1.PodSpec{Containers: []corev1.Container{{Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{corev1.ResourceMemory: q("9223372036854775807"), corev1.ResourceCPU: q("1e30")}}}}},
			want: Resources{corev1.ResourcePods: 1000, corev1.ResourceMemory: math.MaxInt64, corev1.ResourceCPU: math.MaxInt64}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			before := tc.spec.DeepCopy()
			if diff := cmp.Diff(tc.want, PodRequests(&tc.spec)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, &tc.spec); diff != "" {
				t.Errorf("the spec was modified:\n%s", diff)
			}
		})
	}
}

// Asks.Count counts as Resources.Count does, on rooms and requests of
// every sign, including resources the room lacks and amounts not asked.
func TestAsksCountAsCount(t *testing.T) {
	rooms := []Resources{
		nil,
		{},
		{"cpu": 4000, "nvidia.com/gpu": 8000},
		{"cpu": 100, "nvidia.com/gpu": 8000, "memory": -5},
		{"cpu": -1000, "nvidia.com/gpu": 3000},
	}
	requests := []Resources{
		nil,
		{"cpu": 0},
		{"cpu": 100},
		{"cpu": 100, "nvidia.com/gpu": 1000},
		{"nvidia.com/gpu": 8000, "google.com/tpu": 0},
		{"google.com/tpu": 4000},
		{"cpu": -100, "nvidia.com/gpu": 3000},
	}
	for _, room := range rooms {
		for _, req := range requests {
			if got, want := req.Asks().Count(room), room.Count(req); got != want {
				t.Errorf("%v.Asks().Count(%v) = %d, want %d as Count", req, room, got, want)
			}
		}
	}
}
