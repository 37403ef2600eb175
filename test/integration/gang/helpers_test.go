package gang_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

var modes = []harness.PodCreation{harness.AllAtOnce, harness.Staged}

// v5ePools creates n TPU v5e 2x4 pools of 2 hosts × 4 chips, named pool-1..n.
func v5ePools(t *testing.T, cp *harness.ControlPlane, n int) {
	for i := 1; i <= n; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a"))
	}
}

// multislice is a JobSet of slices × (2 pods × 4 chips) on v5e 2x4 pools, as in the seed scenario.
func multislice(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	return builders.JobSet(ns, name).Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).TPU("4").
				NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v5-lite-podslice").
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		}).
		ReplicatedJob("slice", slices, 2).Obj()
}

// placement is where a JobSet's pods are.
type placement struct {
	total, bound int
	// poolsBySlice maps Job global index to the pools its bound pods use.
	poolsBySlice map[string]map[string]bool
}

func placementOf(ctx context.Context, cp *harness.ControlPlane, ns, name string) (placement, error) {
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		return placement{}, err
	}
	nodes, err := cp.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return placement{}, err
	}
	poolOf := map[string]string{}
	for _, n := range nodes.Items {
		poolOf[n.Name] = n.Labels[wellknown.NodePoolLabel]
	}
	p := placement{poolsBySlice: map[string]map[string]bool{}}
	for _, pod := range pods.Items {
		p.total++
		if pod.Spec.NodeName == "" {
			continue
		}
		p.bound++
		s := pod.Labels[wellknown.JobGlobalIndexLabel]
		if p.poolsBySlice[s] == nil {
			p.poolsBySlice[s] = map[string]bool{}
		}
		p.poolsBySlice[s][poolOf[pod.Spec.NodeName]] = true
	}
	return p, nil
}

// waitWhollyPlaced waits until all want pods of the JobSet are bound, and
// checks each slice sits in one pool and no two slices share a pool.
func waitWhollyPlaced(t *testing.T, cp *harness.ControlPlane, ns, name string, want int) placement {
	t.Helper()
	var p placement
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		var err error
		p, err = placementOf(ctx, cp, ns, name)
		return err == nil && p.bound == want, nil
	})
	if err != nil {
		t.Fatalf("JobSet %s/%s: %d of %d pods bound (%d exist): %v", ns, name, p.bound, want, p.total, err)
	}
	checkExclusive(t, p)
	return p
}

func checkExclusive(t *testing.T, ps ...placement) {
	t.Helper()
	owner := map[string]string{}
	for i, p := range ps {
		for slice, pools := range p.poolsBySlice {
			if len(pools) != 1 {
				t.Errorf("slice %s spans pools %v", slice, pools)
			}
			for pool := range pools {
				id := fmt.Sprintf("workload %d slice %s", i, slice)
				if o, taken := owner[pool]; taken {
					t.Errorf("pool %s shared by %s and %s", pool, o, id)
				}
				owner[pool] = id
			}
		}
	}
}

// expectNoneBound fails if any pod of the JobSet gets bound within d.
func expectNoneBound(t *testing.T, cp *harness.ControlPlane, ns, name string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		p, err := placementOf(t.Context(), cp, ns, name)
		if err != nil {
			t.Fatal(err)
		}
		if p.bound > 0 {
			t.Fatalf("JobSet %s/%s has %d of %d pods bound, want none", ns, name, p.bound, p.total)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitForWorkloadEvent waits for an event about the named JobSet whose
// reason matches and returns its note.
func waitForWorkloadEvent(t *testing.T, cp *harness.ControlPlane, ns, name, reason string) string {
	t.Helper()
	var note string
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		events, err := cp.Client.EventsV1().Events(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		for _, e := range events.Items {
			if e.Regarding.Name == name && e.Regarding.Kind != "Pod" && e.Reason == reason {
				note = e.Note
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no %s event on %s/%s: %v", reason, ns, name, err)
	}
	return note
}
