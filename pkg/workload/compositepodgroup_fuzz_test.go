package workload

import (
	"fmt"
	"testing"

	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Bits of FuzzFromCompositePodGroup's flags: which fields the composite
// sets.
const (
	fuzzCompositeBasic = 1 << iota
	fuzzCompositeGang
	fuzzCompositeTopology
	fuzzCompositeSecondTopology
	fuzzCompositeAtomic
	fuzzCompositeDomain
	fuzzCompositeParent
	fuzzCompositeBasicChild
)

// FuzzFromCompositePodGroup derives CompositePodGroups of any policy,
// minGroupCount, constraints, annotations and parent, with up to seven
// children of any minCount: a basic composite is no gang; a gang is one
// slice per child in name order, then one per missing group up to
// minGroupCount, each child mapped to its slice; everything else is an
// InvalidError naming the composite and a field.
func FuzzFromCompositePodGroup(f *testing.F) {
	f.Add(int32(2), uint8(fuzzCompositeGang), wellknown.NodePoolLabel, "", uint8(2), int32(4))
	f.Add(int32(3), uint8(fuzzCompositeGang|fuzzCompositeTopology|fuzzCompositeAtomic), wellknown.GCETopologyBlockLabel, wellknown.GCETopologyBlockLabel, uint8(1), int32(2))
	f.Add(int32(1), uint8(fuzzCompositeGang|fuzzCompositeDomain|fuzzCompositeBasicChild), "", "bad key!", uint8(3), int32(1))
	f.Add(int32(0), uint8(fuzzCompositeBasic|fuzzCompositeGang|fuzzCompositeParent|fuzzCompositeSecondTopology), "", "", uint8(0), int32(-1))
	f.Fuzz(func(t *testing.T, minGroups int32, flags uint8, topologyKey, annotationKey string, children uint8, childMin int32) {
		cpg := &schedv1alpha3.CompositePodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "c", Annotations: map[string]string{}}}
		policy := &cpg.Spec.SchedulingPolicy
		if flags&fuzzCompositeBasic != 0 {
			policy.Basic = &schedv1alpha3.CompositeBasicSchedulingPolicy{}
		}
		if flags&fuzzCompositeGang != 0 {
			policy.Gang = &schedv1alpha3.CompositeGangSchedulingPolicy{MinGroupCount: minGroups}
		}
		for _, bit := range []uint8{fuzzCompositeTopology, fuzzCompositeSecondTopology} {
			if flags&bit != 0 {
				if cpg.Spec.SchedulingConstraints == nil {
					cpg.Spec.SchedulingConstraints = &schedv1alpha3.CompositePodGroupSchedulingConstraints{}
				}
				cpg.Spec.SchedulingConstraints.Topology = append(cpg.Spec.SchedulingConstraints.Topology, schedv1alpha3.TopologyConstraint{Key: topologyKey})
			}
		}
		if flags&fuzzCompositeAtomic != 0 {
			cpg.Annotations[wellknown.AtomicTopologyAnnotation] = annotationKey
		}
		if flags&fuzzCompositeDomain != 0 {
			cpg.Annotations[wellknown.PodGroupDomainKeyAnnotation] = annotationKey
		}
		if flags&fuzzCompositeParent != 0 {
			parent := "top"
			cpg.Spec.ParentCompositePodGroupName = &parent
		}
		var groups []*schedv1beta1.PodGroup
		for i := range int(children % 8) {
			// In reverse name order: the slices come sorted anyway.
			pg := &schedv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("g%d", 7-i)}}
			pg.Spec.SchedulingPolicy.Gang = &schedv1beta1.GangSchedulingPolicy{MinCount: childMin}
			if i == 0 && flags&fuzzCompositeBasicChild != 0 {
				pg.Spec.SchedulingPolicy = schedv1beta1.PodGroupSchedulingPolicy{Basic: &schedv1beta1.BasicSchedulingPolicy{}}
			}
			groups = append(groups, pg)
		}
		before := cpg.DeepCopy()
		w, err := FromCompositePodGroup(cpg, groups, wellknown.NodePoolLabel)
		if !equalYAML(before, cpg) {
			t.Fatalf("FromCompositePodGroup modified the composite")
		}
		if !fuzzCheckGang(t, w, err, "CompositePodGroup.scheduling.k8s.io ns/c", policy.Basic != nil && policy.Gang == nil) {
			return
		}
		if policy.Gang == nil || policy.Basic != nil || minGroups < 1 || minGroups > maxSlices || cpg.Spec.ParentCompositePodGroupName != nil {
			t.Fatalf("accepted %+v", cpg.Spec)
		}
		fuzzCheckModel(t, w, Key{SourceCompositePodGroup, "ns", "c"}, true)
		if want := max(len(groups), int(minGroups)); len(w.Slices) != want {
			t.Fatalf("%d slices, want %d", len(w.Slices), want)
		}
		if len(w.Children) != len(groups) {
			t.Fatalf("children %v, want %d", w.Children, len(groups))
		}
		for i := range groups {
			name := fmt.Sprintf("g%d", 8-len(groups)+i)
			if at, ok := w.Children[Key{SourceInTreePodGroup, "ns", name}]; !ok || at != i || w.Slices[i].Name != name || w.Slices[i].Pods != int(childMin) {
				t.Fatalf("child %s: slice %d (%v), %+v", name, at, ok, w.Slices[i])
			}
		}
	})
}
