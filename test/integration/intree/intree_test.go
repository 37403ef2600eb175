// Package intree_test runs the scheduler against an apiserver that serves
// Kubernetes' own workload-aware scheduling API (scheduling.k8s.io/v1beta1,
// feature gates GenericWorkload and TopologyAwareWorkloadScheduling): pods
// that name a PodGroup in spec.schedulingGroup are gangs in our model.
package intree_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }

// start serves the in-tree API, creates pools v5e pools of two 4-chip
// hosts, and starts the scheduler. The scheduler is the shipped binary in
// a process of its own: the apiserver's feature gates are this test
// process's, and the scheduler runs with GenericWorkload off, as shipped.
func start(t *testing.T, pools int) (*harness.ControlPlane, string) {
	t.Helper()
	cp := harness.StartControlPlane(t, harness.InTreeWorkloads())
	for i := 1; i <= pools; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a"))
	}
	harness.StartReplica(t, cp, "scheduler", harness.ReplicaOptions{Config: harness.SchedulerConfig(t)})
	return cp, cp.CreateNamespace(t, "intree")
}

func createGroup(t *testing.T, cp *harness.ControlPlane, b *builders.InTreePodGroupBuilder) {
	t.Helper()
	pg := b.Obj()
	if _, err := cp.Client.SchedulingV1beta1().PodGroups(pg.Namespace).Create(t.Context(), pg, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create PodGroup %s: %v", pg.Name, err)
	}
}

// member is pod i of group, asking for two of a v5e host's four chips.
func member(ns, group string, i int) *corev1.Pod {
	return builders.Pod(ns, fmt.Sprintf("%s-%d", group, i)).Scheduler(app.Name).TPU("2").
		NodeSelector(wellknown.TPUAcceleratorLabel, "tpu-v5-lite-podslice").InSchedulingGroup(group).Obj()
}

func poolOf(t *testing.T, cp *harness.ControlPlane, ns, pod string) string {
	t.Helper()
	p := cp.WaitForPodBound(t, ns, pod)
	node, err := cp.Client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return node.Labels[wellknown.NodePoolLabel]
}

// exclusive is a gang PodGroup of minCount pods whose topology constraint
// and our annotation both name the node pool: a pool of its own.
func exclusive(ns, name string, minCount int32) *builders.InTreePodGroupBuilder {
	return builders.InTreePodGroup(ns, name, minCount).Topology(wellknown.NodePoolLabel).Exclusive(wellknown.NodePoolLabel)
}

// A gang PodGroup waits for all of its minCount pods, then lands whole in
// one value of its topology constraint's key; with our annotation, a pool
// no other workload shares: a second group goes to the other pool
// although the first one's pool has chips to spare, and a third waits for
// a pool, saying that both are held and by whom, until one is given back.
func TestInTreePodGroupsAreExclusiveGangs(t *testing.T) {
	cp, ns := start(t, 2)
	createGroup(t, cp, exclusive(ns, "infer", 2))
	cp.CreatePod(t, member(ns, "infer", 0))
	cp.ExpectPodStaysUnbound(t, ns, "infer-0", 2*time.Second)
	cp.CreatePod(t, member(ns, "infer", 1))
	pool := poolOf(t, cp, ns, "infer-0")
	cp.CheckBoundInPool(t, ns, pool, "infer-1")

	createGroup(t, cp, exclusive(ns, "solo", 1))
	cp.CreatePod(t, member(ns, "solo", 0))
	if other := poolOf(t, cp, ns, "solo-0"); other == pool || other == "" {
		t.Fatalf("solo-0 in pool %q, want the pool infer does not hold", other)
	}

	createGroup(t, cp, exclusive(ns, "third", 1))
	cp.CreatePod(t, member(ns, "third", 0))
	p := cp.ExpectPodStaysUnbound(t, ns, "third-0", 3*time.Second)
	cond := podScheduled(p)
	if cond == nil || !strings.Contains(cond.Message, "(2 exist, 0 free)") || !strings.Contains(cond.Message, "PodGroup.scheduling.k8s.io "+ns+"/infer") {
		t.Errorf("third-0 waits without saying both pools are held: %+v", cond)
	}
	// The pool comes back when a group ends.
	if err := cp.Client.SchedulingV1beta1().PodGroups(ns).Delete(t.Context(), "solo", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), "solo-0", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	if got := poolOf(t, cp, ns, "third-0"); got == pool {
		t.Errorf("third-0 in pool %s, which infer holds", got)
	}
}

