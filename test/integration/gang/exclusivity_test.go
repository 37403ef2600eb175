package gang_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// v6ePools creates n TPU v6e 4x4 pools of 4 hosts × 4 chips, named v6e-1..n.
func v6ePools(t *testing.T, cp *harness.ControlPlane, n int) {
	for i := 1; i <= n; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("v6e-%d", i)).Nodes(4).
			TPU("tpu-v6e-slice", "4x4", 4).Zone("us-east5-b"))
	}
}

func createPodGroup(t *testing.T, cp *harness.ControlPlane, ns, name string, minMember int32, annotations map[string]string) {
	t.Helper()
	client := spclient.NewForConfigOrDie(cp.Config)
	_, err := client.SchedulingV1alpha1().PodGroups(ns).Create(t.Context(), &schedv1alpha1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Annotations: annotations},
		Spec:       schedv1alpha1.PodGroupSpec{MinMember: minMember},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

func createPriorityClass(t *testing.T, cp *harness.ControlPlane, name string, value int32) {
	t.Helper()
	_, err := cp.Client.SchedulingV1().PriorityClasses().Create(t.Context(), &schedulingv1.PriorityClass{
		ObjectMeta: metav1.ObjectMeta{Name: name}, Value: value,
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
}

// poolOf returns the pool of the node a pod is bound to.
func poolOf(t *testing.T, cp *harness.ControlPlane, ns, name string) string {
	t.Helper()
	pod := cp.WaitForPodBound(t, ns, name)
	node, err := cp.Client.CoreV1().Nodes().Get(t.Context(), pod.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return node.Labels[wellknown.NodePoolLabel]
}

// A PodGroup confined by our annotation keeps its pool for as long as its
// members run: the exclusivity comes from the workload, whose pods carry no
// annotation of their own, so a JobSet created afterwards goes elsewhere,
// or waits when there is nowhere else.
func TestConfinedPodGroupKeepsItsPoolOnceBound(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			v6ePools(t, cp, 1)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			ns := cp.CreateNamespace(t, "pgpool")
			jobsets := cp.NewJobSets(t, mode)

			createPodGroup(t, cp, ns, "serve", 2, map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel})
			for i := range 2 {
				cp.CreatePod(t, builders.Pod(ns, fmt.Sprintf("serve-%d", i)).Scheduler(app.Name).TPU("4").
					Label(wellknown.PodGroupLabel, "serve").Obj())
			}
			if pool := poolOf(t, cp, ns, "serve-0"); pool != "v6e-1" {
				t.Fatalf("PodGroup member on pool %q", pool)
			}
			poolOf(t, cp, ns, "serve-1")

			// Two hosts of the pool are free, but the pool is the group's.
			js := builders.JobSet(ns, "train").Exclusive(wellknown.NodePoolLabel).
				Pod(func(p *builders.PodBuilder) {
					p.Scheduler(app.Name).TPU("4").NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v6e-slice")
				}).ReplicatedJob("slice", 1, 2).Obj()
			jobsets.Create(t, js)
			expectNoneBound(t, cp, ns, "train", 3*time.Second)

			// A second pool lets the JobSet in, on that pool alone.
			cp.CreateNodePool(t, builders.NodePool("v6e-2").Nodes(4).TPU("tpu-v6e-slice", "4x4", 4).Zone("us-east5-b"))
			p := waitWhollyPlaced(t, cp, ns, "train", 2)
			if !p.PoolsBySlice["0"]["v6e-2"] {
				t.Errorf("JobSet placed on %v, want v6e-2", p.PoolsBySlice["0"])
			}
		})
	}
}

// A plain higher-priority pod never evicts a pod of a running gang (JobSet
// would restart the whole workload for it), while plain pods still preempt
// plain pods as kube-scheduler does.
func TestPlainPodNeverPreemptsAGangMember(t *testing.T) {
	for _, mode := range modes {
		t.Run(mode.String(), func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			v5ePools(t, cp, 1)
			cp.CreateNodePool(t, builders.NodePool("cpu").Nodes(1).Capacity(corev1.ResourceCPU, "1"))
			createPriorityClass(t, cp, "low", 1000)
			createPriorityClass(t, cp, "high", 2000000)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			ns := cp.CreateNamespace(t, "nopreempt")
			jobsets := cp.NewJobSets(t, mode)

			js := builders.JobSet(ns, "gang").Exclusive(wellknown.NodePoolLabel).
				Pod(func(p *builders.PodBuilder) {
					p.Scheduler(app.Name).TPU("4").PriorityClass("low").NodeSelector(wellknown.TPUTopologyLabel, "2x4")
				}).ReplicatedJob("slice", 1, 2).Obj()
			jobsets.Create(t, js)
			waitWhollyPlaced(t, cp, ns, "gang", 2)

			high := cp.CreatePod(t, builders.Pod(ns, "urgent").Scheduler(app.Name).TPU("4").PriorityClass("high").Obj())
			cp.WaitForPodCondition(t, ns, high.Name, corev1.PodScheduled, corev1.ConditionFalse)
			// Its status says what was spared and why, not only "No
			// preemption victims found".
			const spared = "were not preempted: a plain pod never evicts part of a gang"
			var last string
			if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
				p, err := cp.Client.CoreV1().Pods(ns).Get(ctx, high.Name, metav1.GetOptions{})
				if err != nil {
					return false, nil
				}
				for _, c := range p.Status.Conditions {
					if c.Type == corev1.PodScheduled {
						last = c.Message
					}
				}
				return strings.Contains(last, spared), nil
			}); err != nil {
				t.Errorf("the pending pod's PodScheduled message %q does not say %q", last, spared)
			}
			deadline := time.Now().Add(4 * time.Second)
			for time.Now().Before(deadline) {
				pods, err := cp.Client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=gang"})
				if err != nil {
					t.Fatal(err)
				}
				for _, p := range pods.Items {
					if p.DeletionTimestamp != nil {
						t.Fatalf("gang pod %s is being deleted", p.Name)
					}
					for _, c := range p.Status.Conditions {
						if c.Type == corev1.DisruptionTarget {
							t.Fatalf("gang pod %s marked %s: %s", p.Name, c.Type, c.Message)
						}
					}
				}
				if len(pods.Items) != 2 {
					t.Fatalf("gang has %d pods, want 2", len(pods.Items))
				}
				time.Sleep(200 * time.Millisecond)
			}

			// Plain pods still preempt plain pods.
			cp.CreatePod(t, builders.Pod(ns, "filler").Scheduler(app.Name).Request(corev1.ResourceCPU, "900m").PriorityClass("low").
				NodeSelector(wellknown.NodePoolLabel, "cpu").Obj())
			cp.WaitForPodBound(t, ns, "filler")
			cp.CreatePod(t, builders.Pod(ns, "important").Scheduler(app.Name).Request(corev1.ResourceCPU, "900m").PriorityClass("high").
				NodeSelector(wellknown.NodePoolLabel, "cpu").Obj())
			err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
				p, err := cp.Client.CoreV1().Pods(ns).Get(ctx, "filler", metav1.GetOptions{})
				return err != nil || p.DeletionTimestamp != nil, nil
			})
			if err != nil {
				t.Fatalf("the plain low-priority pod was not preempted: %v", err)
			}
		})
	}
}
