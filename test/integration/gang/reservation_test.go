package gang_test

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// unconfinedGang is a JobSet of one Job of pods × 4 chips with no exclusive
// topology: all or nothing, anywhere.
func unconfinedGang(ns, name string, pods int32) *builders.JobSetBuilder {
	return builders.JobSet(ns, name).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 1, pods)
}

// An unconfined gang is planned whole before any member takes a node: one
// that does not fit takes nothing, so a smaller one that fits runs; it runs
// itself once there is room for all of it.
func TestUnconfinedGangThatDoesNotFitTakesNothing(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 1) // 2 hosts × 4 chips
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "unconfined")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	cp.CreatePod(t, builders.Pod(ns, "other").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, "other")

	jobsets.Create(t, unconfinedGang(ns, "big", 2).Obj())
	note := waitForWorkloadEvent(t, cp, ns, "big", "WaitingForDomains")
	if !strings.Contains(note, "waiting for room for 2 pods") {
		t.Errorf("WaitingForDomains = %q", note)
	}
	jobsets.Create(t, unconfinedGang(ns, "small", 1).Obj())
	waitWhollyPlaced(t, cp, ns, "small", 1)
	expectNoneBound(t, cp, ns, "big", time.Second)

	jobsets.Delete(t, ns, "small")
	if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), "other", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	waitWhollyPlaced(t, cp, ns, "big", 2)
}

// A PodGroup of a CPU launcher and TPU workers is planned from each
// member's own request, whichever member is tried first.
func TestHeterogeneousPodGroupIsPlannedFromEachMember(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 1)
	cp.CreateNodePool(t, builders.NodePool("cpu").Nodes(1).Capacity(corev1.ResourceCPU, "2"))
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "hetero")

	createPodGroup(t, cp, ns, "mpi", 3, nil)
	cp.CreatePod(t, builders.Pod(ns, "launcher").Scheduler(app.Name).Request(corev1.ResourceCPU, "1500m").
		Label(wellknown.PodGroupLabel, "mpi").Obj())
	for _, name := range []string{"worker-0", "worker-1"} {
		cp.CreatePod(t, builders.Pod(ns, name).Scheduler(app.Name).TPU("4").Label(wellknown.PodGroupLabel, "mpi").Obj())
	}
	for _, name := range []string{"launcher", "worker-0", "worker-1"} {
		cp.WaitForPodBound(t, ns, name)
	}
	if pool := poolOf(t, cp, ns, "launcher"); pool != "cpu" {
		t.Errorf("launcher on pool %q, want cpu", pool)
	}
}

// Members with scheduling gates do not count as present: a gang with a
// gated member reserves nothing, and runs once the gate is lifted.
func TestGatedMembersReserveNothing(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 1)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "gated")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	js := jobsets.CreateObject(t, multislice(ns, "gang", 1))
	pods := builders.PodsOf(js, 0)
	pods[1].Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/quota"}}
	for _, p := range pods {
		jobsets.CreatePod(t, p)
	}
	expectNoneBound(t, cp, ns, "gang", 2*time.Second)
	// Nothing is reserved: a plain pod may use the pool meanwhile.
	cp.CreatePod(t, builders.Pod(ns, "plain").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, "plain")
	if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), "plain", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}

	gated, err := cp.Client.CoreV1().Pods(ns).Get(t.Context(), pods[1].Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	gated.Spec.SchedulingGates = nil
	if _, err := cp.Client.CoreV1().Pods(ns).Update(t.Context(), gated, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitWhollyPlaced(t, cp, ns, "gang", 2)
}

// A domain where the slice's pods fail the scheduler's other filters —
// here JobSet's injected anti-affinity against a pod of another Job of the
// same priority — is not chosen again and again until the permit timeout:
// the workload plans elsewhere at once, and says why.
func TestDomainRejectedByOtherFiltersIsAvoided(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 2)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "rejected")
	jobsets := cp.NewJobSets(t, harness.Staged)

	// A running pod of another JobSet's Job, of the same priority, sits on
	// pool-1 without holding it (its JobSet is not exclusive).
	squatter := builders.Pod(ns, "squatter").Label(wellknown.JobKeyLabel, "another-job").
		Label(wellknown.JobSetPriorityLabel, "0").Obj()
	squatter.Spec.NodeName = "pool-1-node-0"
	cp.CreatePod(t, squatter)

	jobsets.Create(t, multislice(ns, "gang", 1))
	p := waitWhollyPlaced(t, cp, ns, "gang", 2)
	if !p.PoolsBySlice["0"]["pool-2"] {
		t.Errorf("gang placed on %v, want pool-2", p.PoolsBySlice["0"])
	}
	note := waitForWorkloadEvent(t, cp, ns, "gang", "DomainRejected")
	if !strings.Contains(note, "gke-nodepool=pool-1") {
		t.Errorf("DomainRejected = %q does not name pool-1", note)
	}
}