// A topology constraint alone is Kubernetes' rule: every pod of the group
// in one value of the key, a pool other groups share where room allows.
// A one-pod group joins the first group's pool (the tightest that holds
// it); a three-pod group that no longer fits there lands whole in the
// other pool, never split over both.
func TestInTreeTopologyConstraintSharesItsDomain(t *testing.T) {
	cp, ns := start(t, 2)
	shared := func(name string, minCount int32) {
		createGroup(t, cp, builders.InTreePodGroup(ns, name, minCount).Topology(wellknown.NodePoolLabel))
		for i := range int(minCount) {
			cp.CreatePod(t, member(ns, name, i))
		}
	}
	shared("infer", 2)
	pool := poolOf(t, cp, ns, "infer-0")
	cp.CheckBoundInPool(t, ns, pool, "infer-1")
	shared("solo", 1)
	if got := poolOf(t, cp, ns, "solo-0"); got != pool {
		t.Errorf("solo-0 in pool %s, want %s beside infer: a topology constraint does not take the pool whole", got, pool)
	}
	shared("big", 3)
	other := poolOf(t, cp, ns, "big-0")
	if other == pool {
		t.Fatalf("big-0 in pool %s, which has room for one more pod only", pool)
	}
	cp.CheckBoundInPool(t, ns, other, "big-1", "big-2")
}

// A PodGroup with the basic policy is no gang: its pods are scheduled one
// by one, as the default scheduler would.
func TestBasicPodGroupPodsArePlainPods(t *testing.T) {
	cp, ns := start(t, 1)
	createGroup(t, cp, builders.InTreePodGroup(ns, "web", 0).Basic())
	cp.CreatePod(t, member(ns, "web", 0))
	cp.WaitForPodBound(t, ns, "web-0")
}

func podScheduled(p *corev1.Pod) *corev1.PodCondition {
	for i, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

func createComposite(t *testing.T, cp *harness.ControlPlane, b *builders.CompositePodGroupBuilder) {
	t.Helper()
	cpg := b.Obj()
	if _, err := cp.Client.SchedulingV1alpha3().CompositePodGroups(cpg.Namespace).Create(t.Context(), cpg, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create CompositePodGroup %s: %v", cpg.Name, err)
	}
}

// A gang CompositePodGroup is a multislice workload: each child PodGroup
// a slice on a pool of its own (our domain-key annotation on the
// composite), all of them or none. One group of two
// waits for the other; both then land, on two pools. A second composite
// whose two groups find one free pool between them starts neither, and
// starts both once the first composite's pods are gone. The groups of a
// basic composite are gangs on their own.
func TestCompositePodGroupIsAMultisliceGang(t *testing.T) {
	cp, ns := start(t, 3)
	child := func(parent, name string, pods int) {
		createGroup(t, cp, builders.InTreePodGroup(ns, name, int32(pods)).Parent(parent))
		for i := range pods {
			cp.CreatePod(t, member(ns, name, i))
		}
	}
	createComposite(t, cp, builders.CompositePodGroup(ns, "train", 2).Exclusive(wellknown.NodePoolLabel))
	child("train", "a", 2)
	cp.ExpectPodStaysUnbound(t, ns, "a-0", 3*time.Second)
	child("train", "b", 2)
	poolA, poolB := poolOf(t, cp, ns, "a-0"), poolOf(t, cp, ns, "b-0")
	if poolA == poolB || poolA == "" || poolB == "" {
		t.Fatalf("groups a and b in pools %q and %q, want a pool each", poolA, poolB)
	}
	cp.CheckBoundInPool(t, ns, poolA, "a-1")
	cp.CheckBoundInPool(t, ns, poolB, "b-1")

	createComposite(t, cp, builders.CompositePodGroup(ns, "serve", 2).Exclusive(wellknown.NodePoolLabel))
	child("serve", "c", 1)
	child("serve", "d", 1)
	p := cp.ExpectPodStaysUnbound(t, ns, "c-0", 3*time.Second)
	if cond := podScheduled(p); cond == nil || !strings.Contains(cond.Message, "CompositePodGroup.scheduling.k8s.io "+ns+"/train") {
		t.Errorf("c-0 waits without saying train holds the pools: %+v", cond)
	}
	cp.ExpectPodStaysUnbound(t, ns, "d-0", time.Second)
	for _, name := range []string{"a-0", "a-1", "b-0", "b-1"} {
		if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), name, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
			t.Fatal(err)
		}
	}
	if c, d := poolOf(t, cp, ns, "c-0"), poolOf(t, cp, ns, "d-0"); c == d {
		t.Errorf("groups c and d both in pool %s, want a pool each", c)
	}

	createComposite(t, cp, builders.CompositePodGroup(ns, "loose", 2).Basic())
	child("loose", "e", 1)
	poolOf(t, cp, ns, "e-0")
}

