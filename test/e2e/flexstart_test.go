package e2e

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/autoprovision"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// seedClass is the name of seed 001's ComputeClass.
const seedClass = "dws-model-inference-class"

// `make demo SCENARIO=flex-start-recycling`: seed 001's class (its short
// variant) with no spot capacity, through the real JobSet controller and
// webhooks, the scheduler and the simulated node auto-provisioning. The
// scenario waits for the JobSet to run on flex-start node pools, for
// their nodes to be recycled and replaced, and for the JobSet to run
// again. The test checks that the workload migrated rather than died with
// its nodes: each slice was moved whole by the scheduler (Migrating), no
// pod of its Jobs counted as failed and the JobSet never restarted; that
// every slice ends whole on the replacements of one node pool; what the
// timeline tells; and that `kubectl multislice pools -o wide` and `why`
// say when the nodes are recycled and end.
func TestFlexStartRecyclingDemo(t *testing.T) {
	s, err := demo.Load(filepath.Join(repoRoot, "manifests", "examples", "flex-start-recycling", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ns := namespace(t)
	s.Namespace = ns
	restoreNodePools(t)
	t.Cleanup(func() { removeClass(t, seedClass) })

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tl, err := timeline.Watch(ctx, cluster.AdminConfig, ns, out)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		deleteJobSet(t, &jobsetv1alpha2.JobSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "flex-inference"}})
	})
	runErr := demo.Run(ctx, cluster, s, tl)
	t.Logf("timeline:\n%s", out.String())
	story := singleSpaced(out.String())
	if runErr != nil {
		t.Fatalf("scenario: %v", runErr)
	}

	js, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(t.Context(), "flex-inference", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods := slicesOnReplacements(t, js, computeclass.FlexStart, true)
	if js.Status.Restarts != 0 {
		t.Errorf("JobSet restarts = %d, want 0: its slices were to migrate, not fail with their recycled nodes", js.Status.Restarts)
	}
	jobs, err := client.BatchV1().Jobs(ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=flex-inference"})
	if err != nil {
		t.Fatal(err)
	}
	for _, j := range jobs.Items {
		if j.Status.Failed != 0 {
			t.Errorf("Job %s counted %d failed pods, want 0: evicted pods (DisruptionTarget) are ignored by its podFailurePolicy", j.Name, j.Status.Failed)
		}
	}
	if len(jobs.Items) != 2 {
		t.Errorf("%d Jobs, want the JobSet's 2 (of its first and only attempt)", len(jobs.Items))
	}

	// The scheduler moved each slice whole, and said so on the JobSet.
	events, err := client.CoreV1().Events(ns).List(t.Context(), metav1.ListOptions{FieldSelector: "involvedObject.kind=JobSet,involvedObject.name=flex-inference,reason=" + controllers.ReasonMigrating})
	if err != nil {
		t.Fatal(err)
	}
	moved := map[string]bool{}
	for _, e := range events.Items {
		for _, slice := range []string{"flex-inference-slice-0", "flex-inference-slice-1"} {
			if strings.Contains(e.Message, "("+slice+")") && strings.Contains(e.Message, "moves whole") {
				moved[slice] = true
			}
		}
	}
	if len(moved) != 2 {
		t.Errorf("Migrating events on the JobSet tell the moves of %v, want both slices", moved)
	}

	// Each node the slices run on replaced one whose life the events on
	// it tell: created, recycling started, cordoned, removed. Events of
	// nodes go to namespace default, which the timeline of this test's
	// namespace does not watch.
	for _, p := range pods {
		node, err := client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		old := node.Annotations[autoprovision.ReplacesAnnotation]
		events, err := client.CoreV1().Events(metav1.NamespaceDefault).List(t.Context(), metav1.ListOptions{FieldSelector: "involvedObject.kind=Node,involvedObject.name=" + old})
		if err != nil {
			t.Fatal(err)
		}
		var reasons []string
		for _, e := range events.Items {
			reasons = append(reasons, e.Reason)
		}
		for _, want := range []string{autoprovision.EventCreated, autoprovision.EventRecycling, autoprovision.EventCordoned, autoprovision.EventRemoved} {
			if !slices.Contains(reasons, want) {
				t.Errorf("node %s, which %s replaced, has events %v: no %s", old, node.Name, reasons, want)
			}
		}
	}

	// The story: scale-up through flex-start, the JobSet running, each
	// slice moved by the scheduler, the JobSet running again, never
	// restarted and no pod failed.
	inOrder(t, story,
		"pod triggered scale-up: ComputeClass "+seedClass+" priority 1 (flex-start g2-standard-24)",
		"flex-inference all 4 pods running",
		"flex-inference moves off recycled nodes: slice",
		"flex-inference all 4 pods running")
	for _, never := range []string{"restarted by the JobSet controller", "pod failed"} {
		if strings.Contains(story, never) {
			t.Errorf("the timeline tells %q: the workload was to migrate, not fail", never)
		}
	}

	// kubectl multislice says when the replacements are recycled and end.
	bin := kubectlPlugin(t)
	var listed cli.PoolsOutput
	multisliceJSON(t, bin, &listed, "pools")
	now := time.Now()
	for _, p := range pods {
		pool := poolOfNode(t, p.Spec.NodeName)
		i := slices.IndexFunc(listed.Pools, func(lp cli.Pool) bool { return lp.Name == pool })
		if i < 0 {
			t.Fatalf("pools lists no %s", pool)
		}
		lp := listed.Pools[i]
		if lp.Recycles.IsZero() || lp.Ends.IsZero() || !lp.Recycles.Before(lp.Ends) || lp.Ends.After(now.Add(6*time.Minute)) {
			t.Errorf("pool %s: recycles %v, ends %v; want both set, within the 5 minutes its class gives its nodes", pool, lp.Recycles, lp.Ends)
		}
	}
	wide := multislice(t, bin, 0, "pools", "-o", "wide")
	if !lineWith(wide, "RECYCLES", "ENDS", "PROBLEMS") || !lineWith(wide, poolOfNode(t, pods[0].Spec.NodeName), "in ") {
		t.Errorf("pools -o wide does not say when the pools are recycled and end:\n%s", wide)
	}
	why := multislice(t, bin, 0, "why", "jobset/flex-inference", "-n", ns)
	if !strings.Contains(why, "Node lifetimes") || !lineWith(why, pods[0].Spec.NodeName, "Running") {
		t.Errorf("why does not list its nodes' lifetimes:\n%s", why)
	}
}

// Seed 001's class takes spot capacity first; when the spot capacity is
// taken back (lowered in the node pool file), its spot nodes are
// preempted and its slices fall back to the class's flex-start priority,
// each whole on a node pool of its own. The pods that die with their
// nodes carry DisruptionTarget, which the example's podFailurePolicy
// ignores: their Jobs recreate them (the JobSet need not restart), and the
// scheduler places each slice again whole. The class
// is seed 001's as written under another name, so that node pools other
// tests left of seed 001's class play no part.
func TestFlexStartSpotRevocationFallsBack(t *testing.T) {
	const class = "e2e-spot-fallback"
	ns := namespace(t)
	restoreNodePools(t)
	t.Cleanup(func() { removeClass(t, class) })

	objs := exampleObjects(t, "flex-start/computeclass.yaml")
	objs[0].SetName(class)
	data, err := os.ReadFile(filepath.Join(repoRoot, "manifests", "examples", "flex-start", "jobset.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	data = bytes.ReplaceAll(data, []byte(wellknown.ComputeClassLabel+": "+seedClass), []byte(wellknown.ComputeClassLabel+": "+class))
	jsObjs, err := localcluster.DecodeYAML(data)
	if err != nil {
		t.Fatal(err)
	}
	jsObjs[0].SetNamespace(ns)
	if err := cluster.Apply(t.Context(), append(objs, jsObjs...), ns); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		deleteJobSet(t, &jobsetv1alpha2.JobSet{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "flex-inference"}})
	})
	js, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(t.Context(), "flex-inference", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	waitRunning(t, js, 4, 2*time.Minute)
	slicesOnReplacements(t, js, computeclass.Spot, false)

	// The spot capacity goes, as the file says while the cluster runs.
	original, err := os.ReadFile(poolsFile)
	if err != nil {
		t.Fatal(err)
	}
	const spot = "{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 4}"
	if !strings.Contains(string(original), "spot:") || !strings.Contains(string(original), spot) {
		t.Fatalf("%s has no spot capacity %s", poolsFile, spot)
	}
	revoked := strings.Replace(string(original), spot, "{machineType: g2-standard-24, zone: us-central1-a, maxNodes: 0}", 1)
	writeAtomically(t, poolsFile, revoked)
	t.Cleanup(func() { writeAtomically(t, poolsFile, string(original)) })
	poll(t, "the spot nodes of "+class+" preempted", time.Minute, func(ctx context.Context) (bool, error) {
		nodes, err := classNodes(ctx, class)
		if err != nil {
			return false, nil
		}
		return !slices.ContainsFunc(nodes, func(n corev1.Node) bool { return computeclass.NodeCapacity(&n) == computeclass.Spot }), nil
	})
	poll(t, "every pod of JobSet flex-inference on a flex-start node", 5*time.Minute, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		if err != nil {
			return false, nil
		}
		n := 0
		for _, p := range pods {
			if p.Spec.NodeName == "" || p.Status.Phase != corev1.PodRunning || p.DeletionTimestamp != nil {
				continue
			}
			node, err := client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil || computeclass.NodeCapacity(node) != computeclass.FlexStart {
				return false, nil
			}
			n++
		}
		return n == 4, nil
	})
	slicesOnReplacements(t, js, computeclass.FlexStart, false)
}

