package workload

import (
	"testing"

	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Bits of FuzzFromInTreePodGroup's flags: which fields the group sets.
const (
	fuzzInTreeBasic = 1 << iota
	fuzzInTreeGang
	fuzzInTreeTopology
	fuzzInTreeSecondTopology
	fuzzInTreeAnnotation
	fuzzInTreeParent
)

// FuzzFromInTreePodGroup derives Kubernetes PodGroups with any policy,
// minCount, topology constraints, domain annotation and parent: the basic
// policy alone is no gang; a gang is one slice of minCount pods whose
// domain is the constraint's key, else the annotation's; everything else
// is an InvalidError naming the group and a field.
func FuzzFromInTreePodGroup(f *testing.F) {
	f.Add(int32(4), uint8(fuzzInTreeGang|fuzzInTreeTopology), wellknown.NodePoolLabel, "")
	f.Add(int32(2), uint8(fuzzInTreeGang|fuzzInTreeAnnotation), "", wellknown.NodePoolLabel)
	f.Add(int32(2), uint8(fuzzInTreeGang|fuzzInTreeTopology|fuzzInTreeAnnotation), wellknown.NodePoolLabel, wellknown.ZoneLabel)
	f.Add(int32(0), uint8(fuzzInTreeBasic|fuzzInTreeGang), "", "")
	f.Add(int32(1), uint8(fuzzInTreeBasic), "bad key!", "a/b/c")
	f.Add(int32(-3), uint8(fuzzInTreeGang|fuzzInTreeTopology|fuzzInTreeSecondTopology|fuzzInTreeParent), "", "")
	f.Fuzz(func(t *testing.T, minCount int32, flags uint8, topologyKey, annotationKey string) {
		pg := &schedv1beta1.PodGroup{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "g", Annotations: map[string]string{}}}
		policy := &pg.Spec.SchedulingPolicy
		if flags&fuzzInTreeBasic != 0 {
			policy.Basic = &schedv1beta1.BasicSchedulingPolicy{}
		}
		if flags&fuzzInTreeGang != 0 {
			policy.Gang = &schedv1beta1.GangSchedulingPolicy{MinCount: minCount}
		}
		if flags&(fuzzInTreeTopology|fuzzInTreeSecondTopology) != 0 {
			pg.Spec.SchedulingConstraints = &schedv1beta1.PodGroupSchedulingConstraints{}
			for _, bit := range []uint8{fuzzInTreeTopology, fuzzInTreeSecondTopology} {
				if flags&bit != 0 {
					pg.Spec.SchedulingConstraints.Topology = append(pg.Spec.SchedulingConstraints.Topology, schedv1beta1.TopologyConstraint{Key: topologyKey})
				}
			}
		}
		if flags&fuzzInTreeAnnotation != 0 {
			pg.Annotations[wellknown.PodGroupDomainKeyAnnotation] = annotationKey
		}
		if flags&fuzzInTreeParent != 0 {
			parent := "all"
			pg.Spec.ParentCompositePodGroupName = &parent
		}
		before := pg.DeepCopy()
		w, err := FromInTreePodGroup(pg, nil, "")
		if !equalYAML(before, pg) {
			t.Fatalf("FromInTreePodGroup modified the group")
		}
		if !fuzzCheckGang(t, w, err, "PodGroup.scheduling.k8s.io ns/g", policy.Basic != nil && policy.Gang == nil) {
			return
		}
		if policy.Gang == nil || policy.Basic != nil || minCount < 1 || minCount > maxPods {
			t.Fatalf("accepted %+v", pg.Spec)
		}
		fuzzCheckModel(t, w, Key{SourceInTreePodGroup, "ns", "g"}, true)
		// A constraint alone is a required topology of a shared domain;
		// our annotation (alone, or agreeing) takes the domain whole.
		want, annotated := pg.Annotations[wellknown.PodGroupDomainKeyAnnotation]
		wantLevel := ""
		if c := pg.Spec.SchedulingConstraints; c != nil && len(c.Topology) > 0 && !annotated {
			wantLevel = topologyKey
		}
		if len(w.Slices) != 1 || w.Slices[0].Pods != int(minCount) || w.Slices[0].DomainKey != want {
			t.Fatalf("model %+v, want one slice of %d pods in %q", w.Slices, minCount, want)
		}
		if r := w.Slices[0].Topology; (r == nil) != (wantLevel == "") || (r != nil && (r.Mode != TopologyRequired || r.Level != wantLevel)) {
			t.Fatalf("topology %v, want required %q", r, wantLevel)
		}
	})
}

// equalYAML reports whether two objects serialise alike.
func equalYAML(a, b any) bool {
	x, _ := yaml.Marshal(a)
	y, _ := yaml.Marshal(b)
	return string(x) == string(y)
}

// fuzzCheckGang checks a Kubernetes group's derivation: an InvalidError
// about obj and no model, or no model without an error only for the basic
// policy. It reports whether a model came back to check further.
func fuzzCheckGang(t *testing.T, w *Workload, err error, obj string, basic bool) bool {
	t.Helper()
	switch {
	case err != nil && w != nil:
		t.Fatalf("both a model and an error: %+v, %v", w, err)
	case err != nil:
		fuzzCheckInvalid(t, err, obj)
	case w == nil && !basic:
		t.Fatalf("no gang and no error without the basic policy")
	}
	return err == nil && w != nil
}
