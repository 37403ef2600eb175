package quota_test

import (
	"context"
	"slices"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Plain pods naming a LocalQueue share its quota with gangs: each is a
// workload of one pod, with a Workload object of its own.
func TestQueuedPlainPods(t *testing.T) {
	e := start(t, 2)
	ns := e.cp.CreateNamespace(t, "plain")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	pod := func(name string) *builders.PodBuilder {
		return builders.Pod(ns, name).Scheduler(app.Name).NoRequests().TPU("4").
			NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).Label(wellknown.QueueNameLabel, "lq")
	}
	for _, name := range []string{"a", "b"} {
		e.cp.CreatePod(t, pod(name).Obj())
		e.cp.WaitForPodBound(t, ns, name)
	}
	e.cp.CreatePod(t, pod("c").Obj())
	e.cp.ExpectPodStaysUnbound(t, ns, "c", 2*time.Second)
	e.waitPodWorkload(t, ns, "c", quota.ReasonQuotaExceeded)
	// Why it waits is an event on the pod; where the others went is
	// kube-scheduler's Scheduled event alone.
	waitPodEvent(t, e, ns, "c", quota.ReasonQuotaExceeded)
	waitPodEvent(t, e, ns, "a", "Scheduled")
	if reasons := podEventReasons(t, e, ns, "a"); slices.Contains(reasons, "Placed") {
		t.Errorf("pod a has a Placed event beside Scheduled: %v", reasons)
	}

	if err := e.cp.Client.CoreV1().Pods(ns).Delete(t.Context(), "a", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	e.cp.WaitForPodBound(t, ns, "c")
	e.waitClusterQueue(t, "cq", 0, 2, 8)

	// A pod within the quota that no node could hold, even empty (8 chips;
	// the nodes have 4), is not charged: it waits, unplaceable.
	for _, name := range []string{"b", "c"} {
		if err := e.cp.Client.CoreV1().Pods(ns).Delete(t.Context(), name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
			t.Fatal(err)
		}
	}
	e.waitClusterQueue(t, "cq", 0, 0, 0)
	e.cp.CreatePod(t, pod("huge").TPU("8").Obj())
	waitPodEvent(t, e, ns, "huge", state.ReasonUnplaceable)
	e.waitPodWorkload(t, ns, "huge", state.ReasonUnplaceable)
	e.waitClusterQueue(t, "cq", 1, 0, 0)
}

// podEventReasons lists the reasons of the events about pod ns/name.
func podEventReasons(t *testing.T, e *env, ns, name string) []string {
	t.Helper()
	evs, err := e.cp.Client.EventsV1().Events(ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, ev := range evs.Items {
		if ev.Regarding.Kind == "Pod" && ev.Regarding.Name == name {
			out = append(out, ev.Reason)
		}
	}
	return out
}

// waitPodEvent waits for an event of reason about pod ns/name.
func waitPodEvent(t *testing.T, e *env, ns, name, reason string) {
	t.Helper()
	var seen []string
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, harness.WaitTimeout, true, func(context.Context) (bool, error) {
		seen = podEventReasons(t, e, ns, name)
		return slices.Contains(seen, reason), nil
	})
	if err != nil {
		t.Fatalf("pod %s/%s: no %s event (events: %v)", ns, name, reason, seen)
	}
}
