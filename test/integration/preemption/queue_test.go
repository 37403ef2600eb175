package preemption_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Seed 002's queue objects put their LocalQueue in namespace default.
const (
	queueNamespace = "default"
	localQueue     = "multislice-queue"
)

// queuedV5e is a JobSet of slices × (2 pods × 4 chips) on v5e 2x4 pools in
// seed 002's LocalQueue. Its pods ask for TPU chips only: the seed's
// ClusterQueue covers no other resource.
func queuedV5e(name, priorityClass string, slices int32) *jobsetv1alpha2.JobSet {
	js := builders.JobSet(queueNamespace, name).Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.QueueNameLabel, localQueue).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().TPU("4").PriorityClass(priorityClass).
				NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		}).
		ReplicatedJob("slice", slices, 2).Obj()
	return harness.BlockingRecreate(js, 10)
}

// Seed 002's ClusterQueue (24 chips, six 2x4 pools) with and without its
// preemption policy: a low-priority 3-slice JobSet uses all the quota, a
// high-priority 1-slice JobSet arrives in the same queue. There is room in
// the pools for both; only the quota is short.
//   - withinClusterQueue: LowerPriority (seed-002-preemption.yaml): the
//     low-priority JobSet is evicted whole and the high-priority one
//     admitted; restarted, the low-priority one waits for quota until the
//     high-priority one is gone.
//   - the default, Never (seed-002-multislice-v5e.yaml): nothing is
//     evicted; the high-priority JobSet waits for quota.
func TestWithinClusterQueuePreemption(t *testing.T) {
	for _, tc := range []struct {
		name     string
		manifest string
		preempts bool
	}{
		{"LowerPriority", "manifests/examples/queues/seed-002-preemption.yaml", true},
		{"Never", "manifests/examples/queues/seed-002-multislice-v5e.yaml", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			cp.InstallQueueCRDs(t)
			for i := 1; i <= 6; i++ {
				cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
					TPU(builders.V5e, "2x4", 4).Zone("us-west4-a"))
			}
			cp.CreateFromFile(t, priorityClasses)
			cp.CreateFromFile(t, tc.manifest)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			kubelet := cp.StartKubelet(t, terminationDelay)
			jobsets := cp.NewJobSets(t, harness.AllAtOnce)
			queues := cp.Queues()
			ns := queueNamespace
			explain := func(ctx context.Context) string {
				return cp.DescribeJobSet(ctx, ns, "high") + "\n" + cp.DescribeJobSet(ctx, ns, "low")
			}

			jobsets.CreateAll(t, queuedV5e("low", lowPriority, 3))
			cp.WaitWhollyPlaced(t, ns, "low", 6)
			waitWorkload(t, queues, ns, "low", "admitted", harness.WorkloadCondition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))

			jobsets.CreateAll(t, queuedV5e("high", highPriority, 1))
			if !tc.preempts {
				waitWorkload(t, queues, ns, "high", "waiting for quota",
					harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
				cp.ExpectNoneBound(t, ns, "high", 5*time.Second)
				// Each of its pods says why, where kubectl describe pod
				// shows it: no scheduling cycle runs for a held pod.
				pods, err := cp.Client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=high"})
				if err != nil || len(pods.Items) != 2 {
					t.Fatalf("high's pods: %d (%v), want 2", len(pods.Items), err)
				}
				for _, p := range pods.Items {
					c := cp.WaitForPodCondition(t, ns, p.Name, corev1.PodScheduled, corev1.ConditionFalse)
					if c.Reason != quota.ReasonQuotaExceeded || !strings.Contains(c.Message, "insufficient quota in ClusterQueue cluster-queue") {
						t.Errorf("pod %s: PodScheduled=False %s %q, want %s saying why", p.Name, c.Reason, c.Message, quota.ReasonQuotaExceeded)
					}
					cp.WaitForEvent(t, ns, p.Name, quota.ReasonQuotaExceeded, harness.WaitTimeout)
				}
				kubelet.ExpectNoDisruption(t, "withinClusterQueue: Never, yet a pod was preempted", harness.AnyPod, 0)
				if p, err := cp.PlacementOf(t.Context(), ns, "low"); err != nil || p.Bound != 6 {
					t.Fatalf("low has %d of 6 pods bound (%v), want all still running", p.Bound, err)
				}
				// Once the quota is released, the high-priority JobSet runs.
				jobsets.Delete(t, ns, "low")
				cp.WaitWhollyPlaced(t, ns, "high", 2)
				return
			}

			victims := kubelet.WaitTerminated(t,
				"no preemption: high (priority 2000000) needs 8 chips of ClusterQueue cluster-queue, whose 24 low (priority 1000000) uses, and withinClusterQueue is LowerPriority; the scheduler should evict all 6 pods of low",
				harness.OfJobSet(ns, "low", 0), 6, explain)
			checkVictims(t, victims, ns+"/high")
			cp.WaitWhollyPlaced(t, ns, "high", 2)
			waitWorkload(t, queues, ns, "high", "admitted", harness.WorkloadCondition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
			checkPreemptionEvents(t, cp, ns, "low", "high")

			// Restarted, low needs 24 chips and 16 are left: it waits, whole,
			// for quota (the pools have room for it).
			jobsets.Restart(t, ns, "low")
			cp.ExpectNoneBound(t, ns, "low", 3*time.Second)
			waitWorkload(t, queues, ns, "low", "waiting for quota",
				harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
			// Its Workload records the eviction while it waits.
			waitWorkload(t, queues, ns, "low", "evicted by high",
				harness.WorkloadCondition(multislicev1alpha1.WorkloadEvicted, metav1.ConditionTrue, multislicev1alpha1.ReasonPreempted))

			jobsets.Delete(t, ns, "high")
			cp.WaitWhollyPlaced(t, ns, "low", 6)
			waitWorkload(t, queues, ns, "low", "admitted", harness.WorkloadCondition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
			waitWorkload(t, queues, ns, "low", "no longer evicted",
				harness.WorkloadCondition(multislicev1alpha1.WorkloadEvicted, metav1.ConditionFalse, multislicev1alpha1.ReasonAdmitted))
			kubelet.ExpectNoDisruption(t, "high was never a victim", harness.OfJobSet(ns, "high", -1), 0)
		})
	}
}

// waitWorkload waits until the Workload object of JobSet ns/jobset
// satisfies ok.
func waitWorkload(t *testing.T, queues *harness.Queues, ns, jobset, what string, ok func(*multislicev1alpha1.Workload) bool) {
	t.Helper()
	queues.WaitWorkloadOf(t, harness.JobSetKey(ns, jobset), what, ok)
}
