// Package faults fails and recovers whole simulated node pools.
//
// A pool fails the way a broken slice does on GKE: every node of the pool
// gets the NoExecute taint PoolFailureTaint. From there the real control
// plane takes over: KWOK (whose stages match the taint) reports the nodes
// NotReady, the node lifecycle controller adds its own not-ready taints, the
// taint eviction controller evicts every pod that does not tolerate the
// taint, the Job controller counts those pods as failed, and the JobSet
// controller restarts the JobSet according to its failurePolicy. Recovery
// removes the taint; KWOK reports the nodes Ready again and the node
// lifecycle controller lifts its taints.
package faults

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PoolFailureTaint is the key of the taint that marks a failed node.
const PoolFailureTaint = "localcluster.multislice-scheduler.io/pool-failure"

// Health is the state of a node or a pool.
type Health string

const (
	// Healthy: Ready, and neither failed nor tainted by the node lifecycle
	// controller.
	Healthy Health = "Healthy"
	// Failing: the failure taint is set but the node still reports Ready.
	Failing Health = "Failing"
	// Failed: the failure taint is set and the node is NotReady.
	Failed Health = "Failed"
	// Recovering: the failure taint is gone but the node is not yet Ready,
	// or the node lifecycle controller has not yet lifted its taints.
	Recovering Health = "Recovering"
	// Degraded: the nodes of a pool disagree (some failed, some not).
	Degraded Health = "Degraded"
)

// Taints the node lifecycle controller sets on nodes that are not Ready.
var lifecycleTaints = map[string]bool{
	corev1.TaintNodeNotReady:    true,
	corev1.TaintNodeUnreachable: true,
}

// Fail adds the failure taint to a node. It reports whether the node changed.
func Fail(n *corev1.Node, now time.Time) bool {
	if hasFailureTaint(n) {
		return false
	}
	t := metav1.NewTime(now)
	n.Spec.Taints = append(n.Spec.Taints, corev1.Taint{
		Key:       PoolFailureTaint,
		Value:     "true",
		Effect:    corev1.TaintEffectNoExecute,
		TimeAdded: &t,
	})
	return true
}

// Recover removes the failure taint from a node. It reports whether the
// node changed.
func Recover(n *corev1.Node) bool {
	kept := n.Spec.Taints[:0:0]
	for _, t := range n.Spec.Taints {
		if t.Key != PoolFailureTaint {
			kept = append(kept, t)
		}
	}
	if len(kept) == len(n.Spec.Taints) {
		return false
	}
	n.Spec.Taints = kept
	return true
}

// NodeHealth is the health of one node.
func NodeHealth(n *corev1.Node) Health {
	ready := isReady(n)
	switch {
	case hasFailureTaint(n) && ready:
		return Failing
	case hasFailureTaint(n):
		return Failed
	case !ready || hasLifecycleTaint(n):
		return Recovering
	default:
		return Healthy
	}
}

// PoolHealth is the health of a pool: the health its nodes agree on, or
// Degraded. A pool in transition reports the transition (Failing or
// Recovering) while any node is still in it.
func PoolHealth(nodes []*corev1.Node) (Health, error) {
	if len(nodes) == 0 {
		return "", fmt.Errorf("pool has no nodes")
	}
	count := map[Health]int{}
	for _, n := range nodes {
		count[NodeHealth(n)]++
	}
	failedSide := count[Failing] + count[Failed]
	healthySide := count[Healthy] + count[Recovering]
	switch {
	case failedSide > 0 && healthySide > 0:
		return Degraded, nil
	case count[Failing] > 0:
		return Failing, nil
	case count[Failed] > 0:
		return Failed, nil
	case count[Recovering] > 0:
		return Recovering, nil
	default:
		return Healthy, nil
	}
}

func hasFailureTaint(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if t.Key == PoolFailureTaint {
			return true
		}
	}
	return false
}

func hasLifecycleTaint(n *corev1.Node) bool {
	for _, t := range n.Spec.Taints {
		if lifecycleTaints[t.Key] {
			return true
		}
	}
	return false
}

func isReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
