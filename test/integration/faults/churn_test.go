package faults_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// churnPhase is how long each phase of node churn lasts.
const churnPhase = 15 * time.Second

// Nodes change under reserved and running slices. Two JobSets run; then,
// for a first phase, new JobSets are reserved but cannot complete (one
// member of each cannot be placed, so its siblings wait in Permit) while
// nodes are cordoned and uncordoned, go NotReady and back, are deleted and
// added again, and free nodes move to other pools — into pools where
// slices run or are reserved. No bind is in flight in that phase, so
// whatever binds is the scheduler's decision, made on the nodes as they
// are. In a second phase the blocked members are replaced, the gangs
// complete, and nodes keep failing and coming back (no more moves). A
// checker reading the API the whole time holds the scheduler to: no pool
// with live pods of two workloads, no slice's pods in two pools. Once the
// nodes are back as they were, every gang is whole or wholly pending.
func TestNodeChurnUnderReservedAndRunningSlices(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	pools := map[string]*builders.NodePoolBuilder{}
	for i := 1; i <= 6; i++ {
		name := fmt.Sprintf("pool-%d", i)
		pools[name] = builders.NodePool(name).Nodes(2).TPU(builders.V5e, "2x4", 4).Zone("us-west4-a")
		cp.CreateNodePool(t, pools[name])
	}
	ns := cp.CreateNamespace(t, "churn")
	harness.StartScheduler(t, cp, schedulerConfig(t, map[string]any{"permitTimeoutSeconds": 60, "followerTimeoutSeconds": 60}))
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)
	for _, name := range []string{"running-a", "running-b"} {
		jobsets.Create(t, unqueued(ns, name, 1))
		cp.WaitWhollyPlaced(t, ns, name, 2)
	}

	seed := uint64(time.Now().UnixNano())
	t.Logf("seed %d", seed)
	rng := rand.New(rand.NewPCG(seed, seed))
	ctx, stop := context.WithCancel(t.Context())
	checker := startInvariantChecker(ctx, cp, ns)

	// Phase 1: gangs reserved, none can complete; nodes change and move.
	var blocked []*corev1.Pod
	changes := map[string]int{}
	for i := range 3 {
		js := jobsets.CreateObject(t, unqueued(ns, fmt.Sprintf("reserved-%d", i), 1))
		pods := builders.PodsOf(js, 0)
		replacement := pods[1].DeepCopy()
		replacement.Name += "-retry"
		blocked = append(blocked, replacement)
		pods[1].Spec.Affinity = unsatisfiable()
		for _, p := range pods {
			jobsets.CreatePod(t, p)
		}
	}
	churn(t, cp, pools, rng, changes, true)
	// Phase 2: the blocked members replaced, the gangs complete while
	// nodes keep failing and coming back.
	for i, p := range blocked {
		old := strings.TrimSuffix(p.Name, "-retry")
		if err := cp.Client.CoreV1().Pods(ns).Delete(t.Context(), old, metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
			t.Fatal(err)
		}
		jobsets.CreatePod(t, blocked[i])
	}
	churn(t, cp, pools, rng, changes, false)
	time.Sleep(5 * time.Second)
	// Checked up to here: putting the moved nodes back moves running pods
	// with them, which is no decision of the scheduler's.
	stop()
	for _, v := range checker.wait() {
		t.Error(v)
	}
	t.Logf("node changes: %v", changes)
	restoreNodes(t, cp, pools)
	time.Sleep(5 * time.Second)
	if bad, err := partialGangs(t.Context(), cp, ns); err != nil || bad != "" {
		t.Errorf("gangs partly bound once the nodes were back: %s (%v)", bad, err)
	}
}

// unsatisfiable is a required affinity to a pod that never exists: the
// plan cannot see it, the scheduler's affinity filter rejects the pod.
func unsatisfiable() *corev1.Affinity {
	return &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey:   corev1.LabelHostname,
		LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"example.com/missing": "true"}},
	}}}}
}

