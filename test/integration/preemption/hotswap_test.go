package preemption_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// The PriorityClasses of manifests/examples/priorityclasses.yaml, the ones
// seed 000's Hotswap example uses.
const (
	priorityClasses = "manifests/examples/priorityclasses.yaml"
	lowPriority     = "low-priority-job"  // 1000000
	highPriority    = "high-priority-job" // 2000000
)

// terminationDelay is how long the emulated kubelet keeps a gracefully
// deleted pod Terminating: long enough that the preemptor has to wait for
// its victims' pods while they still hold their nodes.
const terminationDelay = time.Second

// v6ePools creates n TPU v6e 4x4 pools of 4 hosts × 4 chips, named v6e-1..n.
func v6ePools(t *testing.T, cp *harness.ControlPlane, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("v6e-%d", i)).Nodes(4).
			TPU("tpu-v6e-slice", "4x4", 4).Zone("us-east5-b"))
	}
}

// trillium is seed 000's JobSet (manifests/examples/hotswap-v6e): 2 slices
// of 4 pods × 4 chips on v6e 4x4 pools, one pool each, restarted whole on
// any failure.
func trillium(ns, name, priorityClass string) *jobsetv1alpha2.JobSet {
	js := builders.JobSet(ns, name).Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).TPU("4").PriorityClass(priorityClass).
				NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice").
				NodeSelector(wellknown.TPUTopologyLabel, "4x4")
		}).
		ReplicatedJob("slice", 2, 4).Obj()
	return harness.BlockingRecreate(js, 10)
}

// trilliumPods is how many pods a trillium JobSet has.
const trilliumPods = 8

// outage is a way a node pool becomes unusable, and comes back.
type outage struct {
	name          string
	fail, recover func(t *testing.T, cp *harness.ControlPlane, pool string)
}

var (
	// notReady: the hosts stop reporting and the node lifecycle
	// controller marks them NotReady, as for seed 000's broken slice.
	notReady = outage{"NotReady",
		func(t *testing.T, cp *harness.ControlPlane, pool string) { cp.FailNodePool(t, pool) },
		func(t *testing.T, cp *harness.ControlPlane, pool string) { cp.RecoverNodePool(t, pool) }}
	// cordoned: an operator drains the pool for repair.
	cordoned = outage{"cordoned",
		func(t *testing.T, cp *harness.ControlPlane, pool string) { cp.SetNodePoolUnschedulable(t, pool, true) },
		func(t *testing.T, cp *harness.ControlPlane, pool string) { cp.SetNodePoolUnschedulable(t, pool, false) }}
)

// hotswapEnv is a control plane with four v6e pools, seed 000's
// PriorityClasses, the scheduler and the emulated kubelet.
type hotswapEnv struct {
	cp      *harness.ControlPlane
	kubelet *harness.Kubelet
	jobsets *harness.JobSets
	ns      string
}

func startHotswap(t *testing.T, mode harness.PodCreation) *hotswapEnv {
	t.Helper()
	return startHotswapPools(t, mode, 4)
}

// startHotswapPools is startHotswap with pools v6e pools.
func startHotswapPools(t *testing.T, mode harness.PodCreation, pools int) *hotswapEnv {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.CreateFromFile(t, priorityClasses)
	v6ePools(t, cp, pools)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	return &hotswapEnv{
		cp:      cp,
		kubelet: cp.StartKubelet(t, terminationDelay),
		jobsets: cp.NewJobSets(t, mode),
		ns:      cp.CreateNamespace(t, "hotswap"),
	}
}

// explain describes both JobSets for a failure message.
func (e *hotswapEnv) explain(names ...string) func(context.Context) string {
	return func(ctx context.Context) string {
		var parts []string
		for _, n := range names {
			parts = append(parts, e.cp.DescribeJobSet(ctx, e.ns, n))
		}
		return strings.Join(parts, "\n")
	}
}

