package faults

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

type nodeState struct {
	ready         bool
	failureTaint  bool
	lifecycleTain bool
}

func node(name, pool string, s nodeState) *corev1.Node {
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
			wellknown.NodePoolLabel: pool, nodepools.ManagedLabel: "true",
		}},
		Spec: corev1.NodeSpec{Taints: []corev1.Taint{{Key: "google.com/tpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}}},
	}
	status := corev1.ConditionFalse
	if s.ready {
		status = corev1.ConditionTrue
	}
	n.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}
	if s.failureTaint {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: PoolFailureTaint, Value: "true", Effect: corev1.TaintEffectNoExecute})
	}
	if s.lifecycleTain {
		n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{Key: corev1.TaintNodeNotReady, Effect: corev1.TaintEffectNoExecute})
	}
	return n
}

var (
	healthy    = nodeState{ready: true}
	failing    = nodeState{ready: true, failureTaint: true}
	failed     = nodeState{failureTaint: true, lifecycleTain: true}
	notReady   = nodeState{lifecycleTain: true}
	readyStill = nodeState{ready: true, lifecycleTain: true}
)

// Each operation moves a node along Healthy → Failing → Failed →
// Recovering → Healthy; the last two steps belong to KWOK and the node
// lifecycle controller, the first and third to Fail and Recover.
func TestTransitions(t *testing.T) {
	tests := []struct {
		name        string
		from        nodeState
		op          func(*corev1.Node) bool
		wantChanged bool
		wantHealth  Health
	}{
		{"fail a healthy node", healthy, failOp, true, Failing},
		{"fail a failing node", failing, failOp, false, Failing},
		{"fail a failed node", failed, failOp, false, Failed},
		{"fail a recovering node", notReady, failOp, true, Failed},
		{"recover a failed node", failed, Recover, true, Recovering},
		{"recover a failing node", failing, Recover, true, Healthy},
		{"recover a healthy node", healthy, Recover, false, Healthy},
		{"recover a node still tainted by node lifecycle", readyStill, Recover, false, Recovering},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			n := node("n", "p", tc.from)
			before := len(n.Spec.Taints)
			if got := tc.op(n); got != tc.wantChanged {
				t.Errorf("changed = %v, want %v", got, tc.wantChanged)
			}
			if got := NodeHealth(n); got != tc.wantHealth {
				t.Errorf("health = %s, want %s", got, tc.wantHealth)
			}
			if n.Spec.Taints[0].Key != "google.com/tpu" {
				t.Errorf("other taints lost: %v", n.Spec.Taints)
			}
			if !tc.wantChanged && len(n.Spec.Taints) != before {
				t.Errorf("taints changed without reporting it: %v", n.Spec.Taints)
			}
		})
	}
}

func failOp(n *corev1.Node) bool { return Fail(n, time.Unix(100, 0)) }

func TestFailSetsNoExecuteTaint(t *testing.T) {
	n := node("n", "p", healthy)
	Fail(n, time.Unix(100, 0))
	last := n.Spec.Taints[len(n.Spec.Taints)-1]
	if last.Key != PoolFailureTaint || last.Effect != corev1.TaintEffectNoExecute || last.TimeAdded == nil || last.TimeAdded.Unix() != 100 {
		t.Errorf("taint = %+v", last)
	}
}

func TestPoolHealth(t *testing.T) {
	tests := []struct {
		name  string
		nodes []nodeState
		want  Health
	}{
		{"all healthy", []nodeState{healthy, healthy}, Healthy},
		{"all failed", []nodeState{failed, failed}, Failed},
		{"one still reports ready", []nodeState{failed, failing}, Failing},
		{"one node recovering", []nodeState{healthy, notReady}, Recovering},
		{"half failed", []nodeState{failed, healthy}, Degraded},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*corev1.Node
			for _, s := range tc.nodes {
				nodes = append(nodes, node("n", "p", s))
			}
			got, err := PoolHealth(nodes)
			if err != nil || got != tc.want {
				t.Errorf("PoolHealth = %s, %v; want %s", got, err, tc.want)
			}
		})
	}
	if _, err := PoolHealth(nil); err == nil {
		t.Error("no error for a pool without nodes")
	}
}

func TestInjector(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset(
		node("a-0", "a", healthy), node("a-1", "a", healthy),
		node("b-0", "b", healthy),
		// Not ours: never touched.
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "x", Labels: map[string]string{wellknown.NodePoolLabel: "a"}}},
	)
	in := &Injector{Client: client, Now: func() time.Time { return time.Unix(5, 0) }}

	if err := in.FailPool(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	// Failing twice is harmless.
	if err := in.FailPool(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	pools, err := in.Pools(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := []PoolStatus{{"a", 2, Failing}, {"b", 1, Healthy}}
	if len(pools) != 2 || pools[0] != want[0] || pools[1] != want[1] {
		t.Errorf("pools = %+v, want %+v", pools, want)
	}
	for _, name := range []string{"a-0", "a-1"} {
		n, _ := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		count := 0
		for _, t := range n.Spec.Taints {
			if t.Key == PoolFailureTaint {
				count++
			}
		}
		if count != 1 {
			t.Errorf("%s has %d failure taints", name, count)
		}
	}
	if x, _ := client.CoreV1().Nodes().Get(ctx, "x", metav1.GetOptions{}); len(x.Spec.Taints) != 0 {
		t.Errorf("foreign node tainted")
	}

	if err := in.RecoverPool(ctx, "a"); err != nil {
		t.Fatal(err)
	}
	if err := in.WaitForHealth(ctx, "a", Healthy, time.Second); err != nil {
		t.Error(err)
	}

	err = in.FailPool(ctx, "nope")
	if err == nil || !strings.Contains(err.Error(), `no simulated node pool "nope" (pools: a, b)`) {
		t.Errorf("FailPool(nope) = %v", err)
	}
}

// One host of a pool fails alone, and recovers.
func TestInjectorFailsAHost(t *testing.T) {
	ctx := context.Background()
	client := fake.NewClientset(node("a-0", "a", healthy), node("a-1", "a", healthy))
	in := &Injector{Client: client, Now: func() time.Time { return time.Unix(5, 0) }}
	health := func(name string) Health {
		n, err := client.CoreV1().Nodes().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return NodeHealth(n)
	}
	for range 2 { // failing twice is harmless
		if err := in.FailNode(ctx, "a-1"); err != nil {
			t.Fatal(err)
		}
	}
	if health("a-1") == Healthy || health("a-0") != Healthy {
		t.Errorf("after a-1 failed: a-0 %s, a-1 %s", health("a-0"), health("a-1"))
	}
	if err := in.RecoverNode(ctx, "a-1"); err != nil {
		t.Fatal(err)
	}
	if health("a-1") != Healthy {
		t.Errorf("a-1 %s after recovering", health("a-1"))
	}
	if err := in.FailNode(ctx, "nope"); err == nil || !strings.Contains(err.Error(), "node nope") {
		t.Errorf("FailNode(nope) = %v", err)
	}
}