// slicesOnReplacements checks that the JobSet's 4 pods run, each Job's
// (slice's) pods on nodes of one node pool of the kind of capacity given,
// no two slices in one pool; with replacements, every node is a
// replacement of a recycled one, and none is cordoned. It returns the
// pods.
func slicesOnReplacements(t *testing.T, js *jobsetv1alpha2.JobSet, kind computeclass.Capacity, replacements bool) []corev1.Pod {
	t.Helper()
	pods := waitRunning(t, js, 4, 3*time.Minute)
	poolOf := map[string]string{} // Job → pool
	owner := map[string]string{}  // pool → Job
	for _, p := range pods {
		node, err := client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		job := p.Labels[wellknown.JobNameLabel]
		pool := node.Labels[wellknown.NodePoolLabel]
		if computeclass.NodeCapacity(node) != kind || node.Spec.Unschedulable {
			t.Errorf("pod %s runs on %s, a %s node (unschedulable %v), want a schedulable %s node", p.Name, node.Name, computeclass.NodeCapacity(node), node.Spec.Unschedulable, kind)
		}
		if replacements && node.Annotations[autoprovision.ReplacesAnnotation] == "" {
			t.Errorf("pod %s runs on %s, which replaces no recycled node", p.Name, node.Name)
		}
		if prev, ok := poolOf[job]; ok && prev != pool {
			t.Errorf("slice %s is split over pools %s and %s", job, prev, pool)
		}
		poolOf[job] = pool
		if other, ok := owner[pool]; ok && other != job {
			t.Errorf("pool %s holds slices %s and %s", pool, other, job)
		}
		owner[pool] = job
	}
	if len(poolOf) != 2 {
		t.Errorf("slices on pools %v, want 2 slices", poolOf)
	}
	return pods
}

