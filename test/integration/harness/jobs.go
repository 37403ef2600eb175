package harness

import (
	"context"
	"fmt"
	"maps"
	"strconv"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// WaitJobStarted waits until the scheduler unsuspended the Job, and checks
// that it marked the Job and put queue on the pod template.
func (cp *ControlPlane) WaitJobStarted(t testing.TB, ns, name, queue string) *batchv1.Job {
	t.Helper()
	var job *batchv1.Job
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := cp.Client.BatchV1().Jobs(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		job = got
		return got.Spec.Suspend != nil && !*got.Spec.Suspend, nil
	})
	if err != nil {
		t.Fatalf("Job %s/%s never unsuspended; last: %+v", ns, name, job)
	}
	if _, marked := job.Annotations[wellknown.UnsuspendedAnnotation]; !marked {
		t.Errorf("started Job %s has no %s annotation: %v", name, wellknown.UnsuspendedAnnotation, job.Annotations)
	}
	if q := job.Spec.Template.Labels[wellknown.QueueNameLabel]; q != queue {
		t.Errorf("started Job %s: template queue label %q, want %s", name, q, queue)
	}
	return job
}

// CreateJobPods creates the pods of a started Job as the Job controller
// does: from its template, with the Job's name, UID and completion index
// in their labels, owned by the Job.
func (cp *ControlPlane) CreateJobPods(t testing.TB, job *batchv1.Job) []*corev1.Pod {
	t.Helper()
	var out []*corev1.Pod
	for i := range int(*job.Spec.Parallelism) {
		labels := maps.Clone(job.Spec.Template.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		labels[batchv1.JobNameLabel] = job.Name
		labels[wellknown.LegacyJobNameLabel] = job.Name
		labels[batchv1.ControllerUidLabel] = string(job.UID)
		labels[wellknown.LegacyJobControllerUIDLabel] = string(job.UID)
		labels[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
		annotations := maps.Clone(job.Spec.Template.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(i)
		pod := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{Namespace: job.Namespace, Name: fmt.Sprintf("%s-%d", job.Name, i),
				Labels: labels, Annotations: annotations,
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(job, batchv1.SchemeGroupVersion.WithKind("Job"))}},
			Spec: *job.Spec.Template.Spec.DeepCopy(),
		}
		pod.Spec.Hostname = pod.Name
		out = append(out, cp.CreatePod(t, pod))
	}
	return out
}

// CompleteJob ends a Job as its pods and the Job controller would: every
// pod succeeds, then the Job is reported complete.
func (cp *ControlPlane) CompleteJob(t testing.TB, job *batchv1.Job, pods []*corev1.Pod) {
	t.Helper()
	ctx := t.Context()
	for _, p := range pods {
		cur, err := cp.Client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		cur.Status.Phase = corev1.PodSucceeded
		if _, err := cp.Client.CoreV1().Pods(p.Namespace).UpdateStatus(ctx, cur, metav1.UpdateOptions{}); err != nil {
			t.Fatalf("pod %s succeeded: %v", p.Name, err)
		}
	}
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		cur, err := cp.Client.BatchV1().Jobs(job.Namespace).Get(ctx, job.Name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		now := metav1.Now()
		start := metav1.NewTime(now.Add(-time.Second))
		cur.Status = batchv1.JobStatus{
			StartTime: &start, CompletionTime: &now,
			Succeeded: int32(len(pods)), CompletedIndexes: fmt.Sprintf("0-%d", len(pods)-1),
			Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastProbeTime: now, LastTransitionTime: now},
			},
		}
		_, err = cp.Client.BatchV1().Jobs(job.Namespace).UpdateStatus(ctx, cur, metav1.UpdateOptions{})
		if err != nil {
			t.Logf("Job %s complete: %v; retrying", job.Name, err)
		}
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("Job %s never reported complete: %v", job.Name, err)
	}
}

// ExpectJobStaysSuspended fails if the Job is started within d.
func (cp *ControlPlane) ExpectJobStaysSuspended(t testing.TB, ns, name string, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		job, err := cp.Client.BatchV1().Jobs(ns).Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if job.Spec.Suspend == nil || !*job.Spec.Suspend {
			t.Fatalf("Job %s/%s was started, want it held suspended", ns, name)
		}
	}
}
