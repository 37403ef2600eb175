package preemption_test

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// midPriority sits between seed 000's two classes.
const midPriority = "mid-priority-job" // 1500000

// Several pools fail at once. Six v6e pools hold three 2-slice JobSets of
// low, mid and high priority. Whatever failed, the workloads that lost
// pools are back whole, higher priority first, for the fewest victims
// (the lowest-priority workload), and none of them is ever a victim
// itself.
func TestSeveralPoolsFailAtOnce(t *testing.T) {
	cases := map[string]struct {
		// failed picks the pools that fail: slices of the named JobSets.
		failed []struct{ jobset, slice string }
		// restarted are the JobSets JobSet's controller restarts.
		restarted []string
	}{
		"one workload loses both its pools": {
			failed:    []struct{ jobset, slice string }{{"high", "0"}, {"high", "1"}},
			restarted: []string{"high"},
		},
		"two workloads lose one pool each": {
			failed:    []struct{ jobset, slice string }{{"high", "0"}, {"mid", "1"}},
			restarted: []string{"high", "mid"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			e := startHotswapPools(t, harness.AllAtOnce, 6)
			cp, ns := e.cp, e.ns
			if _, err := cp.Client.SchedulingV1().PriorityClasses().Create(t.Context(), &schedulingv1.PriorityClass{
				ObjectMeta: metav1.ObjectMeta{Name: midPriority}, Value: 1500000,
			}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			placed := map[string]harness.Placement{}
			for _, js := range []struct{ name, class string }{{"low", lowPriority}, {"mid", midPriority}, {"high", highPriority}} {
				e.jobsets.CreateAll(t, trillium(ns, js.name, js.class))
				placed[js.name] = cp.WaitWhollyPlaced(t, ns, js.name, trilliumPods)
			}
			harness.CheckExclusive(t, placed["low"], placed["mid"], placed["high"])

			var failed []string
			for _, f := range tc.failed {
				pool := poolOfSlice(t, placed[f.jobset], f.slice)
				failed = append(failed, pool)
				cp.FailNodePool(t, pool)
			}
			t.Logf("failed pools %v; low runs on %v", failed, placed["low"].Pools())
			start := time.Now()
			for _, js := range tc.restarted {
				e.jobsets.Restart(t, ns, js)
			}

			// One victim is enough, the lowest-priority JobSet, whole.
			victims := e.kubelet.WaitTerminated(t,
				fmt.Sprintf("%v lost pools %v; the scheduler should evict the %d pods of low, the one workload whose pools are enough", tc.restarted, failed, trilliumPods),
				harness.OfJobSet(ns, "low", 0), trilliumPods, e.explain("high", "mid", "low"))
			checkVictims(t, victims, ns+"/")
			for _, js := range tc.restarted {
				p := cp.WaitWhollyPlaced(t, ns, js, trilliumPods)
				for _, pool := range failed {
					if p.Uses(pool) {
						t.Errorf("%s placed on the failed pool %s: %v", js, pool, p.PoolsBySlice)
					}
				}
				placed[js] = p
			}
			t.Logf("%d pools failed to %v wholly placed again: %s", len(failed), tc.restarted, time.Since(start).Round(time.Millisecond))
			for _, d := range e.kubelet.Disrupted(harness.AnyPod) {
				if d.Labels[wellknown.JobSetNameLabel] != "low" {
					t.Errorf("pod %s was a victim too; only low's pods had to go", d.Name)
				}
			}
			harness.CheckExclusive(t, placed["mid"], placed["high"])

			// low restarts and waits whole: no two healthy pools are free.
			e.jobsets.Restart(t, ns, "low")
			cp.ExpectNoneBound(t, ns, "low", 3*time.Second)
			for _, pool := range failed {
				cp.RecoverNodePool(t, pool)
			}
			low := cp.WaitWhollyPlaced(t, ns, "low", trilliumPods)
			harness.CheckExclusive(t, low, placed["mid"], placed["high"])
			e.kubelet.ExpectNoDisruption(t, "a workload of higher priority than low was a victim",
				func(p *corev1.Pod) bool { return p.Labels[wellknown.JobSetNameLabel] != "low" }, 0)
		})
	}
}
