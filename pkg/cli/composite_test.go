package cli

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The pods of a gang CompositePodGroup's children are the composite's, in
// the slice the scheduler makes of each child: `why pod/...` explains the
// composite, with a slice per child and every pod counted; the children of
// a basic composite stay gangs of their own.
func TestCompositePodGroupPodsAreTheComposites(t *testing.T) {
	bound := func(name, group, node string) *corev1.Pod {
		return builders.Pod("ns", name).InSchedulingGroup(group).TPU("4").Running(node).Obj()
	}
	c := &Cluster{
		Nodes: []*corev1.Node{
			builders.Node("pool-1-node-0").Label(wellknown.NodePoolLabel, "pool-1").Obj(),
			builders.Node("pool-2-node-0").Label(wellknown.NodePoolLabel, "pool-2").Obj(),
		},
		Pods: []*corev1.Pod{bound("b-0", "b", "pool-2-node-0"), bound("a-0", "a", "pool-1-node-0"), bound("solo-0", "solo", "pool-1-node-0")},
		InTreePodGroups: []*schedv1beta1.PodGroup{
			builders.InTreePodGroup("ns", "b", 1).Parent("train").Obj(),
			builders.InTreePodGroup("ns", "a", 1).Parent("train").Obj(),
			builders.InTreePodGroup("ns", "solo", 1).Parent("loose").Obj(),
		},
		CompositePodGroups: []*schedv1alpha3.CompositePodGroup{
			builders.CompositePodGroup("ns", "train", 2).Exclusive(wellknown.NodePoolLabel).Obj(),
			builders.CompositePodGroup("ns", "loose", 1).Basic().Obj(),
		},
	}
	train := WorkloadRef{KindCompositePodGroup, "ns", "train"}
	for pod, want := range map[string]WorkloadRef{"a-0": train, "b-0": train, "solo-0": {KindInTreePodGroup, "ns", "solo"}} {
		ref, _, err := Resolve(c, "ns", KindPod, pod)
		if err != nil || ref != want {
			t.Errorf("pod %s: %v, %v; want %v", pod, ref, err, want)
		}
	}
	kind, name, err := ParseTarget("cpg/train")
	if err != nil || kind != KindCompositePodGroup {
		t.Fatalf("ParseTarget(cpg/train) = %q, %q, %v", kind, name, err)
	}
	if ref, _, err := Resolve(c, "ns", kind, name); err != nil || ref != train {
		t.Errorf("cpg/train: %v, %v", ref, err)
	}
	e := Why(c, train)
	if e.Invalid != "" || len(e.Slices) != 2 || e.Pods.Total != 2 || e.Pods.Bound != 2 {
		t.Fatalf("why %s: invalid %q, %d slices, pods %+v", train, e.Invalid, len(e.Slices), e.Pods)
	}
	for i, want := range []struct{ name, domain string }{{"a", "pool-1"}, {"b", "pool-2"}} {
		if s := e.Slices[i]; s.Name != want.name || s.Domain != want.domain || s.DomainKey != wellknown.NodePoolLabel {
			t.Errorf("slice %d = %+v, want %s in %s", i, s, want.name, want.domain)
		}
	}
}