// churn changes nodes for churnPhase; moves says whether free nodes may
// move between pools.
func churn(t *testing.T, cp *harness.ControlPlane, pools map[string]*builders.NodePoolBuilder, rng *rand.Rand, changes map[string]int, moves bool) {
	t.Helper()
	deadline := time.Now().Add(churnPhase)
	for time.Now().Before(deadline) {
		if what := churnNode(t, cp, pools, rng, moves); what != "" {
			changes[what]++
		}
		time.Sleep(time.Duration(100+rng.IntN(300)) * time.Millisecond)
	}
}

// churnNode changes one node: it cordons or uncordons it, fails or
// recovers it, deletes it and adds it again as it was, or (when moves is
// set, and no pod is bound to it) moves it to another pool. It says what
// it did ("" for nothing).
func churnNode(t *testing.T, cp *harness.ControlPlane, pools map[string]*builders.NodePoolBuilder, rng *rand.Rand, moves bool) string {
	t.Helper()
	nodes, err := cp.Client.CoreV1().Nodes().List(t.Context(), metav1.ListOptions{})
	if err != nil || len(nodes.Items) == 0 {
		return ""
	}
	pods, err := cp.Client.CoreV1().Pods("").List(t.Context(), metav1.ListOptions{})
	if err != nil {
		return ""
	}
	used := map[string]bool{}
	for _, p := range pods.Items {
		used[p.Spec.NodeName] = true
	}
	n := nodes.Items[rng.IntN(len(nodes.Items))]
	switch rng.IntN(4) {
	case 0:
		editNode(t, cp, n.Name, func(node *corev1.Node) { node.Spec.Unschedulable = !node.Spec.Unschedulable })
		return "cordon/uncordon"
	case 1:
		if !moves || used[n.Name] {
			return ""
		}
		pool := fmt.Sprintf("pool-%d", 1+rng.IntN(len(pools)))
		editNode(t, cp, n.Name, func(node *corev1.Node) { node.Labels[wellknown.NodePoolLabel] = pool })
		return "move"
	case 2:
		if err := cp.Client.CoreV1().Nodes().Delete(t.Context(), n.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Fatal(err)
		}
		recreateNode(t, cp, pools, n.Name, n.Labels)
		return "delete/add"
	default:
		status := corev1.ConditionFalse
		if c := readyOf(&n); c != corev1.ConditionTrue {
			status = corev1.ConditionTrue
		}
		setReady(t, cp, n.Name, status)
		return "NotReady/Ready"
	}
}

// restoreNodes puts every node back as its pool built it: labels, Ready,
// schedulable; deleted nodes are added again.
func restoreNodes(t *testing.T, cp *harness.ControlPlane, pools map[string]*builders.NodePoolBuilder) {
	t.Helper()
	for _, b := range pools {
		for i, name := range b.NodeNames() {
			want := b.Node(i)
			_, err := cp.Client.CoreV1().Nodes().Get(t.Context(), name, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				recreateNode(t, cp, pools, name, nil)
				continue
			}
			editNode(t, cp, name, func(node *corev1.Node) {
				node.Labels = want.Labels
				node.Spec.Unschedulable = false
			})
			setReady(t, cp, name, corev1.ConditionTrue)
		}
	}
}

// recreateNode adds node name as its pool builds it, with labels when
// given (the ones it had when deleted).
func recreateNode(t *testing.T, cp *harness.ControlPlane, pools map[string]*builders.NodePoolBuilder, name string, labels map[string]string) {
	t.Helper()
	pool := name[:strings.LastIndex(name, "-node-")]
	var i int
	if _, err := fmt.Sscanf(name[len(pool):], "-node-%d", &i); err != nil {
		t.Fatalf("node %s: %v", name, err)
	}
	n := pools[pool].Node(i)
	if labels != nil {
		n.Labels = labels
	}
	status := n.Status
	obj, err := cp.Client.CoreV1().Nodes().Create(t.Context(), n, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("add node %s again: %v", name, err)
	}
	obj.Status = status
	if _, err := cp.Client.CoreV1().Nodes().UpdateStatus(t.Context(), obj, metav1.UpdateOptions{}); err != nil {
		t.Fatalf("node %s status: %v", name, err)
	}
}