// restoreNodePools gives the cluster its own node pool file back when the
// test ends, after a scenario changed its pools.
func restoreNodePools(t *testing.T) {
	t.Helper()
	original, err := os.ReadFile(poolsFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := cluster.SetNodePools(context.Background(), original, 90*time.Second); err != nil {
			t.Errorf("restoring the node pools of %s: %v", poolsFile, err)
		}
	})
}

// classNodes lists the nodes created for a ComputeClass.
func classNodes(ctx context.Context, class string) ([]corev1.Node, error) {
	list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: wellknown.ComputeClassLabel + "=" + class})
	if err != nil {
		return nil, err
	}
	sort.Slice(list.Items, func(i, j int) bool { return list.Items[i].Name < list.Items[j].Name })
	return list.Items, nil
}

// removeClass deletes a ComputeClass and the nodes created for it, so
// that the tests after find the cluster as it started.
func removeClass(t *testing.T, class string) {
	ctx := context.Background()
	cs, err := versioned.NewForConfig(cluster.AdminConfig)
	if err != nil {
		t.Error(err)
		return
	}
	if err := cs.CloudV1().ComputeClasses().Delete(ctx, class, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete ComputeClass %s: %v", class, err)
	}
	err = wait.PollUntilContextTimeout(ctx, time.Second, time.Minute, true, func(ctx context.Context) (bool, error) {
		nodes, err := classNodes(ctx, class)
		if err != nil {
			return false, nil
		}
		for _, n := range nodes {
			if err := client.CoreV1().Nodes().Delete(ctx, n.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return false, nil
			}
		}
		return len(nodes) == 0, nil
	})
	if err != nil {
		t.Errorf("nodes of ComputeClass %s not gone: %v", class, err)
	}
}
