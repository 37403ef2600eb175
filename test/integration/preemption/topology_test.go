package preemption_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	corev1 "k8s.io/api/core/v1"
	schedulingv1 "k8s.io/api/scheduling/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
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
	cp, kubelet, jobsets, ns := startGPUSubblocks(t, "tas-hotswap")

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

// startGPUSubblocks starts the scheduler over 2 subblocks × 4 GPU hosts
// (gpuHosts) with the example PriorityClasses, the emulated kubelet and
// the JobSet controller, and creates a namespace named after prefix.
func startGPUSubblocks(t *testing.T, prefix string) (*harness.ControlPlane, *harness.Kubelet, *harness.JobSets, string) {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.CreateFromFile(t, priorityClasses)
	gpuHosts(t, cp, 2, 4)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	kubelet := cp.StartKubelet(t, terminationDelay)
	return cp, kubelet, cp.NewJobSets(t, harness.AllAtOnce), cp.CreateNamespace(t, prefix)
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

// Force-fit across a cohort (what Kueue's TAS cannot do, kueue#12478): a
// high-priority gang of team-a needs two hosts of one subblock, and both
// subblocks hold a low-priority gang of team-b on three of their four
// hosts — team-b within its nominal quota, borrowing nothing, and every
// ClusterQueue policy left at Never. team-a's quota fits, so it asks the
// victims for domains only: capacity preemption, which priority decides.
// One team-b gang is evicted whole and team-a lands in its subblock; the
// other is never touched. With a PriorityClass whose preemptionPolicy is
// Never, the same gang waits and evicts no one.
func TestTopologyForceFitAcrossTheCohort(t *testing.T) {
	for _, tc := range []struct {
		name string
		// neverPreempts gives a's PriorityClass preemptionPolicy Never.
		neverPreempts bool
		// forceFit is team-a's spec.preemption.forceFit; bCohort, when
		// set, puts team-b in another cohort.
		forceFit multislicev1alpha1.PreemptionPolicy
		bCohort  string
		// waits is what a's NoPreemptionVictims event names when it
		// may evict no one ("": it preempts).
		waits string
	}{
		{name: "preempts"},
		{name: "preemptionPolicy Never", neverPreempts: true, waits: "preemptionPolicy is Never"},
		{name: "ClusterQueue forceFit Never", forceFit: multislicev1alpha1.PreemptionPolicyNever, waits: "spec.preemption.forceFit: Never"},
		{name: "ClusterQueue forceFit within its cohort, victims outside it", forceFit: multislicev1alpha1.PreemptionPolicyLowerPriorityWithinCohort,
			bCohort: "other-gpus", waits: "outside the cohort of ClusterQueue team-a (spec.preemption.forceFit: LowerPriorityWithinCohort)"},
		{name: "ClusterQueue forceFit within its cohort", forceFit: multislicev1alpha1.PreemptionPolicyLowerPriorityWithinCohort},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cp := harness.StartControlPlane(t)
			cp.InstallWorkloadCRDs(t)
			cp.InstallQueueCRDs(t)
			cp.CreateFromFile(t, priorityClasses)
			highClass := highPriority
			if tc.neverPreempts {
				highClass = "high-never-preempts"
				never := corev1.PreemptNever
				if _, err := cp.Client.SchedulingV1().PriorityClasses().Create(t.Context(), &schedulingv1.PriorityClass{
					ObjectMeta: metav1.ObjectMeta{Name: highClass}, Value: 2000000, PreemptionPolicy: &never}, metav1.CreateOptions{}); err != nil {
					t.Fatal(err)
				}
			}
			cp.CreateFromFile(t, "test/integration/quota/testdata/gpu-topology.yaml")
			q := cp.Queues()
			if _, err := q.Client.MultisliceV1alpha1().ResourceFlavors().Create(t.Context(), &multislicev1alpha1.ResourceFlavor{
				ObjectMeta: metav1.ObjectMeta{Name: "h100"}, Spec: multislicev1alpha1.ResourceFlavorSpec{
					NodeLabels: map[string]string{wellknown.GCETopologyBlockLabel: "b0"}, TopologyName: "gke-default"}}, metav1.CreateOptions{}); err != nil {
				t.Fatal(err)
			}
			gpus := func(n int64) harness.Quota {
				return harness.Quota{Flavor: "h100", Resource: wellknown.ResourceGPU, Nominal: n, Borrowing: -1, Lending: -1}
			}
			for team, nominal := range map[string]int64{"team-a": 32, "team-b": 48} {
				spec := multislicev1alpha1.ClusterQueueSpec{Cohort: "gpus", NamespaceSelector: &metav1.LabelSelector{},
					ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(gpus(nominal))}}
				if team == "team-a" && tc.forceFit != "" {
					spec.Preemption = &multislicev1alpha1.ClusterQueuePreemption{ForceFit: tc.forceFit}
				}
				if team == "team-b" && tc.bCohort != "" {
					spec.Cohort = tc.bCohort
				}
				q.CreateClusterQueue(t, team, spec)
			}
			gpuHosts(t, cp, 2, 4)
			harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
			kubelet := cp.StartKubelet(t, terminationDelay)
			jobsets := cp.NewJobSets(t, harness.AllAtOnce)
			ns := cp.CreateNamespace(t, "force-fit")
			q.CreateLocalQueue(t, ns, "team-a", "team-a")
			q.CreateLocalQueue(t, ns, "team-b", "team-b")
			queued := func(js *jobsetv1alpha2.JobSet, queue string) *jobsetv1alpha2.JobSet {
				js.Annotations = map[string]string{wellknown.QueueNameLabel: queue}
				return js
			}

			// 3 of 4 hosts: the first lands in the tightest subblock, the
			// second, with one host left there, in the other.
			jobsets.CreateAll(t, queued(subblockJobSet(ns, "b1", lowPriority, 3), "team-b"))
			waitBound(t, cp, ns, "b1", 3)
			jobsets.CreateAll(t, queued(subblockJobSet(ns, "b2", lowPriority, 3), "team-b"))
			waitBound(t, cp, ns, "b2", 3)
			if a, b := subblockOf(nodesOf(t, cp, ns, "b1")), subblockOf(nodesOf(t, cp, ns, "b2")); len(a) != 1 || len(b) != 1 || firstKey(a) == firstKey(b) {
				t.Fatalf("b1 in subblocks %v, b2 in %v: want one each", a, b)
			}
			q.WaitResourceInUse(t, "team-b", wellknown.ResourceGPU, 48)

			jobsets.CreateAll(t, queued(subblockJobSet(ns, "a", highClass, 2), "team-a"))
			if tc.waits != "" {
				if note := cp.WaitForWorkloadEvent(t, ns, "a", "NoPreemptionVictims"); !strings.Contains(note, tc.waits) {
					t.Errorf("a's NoPreemptionVictims event says %q, want %q", note, tc.waits)
				}
				cp.ExpectNoneBound(t, ns, "a", 3*time.Second)
				for _, b := range []string{"b1", "b2"} {
					kubelet.ExpectNoDisruption(t, tc.name+": a evicts no one", harness.OfJobSet(ns, b, -1), 0)
				}
				return
			}
			var victim, spared string
			if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
				for _, v := range []string{"b1", "b2"} {
					if len(kubelet.Terminations(harness.OfJobSet(ns, v, 0))) > 0 {
						victim = v
						return true, nil
					}
				}
				return false, nil
			}); err != nil {
				t.Fatalf("no team-b gang evicted for a: %v\n%s", err, cp.DescribeJobSet(t.Context(), ns, "a"))
			}
			spared = map[string]string{"b1": "b2", "b2": "b1"}[victim]
			waitBound(t, cp, ns, "a", 2)
			if got, sparedSub := subblockOf(nodesOf(t, cp, ns, "a")), subblockOf(nodesOf(t, cp, ns, spared)); len(got) != 1 || got[firstKey(sparedSub)] {
				t.Errorf("a in subblocks %v, %s spared in %v: want a whole in the subblock its victim %s left", got, spared, sparedSub, victim)
			}
			kubelet.ExpectNoDisruption(t, "the other team-b gang is never a victim", harness.OfJobSet(ns, spared, -1), 0)
			q.WaitResourceInUse(t, "team-a", wellknown.ResourceGPU, 16)
		})
	}
}
