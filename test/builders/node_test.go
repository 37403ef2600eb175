package builders

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func TestNode(t *testing.T) {
	n := Node("n").Obj()
	if got := n.Labels; !cmp.Equal(got, map[string]string{corev1.LabelHostname: "n"}) {
		t.Errorf("labels %v, want only the hostname", got)
	}
	want := map[corev1.ResourceName]string{corev1.ResourceCPU: "8", corev1.ResourceMemory: "32Gi", corev1.ResourcePods: "110"}
	for _, list := range []corev1.ResourceList{n.Status.Capacity, n.Status.Allocatable} {
		if len(list) != len(want) {
			t.Errorf("resources %v, want %v", list, want)
		}
		for name, q := range want {
			if got := list[name]; got.Cmp(resource.MustParse(q)) != 0 {
				t.Errorf("%s: %s, want %s", name, got.String(), q)
			}
		}
	}
	if got := readyOf(n); got != corev1.ConditionTrue {
		t.Errorf("Ready %s, want True", got)
	}
}

func TestNodeBuilderSettings(t *testing.T) {
	at := time.Unix(1000, 0)
	for _, tc := range []struct {
		name  string
		node  *corev1.Node
		check func(t *testing.T, n *corev1.Node)
	}{{
		name: "NotReady",
		node: Node("n").NotReady().Obj(),
		check: func(t *testing.T, n *corev1.Node) {
			if got := readyOf(n); got != corev1.ConditionFalse {
				t.Errorf("Ready %s, want False", got)
			}
		},
	}, {
		name: "Ready Unknown",
		node: Node("n").Ready(corev1.ConditionUnknown).Obj(),
		check: func(t *testing.T, n *corev1.Node) {
			if got := readyOf(n); got != corev1.ConditionUnknown {
				t.Errorf("Ready %s, want Unknown", got)
			}
		},
	}, {
		name: "Heartbeat changes only the heartbeat time and resource version",
		node: Node("n").Heartbeat(at).Obj(),
		check: func(t *testing.T, n *corev1.Node) {
			plain := Node("n").Obj()
			plain.ResourceVersion = "1000"
			plain.Status.Conditions[0].LastHeartbeatTime = n.Status.Conditions[0].LastHeartbeatTime
			if diff := cmp.Diff(plain, n); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if got := n.Status.Conditions[0].LastHeartbeatTime.Time; !got.Equal(at) {
				t.Errorf("heartbeat at %v, want %v", got, at)
			}
		},
	}, {
		name: "Unschedulable",
		node: Node("n").Unschedulable().Obj(),
		check: func(t *testing.T, n *corev1.Node) {
			if !n.Spec.Unschedulable {
				t.Error("not cordoned")
			}
		},
	}, {
		name: "TPU",
		node: Node("n").TPU(V5e, "2x4", 4).Obj(),
		check: func(t *testing.T, n *corev1.Node) {
			if n.Labels[wellknown.TPUAcceleratorLabel] != V5e || n.Labels[wellknown.TPUTopologyLabel] != "2x4" {
				t.Errorf("labels %v", n.Labels)
			}
			for _, list := range []corev1.ResourceList{n.Status.Capacity, n.Status.Allocatable} {
				if q := list[wellknown.ResourceTPU]; q.Value() != 4 {
					t.Errorf("%d chips, want 4", q.Value())
				}
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) { tc.check(t, tc.node) })
	}
}

func TestNodePool(t *testing.T) {
	b := V5ePool("p").NotReady().Label("k", "v")
	if diff := cmp.Diff([]string{"p-node-0", "p-node-1"}, b.NodeNames()); diff != "" {
		t.Errorf("NodeNames (-want +got):\n%s", diff)
	}
	nodes := b.Build()
	if len(nodes) != 2 {
		t.Fatalf("%d nodes, want 2", len(nodes))
	}
	for i, n := range nodes {
		want := map[string]string{
			corev1.LabelHostname:          b.NodeName(i),
			wellknown.NodePoolLabel:       "p",
			wellknown.TPUAcceleratorLabel: V5e,
			wellknown.TPUTopologyLabel:    "2x4",
			"k":                           "v",
		}
		if n.Name != b.NodeName(i) || !cmp.Equal(want, n.Labels) {
			t.Errorf("node %d: %s %v, want %s %v", i, n.Name, n.Labels, b.NodeName(i), want)
		}
		if got := readyOf(n); got != corev1.ConditionFalse {
			t.Errorf("node %d: Ready %s, want False", i, got)
		}
	}
	// Node(i) is the i-th node of Build, even beyond the pool's size.
	if diff := cmp.Diff(nodes[1], b.Node(1)); diff != "" {
		t.Errorf("Node(1) (-Build +Node):\n%s", diff)
	}
	if got := b.Node(5).Name; got != "p-node-5" {
		t.Errorf("Node(5) named %s", got)
	}
	// Nodes share nothing.
	nodes[0].Labels["k"] = "changed"
	if b.Node(0).Labels["k"] != "v" || nodes[1].Labels["k"] != "v" {
		t.Error("changing a built node changed the pool")
	}
}

func TestV5ePools(t *testing.T) {
	var got []string
	for _, n := range V5ePools(2) {
		got = append(got, n.Labels[wellknown.NodePoolLabel]+"/"+n.Name)
	}
	want := []string{"pool-1/pool-1-node-0", "pool-1/pool-1-node-1", "pool-2/pool-2-node-0", "pool-2/pool-2-node-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func readyOf(n *corev1.Node) corev1.ConditionStatus {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status
		}
	}
	return ""
}
