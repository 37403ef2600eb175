package nodepools

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func mustNodes(t *testing.T, file string) []*corev1.Node {
	t.Helper()
	pools, err := Parse([]byte(header + file))
	if err != nil {
		t.Fatal(err)
	}
	return Nodes(pools)
}

func TestNodes(t *testing.T) {
	nodes := mustNodes(t, "pools:\n- name: v5e\n  count: 2\n  tpu: {accelerator: tpu-v5-lite-podslice, topology: 2x4, chipsPerNode: 4}\n")
	var got []string
	for _, n := range nodes {
		got = append(got, n.Name+"@"+n.Labels[wellknown.NodePoolLabel])
		if n.Labels[corev1.LabelHostname] != n.Name || n.Labels[ManagedLabel] != "true" || n.Annotations[KWOKNodeAnnotation] != "fake" {
			t.Errorf("%s: labels %v annotations %v", n.Name, n.Labels, n.Annotations)
		}
		if q := n.Status.Allocatable[wellknown.ResourceTPU]; q.Value() != 4 {
			t.Errorf("%s: allocatable google.com/tpu = %s", n.Name, q.String())
		}
	}
	want := []string{"v5e-0-node-0@v5e-0", "v5e-0-node-1@v5e-0", "v5e-1-node-0@v5e-1", "v5e-1-node-1@v5e-1"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("nodes (-want +got):\n%s", diff)
	}
}

