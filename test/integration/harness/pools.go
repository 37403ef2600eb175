package harness

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/util/retry"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Node pools fail the way the scheduler sees a broken slice on GKE: a host
// stops posting status and the node lifecycle controller marks its Ready
// condition False, or an operator cordons the hosts for repair. No node
// lifecycle controller runs here (and no taint follows the condition), so
// the helpers write exactly one of those two signals and nothing else: the
// scheduler must treat either as making the whole pool unusable.

// NodePoolNodes returns the nodes of a pool, sorted by name.
func (cp *ControlPlane) NodePoolNodes(t testing.TB, pool string) []corev1.Node {
	t.Helper()
	list, err := cp.Client.CoreV1().Nodes().List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.NodePoolLabel + "=" + pool})
	if err != nil {
		t.Fatalf("list nodes of pool %s: %v", pool, err)
	}
	if len(list.Items) == 0 {
		t.Fatalf("node pool %s has no nodes", pool)
	}
	slices.SortFunc(list.Items, func(a, b corev1.Node) int { return strings.Compare(a.Name, b.Name) })
	return list.Items
}

// FailNodePool marks every node of the pool NotReady, as the node
// lifecycle controller does for hosts that stopped reporting.
func (cp *ControlPlane) FailNodePool(t testing.TB, pool string) {
	t.Helper()
	cp.SetNodePoolReady(t, pool, corev1.ConditionFalse)
}

// RecoverNodePool marks every node of the pool Ready again, as their
// kubelets do once the hosts are back.
func (cp *ControlPlane) RecoverNodePool(t testing.TB, pool string) {
	t.Helper()
	cp.SetNodePoolReady(t, pool, corev1.ConditionTrue)
}

// SetNodePoolReady sets the Ready condition of every node of the pool
// through the status subresource, with fresh transition and heartbeat times.
func (cp *ControlPlane) SetNodePoolReady(t testing.TB, pool string, status corev1.ConditionStatus) {
	t.Helper()
	reason, message := "KubeletReady", "kubelet is posting ready status"
	if status != corev1.ConditionTrue {
		reason, message = "KubeletNotReady", "the host of this node is down (test pool failure)"
	}
	for _, n := range cp.NodePoolNodes(t, pool) {
		cp.updateNode(t, n.Name, "status", func(node *corev1.Node) {
			now := metav1.Now()
			cond := corev1.NodeCondition{Type: corev1.NodeReady, Status: status, Reason: reason, Message: message,
				LastHeartbeatTime: now, LastTransitionTime: now}
			for i := range node.Status.Conditions {
				if node.Status.Conditions[i].Type == corev1.NodeReady {
					node.Status.Conditions[i] = cond
					return
				}
			}
			node.Status.Conditions = append(node.Status.Conditions, cond)
		})
	}
}

// SetNodePoolUnschedulable cordons (true) or uncordons (false) every node
// of the pool, as `kubectl cordon` does.
func (cp *ControlPlane) SetNodePoolUnschedulable(t testing.TB, pool string, unschedulable bool) {
	t.Helper()
	for _, n := range cp.NodePoolNodes(t, pool) {
		cp.updateNode(t, n.Name, "", func(node *corev1.Node) { node.Spec.Unschedulable = unschedulable })
	}
}

// CordonNode cordons one node, as GKE cordons a node it recycles once
// its replacement is Ready.
func (cp *ControlPlane) CordonNode(t testing.TB, name string) {
	t.Helper()
	cp.updateNode(t, name, "", func(node *corev1.Node) { node.Spec.Unschedulable = true })
}

// updateNode applies edit to the node's latest version, retrying on
// conflicts (the scheduler never writes nodes, but a test may race itself).
// subresource "status" writes the status; "" the object.
func (cp *ControlPlane) updateNode(t testing.TB, name, subresource string, edit func(*corev1.Node)) {
	t.Helper()
	nodes := cp.Client.CoreV1().Nodes()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		defer cancel()
		node, err := nodes.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		edit(node)
		if subresource == "status" {
			_, err = nodes.UpdateStatus(ctx, node, metav1.UpdateOptions{})
		} else {
			_, err = nodes.Update(ctx, node, metav1.UpdateOptions{})
		}
		return err
	})
	if err != nil {
		t.Fatalf("update node %s: %v", name, err)
	}
}

// Pools returns the pools the placement's bound pods use, sorted.
func (p Placement) Pools() []string {
	set := map[string]bool{}
	for _, pools := range p.PoolsBySlice {
		maps.Copy(set, pools)
	}
	return slices.Sorted(maps.Keys(set))
}

// Uses reports whether any bound pod of the placement is in pool.
func (p Placement) Uses(pool string) bool {
	return slices.Contains(p.Pools(), pool)
}
