package harness

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// WaitTimeout bounds every wait in the harness.
const WaitTimeout = 60 * time.Second

// CreateNamespace creates a namespace with a generated name.
func (cp *ControlPlane) CreateNamespace(t testing.TB, prefix string) string {
	t.Helper()
	ns, err := cp.Client.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{GenerateName: prefix + "-"},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return ns.Name
}

// CreateNodePool creates the nodes of a pool, with their status.
func (cp *ControlPlane) CreateNodePool(t testing.TB, pool *builders.NodePoolBuilder) []*corev1.Node {
	t.Helper()
	var created []*corev1.Node
	for _, n := range pool.Build() {
		created = append(created, cp.CreateNode(t, n))
	}
	return created
}

// CreateNode creates one node, with its status (a node joining a pool).
func (cp *ControlPlane) CreateNode(t testing.TB, n *corev1.Node) *corev1.Node {
	t.Helper()
	status := n.Status
	obj, err := cp.Client.CoreV1().Nodes().Create(t.Context(), n, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create node %s: %v", n.Name, err)
	}
	obj.Status = status
	obj, err = cp.Client.CoreV1().Nodes().UpdateStatus(t.Context(), obj, metav1.UpdateOptions{})
	if err != nil {
		t.Fatalf("update node status %s: %v", n.Name, err)
	}
	return obj
}

// CreatePod creates a pod.
func (cp *ControlPlane) CreatePod(t testing.TB, pod *corev1.Pod) *corev1.Pod {
	t.Helper()
	obj, err := cp.Client.CoreV1().Pods(pod.Namespace).Create(t.Context(), pod, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create pod %s/%s: %v", pod.Namespace, pod.Name, err)
	}
	return obj
}

// WaitForPodBound waits until the pod has a node and returns it.
func (cp *ControlPlane) WaitForPodBound(t testing.TB, namespace, name string) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		p, err := cp.Client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil // transient: apiserver restarts are part of some tests
		}
		pod = p
		return p.Spec.NodeName != "", nil
	})
	if err != nil {
		t.Fatalf("pod %s/%s not bound: %v (last seen: %s)", namespace, name, err, describePod(pod))
	}
	return pod
}

// ExpectPodStaysUnbound fails if the pod gets a node within d.
func (cp *ControlPlane) ExpectPodStaysUnbound(t testing.TB, namespace, name string, d time.Duration) *corev1.Pod {
	t.Helper()
	var pod *corev1.Pod
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		p, err := cp.Client.CoreV1().Pods(namespace).Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if p.Spec.NodeName != "" {
			t.Fatalf("pod %s/%s was bound to %s, want it left alone", namespace, name, p.Spec.NodeName)
		}
		pod = p
		time.Sleep(200 * time.Millisecond)
	}
	return pod
}

func describePod(p *corev1.Pod) string {
	if p == nil {
		return "never read"
	}
	return fmt.Sprintf("node=%q phase=%s conditions=%v", p.Spec.NodeName, p.Status.Phase, p.Status.Conditions)
}

// WaitForPodCondition waits until the pod has the condition with status and returns it.
func (cp *ControlPlane) WaitForPodCondition(t testing.TB, namespace, name string, cond corev1.PodConditionType, status corev1.ConditionStatus) corev1.PodCondition {
	t.Helper()
	return cp.WaitForPodConditionSaying(t, namespace, name, cond, status, "")
}

// WaitForPodConditionSaying waits for the pod's condition cond to have
// status with a message that contains saying: a condition restated as what
// it reports moves on is waited for until it says what the test expects.
func (cp *ControlPlane) WaitForPodConditionSaying(t testing.TB, namespace, name string, cond corev1.PodConditionType, status corev1.ConditionStatus, saying string) corev1.PodCondition {
	t.Helper()
	var found corev1.PodCondition
	var pod *corev1.Pod
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		p, err := cp.Client.CoreV1().Pods(namespace).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		pod = p
		for _, c := range p.Status.Conditions {
			if c.Type == cond && c.Status == status && strings.Contains(c.Message, saying) {
				found = c
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("pod %s/%s never had %s=%s saying %q: %v (last seen: %s)", namespace, name, cond, status, saying, err, describePod(pod))
	}
	return found
}

// WaitForEvent waits for an event with reason about the named object.
func (cp *ControlPlane) WaitForEvent(t testing.TB, namespace, name, reason string, timeout time.Duration) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		events, err := cp.Client.EventsV1().Events(namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		for _, e := range events.Items {
			if e.Regarding.Name == name && e.Reason == reason {
				return true, nil
			}
		}
		return false, nil
	})
	if err != nil {
		t.Fatalf("no %s event for %s/%s: %v", reason, namespace, name, err)
	}
}

// BindPod binds pod ns/name to node as a scheduler would, without one.
func (cp *ControlPlane) BindPod(t testing.TB, ns, name, node string) {
	t.Helper()
	if err := cp.Client.CoreV1().Pods(ns).Bind(t.Context(), &corev1.Binding{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Target:     corev1.ObjectReference{Kind: "Node", Name: node},
	}, metav1.CreateOptions{}); err != nil {
		t.Fatalf("bind pod %s/%s to %s: %v", ns, name, node, err)
	}
}

// CheckBoundInPool waits for each of pods to be bound and checks that its
// node is in node pool pool.
func (cp *ControlPlane) CheckBoundInPool(t testing.TB, namespace, pool string, pods ...string) {
	t.Helper()
	for _, pod := range pods {
		bound := cp.WaitForPodBound(t, namespace, pod)
		node, err := cp.Client.CoreV1().Nodes().Get(t.Context(), bound.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := node.Labels[wellknown.NodePoolLabel]; got != pool {
			t.Errorf("%s placed on %s in pool %s, want pool %s", pod, node.Name, got, pool)
		}
	}
}