func TestDiff(t *testing.T) {
	base := mustNodes(t, "pools:\n- name: a\n  nodes: 2\n  taints: [\"x=1:NoSchedule\"]\n  labels: {team: one}\n")
	// What the apiserver holds after KWOK, node lifecycle and fault
	// injection touched the nodes.
	live := func() []*corev1.Node {
		var out []*corev1.Node
		for _, n := range base {
			c := n.DeepCopy()
			c.ResourceVersion = "7"
			c.Labels["added-by-kubectl"] = "yes"
			c.Spec.Taints = append(c.Spec.Taints, corev1.Taint{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute})
			c.Status.Conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}}
			out = append(out, c)
		}
		return out
	}
	foreign := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a-node-1", Labels: map[string]string{"team": "other"}}}
	// A node of the queued provisioner, in a pool the file does not have;
	// provisionedLikeFile even carries ManagedLabel and the name of a node
	// the file wants.
	provisioned := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "default-job-1a2b3-node-0", Labels: map[string]string{
		wellknown.NodePoolLabel: "NODEPOOL_NAME", ProvisionedLabel: "0b7e3c52-9d7c-4c1e-9a55-2f2f7f0f6a11",
	}}}
	provisionedLikeFile := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "a-node-0", Labels: map[string]string{
		ManagedLabel: "true", ProvisionedLabel: "5d1f", "team": "other",
	}}}

	tests := []struct {
		name     string
		desired  []*corev1.Node
		existing []*corev1.Node
		check    func(t *testing.T, p Plan)
	}{
		{
			name:    "fresh cluster creates every node",
			desired: base,
			check: func(t *testing.T, p Plan) {
				if len(p.Create) != 2 || len(p.Update)+len(p.UpdateStatus)+len(p.Delete) != 0 {
					t.Errorf("plan = %+v", p)
				}
			},
		},
		{
			name:     "unchanged file changes nothing, foreign labels and taints are ignored",
			desired:  base,
			existing: live(),
			check: func(t *testing.T, p Plan) {
				if !p.Empty() {
					t.Errorf("plan not empty: %+v", p)
				}
			},
		},
		{
			name:     "pool removed from the file deletes its nodes",
			desired:  mustNodes(t, "pools:\n- name: b\n  nodes: 1\n"),
			existing: live(),
			check: func(t *testing.T, p Plan) {
				if diff := cmp.Diff([]string{"a-node-0", "a-node-1"}, p.Delete); diff != "" {
					t.Errorf("delete (-want +got):\n%s", diff)
				}
				if len(p.Create) != 1 || p.Create[0].Name != "b-node-0" {
					t.Errorf("create = %v", p.Create)
				}
			},
		},
		{
			name:     "fewer nodes deletes the extra one",
			desired:  mustNodes(t, "pools:\n- name: a\n  nodes: 1\n  taints: [\"x=1:NoSchedule\"]\n  labels: {team: one}\n"),
			existing: live(),
			check: func(t *testing.T, p Plan) {
				if diff := cmp.Diff([]string{"a-node-1"}, p.Delete); diff != "" {
					t.Errorf("delete (-want +got):\n%s", diff)
				}
				if len(p.Update)+len(p.Create) != 0 {
					t.Errorf("plan = %+v", p)
				}
			},
		},
		{
			name:     "label and taint edits replace what the file applied and keep the rest",
			desired:  mustNodes(t, "pools:\n- name: a\n  nodes: 2\n  taints: [\"y=2:NoExecute\"]\n  labels: {owner: two}\n"),
			existing: live(),
			check: func(t *testing.T, p Plan) {
				if len(p.Update) != 2 {
					t.Fatalf("update = %d nodes, want 2", len(p.Update))
				}
				n := p.Update[0]
				if n.ResourceVersion != "7" {
					t.Errorf("update lost resourceVersion")
				}
				if _, ok := n.Labels["team"]; ok {
					t.Errorf("label team kept after removal from the file")
				}
				if n.Labels["owner"] != "two" || n.Labels["added-by-kubectl"] != "yes" {
					t.Errorf("labels = %v", n.Labels)
				}
				want := []corev1.Taint{
					{Key: "node.kubernetes.io/not-ready", Effect: corev1.TaintEffectNoExecute},
					{Key: "y", Value: "2", Effect: corev1.TaintEffectNoExecute},
				}
				if diff := cmp.Diff(want, n.Spec.Taints); diff != "" {
					t.Errorf("taints (-want +got):\n%s", diff)
				}
				if len(n.Status.Conditions) != 1 {
					t.Errorf("conditions lost")
				}
			},
		},
		{
			name:     "capacity change is a status update",
			desired:  mustNodes(t, "pools:\n- name: a\n  nodes: 2\n  cpu: \"64\"\n  taints: [\"x=1:NoSchedule\"]\n  labels: {team: one}\n"),
			existing: live(),
			check: func(t *testing.T, p Plan) {
				if len(p.Update) != 0 || len(p.UpdateStatus) != 2 {
					t.Fatalf("plan = %+v", p)
				}
				if q := p.UpdateStatus[0].Status.Capacity[corev1.ResourceCPU]; q.Cmp(resource.MustParse("64")) != 0 {
					t.Errorf("cpu = %s", q.String())
				}
			},
		},
		{
			name:     "a node of the same name that is not ours is left alone",
			desired:  base,
			existing: []*corev1.Node{foreign},
			check: func(t *testing.T, p Plan) {
				if len(p.Create) != 1 || p.Create[0].Name != "a-node-0" || len(p.Update)+len(p.Delete) != 0 {
					t.Errorf("plan = %+v", p)
				}
			},
		},
		{
			name:     "nodes of the queued provisioner are never deleted",
			desired:  mustNodes(t, "pools:\n- name: b\n  nodes: 1\n"),
			existing: append(live(), provisioned),
			check: func(t *testing.T, p Plan) {
				if diff := cmp.Diff([]string{"a-node-0", "a-node-1"}, p.Delete); diff != "" {
					t.Errorf("delete (-want +got):\n%s", diff)
				}
			},
		},
		{
			name:     "a provisioned node is not updated even with ManagedLabel and a wanted name",
			desired:  base,
			existing: []*corev1.Node{provisionedLikeFile},
			check: func(t *testing.T, p Plan) {
				if len(p.Create) != 1 || p.Create[0].Name != "a-node-1" || len(p.Update)+len(p.UpdateStatus)+len(p.Delete) != 0 {
					t.Errorf("plan = %+v", p)
				}
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.check(t, Diff(tc.desired, tc.existing))
		})
	}
}
