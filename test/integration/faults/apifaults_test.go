package faults_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// apiFaultsDuration is how long the API fails under load.
const apiFaultsDuration = 75 * time.Second

// For over a minute, with gangs, queues and preemptions active, a tenth of
// the scheduler's binds, pod deletions, pod status writes and Workload
// writes fail or lose their responses (the write happened; the scheduler
// is told it did not). Once the API is sound again and the scheduler has
// settled: every gang is whole or wholly pending, each ClusterQueue's
// status counts exactly what its bound pods use, no pod the scheduler
// began to evict still runs, and the periodic reconcile found no drift.
func TestAPIFaultsLeaveEveryGangWholeOrPending(t *testing.T) {
	c := newCluster(t, "apifaults", 6, 24)
	cp, q, ns, jobsets := c.cp, c.q, c.ns, c.jobsets
	cp.CreateFromFile(t, "manifests/examples/priorityclasses.yaml")
	fp := cp.StartFaultProxy(t)
	config := schedulerConfig(t, map[string]any{"permitTimeoutSeconds": 15, "followerTimeoutSeconds": 15})
	harness.StartSchedulerWithKubeconfig(t, fp.Kubeconfig(t, "scheduler"), config)
	cp.StartKubelet(t, 0)
	driftBefore := harness.MetricValue(t, "multislice_quota_drift_total", nil)

	// Ensure: pod deletions are few (a dozen in a run), and each kind of
	// request must meet both kinds of fault.
	fp.SetRules(
		harness.FaultRule{Name: "binds", Match: harness.Binds(), Fail: 0.05, Drop: 0.05, Ensure: true},
		harness.FaultRule{Name: "deletes", Match: harness.PodDeletes(), Fail: 0.05, Drop: 0.05, Ensure: true},
		harness.FaultRule{Name: "status", Match: harness.PodStatusPatches(), Fail: 0.05, Drop: 0.05, Ensure: true},
		harness.FaultRule{Name: "workloads", Match: harness.WorkloadWrites(), Fail: 0.05, Drop: 0.05, Ensure: true},
	)
	// Pressure however the random part goes: low-priority gangs outside
	// any queue hold every pool before the first high-priority one comes,
	// which must preempt one of them. Left to chance, a run whose early
	// high-priority gangs take the pools first may evict nothing and
	// leave pod deletions untried.
	var alive []string
	for i := range 3 {
		name := fmt.Sprintf("fill-%d", i)
		js := queued(ns, name, 2)
		delete(js.Annotations, wellknown.QueueNameLabel)
		js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.PriorityClassName = "low-priority-job"
		jobsets.Create(t, js)
		alive = append(alive, name)
	}
	for _, name := range alive {
		waitBound(t, cp, ns, name, 4)
	}
	seed := uint64(time.Now().UnixNano())
	t.Logf("workload seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	created := 0
	queuedSets := map[string]bool{}
	deadline := time.Now().Add(apiFaultsDuration)
	for time.Now().Before(deadline) {
		name := fmt.Sprintf("js-%03d", created)
		js := queued(ns, name, int32(1+rng.IntN(2)))
		if rng.IntN(3) == 0 {
			delete(js.Annotations, wellknown.QueueNameLabel)
		} else {
			queuedSets[name] = true
		}
		prio := "low-priority-job"
		if created == 0 || rng.IntN(3) == 0 {
			prio = "high-priority-job"
		}
		js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.PriorityClassName = prio
		jobsets.Create(t, js)
		created++
		alive = append(alive, name)
		if len(alive) > 4 && rng.IntN(2) == 0 {
			i := rng.IntN(len(alive) - 1)
			jobsets.Delete(t, ns, alive[i])
			alive = append(alive[:i], alive[i+1:]...)
		}
		time.Sleep(time.Duration(500+rng.IntN(1500)) * time.Millisecond)
	}
	counts := fp.Counts()
	t.Logf("faults injected: %+v", counts)
	fp.SetRules()

	// Settled: gangs whole or wholly pending; queue status as bound.
	var last string
	err := wait.PollUntilContextTimeout(t.Context(), time.Second, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		bad, err := partialGangs(ctx, cp, ns)
		if err != nil {
			return false, nil
		}
		last = bad
		return bad == "", nil
	})
	if err != nil {
		t.Errorf("gangs still partly bound once the API was sound again: %s", last)
	}
	chips, err := queuedChips(t.Context(), cp, ns, queuedSets)
	if err != nil {
		t.Fatal(err)
	}
	if chips > 24 {
		t.Errorf("%d chips bound in ClusterQueue %s, over its quota of 24", chips, clusterQueue)
	}
	cq := q.WaitClusterQueueUsage(t, clusterQueue, chips)
	t.Logf("ClusterQueue %s: %d admitted, %d pending, %d chips in use", clusterQueue, cq.Status.AdmittedWorkloads, cq.Status.PendingWorkloads, chips)
	if stuck, err := evictedButRunning(t.Context(), cp, ns); err != nil || stuck != "" {
		t.Errorf("pods chosen for eviction still running: %s (%v)", stuck, err)
	}
	time.Sleep(5 * time.Second) // two reconciles
	if got := harness.MetricValue(t, "multislice_quota_drift_total", nil) - driftBefore; got != 0 {
		t.Errorf("the reconcile found %v drifted charges", got)
	}
	for _, name := range []string{"binds", "deletes", "status", "workloads"} {
		if c := counts[name]; c.Seen >= 2 && (c.Failed == 0 || c.Dropped == 0) {
			t.Errorf("%s faults not both injected: %+v", name, c)
		} else if c.Seen == 0 {
			t.Errorf("no %s request was seen: the run exercised nothing of it", name)
		}
	}
}

// partialGangs lists the JobSets of ns whose current pods are some but
// not all bound ("" for none).
func partialGangs(ctx context.Context, cp *harness.ControlPlane, ns string) (string, error) {
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return "", err
	}
	total, bound := map[string]int{}, map[string]int{}
	for _, p := range pods.Items {
		if p.DeletionTimestamp != nil {
			continue
		}
		js := p.Labels[wellknown.JobSetNameLabel]
		total[js]++
		if p.Spec.NodeName != "" {
			bound[js]++
		}
	}
	out := ""
	for js, n := range total {
		if b := bound[js]; b > 0 && b < n {
			out += fmt.Sprintf("%s %d/%d; ", js, b, n)
		}
	}
	return out, nil
}

// queuedChips sums the chips of bound, live pods of ns's queued JobSets.
func queuedChips(ctx context.Context, cp *harness.ControlPlane, ns string, queued map[string]bool) (int64, error) {
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	var chips int64
	for _, p := range pods.Items {
		if p.Spec.NodeName == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed || !queued[p.Labels[wellknown.JobSetNameLabel]] {
			continue
		}
		if q, ok := p.Spec.Containers[0].Resources.Requests[wellknown.ResourceTPU]; ok {
			chips += q.Value()
		}
	}
	return chips, nil
}

// evictedButRunning lists pods of ns marked DisruptionTarget by the
// scheduler that still exist undeleted ("" for none).
func evictedButRunning(ctx context.Context, cp *harness.ControlPlane, ns string) (string, error) {
	var out string
	err := wait.PollUntilContextTimeout(ctx, time.Second, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		out = ""
		for _, p := range pods.Items {
			if c := harness.DisruptionTargetOf(&p); c != nil && p.DeletionTimestamp == nil {
				out += p.Name + " (" + c.Reason + ") "
			}
		}
		return out == "", nil
	})
	if err != nil {
		return out, nil
	}
	return "", nil
}