func editNode(t *testing.T, cp *harness.ControlPlane, name string, edit func(*corev1.Node)) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n, err := cp.Client.CoreV1().Nodes().Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		edit(n)
		_, err = cp.Client.CoreV1().Nodes().Update(t.Context(), n, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("edit node %s: %v", name, err)
	}
}

func setReady(t *testing.T, cp *harness.ControlPlane, name string, status corev1.ConditionStatus) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n, err := cp.Client.CoreV1().Nodes().Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		now := metav1.Now()
		for i := range n.Status.Conditions {
			if n.Status.Conditions[i].Type == corev1.NodeReady {
				n.Status.Conditions[i].Status = status
				n.Status.Conditions[i].LastTransitionTime = now
				n.Status.Conditions[i].LastHeartbeatTime = now
			}
		}
		_, err = cp.Client.CoreV1().Nodes().UpdateStatus(t.Context(), n, metav1.UpdateOptions{})
		return err
	})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Fatalf("node %s Ready=%s: %v", name, status, err)
	}
}

func readyOf(n *corev1.Node) corev1.ConditionStatus {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status
		}
	}
	return corev1.ConditionUnknown
}

// invariantChecker polls the API and records every violation of pool
// exclusivity it sees: a pool (by the nodes' current labels) with live
// bound pods of two JobSets, or one slice's pods in two pools.
type invariantChecker struct {
	mu         sync.Mutex
	violations map[string]bool
	done       chan struct{}
}

func startInvariantChecker(ctx context.Context, cp *harness.ControlPlane, ns string) *invariantChecker {
	c := &invariantChecker{violations: map[string]bool{}, done: make(chan struct{})}
	go func() {
		defer close(c.done)
		for ctx.Err() == nil {
			c.check(ctx, cp, ns)
			select {
			case <-ctx.Done():
			case <-time.After(100 * time.Millisecond):
			}
		}
	}()
	return c
}

func (c *invariantChecker) check(ctx context.Context, cp *harness.ControlPlane, ns string) {
	nodes, err := cp.Client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return
	}
	poolOf := map[string]string{}
	for _, n := range nodes.Items {
		poolOf[n.Name] = n.Labels[wellknown.NodePoolLabel]
	}
	holders := map[string]map[string]bool{}
	slices := map[string]map[string]bool{}
	for _, p := range pods.Items {
		pool, ok := poolOf[p.Spec.NodeName]
		if p.Spec.NodeName == "" || p.DeletionTimestamp != nil || !ok {
			continue
		}
		js := p.Labels[wellknown.JobSetNameLabel]
		if holders[pool] == nil {
			holders[pool] = map[string]bool{}
		}
		holders[pool][js] = true
		slice := js + "/" + p.Labels[wellknown.JobGlobalIndexLabel] + "@" + p.Labels[wellknown.RestartAttemptLabel]
		if slices[slice] == nil {
			slices[slice] = map[string]bool{}
		}
		slices[slice][pool] = true
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for pool, h := range holders {
		if len(h) > 1 {
			c.violations[fmt.Sprintf("pool %s holds pods of %v", pool, sortedKeys(h))] = true
		}
	}
	for slice, ps := range slices {
		if len(ps) > 1 {
			c.violations[fmt.Sprintf("slice %s spans pools %v", slice, sortedKeys(ps))] = true
		}
	}
}

// wait returns the violations once the checker stopped.
func (c *invariantChecker) wait() []string {
	<-c.done
	c.mu.Lock()
	defer c.mu.Unlock()
	return sortedKeys(c.violations)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
