package state_test

import (
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// restartFixture: three v5e pools, a ClusterQueue of 16 chips; train (2
// slices, 16 chips, queued) runs on pool-1 and pool-2 and fills it; next
// (1 slice) waits for quota. failed names pools whose nodes fail before
// train restarts.
func restartFixture(t *testing.T, hold time.Duration, failed ...string) (*fixture, []*corev1.Pod) {
	t.Helper()
	f := withQueue(newFixtureWith(t, state.Options{RestartHold: hold}, builders.V5ePools(3)...), 16, quota.BestEffortFIFO)
	running := f.addRunning(queued("train", 2, 0), "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	if got := tpuCharged(f, "train"); got != 16 {
		t.Fatalf("train charged %d chips, want 16", got)
	}
	for _, pool := range failed {
		for _, n := range builders.V5ePool(pool).NotReady().Build() {
			f.addNodes(n)
		}
	}
	return f, running
}

// restart feeds train's owner restarting it: its restart attempt moves on,
// then its old pods go.
func restart(f *fixture, old []*corev1.Pod) *jobsetv1alpha2.JobSet {
	js := queued("train", 2, 0)
	js.Status.Restarts = 1
	f.addJobSet(js)
	for _, p := range old {
		f.deletePod(p)
	}
	return js
}

// heldFor checks whether node is kept from a pod of another workload, and
// says by whom.
func heldFor(f *fixture, node string) (bool, string) {
	other := unit.JobSet("other").ReplicatedJob("slice", 1, 2).Obj()
	pods := f.addGang(other)
	ok, why := nodeAllowed(f.s, pods[0], node, f.free(node))
	return !ok, why
}

// While its owner restarts it, a workload that ran keeps its quota and
// the nodes of its healthy pools: a workload waiting for quota is not
// admitted in the gap, no other workload takes its pools, and its new
// attempt is placed under the charge it kept.
func TestRestartHoldKeepsQuotaAndHealthyPools(t *testing.T) {
	cases := map[string]struct {
		failed   []string
		wantHeld []string
		wantFree []string
		// wantPools are where the new attempt is planned.
		wantPools []string
	}{
		"every pool healthy": {wantHeld: []string{"pool-1-node-0", "pool-2-node-1"}, wantFree: []string{"pool-3-node-0"}, wantPools: []string{"pool-1", "pool-2"}},
		"one pool failed":    {failed: []string{"pool-2"}, wantHeld: []string{"pool-1-node-1"}, wantFree: []string{"pool-3-node-0"}, wantPools: []string{"pool-1", "pool-3"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, old := restartFixture(t, 5*time.Minute, tc.failed...)
			next := f.addGang(queued("next", 1, 1))
			restarted := restart(f, old)

			if got := tpuCharged(f, "train"); got != 16 {
				t.Errorf("train charged %d chips while restarting, want 16 kept", got)
			}
			admits(t, f, next, false, quota.ReasonQuotaExceeded)
			for _, n := range tc.wantHeld {
				if held, why := heldFor(f, n); !held || !strings.Contains(why, "train, which ran here and is restarting") {
					t.Errorf("%s: held %v (%q), want kept for train", n, held, why)
				}
			}
			for _, n := range tc.wantFree {
				if held, why := heldFor(f, n); held {
					t.Errorf("%s kept: %s", n, why)
				}
			}

			// The new attempt is placed under the charge it kept.
			f.addPods(builders.Members(restarted)...)
			r := f.mustPlan(jsKey("train"))
			if r.Charge != nil {
				t.Errorf("the new attempt was charged again: %+v", r.Charge)
			}
			got := slices.Sorted(maps.Values(domains(r)))
			if !slices.Equal(got, tc.wantPools) {
				t.Errorf("the new attempt is planned on %v, want %v", got, tc.wantPools)
			}
			if err := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err != nil {
				t.Fatal(err)
			}
		})
	}
}

// What a restart hold keeps is given back when the workload does not come
// back in time, when its owner finishes, and is never taken by a workload
// being evicted (what it had is its preemptor's) or when holding is off.
func TestRestartHoldEnds(t *testing.T) {
	cases := map[string]struct {
		hold time.Duration
		// before runs before the restart, after once the old pods are gone.
		before, after func(*fixture)
		wantEvent     string
	}{
		"hold off": {hold: 0},
		"expired": {hold: 5 * time.Minute, after: func(f *fixture) {
			f.clock.Step(5*time.Minute + time.Second)
		}, wantEvent: state.ReasonRestartHoldExpired},
		"owner finished": {hold: 5 * time.Minute, after: func(f *fixture) {
			done := queued("train", 2, 0)
			done.Status.Restarts = 1
			done.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetFailed), Status: metav1.ConditionTrue}}
			f.addJobSet(done)
		}},
		"being evicted": {hold: 5 * time.Minute, before: func(f *fixture) {
			f.addJobSet(prioritized("high", 1, 100))
			claim(f, jsKey("high"), 100, []workload.Key{jsKey("train")}, &state.Reservation{})
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f, old := restartFixture(t, tc.hold)
			next := f.addGang(queued("next", 1, 1))
			if tc.before != nil {
				tc.before(f)
			}
			restart(f, old)
			if tc.after != nil {
				tc.after(f)
			}
			acts := f.s.Upkeep().Expire()
			if tc.wantEvent != "" && !hasEvent(acts, tc.wantEvent) {
				t.Errorf("no %s event in %+v", tc.wantEvent, acts.Events)
			}
			if got := tpuCharged(f, "train"); got != 0 {
				t.Errorf("train still charged %d chips", got)
			}
			if held, why := heldFor(f, "pool-1-node-0"); held {
				t.Errorf("pool-1 still kept: %s", why)
			}
			admits(t, f, next, true, "")
		})
	}
}

