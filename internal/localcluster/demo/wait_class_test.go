package demo

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/autoprovision"
)

func TestClassNodesReached(t *testing.T) {
	ready := []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
	node := func(name, replaces string, recycled bool) corev1.Node {
		n := corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Annotations: map[string]string{}}, Status: corev1.NodeStatus{Conditions: ready}}
		if replaces != "" {
			n.Annotations[autoprovision.ReplacesAnnotation] = replaces
		}
		if recycled {
			n.Spec.Unschedulable = true
			n.Annotations[autoprovision.CordonedAnnotation] = "2026-01-01T00:00:00Z"
		}
		return n
	}
	for name, tc := range map[string]struct {
		nodes                     []corev1.Node
		ready, recycled, replaced bool
	}{
		"none":                     {},
		"first nodes":              {nodes: []corev1.Node{node("a", "", false), node("b", "", false)}, ready: true},
		"one recycled":             {nodes: []corev1.Node{node("a", "", true), node("b", "", false), node("c", "a", false)}, ready: true, recycled: true},
		"all replaced":             {nodes: []corev1.Node{node("c", "a", false), node("d", "b", false)}, ready: true, replaced: true},
		"replaced, recycled again": {nodes: []corev1.Node{node("c", "a", true), node("e", "c", false)}, ready: true, recycled: true, replaced: true},
	} {
		t.Run(name, func(t *testing.T) {
			for state, want := range map[string]bool{NodesReady: tc.ready, NodesRecycled: tc.recycled, NodesReplaced: tc.replaced} {
				if got := ClassNodesReached(tc.nodes, state); got != want {
					t.Errorf("%s: %v, want %v", state, got, want)
				}
			}
		})
	}
}
