package scheduler_test

import (
	"crypto/tls"
	"io"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func v5ePool(name string) *builders.NodePoolBuilder {
	return builders.NodePool(name).Nodes(2).TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a")
}

func TestOurPodIsBoundAndDefaultPodIsLeftAlone(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.CreateNodePool(t, v5ePool("pool-a"))
	sched := harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "basic")

	ours := cp.CreatePod(t, builders.Pod(ns, "ours").Scheduler(app.Name).TPU("4").
		NodeSelector(wellknown.TPUTopologyLabel, "2x4").Obj())
	theirs := cp.CreatePod(t, builders.Pod(ns, "theirs").Obj()) // default-scheduler, which is not running

	bound := cp.WaitForPodBound(t, ns, ours.Name)
	node, err := cp.Client.CoreV1().Nodes().Get(t.Context(), bound.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := node.Labels[wellknown.NodePoolLabel]; got != "pool-a" {
		t.Errorf("bound to node %s of pool %q, want pool-a", node.Name, got)
	}

	left := cp.ExpectPodStaysUnbound(t, ns, theirs.Name, 3*time.Second)
	for _, c := range left.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			t.Errorf("default-scheduler pod got a PodScheduled condition from us: %+v", c)
		}
	}

	// The health endpoints the Deployment probes are served.
	client := &http.Client{Timeout: 5 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // self-signed serving cert on loopback
	}}
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := client.Get(sched.HealthURL + path)
		if err != nil {
			t.Fatalf("GET %s: %v", path, err)
		}
		body, _ := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("GET %s = %d %s, want 200", path, resp.StatusCode, body)
		}
	}
}

func TestPodThatFitsNowhereStaysPendingWithReason(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.CreateNodePool(t, v5ePool("pool-a"))
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "nofit")

	pod := cp.CreatePod(t, builders.Pod(ns, "too-big").Scheduler(app.Name).TPU("8").Obj())
	reason := cp.WaitForPodCondition(t, ns, pod.Name, corev1.PodScheduled, corev1.ConditionFalse)
	if reason.Reason != corev1.PodReasonUnschedulable {
		t.Errorf("PodScheduled reason = %q, want %q (message %q)", reason.Reason, corev1.PodReasonUnschedulable, reason.Message)
	}
}

func TestSchedulerSurvivesAPIServerRestart(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.CreateNodePool(t, v5ePool("pool-a"))
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "restart")

	before := cp.CreatePod(t, builders.Pod(ns, "before").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, before.Name)

	cp.Restart(2 * time.Second)

	// Watches re-establish against the new apiserver; new work is scheduled
	// and the node capacity taken before the restart is still accounted for.
	after := cp.CreatePod(t, builders.Pod(ns, "after").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, after.Name)
	overflow := cp.CreatePod(t, builders.Pod(ns, "overflow").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodCondition(t, ns, overflow.Name, corev1.PodScheduled, corev1.ConditionFalse)
}
