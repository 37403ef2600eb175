package gang_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// The seed scenario: three v5e 2x4 pools; a 3-slice JobSet runs alone, one
// slice per pool; 1- and 2-slice JobSets wait wholly, then run together.
func TestThreeSliceJobSetRunsAloneThenOneAndTwoRunTogether(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			v5ePools(t, cp, 3)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			ns := cp.CreateNamespace(t, "seed")
			jobsets := cp.NewJobSets(t, mode)

			jobsets.Create(t, multislice(ns, "three", 3))
			three := waitWhollyPlaced(t, cp, ns, "three", 6)
			if len(three.PoolsBySlice) != 3 {
				t.Fatalf("3-slice JobSet uses %d slices' worth of pools: %v", len(three.PoolsBySlice), three.PoolsBySlice)
			}
			if note := waitForWorkloadEvent(t, cp, ns, "three", "Placed"); !strings.Contains(note, "slice 0 (three-slice-0) on gke-nodepool=pool-") {
				t.Errorf("Placed event %q does not say where slice 0 went", note)
			}

			jobsets.Create(t, multislice(ns, "one", 1))
			jobsets.Create(t, multislice(ns, "two", 2))
			expectNoneBound(t, cp, ns, "one", 3*time.Second)
			expectNoneBound(t, cp, ns, "two", 0)
			note := waitForWorkloadEvent(t, cp, ns, "two", "WaitingForDomains")
			if want := "waiting for 2 more domains matching gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4 (3 exist, 0 free)"; note != want {
				t.Errorf("WaitingForDomains = %q, want %q", note, want)
			}

			jobsets.Delete(t, ns, "three")
			one := waitWhollyPlaced(t, cp, ns, "one", 2)
			two := waitWhollyPlaced(t, cp, ns, "two", 4)
			checkExclusive(t, one, two)
		})
	}
}

// Two workloads each needing 2 of 3 free domains, their pods arriving in
// random order: one ends wholly bound, the other wholly pending.
func TestCompetingGangsNeverDeadlockOrSplit(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 3)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	rounds := 6
	if testing.Short() {
		rounds = 2
	}
	seed := time.Now().UnixNano()
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(uint64(seed), 0))
	for round := range rounds {
		mode := modes[round%len(modes)]
		t.Run(fmt.Sprintf("round%d-%s", round, mode), func(t *testing.T) {
			ns := cp.CreateNamespace(t, "race")
			jobsets := cp.NewJobSets(t, mode)
			a := jobsets.CreateObject(t, multislice(ns, "a", 2))
			b := jobsets.CreateObject(t, multislice(ns, "b", 2))
			pods := append(builders.PodsOf(a, 0), builders.PodsOf(b, 0)...)
			rng.Shuffle(len(pods), func(i, j int) { pods[i], pods[j] = pods[j], pods[i] })
			for _, p := range pods {
				jobsets.CreatePod(t, p)
			}

			var pa, pb placement
			err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
				var err1, err2 error
				pa, err1 = placementOf(ctx, cp, ns, "a")
				pb, err2 = placementOf(ctx, cp, ns, "b")
				return err1 == nil && err2 == nil && (pa.Bound == 4 || pb.Bound == 4), nil
			})
			if err != nil {
				t.Fatalf("neither gang placed: a %d/4, b %d/4 bound", pa.Bound, pb.Bound)
			}
			winner, loser := "a", "b"
			if pb.Bound == 4 {
				winner, loser = "b", "a"
			}
			expectNoneBound(t, cp, ns, loser, 2*time.Second)
			checkExclusive(t, pa, pb)
			t.Logf("%s won", winner)

			// The loser runs once the winner is gone.
			jobsets.Delete(t, ns, winner)
			waitWhollyPlaced(t, cp, ns, loser, 4)
			jobsets.Delete(t, ns, loser)
			waitPodsGone(t, cp, ns)
		})
	}
}

// A slice is never split across pools, even when pools have room between them.
func TestSliceIsNeverSplitAndPlainPodsFillTheGaps(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 3)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "split")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	// One host of pool-1 and of pool-2 is busy with plain pods.
	for _, node := range []string{"pool-1-node-0", "pool-2-node-0"} {
		p := cp.CreatePod(t, builders.Pod(ns, "plain-"+node).Scheduler(app.Name).TPU("4").NodeSelector("kubernetes.io/hostname", node).Obj())
		cp.WaitForPodBound(t, ns, p.Name)
	}

	jobsets.Create(t, multislice(ns, "first", 1))
	first := waitWhollyPlaced(t, cp, ns, "first", 2)
	if !first.PoolsBySlice["0"]["pool-3"] {
		t.Errorf("the only whole free pool is pool-3; slice went to %v", first.PoolsBySlice["0"])
	}

	// Two free hosts remain, in different pools: no slice of 2 fits.
	jobsets.Create(t, multislice(ns, "second", 1))
	expectNoneBound(t, cp, ns, "second", 3*time.Second)
	note := waitForWorkloadEvent(t, cp, ns, "second", "WaitingForDomains")
	if !strings.Contains(note, "(3 exist, 0 free)") {
		t.Errorf("WaitingForDomains = %q", note)
	}

	// Plain pods are not held up behind the waiting gang and use the gaps.
	for i := range 2 {
		p := cp.CreatePod(t, builders.Pod(ns, fmt.Sprintf("filler-%d", i)).Scheduler(app.Name).TPU("4").Obj())
		cp.WaitForPodBound(t, ns, p.Name)
	}
	expectNoneBound(t, cp, ns, "second", time.Second)
}

// A gang that no domain can ever hold says so, and is not retried in vain.
func TestImpossibleShapeIsUnresolvable(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 2)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "impossible")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	big := builders.JobSet(ns, "big").Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 1, 3).Obj() // 3 hosts; pools have 2
	jobsets.Create(t, big)
	note := waitForWorkloadEvent(t, cp, ns, "big", "Unplaceable")
	if !strings.Contains(note, "a slice of 3 pods (cpu=100m, google.com/tpu=4 each) fits in no domain matching any node (the largest holds 2 such pods)") {
		t.Errorf("Unplaceable = %q", note)
	}
	many := builders.JobSet(ns, "many").Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 3, 2).Obj() // 3 slices; 2 pools exist
	jobsets.Create(t, many)
	note = waitForWorkloadEvent(t, cp, ns, "many", "Unplaceable")
	if !strings.Contains(note, "3 slices need 3 domains matching any node, only 2 exist") {
		t.Errorf("Unplaceable = %q", note)
	}
	expectNoneBound(t, cp, ns, "big", time.Second)
	expectNoneBound(t, cp, ns, "many", 0)
}

func waitPodsGone(t *testing.T, cp *harness.ControlPlane, ns string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		return err == nil && len(pods.Items) == 0, nil
	})
	if err != nil {
		t.Fatalf("pods of %s not deleted: %v", ns, err)
	}
}
