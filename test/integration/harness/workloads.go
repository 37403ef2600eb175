package harness

import (
	"context"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
)

// WaitWorkload waits until Workload object ns/name satisfies ok, and
// returns it; what says what was waited for.
func WaitWorkload(t testing.TB, client multisliceclient.Interface, ns, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	var wl *multislicev1alpha1.Workload
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := client.MultisliceV1alpha1().Workloads(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		wl = got
		return ok(got), nil
	})
	if err != nil {
		t.Fatalf("Workload %s/%s never %s; last: %+v", ns, name, what, wl)
	}
	return wl
}

// WorkloadCondition reports whether a Workload has condition typ with
// status and (when not empty) reason.
func WorkloadCondition(typ string, status metav1.ConditionStatus, reason string) func(*multislicev1alpha1.Workload) bool {
	return func(wl *multislicev1alpha1.Workload) bool {
		c := apimeta.FindStatusCondition(wl.Status.Conditions, typ)
		return c != nil && c.Status == status && (reason == "" || c.Reason == reason)
	}
}
