package gang_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Garbage in JobSet labels and annotations gets an event, never a panic,
// and leaves other workloads alone.
func TestMalformedWorkloadsAreReportedAndIsolated(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 2)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "garbage")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	// A pod whose Job index is not a number.
	good := jobsets.CreateObject(t, multislice(ns, "labels", 1))
	pods := builders.PodsOf(good, 0)
	pods[0].Labels[wellknown.JobGlobalIndexLabel] = "zero"
	for _, p := range pods {
		jobsets.CreatePod(t, p)
	}
	cp.WaitForEvent(t, ns, pods[0].Name, "GangBlocked", harness.WaitTimeout)

	// A JobSet whose exclusive topology is no label key.
	jobsets.Create(t, builders.JobSet(ns, "badkey").Exclusive("not a key!").
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 1, 2).Obj())
	note := waitForWorkloadEvent(t, cp, ns, "badkey", "InvalidWorkload")
	if !strings.Contains(note, "metadata.annotations[alpha.jobset.sigs.k8s.io/exclusive-topology]") {
		t.Errorf("InvalidWorkload = %q does not name the field", note)
	}

	// A pod naming a Job index the JobSet does not have.
	oob := jobsets.CreateObject(t, multislice(ns, "outofrange", 1))
	stray := builders.PodsOf(oob, 0)[0]
	stray.Name = "stray"
	stray.Labels[wellknown.JobGlobalIndexLabel] = "7"
	jobsets.CreatePod(t, stray)
	cp.WaitForEvent(t, ns, "stray", "GangBlocked", harness.WaitTimeout)

	// A well-formed JobSet next to them is placed.
	jobsets.Create(t, multislice(ns, "fine", 1))
	waitWhollyPlaced(t, cp, ns, "fine", 2)
	expectNoneBound(t, cp, ns, "badkey", time.Second)

	// Fixing the bad label unblocks the pod without a restart.
	fixed, err := cp.Client.CoreV1().Pods(ns).Get(t.Context(), pods[0].Name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fixed.Labels[wellknown.JobGlobalIndexLabel] = "0"
	if _, err := cp.Client.CoreV1().Pods(ns).Update(t.Context(), fixed, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitWhollyPlaced(t, cp, ns, "labels", 2)
}

// A scheduler stopped while a gang waits in Permit leaves nothing bound; a
// new one rebuilds its state from the API and places the gang whole.
func TestRestartWhileWaitingInPermitLeavesNoPartialGang(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 3)
	config := harness.SchedulerConfigWithArgs(t, map[string]any{"permitTimeoutSeconds": 120})
	sched := harness.StartScheduler(t, cp, config)
	ns := cp.CreateNamespace(t, "crash")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	// One pod of slice 1 asks for a node no pool has: its 3 siblings are
	// reserved and wait in Permit for it.
	js := jobsets.CreateObject(t, multislice(ns, "gang", 2))
	pods := builders.PodsOf(js, 0)
	var blocked *corev1.Pod
	for _, p := range pods {
		if p.Labels[wellknown.JobGlobalIndexLabel] == "1" && p.Labels[wellknown.JobCompletionIndexLabel] == "1" {
			// A required affinity to a pod that never exists: the plan
			// cannot see it, the scheduler's affinity filter rejects it.
			p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
				TopologyKey:   corev1.LabelHostname,
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"example.com/missing": "true"}},
			}}}}
			blocked = p
		}
		jobsets.CreatePod(t, p)
	}
	waitForWorkloadEvent(t, cp, ns, "gang", "Reserved")
	cp.WaitForPodCondition(t, ns, blocked.Name, corev1.PodScheduled, corev1.ConditionFalse)
	expectNoneBound(t, cp, ns, "gang", 2*time.Second)

	sched.Stop()
	expectNoneBound(t, cp, ns, "gang", time.Second)

	harness.StartScheduler(t, cp, config)
	// The Job controller replaces the pod with a schedulable one.
	if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), blocked.Name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	blocked.Spec.Affinity = nil
	blocked.Name += "-retry"
	jobsets.CreatePod(t, blocked)
	waitWhollyPlaced(t, cp, ns, "gang", 4)
}

// A scheduler that died mid-binding left one slice bound: the next one keeps
// that slice where it is and completes the workload.
func TestRestartAfterPartialBindingCompletesTheGang(t *testing.T) {
	cp, ns, _, js := gangBeforeScheduler(t, "partial")
	for _, p := range builders.PodsOf(js, 0) {
		if p.Labels[wellknown.JobGlobalIndexLabel] != "0" {
			continue
		}
		cp.BindPod(t, ns, p.Name, "pool-2-node-"+p.Labels[wellknown.JobCompletionIndexLabel])
	}

	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	p := waitWhollyPlaced(t, cp, ns, "gang", 4)
	if !p.PoolsBySlice["0"]["pool-2"] {
		t.Errorf("slice 0 moved from pool-2 to %v", p.PoolsBySlice["0"])
	}
}

// A gang whose pods were bound one by one, so that no plan can keep its
// promise (here the first pod of each slice in one pool, as plain pods land
// before the scheduler finds the JobSet API served), is reported
// GangBlocked, naming the split, and its other pods wait instead of
// completing the gang around it. Replacing the split pods places the gang
// whole.
func TestGangSplitByPlainPlacementIsReportedBlocked(t *testing.T) {
	cp, ns, jobsets, js := gangBeforeScheduler(t, "split")
	var split, waiting []*corev1.Pod
	for _, p := range builders.PodsOf(js, 0) {
		if p.Labels[wellknown.JobCompletionIndexLabel] != "0" {
			waiting = append(waiting, p)
			continue
		}
		cp.BindPod(t, ns, p.Name, fmt.Sprintf("pool-1-node-%d", len(split)))
		split = append(split, p)
	}

	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	note := waitForWorkloadEvent(t, cp, ns, "gang", "GangBlocked")
	for _, want := range []string{"cannot be completed as a gang", "have pods bound in the same domain gke-nodepool=pool-1", "restart or delete the workload"} {
		if !strings.Contains(note, want) {
			t.Errorf("GangBlocked = %q does not say %q", note, want)
		}
	}
	time.Sleep(time.Second)
	for _, p := range waiting {
		got, err := cp.Client.CoreV1().Pods(ns).Get(t.Context(), p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Spec.NodeName != "" {
			t.Errorf("pod %s was bound to %s beside the split pods", p.Name, got.Spec.NodeName)
		}
	}

	// The Job controller replaces the split pods.
	for _, p := range split {
		if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), p.Name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
			t.Fatal(err)
		}
		p.Name += "-retry"
		jobsets.CreatePod(t, p)
	}
	checkExclusive(t, waitWhollyPlaced(t, cp, ns, "gang", 4))
}

// gangBeforeScheduler starts a control plane with 3 v5e pools and creates
// JobSet "gang" of 2 slices in namespace name, with no scheduler running:
// its pods can be bound by hand first, as a scheduler that died or plain
// placement left them.
func gangBeforeScheduler(t *testing.T, name string) (*harness.ControlPlane, string, *harness.JobSets, *jobsetv1alpha2.JobSet) {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 3)
	ns := cp.CreateNamespace(t, name)
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)
	return cp, ns, jobsets, jobsets.Create(t, multislice(ns, "gang", 2))
}
