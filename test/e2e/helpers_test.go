package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// namespace creates a namespace for one test, waits for the default service
// account that pods need, and deletes it when the test ends.
func namespace(t *testing.T) string {
	t.Helper()
	name := "e2e-" + strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	if len(name) > 63 {
		name = name[:63]
	}
	ctx := t.Context()
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	poll(t, "default service account of "+name, 30*time.Second, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().ServiceAccounts(name).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	return name
}

// v5eJobSet is the shape of manifests/examples/multislice-v5e: slices of
// 2 pods × 4 chips on v5e 2x4 pools, one pool per slice, scheduled by
// multislice-scheduler.
func v5eJobSet(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	return &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   ns,
			Name:        name,
			Annotations: map[string]string{jobsetv1alpha2.ExclusiveKey: wellknown.NodePoolLabel},
		},
		Spec: jobsetv1alpha2.JobSetSpec{
			FailurePolicy: &jobsetv1alpha2.FailurePolicy{MaxRestarts: 3},
			ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
				Name:     "slice",
				Replicas: slices,
				Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
					Parallelism:  ptr.To[int32](2),
					Completions:  ptr.To[int32](2),
					BackoffLimit: ptr.To[int32](0),
					Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
						SchedulerName: app.Name,
						NodeSelector: map[string]string{
							wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice",
							wellknown.TPUTopologyLabel:    "2x4",
						},
						Containers: []corev1.Container{{
							Name:    "jax-tpu",
							Image:   "python:3.8",
							Command: []string{"bash", "-c", "sleep 60"},
							Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
								wellknown.ResourceTPU: resource.MustParse("4"),
							}},
						}},
					}},
				}},
			}},
		},
	}
}

func createJobSet(t *testing.T, js *jobsetv1alpha2.JobSet) *jobsetv1alpha2.JobSet {
	t.Helper()
	created, err := jobsets.JobsetV1alpha2().JobSets(js.Namespace).Create(t.Context(), js, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create JobSet %s: %v", js.Name, err)
	}
	t.Cleanup(func() { deleteJobSet(t, created) })
	return created
}

// deleteJobSet deletes a JobSet and waits until its pods are gone, so the
// next test finds the node pools empty.
func deleteJobSet(t *testing.T, js *jobsetv1alpha2.JobSet) {
	ctx := context.Background()
	err := jobsets.JobsetV1alpha2().JobSets(js.Namespace).Delete(ctx, js.Name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete JobSet %s: %v", js.Name, err)
		return
	}
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		return err == nil && len(pods) == 0, nil
	})
	if err != nil {
		t.Errorf("pods of JobSet %s not gone: %v", js.Name, err)
	}
}

func jobSetPods(ctx context.Context, js *jobsetv1alpha2.JobSet) ([]corev1.Pod, error) {
	list, err := client.CoreV1().Pods(js.Namespace).List(ctx, metav1.ListOptions{LabelSelector: jobsetv1alpha2.JobSetNameKey + "=" + js.Name})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// waitRunning waits until want pods of the JobSet are bound, Running and
// not being deleted, and returns them.
func waitRunning(t *testing.T, js *jobsetv1alpha2.JobSet, want int, timeout time.Duration) []corev1.Pod {
	t.Helper()
	var running []corev1.Pod
	var summary string
	poll(t, fmt.Sprintf("%d Running pods of JobSet %s", want, js.Name), timeout, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		if err != nil {
			return false, nil
		}
		running = running[:0]
		var states []string
		for _, p := range pods {
			states = append(states, fmt.Sprintf("%s=%s@%q", p.Name, p.Status.Phase, p.Spec.NodeName))
			if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
				running = append(running, p)
			}
		}
		summary = strings.Join(states, " ")
		return len(running) == want, nil
	}, func() string { return summary })
	return running
}

func poolOfNode(t *testing.T, node string) string {
	t.Helper()
	n, err := client.CoreV1().Nodes().Get(t.Context(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n.Labels[wellknown.NodePoolLabel]
}

// poll fails the test if cond does not hold within timeout; details, if
// given, describes the last state seen.
func poll(t *testing.T, what string, timeout time.Duration, cond wait.ConditionWithContextFunc, details ...func() string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		select {
		case <-cluster.Failed():
			return false, cluster.Err()
		default:
		}
		return cond(ctx)
	})
	if err != nil {
		msg := fmt.Sprintf("waiting for %s: %v", what, err)
		for _, d := range details {
			msg += "\nlast seen: " + d()
		}
		t.Fatal(msg)
	}
}