// The CompositePodGroup example as written: its two slices run, on two
// pools, one each.
func TestCompositePodGroupExample(t *testing.T) {
	cp, _ := start(t, 2)
	cp.CreateFromFile(t, "manifests/examples/intree-podgroup/multislice.yaml")
	const ns = metav1.NamespaceDefault
	first := poolOf(t, cp, ns, "train-slice-0-0")
	cp.CheckBoundInPool(t, ns, first, "train-slice-0-1")
	second := poolOf(t, cp, ns, "train-slice-1-0")
	cp.CheckBoundInPool(t, ns, second, "train-slice-1-1")
	if first == second {
		t.Fatalf("both slices in pool %s", first)
	}
}

// A composite admitted through a LocalQueue is charged whole, and one
// that does not fit the quota waits whole, none of its groups started,
// until the first one's pods are gone, across a change of leader. The
// second names its queue on its groups only: the gang's queue is the one
// they name.
func TestCompositePodGroupThroughAQueue(t *testing.T) {
	cp := harness.StartControlPlane(t, harness.InTreeWorkloads())
	cp.InstallQueueCRDs(t)
	// Four pools: the second composite fits beside the first but for
	// its quota.
	for i := 1; i <= 4; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a"))
	}
	q := cp.Queues()
	q.CreateFlavor(t, "v5e", map[string]string{wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice"})
	q.CreateClusterQueue(t, "team", multislicev1alpha1.ClusterQueueSpec{
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(harness.TPUQuota("v5e", 8),
			harness.Quota{Flavor: "v5e", Resource: corev1.ResourceCPU, Nominal: 100, Borrowing: -1, Lending: -1})}})
	first := harness.StartReplica(t, cp, "scheduler", harness.ReplicaOptions{Config: harness.SchedulerConfig(t)})
	ns := cp.CreateNamespace(t, "intree")
	q.CreateLocalQueue(t, ns, "team", "team")
	child := func(parent, name string, labelled bool) {
		b := builders.InTreePodGroup(ns, name, 2).Parent(parent)
		if labelled {
			b.Queue("team")
		}
		createGroup(t, cp, b)
		for i := range 2 {
			cp.CreatePod(t, member(ns, name, i))
		}
	}
	createComposite(t, cp, builders.CompositePodGroup(ns, "first", 2).Exclusive(wellknown.NodePoolLabel).Queue("team"))
	child("first", "a", false)
	child("first", "b", false)
	poolOf(t, cp, ns, "a-0")
	poolOf(t, cp, ns, "b-1")
	q.WaitClusterQueue(t, "team", 0, 1, 8)

	createComposite(t, cp, builders.CompositePodGroup(ns, "second", 2).Exclusive(wellknown.NodePoolLabel))
	child("second", "c", true)
	child("second", "d", true)
	cp.ExpectPodStaysUnbound(t, ns, "c-0", 3*time.Second)
	q.WaitClusterQueue(t, "team", 1, 1, 8)
	// A new leader rebuilds the charge from the running composite's pods
	// (followed to it through their groups) and keeps the second waiting.
	first.Stop()
	harness.StartReplica(t, cp, "successor", harness.ReplicaOptions{Config: harness.SchedulerConfig(t)})
	cp.ExpectPodStaysUnbound(t, ns, "d-0", 5*time.Second)
	q.WaitClusterQueue(t, "team", 1, 1, 8)
	for _, g := range []string{"a", "b"} {
		for i := range 2 {
			if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), fmt.Sprintf("%s-%d", g, i), metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, name := range []string{"c-0", "c-1", "d-0", "d-1"} {
		cp.WaitForPodBound(t, ns, name)
	}
	q.WaitClusterQueue(t, "team", 0, 1, 8)
}
