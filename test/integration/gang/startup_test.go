package gang_test

import (
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

// trainerJobSet is the shape of a Kubeflow Trainer runtime: an initializer
// Job of one CPU pod, then workers — 2 Jobs of 2 TPU pods, each Job on a
// pool of its own — created by the JobSet controller only once the
// initializer completed (dependsOn) or is ready (startupPolicy InOrder).
func trainerJobSet(ns, name string, inOrder bool) *jobsetv1alpha2.JobSet {
	js := builders.JobSet(ns, name).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name) }).
		ReplicatedJob("initializer", 1, 1).
		Pod(func(p *builders.PodBuilder) {
			p.TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v5-lite-podslice")
		}).
		ReplicatedJob("workers", 2, 2).Obj()
	workers := &js.Spec.ReplicatedJobs[1]
	workers.Template.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}
	if inOrder {
		js.Spec.StartupPolicy = &jobsetv1alpha2.StartupPolicy{StartupPolicyOrder: jobsetv1alpha2.InOrder}
	} else {
		workers.DependsOn = []jobsetv1alpha2.DependsOn{{Name: "initializer", Status: jobsetv1alpha2.DependencyComplete}}
	}
	return js
}

// A JobSet whose later replicated Jobs are created only after earlier ones
// are complete or ready is admitted in stages: the Jobs that exist form the
// gang, and later ones are planned around what earlier ones hold. Waiting for
// every slice at once would wait forever.
func TestStartupOrderedJobSetIsAdmittedInStages(t *testing.T) {
	for _, order := range []string{"dependsOn", "InOrder"} {
		for _, mode := range modes {
			t.Run(order+"/"+mode.String(), func(t *testing.T) {
				cp := harness.StartControlPlane(t)
				cp.InstallWorkloadCRDs(t)
				v5ePools(t, cp, 3)
				harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
				ns := cp.CreateNamespace(t, "stages")
				jobsets := cp.NewJobSets(t, mode)

				js := jobsets.CreateObject(t, trainerJobSet(ns, "trainer", order == "InOrder"))
				init := builders.PodsOfReplicatedJob(js, 0, "initializer")
				for _, p := range init {
					jobsets.CreatePod(t, p)
				}
				cp.WaitForPodBound(t, ns, init[0].Name)

				if order == "dependsOn" {
					// The initializer completes; only then are the workers created.
					pod, err := cp.Client.CoreV1().Pods(ns).Get(t.Context(), init[0].Name, metav1.GetOptions{})
					if err != nil {
						t.Fatal(err)
					}
					pod.Status.Phase = corev1.PodSucceeded
					if _, err := cp.Client.CoreV1().Pods(ns).UpdateStatus(t.Context(), pod, metav1.UpdateOptions{}); err != nil {
						t.Fatal(err)
					}
				}
				for _, p := range builders.PodsOfReplicatedJob(js, 0, "workers") {
					jobsets.CreatePod(t, p)
				}
				// The initializer's pod is counted too: bound, running or done.
				placed := waitBound(t, cp, ns, "trainer", 5)
				for _, slice := range []string{"1", "2"} {
					if len(placed.PoolsBySlice[slice]) != 1 {
						t.Errorf("worker Job %s spans pools %v", slice, placed.PoolsBySlice[slice])
					}
				}
				if a, b := placed.PoolsBySlice["1"], placed.PoolsBySlice["2"]; len(a) == 1 && len(b) == 1 && keys(a)[0] == keys(b)[0] {
					t.Errorf("both worker Jobs share pool %v", a)
				}
			})
		}
	}
}

// waitBound waits until want pods of the JobSet are bound and returns where.
func waitBound(t *testing.T, cp *harness.ControlPlane, ns, name string, want int) placement {
	t.Helper()
	deadline := time.Now().Add(harness.WaitTimeout)
	for {
		p, err := placementOf(t.Context(), cp, ns, name)
		if err == nil && p.Bound >= want {
			return p
		}
		if time.Now().After(deadline) {
			t.Fatalf("JobSet %s/%s: %d of %d pods bound (%d exist)", ns, name, p.Bound, want, p.Total)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
