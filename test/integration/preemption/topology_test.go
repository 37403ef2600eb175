package preemption_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// gpuHosts creates subblocks × hosts nodes of 8 GPUs in one block, named
// s<i>-h<j>, labelled as GKE labels a GPU fleet; each host is its own
// node pool so that one host can fail.
func gpuHosts(t *testing.T, cp *harness.ControlPlane, subblocks, hosts int) {
	t.Helper()
	for s := range subblocks {
		for h := range hosts {
			name := fmt.Sprintf("s%d-h%d", s, h)
			cp.CreateNode(t, builders.Node(name).GPU("nvidia-h100-80gb", 8).
				Label(corev1.LabelHostname, name).Label(wellknown.NodePoolLabel, name).
				Label(wellknown.GCETopologyBlockLabel, "b0").
				Label(wellknown.GCETopologySubblockLabel, fmt.Sprintf("s%d", s)).Obj())
		}
	}
}

// subblockJobSet is a JobSet of one Job of pods pods × 8 GPUs that
// requires one subblock, restarted whole on any failure.
func subblockJobSet(ns, name, priorityClass string, pods int32) *jobsetv1alpha2.JobSet {
	js := builders.JobSet(ns, name).Unconfined().
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "8").PriorityClass(priorityClass).
				Annotation(wellknown.RequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel)
		}).
		ReplicatedJob("workers", 1, pods).Obj()
	return harness.BlockingRecreate(js, 10)
}

// nodesOf are the nodes the bound pods of the JobSet's attempt run on.
func nodesOf(t *testing.T, cp *harness.ControlPlane, ns, name string) map[string]bool {
	t.Helper()
	pods, err := cp.Client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]bool{}
	for _, p := range pods.Items {
		if p.Spec.NodeName != "" && p.DeletionTimestamp == nil {
			out[p.Spec.NodeName] = true
		}
	}
	return out
}

func subblockOf(nodes map[string]bool) map[string]bool {
	out := map[string]bool{}
	for n := range nodes {
		out[n[:2]] = true
	}
	return out
}

// Hotswap inside a topology: a high-priority gang that requires one
// subblock loses a host. Restarted, it needs two hosts of one subblock:
// its own subblock has one free host beside a low-priority gang of two
// hosts, the other subblock a low-priority gang of four. The scheduler
// evicts the fewest pods — the gang beside it in its own subblock — and
// places it there again; the other gang is never touched.
func TestTopologyHotswapStaysInItsSubblock(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.CreateFromFile(t, priorityClasses)
	gpuHosts(t, cp, 2, 4)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	kubelet := cp.StartKubelet(t, terminationDelay)
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)
	ns := cp.CreateNamespace(t, "tas-hotswap")

	jobsets.CreateAll(t, subblockJobSet(ns, "high", highPriority, 2))
	waitBound(t, cp, ns, "high", 2)
	high := nodesOf(t, cp, ns, "high")
	// The tightest subblock that holds a gang: the same one, for the
	// smaller low-priority gang.
	jobsets.CreateAll(t, subblockJobSet(ns, "beside", lowPriority, 2))
	waitBound(t, cp, ns, "beside", 2)
	jobsets.CreateAll(t, subblockJobSet(ns, "other", lowPriority, 4))
	waitBound(t, cp, ns, "other", 4)
	sub := subblockOf(high)
	if len(sub) != 1 || !subblockOf(nodesOf(t, cp, ns, "beside"))[firstKey(sub)] {
		t.Fatalf("high on %v, beside on %v: want both in one subblock", high, nodesOf(t, cp, ns, "beside"))
	}

	failed := firstKey(high)
	cp.FailNodePool(t, failed)
	if _, attempt := jobsets.Restart(t, ns, "high"); attempt != 1 {
		t.Fatalf("high restarted as attempt %d, want 1", attempt)
	}
	victims := kubelet.WaitTerminated(t, "high (attempt 1) needs 2 hosts of one subblock; evicting beside's 2 pods in its own subblock is the fewest",
		harness.OfJobSet(ns, "beside", 0), 2, func(ctx context.Context) string {
			return cp.DescribeJobSet(ctx, ns, "high") + "\n" + cp.DescribeJobSet(ctx, ns, "beside")
		})
	checkVictims(t, victims, ns+"/high")
	waitBound(t, cp, ns, "high", 2)
	now := nodesOf(t, cp, ns, "high")
	if now[failed] || !subblockOf(now)[firstKey(sub)] || len(subblockOf(now)) != 1 {
		t.Errorf("high (attempt 1) on %v, want 2 healthy hosts of its subblock %v (failed host %s)", now, sub, failed)
	}
	kubelet.ExpectNoDisruption(t, "other, in the other subblock, is never a victim", harness.OfJobSet(ns, "other", -1), 0)
}

// waitBound waits until want pods of the JobSet are bound (each host is
// a pool of its own here, so the pool checks of WaitWhollyPlaced do not
// apply).
func waitBound(t *testing.T, cp *harness.ControlPlane, ns, name string, want int) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		p, err := cp.PlacementOf(ctx, ns, name)
		return err == nil && p.Bound == want && p.Total == want, nil
	}); err != nil {
		t.Fatalf("JobSet %s/%s: %d pods never all bound: %v", ns, name, want, err)
	}
}

func firstKey(m map[string]bool) string {
	for k := range m {
		return k
	}
	return ""
}
