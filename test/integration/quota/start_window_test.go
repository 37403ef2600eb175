package quota_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// A ClusterQueue's start window (queuedStartDepth 2): of queued Jobs
// created suspended, the scheduler starts only the first two not yet
// admitted, in queue order; the rest stay suspended, saying why, and start
// as those ahead are admitted or go away. A Job of higher priority starts
// at once although the window is full. A scheduler that takes over counts
// the window from the API as the first did: it starts nothing more.
func TestQueuedJobsStartWithinTheWindow(t *testing.T) {
	config := harness.SchedulerConfigWithArgs(t, map[string]any{"queuedStartDepth": 2})
	e, sched := startWith(t, config, 2)
	ns := e.cp.CreateNamespace(t, "window")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	if _, err := e.cp.Client.SchedulingV1().PriorityClasses().Create(t.Context(),
		&schedulingv1.PriorityClass{ObjectMeta: metav1.ObjectMeta{Name: "urgent"}, Value: 1000}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}

	// Created one by one, a second apart: queue order is creation order.
	for _, name := range []string{"a", "b", "c", "d"} {
		e.createJob(t, suspendedQueuedJob(ns, name))
		time.Sleep(time.Second)
	}
	a := e.cp.WaitJobStarted(t, ns, "a", "lq")
	b := e.cp.WaitJobStarted(t, ns, "b", "lq")
	e.cp.ExpectJobStaysSuspended(t, ns, "c", 2*time.Second)
	ev := e.cp.WaitForWorkloadEventObject(t, ns, "c", "Queued")
	if ev.Type != corev1.EventTypeNormal || !strings.Contains(ev.Note, "ClusterQueue cq") || !strings.Contains(ev.Note, "first 2") {
		t.Errorf("event on c: %s %q, want it to say it waits for cq's window of 2", ev.Type, ev.Note)
	}

	// a is admitted (its 8 chips are the queue's quota), b waits for
	// quota: one place frees, and c, next in order, starts.
	aPods := e.cp.CreateJobPods(t, a)
	for _, p := range aPods {
		e.cp.WaitForPodBound(t, ns, p.Name)
	}
	bPods := e.cp.CreateJobPods(t, b)
	e.cp.WaitJobStarted(t, ns, "c", "lq")
	e.cp.ExpectJobStaysSuspended(t, ns, "d", 2*time.Second)

	// b and c wait: the window is full, yet an urgent Job created last
	// starts at once.
	urgent := suspendedQueuedJob(ns, "urgent")
	urgent.Spec.Template.Spec.PriorityClassName = "urgent"
	e.createJob(t, urgent)
	e.cp.WaitJobStarted(t, ns, "urgent", "lq")

	// A new scheduler counts b, c and urgent as started and waiting, from
	// the API alone: d stays suspended.
	sched.Stop()
	harness.StartScheduler(t, e.cp, config)
	e.cp.ExpectJobStaysSuspended(t, ns, "d", 3*time.Second)

	// a completes: b is admitted. c goes away: d starts.
	e.cp.CompleteJob(t, a, aPods)
	for _, p := range bPods {
		e.cp.WaitForPodBound(t, ns, p.Name)
	}
	if err := e.cp.Client.BatchV1().Jobs(ns).Delete(t.Context(), "c", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	e.cp.WaitJobStarted(t, ns, "d", "lq")
}
