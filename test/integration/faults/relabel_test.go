package faults_test

import (
	"context"
	"net/http"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// A slice is reserved on pool X and has passed Permit: both its binds are
// in flight, held at the fault proxy. One of X's nodes is relabelled into
// pool Y, where another JobSet runs, and the bind to that node then fails
// (the apiserver refuses it). The node left the reserved domain, so it
// left the reservation: no member of the slice may follow it into Y, which
// would split the slice over X and Y and put two workloads in Y.
//
// When the bind to the other node went through, the slice must stay in X,
// where a member runs, and waits there saying why until X has room again
// (the node comes back). When every bind failed, nothing of the slice
// runs: it plans again, whole, in the free pool Z.
func TestNodeRelabelledUnderABindInFlightLeavesTheReservation(t *testing.T) {
	for _, tc := range []struct {
		name string
		// failAll fails the bind to the node that stays in X as well.
		failAll bool
	}{
		{name: "the bind to the moved node fails"},
		{name: "every bind of the slice fails", failAll: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCluster(t, "relabel-bind", 3, 0)
			cp, ns, jobsets := c.cp, c.ns, c.jobsets
			// The scheduler names, on a member waiting in Permit, the node
			// it is about to bind to: how the test learns where each bind
			// goes (see bindTargets).
			fp := cp.StartFaultProxy(t)
			harness.StartSchedulerWithKubeconfig(t, fp.Kubeconfig(t, "scheduler"), schedulerConfig(t, nil),
				"--feature-gates=NominatedNodeNameForExpectation=true")

			other := jobsets.Create(t, unqueued(ns, "other", 1))
			y := cp.WaitWhollyPlaced(t, ns, other.Name, 2).Pools()[0]

			js := jobsets.CreateObject(t, unqueued(ns, "gang", 1))
			pods := builders.PodsOf(js, 0)
			binds := watchBinds(t, cp, ns, js.Name)
			// Forbidden: the binder does not retry it on the spot; the
			// pod goes back to the queue and is scheduled again.
			fail := 0.0
			if tc.failAll {
				fail = 1
			}
			fp.SetRules(
				harness.FaultRule{Name: "moved", Match: namedBinds(pods[1].Name), Hold: true, Fail: 1, Code: http.StatusForbidden},
				harness.FaultRule{Name: "binds", Match: harness.Binds(), Hold: true, Fail: fail, Code: http.StatusForbidden},
			)
			for _, p := range pods {
				jobsets.CreatePod(t, p)
			}
			fp.WaitHeld(t, "moved", 1)
			fp.WaitHeld(t, "binds", 1)
			targets := bindTargets(t, cp, ns, pods[0].Name, pods[1].Name)
			moved := targets[pods[1].Name]
			x := poolOf(t, cp, moved)
			if x == y {
				t.Fatalf("the slice was reserved in %s, where %s runs", x, other.Name)
			}
			t.Logf("slice reserved in %s, binds in flight to %v; moving %s into %s", x, targets, moved, y)
			// neverOnMoved checks no pod of the slice was bound to the
			// moved node while it was out of X.
			neverOnMoved := func() {
				t.Helper()
				for pod, node := range binds() {
					if node == moved {
						t.Errorf("pod %s of %s was bound to %s, which had left %s for %s", pod, js.Name, moved, x, y)
					}
				}
			}

			relabel(t, cp, moved, y)
			// The move reaches the scheduler before the binds end.
			time.Sleep(time.Second)
			fp.Release("binds")
			fp.Release("moved")
			waitFor(t, "the bind to the moved node to fail", func() bool { return fp.Counts()["moved"].Failed > 0 })
			fp.SetRules() // retries go through

			if tc.failAll {
				waitFor(t, "the other bind to fail", func() bool { return fp.Counts()["binds"].Failed > 0 })
				placed := cp.WaitWhollyPlaced(t, ns, js.Name, 2)
				if placed.Uses(x) || placed.Uses(y) {
					t.Errorf("the slice was placed in %v, want the free pool (not %s, which lost a node, nor %s)", placed.Pools(), x, y)
				}
				harness.CheckExclusive(t, placed, cp.WaitWhollyPlaced(t, ns, other.Name, 2))
				neverOnMoved()
			} else {
				cp.CheckBoundInPool(t, ns, x, pods[0].Name)
				waiting := cp.ExpectPodStaysUnbound(t, ns, pods[1].Name, 5*time.Second)
				cond := podCondition(waiting, corev1.PodScheduled)
				if cond == nil || cond.Status != corev1.ConditionFalse || cond.Message == "" {
					t.Errorf("pod %s waits without saying why: %+v", pods[1].Name, cond)
				} else {
					t.Logf("pod %s waits: %s", pods[1].Name, cond.Message)
				}
				neverOnMoved()
				relabel(t, cp, moved, x)
				if second := cp.WaitForPodBound(t, ns, pods[1].Name); second.Spec.NodeName != moved {
					t.Errorf("the slice completed on %s, want %s (the one node of %s with room)", second.Spec.NodeName, moved, x)
				}
				harness.CheckExclusive(t, cp.WaitWhollyPlaced(t, ns, js.Name, 2), cp.WaitWhollyPlaced(t, ns, other.Name, 2))
			}
		})
	}
}