func hasEvent(acts state.Actions, reason string) bool {
	for _, e := range acts.Events {
		if e.Reason == reason {
			return true
		}
	}
	return false
}

// A restart hold does not shield a workload from priority: a gang of
// higher priority plans into the held pools (as it could have preempted
// the workload while it ran) and its commit takes them; one of the same
// priority does not.
func TestRestartHoldGivesWayToHigherPriority(t *testing.T) {
	f, old := restartFixture(t, 5*time.Minute)
	restart(f, old)
	f.addGang(prioritized("peer", 2, 0))
	if r, fail := f.plan(jsKey("peer")); fail == nil {
		t.Fatalf("a gang of train's priority planned into its held pools: %v", domains(r))
	}
	f.addGang(prioritized("urgent", 3, 100))
	r := f.mustPlan(jsKey("urgent"))
	if got := slices.Sorted(maps.Values(domains(r))); !slices.Equal(got, []string{"pool-1", "pool-2", "pool-3"}) {
		t.Fatalf("urgent planned on %v, want every pool", got)
	}
	if err := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err != nil {
		t.Fatalf("commit into the held pools: %v", err)
	}
	if held, why := heldFor(f, "pool-1-node-0"); !held || strings.Contains(why, "restarting") {
		t.Errorf("pool-1 after urgent's commit: held %v (%q), want reserved for urgent", held, why)
	}
}

// A pool whose nodes are recycled (their lifetime ends; replacements join
// the same pool, the old nodes are cordoned, then removed with the pods
// on them) has not failed: when the owner restarts the workload, the pool
// is kept for it with its replacements, as its other pools are, although
// no pod of the workload is left there, and the new attempt goes back.
func TestRecycledPoolIsKeptThroughTheRestart(t *testing.T) {
	f, old := restartFixture(t, 5*time.Minute)
	recycled := builders.V5ePool("pool-1").Nodes(4).Build()
	f.addNodes(recycled[2:]...)
	for _, n := range recycled[:2] {
		f.s.Feed().SetNodeLifetime(n.Name, topology.NodeLifetime{End: builders.Epoch.Add(time.Hour), Recycle: builders.Epoch})
		cordoned := n.DeepCopy()
		cordoned.Spec.Unschedulable = true
		f.addNodes(cordoned)
	}
	// The old nodes go, and their pods with them; the owner restarts the
	// workload, and its other pods go.
	var rest []*corev1.Pod
	for _, p := range old {
		if strings.HasPrefix(p.Spec.NodeName, "pool-1-") {
			f.deletePod(p)
		} else {
			rest = append(rest, p)
		}
	}
	f.s.Feed().DeleteNode(recycled[0].Name)
	f.s.Feed().DeleteNode(recycled[1].Name)
	js := queued("train", 2, 0)
	js.Status.Restarts = 1
	f.addJobSet(js)
	for _, p := range rest {
		f.deletePod(p)
	}

	for _, n := range []string{"pool-1-node-2", "pool-1-node-3", "pool-2-node-0"} {
		if held, why := heldFor(f, n); !held || !strings.Contains(why, "train, which ran here and is restarting") {
			t.Errorf("%s: held %v (%q), want kept for train", n, held, why)
		}
	}
	f.addPods(builders.Members(js)...)
	r := f.mustPlan(jsKey("train"))
	if got := slices.Sorted(maps.Values(domains(r))); !slices.Equal(got, []string{"pool-1", "pool-2"}) {
		t.Errorf("the new attempt is planned on %v, want its pools pool-1 (replacements) and pool-2", got)
	}
}
