package queueapi_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// testTopology applies Kueue's topology-aware scheduling samples as its
// documentation gives them, with only apiVersion changed
// (testdata/kueue-tas), reads the Topology and the flavor's topologyName
// back, and checks that every malformed Topology or flavor is refused
// naming its field.
func (e *env) testTopology(t *testing.T) {
	for _, file := range []string{"sample-queues.yaml", "sample-gpu-queues.yaml"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("testdata", "kueue-tas", file))
			if err != nil {
				t.Fatal(err)
			}
			kindsSeen := e.createAll(t, decode(t, data))
			if diff := cmp.Diff([]string{"Topology", "ResourceFlavor", "ClusterQueue", "LocalQueue"}, kindsSeen); diff != "" {
				t.Errorf("kinds (-want +got):\n%s", diff)
			}
			mv := e.cs.MultisliceV1alpha1()
			topo, err := mv.Topologies().Get(t.Context(), "default", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			var levels []string
			for _, l := range topo.Spec.Levels {
				levels = append(levels, l.NodeLabel)
			}
			if diff := cmp.Diff([]string{"cloud.provider.com/topology-block", "cloud.provider.com/topology-rack", "kubernetes.io/hostname"}, levels); diff != "" {
				t.Errorf("levels read back (-want +got):\n%s", diff)
			}
			rf, err := mv.ResourceFlavors().Get(t.Context(), "tas-flavor", metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if rf.Spec.TopologyName != "default" {
				t.Errorf("flavor topologyName %q, want default", rf.Spec.TopologyName)
			}
		})
	}
	t.Run("LevelsChangeWithHostnameLowest", func(t *testing.T) {
		// Levels may change while kubernetes.io/hostname is the lowest
		// level before and after: a level is added above it.
		obj := decode(t, []byte(topology("- nodeLabel: example.com/block\n- nodeLabel: kubernetes.io/hostname")))[0]
		obj.SetName("mutable-levels")
		client := e.client(t, obj)
		created, err := client.Create(t.Context(), obj, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer func() { _ = client.Delete(t.Context(), obj.GetName(), metav1.DeleteOptions{}) }()
		setLevels(created, "example.com/block", "example.com/rack", "kubernetes.io/hostname")
		if _, err := client.Update(t.Context(), created, metav1.UpdateOptions{}); err != nil {
			t.Errorf("adding a level above kubernetes.io/hostname: %v", err)
		}
	})
	for i, tc := range invalidTopologyCases {
		t.Run(tc.name, func(t *testing.T) { e.expectRefused(t, tc, "topology", i) })
	}
}

// topology is the YAML of a Topology with the given levels.
func topology(levels string) string {
	return "apiVersion: multislice.dev/v1alpha1\nkind: Topology\nmetadata:\n  name: NAME\nspec:\n  levels:\n" + indentBy(levels, "  ") + "\n"
}

// setLevels sets a Topology object's levels.
func setLevels(obj *unstructured.Unstructured, labels ...string) {
	var levels []any
	for _, l := range labels {
		levels = append(levels, map[string]any{"nodeLabel": l})
	}
	if err := unstructured.SetNestedSlice(obj.Object, levels, "spec", "levels"); err != nil {
		panic(err)
	}
}

const gpuFlavor = "apiVersion: multislice.dev/v1alpha1\nkind: ResourceFlavor\nmetadata:\n  name: NAME\nspec:\n"

var invalidTopologyCases = []invalidCase{{
	name: "no levels",
	obj:  "apiVersion: multislice.dev/v1alpha1\nkind: Topology\nmetadata:\n  name: NAME\nspec:\n  levels: []\n",
	want: []string{"spec.levels", "should have at least 1 items"},
}, {
	name: "a level named twice",
	obj:  topology("- nodeLabel: example.com/block\n- nodeLabel: example.com/rack\n- nodeLabel: example.com/block"),
	want: []string{"spec.levels", "levels must name each node label once"},
}, {
	name: "hostname above another level",
	obj:  topology("- nodeLabel: example.com/block\n- nodeLabel: kubernetes.io/hostname\n- nodeLabel: example.com/rack"),
	want: []string{"spec.levels", "kubernetes.io/hostname can only be the lowest level"},
}, {
	name: "a level that is no label key",
	obj:  topology("- nodeLabel: example.com/block\n- nodeLabel: not a label"),
	want: []string{"spec.levels[1].nodeLabel"},
}, {
	name: "an empty level",
	obj:  topology(`- nodeLabel: ""`),
	want: []string{"spec.levels[0].nodeLabel"},
}, {
	name: "seventeen levels",
	obj: topology(func() string {
		s := ""
		for i := range 17 {
			s += "- nodeLabel: example.com/level-" + string(rune('a'+i)) + "\n"
		}
		return s
	}()),
	want: []string{"spec.levels", "must have at most 16 items"},
}, {
	name: "levels changed without hostname lowest",
	obj:  topology("- nodeLabel: example.com/block\n- nodeLabel: example.com/rack"),
	update: func(obj *unstructured.Unstructured) {
		setLevels(obj, "example.com/block", "example.com/subblock", "example.com/rack")
	},
	want: []string{"spec.levels", "levels may change only while kubernetes.io/hostname is the lowest level before and after"},
}, {
	name: "hostname dropped from the lowest level",
	obj:  topology("- nodeLabel: example.com/block\n- nodeLabel: kubernetes.io/hostname"),
	update: func(obj *unstructured.Unstructured) {
		setLevels(obj, "example.com/block")
	},
	want: []string{"spec.levels", "levels may change only while kubernetes.io/hostname is the lowest level before and after"},
}, {
	name: "a flavor with a topology and no node labels",
	obj:  gpuFlavor + "  topologyName: default\n",
	want: []string{"spec.nodeLabels", "a flavor with a topologyName needs nodeLabels"},
}, {
	name: "a flavor's topology that is no name",
	obj:  gpuFlavor + "  nodeLabels:\n    example.com/node-group: tas\n  topologyName: Not_A_Name\n",
	want: []string{"spec.topologyName"},
}, {
	name: "a flavor's topology changed",
	obj:  gpuFlavor + "  nodeLabels:\n    example.com/node-group: tas\n  topologyName: default\n",
	update: func(obj *unstructured.Unstructured) {
		if err := unstructured.SetNestedField(obj.Object, "other", "spec", "topologyName"); err != nil {
			panic(err)
		}
	},
	want: []string{"spec.topologyName", "topologyName cannot change once set"},
}, {
	name: "a flavor's topology removed",
	obj:  gpuFlavor + "  nodeLabels:\n    example.com/node-group: tas\n  topologyName: default\n",
	update: func(obj *unstructured.Unstructured) {
		unstructured.RemoveNestedField(obj.Object, "spec", "topologyName")
	},
	want: []string{"spec.topologyName", "topologyName cannot change once set"},
}}