// bindTargets returns the nodes the named pods' binds (held in flight) go
// to. With NominatedNodeNameForExpectation on, the scheduler names the
// node on a pod that waits in Permit for the rest of its gang (its
// nominated node), so at least one of a slice's pods shows it; the pods of one slice take one node each of a two-node pool,
// so the other's is the pool's other node.
func bindTargets(t *testing.T, cp *harness.ControlPlane, ns, a, b string) map[string]string {
	t.Helper()
	got := map[string]string{}
	waitFor(t, "a nominated node on "+a+" or "+b, func() bool {
		for _, name := range []string{a, b} {
			p, err := cp.Client.CoreV1().Pods(ns).Get(t.Context(), name, metav1.GetOptions{})
			if err == nil && p.Status.NominatedNodeName != "" {
				got[name] = p.Status.NominatedNodeName
			}
		}
		return len(got) > 0
	})
	if len(got) == 2 {
		return got
	}
	for name, node := range got {
		var rest string
		for _, n := range cp.NodePoolNodes(t, poolOf(t, cp, node)) {
			if n.Name != node {
				rest = n.Name
			}
		}
		for _, other := range []string{a, b} {
			if other != name {
				got[other] = rest
			}
		}
	}
	return got
}

// watchBinds records, from now on, the node each pod of the named JobSet
// is bound to, as the apiserver tells its watchers: the function returned
// lists pod → node for every binding seen so far.
func watchBinds(t *testing.T, cp *harness.ControlPlane, ns, jobSet string) func() map[string]string {
	t.Helper()
	ctx, cancel := context.WithCancel(t.Context())
	var mu sync.Mutex
	seen := map[string]string{}
	done := make(chan struct{})
	go func() {
		defer close(done)
		for ctx.Err() == nil {
			w, err := cp.Client.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + jobSet})
			if err != nil {
				select {
				case <-ctx.Done():
				case <-time.After(100 * time.Millisecond):
				}
				continue
			}
			for ev := range w.ResultChan() {
				p, ok := ev.Object.(*corev1.Pod)
				if !ok || ev.Type == watch.Deleted || p.Spec.NodeName == "" {
					continue
				}
				mu.Lock()
				if _, known := seen[p.Name]; !known {
					seen[p.Name] = p.Spec.NodeName
				}
				mu.Unlock()
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done })
	return func() map[string]string {
		mu.Lock()
		defer mu.Unlock()
		out := make(map[string]string, len(seen))
		for k, v := range seen {
			out[k] = v
		}
		return out
	}
}

// podCondition is the pod's condition of type ct (nil: none).
func podCondition(p *corev1.Pod, ct corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == ct {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}