// Seed 000 (Hotswap): a low- and a high-priority 2-slice JobSet fill the
// four v6e pools. A pool of the high-priority one fails and JobSet restarts
// it; the scheduler evicts the low-priority JobSet whole to place it on
// healthy pools while the failed one is down. The restarted low-priority
// JobSet then waits, whole, until the pool is back.
func TestHotswapSeed000(t *testing.T) {
	for _, tc := range []struct {
		mode   harness.PodCreation
		outage outage
	}{
		{harness.AllAtOnce, notReady},
		{harness.Staged, notReady},
		{harness.AllAtOnce, cordoned},
	} {
		t.Run(tc.mode.String()+"/"+tc.outage.name, func(t *testing.T) { hotswap(t, tc.mode, tc.outage) })
	}
}

func hotswap(t *testing.T, mode harness.PodCreation, out outage) {
	e := startHotswap(t, mode)
	cp, ns := e.cp, e.ns

	e.jobsets.CreateAll(t, trillium(ns, "low", lowPriority))
	low := cp.WaitWhollyPlaced(t, ns, "low", trilliumPods)
	e.jobsets.CreateAll(t, trillium(ns, "high", highPriority))
	high := cp.WaitWhollyPlaced(t, ns, "high", trilliumPods)
	harness.CheckExclusive(t, low, high)

	// The pool of high's slice 0 breaks; JobSet sees the Job fail and
	// restarts the whole JobSet.
	failed := poolOfSlice(t, high, "0")
	t.Logf("failing pool %s (%s) under high; low runs on %v", failed, out.name, low.Pools())
	out.fail(t, cp, failed)
	failedAt := time.Now()
	_, attempt := e.jobsets.Restart(t, ns, "high")
	if attempt != 1 {
		t.Fatalf("high restarted as attempt %d, want 1", attempt)
	}
	restartedAt := time.Now()

	// Only one healthy pool is free: high needs low's. Every pod of low is
	// evicted, each marked as the scheduler's preemption victim first.
	victims := e.kubelet.WaitTerminated(t,
		fmt.Sprintf("no preemption: high (attempt 1, priority 2000000) needs 2 of the 3 healthy pools, low (priority 1000000) holds 2; the scheduler should evict all %d pods of low", trilliumPods),
		harness.OfJobSet(ns, "low", 0), trilliumPods, e.explain("high", "low"))
	checkVictims(t, victims, ns+"/high")
	evictedAt := time.Now()

	high = cp.WaitWhollyPlaced(t, ns, "high", trilliumPods)
	placedAt := time.Now()
	t.Logf("pool failure to high wholly bound: %s (restart emulation %s, then evictions %s, then placement %s)",
		placedAt.Sub(failedAt).Round(time.Millisecond), restartedAt.Sub(failedAt).Round(time.Millisecond),
		evictedAt.Sub(restartedAt).Round(time.Millisecond), placedAt.Sub(evictedAt).Round(time.Millisecond))
	if high.Uses(failed) {
		t.Errorf("high (attempt 1) placed on the failed pool %s: %v", failed, high.PoolsBySlice)
	}
	checkPreemptionEvents(t, cp, ns, "low", "high")

	// JobSet sees low's Jobs fail and restarts it: one healthy pool is
	// free, low needs two, so no pod of it may bind while the pool is down.
	e.jobsets.Restart(t, ns, "low")
	cp.ExpectNoneBound(t, ns, "low", 5*time.Second)

	out.recover(t, cp, failed)
	low = cp.WaitWhollyPlaced(t, ns, "low", trilliumPods)
	if !low.Uses(failed) {
		t.Errorf("low placed on %v after %s came back; it can only fit there and on the last free pool", low.PoolsBySlice, failed)
	}
	high, err := cp.PlacementOf(t.Context(), ns, "high")
	if err != nil {
		t.Fatal(err)
	}
	if high.Bound != trilliumPods || high.Total != trilliumPods {
		t.Errorf("high has %d of %d pods bound at the end, want all %d", high.Bound, high.Total, trilliumPods)
	}
	harness.CheckExclusive(t, high, low)
	// high's attempt 0 was deleted by its own restart, never evicted.
	e.kubelet.ExpectNoDisruption(t, "high was never a victim", harness.OfJobSet(ns, "high", -1), 0)
}

