package quota_test

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
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

	if err := e.cp.Client.CoreV1().Pods(ns).Delete(t.Context(), "a", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	e.cp.WaitForPodBound(t, ns, "c")
	e.waitClusterQueue(t, "cq", 0, 2, 8)
}
