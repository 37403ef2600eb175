package e2e

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// The local cluster's kube-scheduler (our binary with only the default
// profile) schedules what a newcomer runs first: `kubectl run plain-pod
// --image=busybox`, a pod that names no scheduler. It runs with
// kube-scheduler's own identity, and its log never says it was refused a
// list of objects only our profile reads.
func TestOrdinaryPodIsScheduled(t *testing.T) {
	ns := namespace(t)
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "plain-pod", Namespace: ns, Labels: map[string]string{"run": "plain-pod"}},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{Name: "plain-pod", Image: "busybox"}},
		},
	}
	if _, err := client.CoreV1().Pods(ns).Create(t.Context(), pod, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var got *corev1.Pod
	poll(t, "the plain pod Running", 60*time.Second, func(ctx context.Context) (bool, error) {
		p, err := client.CoreV1().Pods(ns).Get(ctx, pod.Name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		got = p
		return p.Status.Phase == corev1.PodRunning, nil
	}, func() string {
		if got == nil {
			return "no pod"
		}
		return "phase " + string(got.Status.Phase) + ", node " + got.Spec.NodeName + ", conditions " + conditionsOf(got)
	})
	if got.Spec.SchedulerName != corev1.DefaultSchedulerName {
		t.Errorf("schedulerName = %q, want %q", got.Spec.SchedulerName, corev1.DefaultSchedulerName)
	}

	data, err := os.ReadFile(cluster.LogPath("kube-scheduler"))
	if err != nil {
		t.Fatal(err)
	}
	for line := range strings.SplitSeq(string(data), "\n") {
		if strings.Contains(line, "is forbidden") {
			t.Errorf("kube-scheduler was refused a request: %s", line)
			break
		}
	}
}

// conditionsOf prints a pod's conditions, one "type=status (reason: message)" each.
func conditionsOf(p *corev1.Pod) string {
	var out []string
	for _, c := range p.Status.Conditions {
		out = append(out, string(c.Type)+"="+string(c.Status)+" ("+c.Reason+": "+c.Message+")")
	}
	return strings.Join(out, ", ")
}