// Two JobSets of the same priority: after a pool failure the restarted one
// waits while the pool is down (5 s here) rather than evicting the other,
// and runs as soon as the pool is back.
func TestEqualPriorityIsNeverAVictim(t *testing.T) {
	e := startHotswap(t, harness.AllAtOnce)
	cp, ns := e.cp, e.ns

	e.jobsets.CreateAll(t, trillium(ns, "first", lowPriority))
	first := cp.WaitWhollyPlaced(t, ns, "first", trilliumPods)
	e.jobsets.CreateAll(t, trillium(ns, "second", lowPriority))
	second := cp.WaitWhollyPlaced(t, ns, "second", trilliumPods)
	harness.CheckExclusive(t, first, second)

	failed := poolOfSlice(t, second, "0")
	cp.FailNodePool(t, failed)
	e.jobsets.Restart(t, ns, "second")

	// The restarted JobSet stays wholly pending; the other keeps running,
	// untouched.
	cp.ExpectNoneBound(t, ns, "second", 5*time.Second)
	e.kubelet.ExpectNoDisruption(t, "an equal-priority JobSet was preempted", harness.AnyPod, 0)
	now, err := cp.PlacementOf(t.Context(), ns, "first")
	if err != nil {
		t.Fatal(err)
	}
	if now.Bound != trilliumPods || now.Total != trilliumPods {
		t.Fatalf("first has %d of %d pods bound, want all %d still running", now.Bound, now.Total, trilliumPods)
	}

	// The pool comes back: the waiting JobSet is tried again at once.
	cp.RecoverNodePool(t, failed)
	second = cp.WaitWhollyPlaced(t, ns, "second", trilliumPods)
	harness.CheckExclusive(t, now, second)
	e.kubelet.ExpectNoDisruption(t, "an equal-priority JobSet was preempted", harness.AnyPod, 0)
}

// checkVictims checks that every evicted pod was marked, before its
// deletion, as preempted by the scheduler for preemptor.
func checkVictims(t *testing.T, victims []harness.Termination, preemptor string) {
	t.Helper()
	for _, v := range victims {
		c := harness.DisruptionTargetOf(v.Pod)
		switch {
		case c == nil:
			t.Errorf("victim %s deleted without a %s condition; conditions: %v", v.Pod.Name, corev1.DisruptionTarget, v.Pod.Status.Conditions)
		case c.Reason != corev1.PodReasonPreemptionByScheduler:
			t.Errorf("victim %s: %s reason %q, want %q", v.Pod.Name, corev1.DisruptionTarget, c.Reason, corev1.PodReasonPreemptionByScheduler)
		case !strings.Contains(c.Message, preemptor):
			t.Errorf("victim %s: %s message %q does not name the preemptor %s", v.Pod.Name, corev1.DisruptionTarget, c.Message, preemptor)
		}
	}
}

// checkPreemptionEvents checks the events users read on both JobSets: a
// Warning Preempted on the victim and a Normal Preempting on the preemptor.
func checkPreemptionEvents(t *testing.T, cp *harness.ControlPlane, ns, victim, preemptor string) {
	t.Helper()
	for _, want := range []struct{ jobset, reason, typ string }{
		{victim, "Preempted", corev1.EventTypeWarning},
		{preemptor, "Preempting", corev1.EventTypeNormal},
	} {
		ev := cp.WaitForWorkloadEventObject(t, ns, want.jobset, want.reason)
		if ev.Type != want.typ {
			t.Errorf("%s event on %s is of type %s, want %s", want.reason, want.jobset, ev.Type, want.typ)
		}
		t.Logf("%s %s on %s: %s", ev.Type, ev.Reason, want.jobset, ev.Note)
	}
}

// poolOfSlice is the pool a placed slice uses.
func poolOfSlice(t *testing.T, p harness.Placement, slice string) string {
	t.Helper()
	for pool := range p.PoolsBySlice[slice] {
		return pool
	}
	t.Fatalf("slice %s is not placed: %v", slice, p.PoolsBySlice)
	return ""
}
