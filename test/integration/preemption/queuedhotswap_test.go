package preemption_test

import (
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Seed 000's combined Kueue + Hotswap queue objects: ClusterQueue
// tpu-training-cq (32 chips of v6e, reclaimWithinCohort: Never,
// withinClusterQueue unset, so Never) and LocalQueue default-queue in
// namespace default.
const (
	seed000Queues       = "manifests/examples/queues/seed-000-tpu-v6e.yaml"
	seed000ClusterQueue = "tpu-training-cq"
	seed000LocalQueue   = "default-queue"
)

// queuedTrillium is trillium in namespace default, in seed 000's
// LocalQueue (queued) or not. Its pods ask for TPU chips only, as the
// seed's do: its ClusterQueue covers no other resource.
func queuedTrillium(name, priorityClass string, queued bool) *jobsetv1alpha2.JobSet {
	b := builders.JobSet("default", name).Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().TPU("4").PriorityClass(priorityClass).
				NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice").
				NodeSelector(wellknown.TPUTopologyLabel, "4x4")
		})
	if queued {
		b = b.Annotation(wellknown.QueueNameLabel, seed000LocalQueue)
	}
	return harness.BlockingRecreate(b.ReplicatedJob("slice", 2, 4).Obj(), 10)
}

// setNominal sets the chips of the ClusterQueue's only quota.
func setNominal(t *testing.T, q *harness.Queues, cq string, chips int64) {
	t.Helper()
	obj, err := q.Client.MultisliceV1alpha1().ClusterQueues().Get(t.Context(), cq, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	obj.Spec.ResourceGroups[0].Flavors[0].Resources[0].NominalQuota = *resource.NewQuantity(chips, resource.DecimalSI)
	if _, err := q.Client.MultisliceV1alpha1().ClusterQueues().Update(t.Context(), obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// Seed 000's combined example: both JobSets in one ClusterQueue whose
// policies never preempt within it. With the seed's 32 chips only one of
// the two 32-chip JobSets is admitted at all; with 64 both run on the four
// pools. A pool under high fails: high holds its admission and asks for
// domains only, so low (lower priority) is evicted whole — capacity
// preemption, which priority decides, not withinClusterQueue — and comes
// back once the pool does.
//
// A JobSet outside the queues does not evict an admitted one, whatever its
// priority: it waits for the pool.
func TestHotswapUnderQueueSeed000(t *testing.T) {
	for _, tc := range []struct {
		name       string
		highQueued bool
	}{{"both queued", true}, {"high not queued", false}} {
		t.Run(tc.name, func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			cp.InstallQueueCRDs(t)
			cp.CreateFromFile(t, priorityClasses)
			cp.CreateFromFile(t, seed000Queues)
			v6ePools(t, cp, 4)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			kubelet := cp.StartKubelet(t, terminationDelay)
			jobsets := cp.NewJobSets(t, harness.AllAtOnce)
			queues := cp.Queues()
			e := &hotswapEnv{cp: cp, kubelet: kubelet, jobsets: jobsets, ns: "default"}
			ns := e.ns

			jobsets.CreateAll(t, queuedTrillium("low", lowPriority, true))
			low := cp.WaitWhollyPlaced(t, ns, "low", trilliumPods)
			if tc.highQueued {
				// The seed's quota holds one of the two.
				jobsets.CreateAll(t, queuedTrillium("high", highPriority, true))
				waitWorkload(t, queues, ns, "high", "waiting for quota behind low",
					harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
				cp.ExpectNoneBound(t, ns, "high", 2*time.Second)
				setNominal(t, queues, seed000ClusterQueue, 64)
			} else {
				jobsets.CreateAll(t, queuedTrillium("high", highPriority, false))
			}
			high := cp.WaitWhollyPlaced(t, ns, "high", trilliumPods)
			harness.CheckExclusive(t, low, high)

			failed := poolOfSlice(t, high, "0")
			cp.FailNodePool(t, failed)
			jobsets.Restart(t, ns, "high")

			if !tc.highQueued {
				cp.ExpectNoneBound(t, ns, "high", 5*time.Second)
				kubelet.ExpectNoDisruption(t, "a JobSet outside the queues evicted an admitted one", harness.AnyPod, 0)
				ev := cp.WaitForWorkloadEventObject(t, ns, "high", "NoPreemptionVictims")
				t.Logf("%s %s on high: %s", ev.Type, ev.Reason, ev.Note)
				cp.RecoverNodePool(t, failed)
				cp.WaitWhollyPlaced(t, ns, "high", trilliumPods)
				return
			}

			victims := kubelet.WaitTerminated(t,
				fmt.Sprintf("no capacity preemption: high (admitted, priority 2000000) lost pool %s and needs low's; withinClusterQueue: Never governs quota, not capacity; the scheduler should evict all %d pods of low", failed, trilliumPods),
				harness.OfJobSet(ns, "low", 0), trilliumPods, e.explain("high", "low"))
			checkVictims(t, victims, ns+"/high")
			high = cp.WaitWhollyPlaced(t, ns, "high", trilliumPods)
			if high.Uses(failed) {
				t.Errorf("high placed on the failed pool %s: %v", failed, high.PoolsBySlice)
			}
			checkPreemptionEvents(t, cp, ns, "low", "high")
			queues.WaitClusterQueueUsage(t, seed000ClusterQueue, 32)

			// Restarted, low fits the quota but not the pools: it waits
			// for domains, and nothing of high is touched.
			jobsets.Restart(t, ns, "low")
			cp.ExpectNoneBound(t, ns, "low", 3*time.Second)
			cp.RecoverNodePool(t, failed)
			low = cp.WaitWhollyPlaced(t, ns, "low", trilliumPods)
			harness.CheckExclusive(t, high, low)
			queues.WaitClusterQueueUsage(t, seed000ClusterQueue, 64)
			kubelet.ExpectNoDisruption(t, "high was never a victim", harness.OfJobSet(ns, "high", -1), 0)
		})
	}
}
