package harness

import (
	"context"
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Placement is where a JobSet's pods are.
type Placement struct {
	Total, Bound int
	// PoolsBySlice maps Job global index to the pools its bound pods use.
	PoolsBySlice map[string]map[string]bool
}

// PlacementOf reads where the named JobSet's pods are bound.
func (cp *ControlPlane) PlacementOf(ctx context.Context, ns, name string) (Placement, error) {
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		return Placement{}, err
	}
	nodes, err := cp.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return Placement{}, err
	}
	poolOf := map[string]string{}
	for _, n := range nodes.Items {
		poolOf[n.Name] = n.Labels[wellknown.NodePoolLabel]
	}
	p := Placement{PoolsBySlice: map[string]map[string]bool{}}
	for _, pod := range pods.Items {
		p.Total++
		if pod.Spec.NodeName == "" {
			continue
		}
		p.Bound++
		s := pod.Labels[wellknown.JobGlobalIndexLabel]
		if p.PoolsBySlice[s] == nil {
			p.PoolsBySlice[s] = map[string]bool{}
		}
		p.PoolsBySlice[s][poolOf[pod.Spec.NodeName]] = true
	}
	return p, nil
}

// WaitWhollyPlaced waits until all want pods of the JobSet are bound, and
// checks each slice sits in one pool and no two slices share a pool.
func (cp *ControlPlane) WaitWhollyPlaced(t testing.TB, ns, name string, want int) Placement {
	t.Helper()
	var p Placement
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := cp.PlacementOf(ctx, ns, name)
		if err != nil {
			return false, nil
		}
		p = got
		return p.Bound == want, nil
	})
	if err != nil {
		t.Fatalf("JobSet %s/%s: %d of %d pods bound (%d exist): %v", ns, name, p.Bound, want, p.Total, err)
	}
	CheckExclusive(t, p)
	return p
}

// CheckExclusive fails unless every slice sits in one pool and no two
// slices share a pool.
func CheckExclusive(t testing.TB, ps ...Placement) {
	t.Helper()
	owner := map[string]string{}
	for i, p := range ps {
		for slice, pools := range p.PoolsBySlice {
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

// ExpectNoneBound fails if any pod of the JobSet gets bound within d.
func (cp *ControlPlane) ExpectNoneBound(t testing.TB, ns, name string, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		p, err := cp.PlacementOf(t.Context(), ns, name)
		if err != nil {
			t.Fatal(err)
		}
		if p.Bound > 0 {
			t.Fatalf("JobSet %s/%s has %d of %d pods bound, want none", ns, name, p.Bound, p.Total)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// WaitForWorkloadEvent waits for an event about the named JobSet whose
// reason matches and returns its note.
func (cp *ControlPlane) WaitForWorkloadEvent(t testing.TB, ns, name, reason string) string {
	t.Helper()
	var note string
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
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
