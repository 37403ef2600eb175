package faults_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Quota usage is what the API shows, whatever the scheduler remembers:
// these tests take away what it remembers (a restart, queue objects or
// the queue API appearing late) or change what runs behind its back
// (owners deleted first), and check no ClusterQueue ends up over quota.

// A ResourceFlavor deleted while a workload charged to it runs, and the
// scheduler restarted before the flavor is back: once it is, the running
// workload is counted before anything else of its queue is admitted.
func TestFlavorOutageAcrossARestartDoesNotOvercommit(t *testing.T) {
	c := newCluster(t, "flavor", 4, 8)
	cp, q, ns, jobsets := c.cp, c.q, c.ns, c.jobsets
	sched := harness.StartScheduler(t, cp, schedulerConfig(t, nil))

	jobsets.Create(t, queued(ns, "running", 1))
	cp.WaitWhollyPlaced(t, ns, "running", 2)
	q.WaitClusterQueue(t, clusterQueue, 0, 1, 8)

	if err := q.Client.MultisliceV1alpha1().ResourceFlavors().Delete(t.Context(), flavor, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	sched.Stop()
	harness.StartScheduler(t, cp, schedulerConfig(t, nil))
	jobsets.Create(t, queued(ns, "second", 1))
	createFlavor(t, q)

	q.WaitWorkloadOf(t, harness.JobSetKey(ns, "second"), "waiting for quota", quotaWaiting)
	q.WaitClusterQueue(t, clusterQueue, 1, 1, 8)
	neverOver(t, cp, ns, 8, 3*time.Second)
	cp.ExpectNoneBound(t, ns, "second", time.Second)
}

// A JobSet naming a LocalQueue runs as a plain gang while the queue API is
// not served. Once the API and the queue objects appear, the running
// JobSet fills the quota: nothing else of the queue is admitted on top.
func TestQueueAPIArrivingLateCountsRunningWorkloads(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 4)
	ns := cp.CreateNamespace(t, "lateapi")
	harness.StartScheduler(t, cp, schedulerConfig(t, nil))
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)
	jobsets.Create(t, queued(ns, "running", 1))
	cp.WaitWhollyPlaced(t, ns, "running", 2)

	// The queue API arrives: its CRDs, then its objects.
	cp.InstallQueueCRDs(t)
	q := cp.Queues()
	createQueues(t, q, ns, 8)
	// The status says what runs once the scheduler serves the queues.
	q.WaitClusterQueue(t, clusterQueue, 0, 1, 8)

	jobsets.Create(t, queued(ns, "second", 1))
	q.WaitWorkloadOf(t, harness.JobSetKey(ns, "second"), "waiting for quota", quotaWaiting)
	neverOver(t, cp, ns, 8, 3*time.Second)
	cp.ExpectNoneBound(t, ns, "second", time.Second)
}

// One member of a queued gang can never pass a scheduling cycle: its
// PersistentVolumeClaim does not exist, so an in-tree PreFilter rejects it
// before ours runs. Its siblings must not keep the gang's quota: a
// workload that fits is admitted, nothing of the stuck gang binds, and
// its Workload says which pod it waits for.
func TestGangWithAMemberThatCannotBeScheduledGivesItsQuotaBack(t *testing.T) {
	c := newCluster(t, "stuck", 4, 16)
	cp, q, ns, jobsets := c.cp, c.q, c.ns, c.jobsets
	harness.StartScheduler(t, cp, schedulerConfig(t, map[string]any{"permitTimeoutSeconds": 20}))

	stuck := jobsets.CreateObject(t, queued(ns, "stuck", 2))
	var blocked string
	for _, p := range builders.PodsOf(stuck, 0) {
		if p.Labels[wellknown.JobGlobalIndexLabel] == "1" && p.Labels[wellknown.JobCompletionIndexLabel] == "1" {
			p.Spec.Volumes = append(p.Spec.Volumes, corev1.Volume{Name: "data", VolumeSource: corev1.VolumeSource{
				PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "missing"}}})
			blocked = p.Name
		}
		jobsets.CreatePod(t, p)
	}
	// The stuck gang takes the whole quota first; then a workload that
	// fits arrives.
	cp.WaitForWorkloadEvent(t, ns, "stuck", "Reserved")
	jobsets.Create(t, queued(ns, "fits", 1))

	cp.WaitWhollyPlaced(t, ns, "fits", 2)
	q.WaitClusterQueue(t, clusterQueue, 1, 1, 8)
	// The status writer writes queues before Workload objects in a pass:
	// wait for stuck's own status to say why it waits, not for any
	// earlier one.
	wl := q.WaitWorkloadOf(t, harness.JobSetKey(ns, "stuck"), "waiting for its member, not admitted", func(wl *multislicev1alpha1.Workload) bool {
		return harness.WorkloadCondition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionFalse, "")(wl) &&
			harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, state.ReasonMemberUnschedulable)(wl)
	})
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, multislicev1alpha1.WorkloadQuotaReserved); c == nil || !strings.Contains(c.Message, blocked) {
		t.Errorf("stuck's QuotaReserved condition %+v does not name the pod it waits for (%s)", c, blocked)
	}
	cp.ExpectNoneBound(t, ns, "stuck", 2*time.Second)
	neverOver(t, cp, ns, 16, time.Second)
}

// Deleting a JobSet object first, as kubectl does, leaves its pods running
// through their termination grace period: their quota is used until they
// are gone, and a waiting workload is admitted only then.
func TestQuotaHeldUntilADeletedOwnersPodsAreGone(t *testing.T) {
	c := newCluster(t, "graceful", 4, 8)
	cp, q, ns, jobsets := c.cp, c.q, c.ns, c.jobsets
	harness.StartScheduler(t, cp, schedulerConfig(t, nil))
	kubelet := cp.StartKubelet(t, 6*time.Second)

	jobsets.Create(t, queued(ns, "first", 1))
	cp.WaitWhollyPlaced(t, ns, "first", 2)
	jobsets.Create(t, queued(ns, "second", 1))
	q.WaitWorkloadOf(t, harness.JobSetKey(ns, "second"), "waiting for quota", quotaWaiting)

	// The owner goes first; its pods are deleted with a grace period
	// (the garbage collector's foreground of a JobSet's Jobs).
	jobsets.DeleteObject(t, ns, "first")
	neverOver(t, cp, ns, 8, 2*time.Second)
	if err := cp.Client.CoreV1().Pods(ns).DeleteCollection(t.Context(), metav1.DeleteOptions{},
		metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=first"}); err != nil {
		t.Fatal(err)
	}
	neverOver(t, cp, ns, 8, 4*time.Second)
	kubelet.WaitTerminated(t, "first's pods never finished terminating", harness.OfJobSet(ns, "first", -1), 2, nil)
	cp.WaitWhollyPlaced(t, ns, "second", 2)
	waitChips(t, cp, ns, 8)
}
