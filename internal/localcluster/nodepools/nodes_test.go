package nodepools

import (
	"slices"
	"strings"
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

// A GPU pool with a topology labels each node with its block, subblock
// and host, hosts of a subblock first, the pool's name in every value;
// node names are those of any pool.
func TestNodesGPUTopology(t *testing.T) {
	tests := []struct {
		name string
		file string
		want []string // name block subblock host, per node
	}{
		{
			name: "2 blocks × 2 subblocks × 2 hosts",
			file: "pools:\n- name: h100\n  gpu: {model: nvidia-h100-80gb, perNode: 8}\n  topology: {blocks: 2, subblocksPerBlock: 2, hostsPerSubblock: 2}\n",
			want: []string{
				"h100-node-0 h100-b0 h100-b0-s0 h100-b0-s0-h0",
				"h100-node-1 h100-b0 h100-b0-s0 h100-b0-s0-h1",
				"h100-node-2 h100-b0 h100-b0-s1 h100-b0-s1-h0",
				"h100-node-3 h100-b0 h100-b0-s1 h100-b0-s1-h1",
				"h100-node-4 h100-b1 h100-b1-s0 h100-b1-s0-h0",
				"h100-node-5 h100-b1 h100-b1-s0 h100-b1-s0-h1",
				"h100-node-6 h100-b1 h100-b1-s1 h100-b1-s1-h0",
				"h100-node-7 h100-b1 h100-b1-s1 h100-b1-s1-h1",
			},
		},
		{
			name: "a count: each pool's values carry its index; pools without topology get no labels",
			file: "pools:\n- name: h100\n  count: 2\n  nodes: 3\n  gpu: {model: nvidia-h100-80gb, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 1, hostsPerSubblock: 3}\n" +
				"- name: l4\n  nodes: 1\n  gpu: {model: nvidia-l4, perNode: 4}\n",
			want: []string{
				"h100-0-node-0 h100-0-b0 h100-0-b0-s0 h100-0-b0-s0-h0",
				"h100-0-node-1 h100-0-b0 h100-0-b0-s0 h100-0-b0-s0-h1",
				"h100-0-node-2 h100-0-b0 h100-0-b0-s0 h100-0-b0-s0-h2",
				"h100-1-node-0 h100-1-b0 h100-1-b0-s0 h100-1-b0-s0-h0",
				"h100-1-node-1 h100-1-b0 h100-1-b0-s0 h100-1-b0-s0-h1",
				"h100-1-node-2 h100-1-b0 h100-1-b0-s0 h100-1-b0-s0-h2",
				"l4-node-0   ",
			},
		},
		{
			name: "one host a subblock, one subblock a block",
			file: "pools:\n- name: g\n  gpu: {model: nvidia-h100-80gb, perNode: 8}\n  topology: {blocks: 3, subblocksPerBlock: 1, hostsPerSubblock: 1}\n",
			want: []string{"g-node-0 g-b0 g-b0-s0 g-b0-s0-h0", "g-node-1 g-b1 g-b1-s0 g-b1-s0-h0", "g-node-2 g-b2 g-b2-s0 g-b2-s0-h0"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, n := range mustNodes(t, tc.file) {
				l := n.Labels
				got = append(got, strings.Join([]string{n.Name, l[wellknown.GCETopologyBlockLabel], l[wellknown.GCETopologySubblockLabel], l[wellknown.GCETopologyHostLabel]}, " "))
				// What the file applied, so that a later edit of the
				// topology replaces the labels.
				for _, k := range []string{wellknown.GCETopologyBlockLabel, wellknown.GCETopologySubblockLabel, wellknown.GCETopologyHostLabel} {
					if _, ok := l[k]; ok && !slices.Contains(splitList(n.Annotations[appliedLabelsAnnotation]), k) {
						t.Errorf("%s: %s not among the applied labels %q", n.Name, k, n.Annotations[appliedLabelsAnnotation])
					}
				}
				if l[corev1.LabelHostname] != n.Name || l[wellknown.NodePoolLabel] == "" {
					t.Errorf("%s: labels %v", n.Name, l)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("nodes (-want +got):\n%s", diff)
			}
		})
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
			name:     "a topology changed or removed relabels the nodes",
			desired:  mustNodes(t, "pools:\n- name: g\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 1, subblocksPerBlock: 2, hostsPerSubblock: 1}\n"),
			existing: mustNodes(t, "pools:\n- name: g\n  gpu: {model: m, perNode: 8}\n  topology: {blocks: 2, subblocksPerBlock: 1, hostsPerSubblock: 1}\n"),
			check: func(t *testing.T, p Plan) {
				if len(p.Update) != 1 || len(p.Create)+len(p.Delete) != 0 {
					t.Fatalf("plan = %+v", p)
				}
				if n := p.Update[0]; n.Name != "g-node-1" || n.Labels[wellknown.GCETopologyBlockLabel] != "g-b0" || n.Labels[wellknown.GCETopologySubblockLabel] != "g-b0-s1" {
					t.Errorf("update %s: labels %v", n.Name, n.Labels)
				}
				removed := Diff(mustNodes(t, "pools:\n- name: g\n  nodes: 2\n  gpu: {model: m, perNode: 8}\n"), p.Update)
				for _, n := range removed.Update {
					if v, ok := n.Labels[wellknown.GCETopologyHostLabel]; ok {
						t.Errorf("%s kept %s=%s after the topology was removed", n.Name, wellknown.GCETopologyHostLabel, v)
					}
				}
				if len(removed.Update) != 1 {
					t.Errorf("topology removed: plan %+v", removed)
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