// A JobSet deleted and recreated under the same name is another workload:
// pods of the old one still running keep their pool, and the new one's pods
// go elsewhere.
// (All pods at once only: under JobSet's webhook the new leaders' affinity
// to their own job-key — the same for a JobSet of the same name — ties them
// to the old pods' pool until those are gone, as it would on a cluster.)
func TestRecreatedJobSetIsAnotherWorkload(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 2)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "recreate")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	old := jobsets.Create(t, multislice(ns, "same", 1))
	first := waitWhollyPlaced(t, cp, ns, "same", 2)
	oldPool := keys(first.PoolsBySlice["0"])[0]
	// The JobSet object goes; its pods linger (garbage collection is slow).
	if err := jobsetClient(cp).JobsetV1alpha2().JobSets(ns).Delete(t.Context(), "same", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	waitGone(t, cp, ns, "same")

	recreated := jobsets.CreateObject(t, multislice(ns, "same", 1))
	if recreated.UID == old.UID {
		t.Fatal("recreated JobSet kept its UID")
	}
	for _, pod := range builders.PodsOf(recreated, 0) {
		pod.Name += "-new"
		jobsets.CreatePod(t, pod)
	}
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetUIDLabel + "=" + string(recreated.UID)})
		if err != nil {
			return false, nil
		}
		for _, p := range pods.Items {
			if p.Spec.NodeName == "" {
				return false, nil
			}
			if p.Spec.NodeName[:len(oldPool)] == oldPool {
				t.Fatalf("new pod %s placed in the old JobSet's pool %s", p.Name, oldPool)
			}
		}
		return len(pods.Items) == 2, nil
	})
	if err != nil {
		t.Fatalf("recreated JobSet not placed: %v", err)
	}
}

// Plain pods kept out of a reserved domain stay out while the gang's
// leader runs there (the pool is its slice's until its last pod is gone),
// and are tried again as soon as it is, not minutes later.
func TestPlainPodsKeptOutOfAReservationReturnWhenItEnds(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 1)
	config := harness.SchedulerConfigWithArgs(t, map[string]any{"followerTimeoutSeconds": 6})
	harness.StartScheduler(t, cp, config)
	ns := cp.CreateNamespace(t, "reserved")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	// Under JobSet's staged placement the leader binds first and the pool
	// stays reserved for its follower, which here never comes.
	js := jobsets.CreateObject(t, multislice(ns, "gang", 1))
	leader := builders.PodsOf(js, 0)[0]
	builders.InjectExclusiveAffinity(leader)
	cp.CreatePod(t, leader)
	cp.WaitForPodBound(t, ns, leader.Name)

	plain := cp.CreatePod(t, builders.Pod(ns, "plain").Scheduler(app.Name).TPU("4").Obj())
	cond := cp.WaitForPodCondition(t, ns, plain.Name, corev1.PodScheduled, corev1.ConditionFalse)
	if !strings.Contains(cond.Message, "reserved for slice 0 of JobSet") {
		t.Errorf("plain pod unschedulable for another reason: %q", cond.Message)
	}
	// The follower never comes: the reservation ends after 6 s, and the
	// lone leader still holds the pool.
	cp.ExpectPodStaysUnbound(t, ns, plain.Name, 8*time.Second)
	if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), leader.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	cp.WaitForPodBound(t, ns, plain.Name)
	if waited := time.Since(start); waited > 30*time.Second {
		t.Errorf("plain pod bound %s after the pool was free", waited)
	}
}

// A node failing inside a reserved domain ends the reservation at once,
// not when the follower timeout runs out.
func TestNodeFailureEndsTheReservationAtOnce(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v6ePools(t, cp, 1)
	config := harness.SchedulerConfigWithArgs(t, map[string]any{"followerTimeoutSeconds": 600})
	harness.StartScheduler(t, cp, config)
	ns := cp.CreateNamespace(t, "nodefail")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	js := jobsets.CreateObject(t, builders.JobSet(ns, "gang").Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice")
		}).ReplicatedJob("slice", 1, 4).Obj())
	leader := builders.PodsOf(js, 0)[0]
	builders.InjectExclusiveAffinity(leader)
	released := metricValue(t, "multislice_reservation_releases_total", map[string]string{"reason": "node_failure"})
	cp.CreatePod(t, leader)
	bound := cp.WaitForPodBound(t, ns, leader.Name)

	// Another host of the reserved pool fails.
	failed := "v6e-1-node-0"
	if bound.Spec.NodeName == failed {
		failed = "v6e-1-node-1"
	}
	node, err := cp.Client.CoreV1().Nodes().Get(t.Context(), failed, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range node.Status.Conditions {
		if node.Status.Conditions[i].Type == corev1.NodeReady {
			node.Status.Conditions[i].Status = corev1.ConditionFalse
		}
	}
	if _, err := cp.Client.CoreV1().Nodes().UpdateStatus(t.Context(), node, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	// The reservation ends at once.
	err = wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		return metricValue(t, "multislice_reservation_releases_total", map[string]string{"reason": "node_failure"}) > released &&
			metricValue(t, "multislice_active_reservations", nil) == 0, nil
	})
	if err != nil {
		t.Errorf("the reservation outlived its failed node by 10 s")
	}
}

func jobsetClient(cp *harness.ControlPlane) jobsetclient.Interface {
	return jobsetclient.NewForConfigOrDie(cp.Config)
}

// waitGone waits until the JobSet object no longer exists.
func waitGone(t *testing.T, cp *harness.ControlPlane, ns, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		_, err := jobsetClient(cp).JobsetV1alpha2().JobSets(ns).Get(ctx, name, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		t.Fatalf("JobSet %s/%s not deleted: %v", ns, name, err)
	}
}
