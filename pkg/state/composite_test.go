package state_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// addComposite feeds a CompositePodGroup and its children as the feed
// does: the composite's workload from it and its children.
func (f *fixture) addComposite(b *builders.CompositePodGroupBuilder, children ...*builders.InTreePodGroupBuilder) state.Actions {
	f.t.Helper()
	cpg := b.Obj()
	var groups []*schedv1beta1.PodGroup
	for _, c := range children {
		groups = append(groups, c.Obj())
	}
	w, err := workload.FromCompositePodGroup(cpg, groups, f.s.DefaultDomainKey())
	return f.s.Feed().UpsertSource(compositeKey(cpg.Name), w, err, corev1.ObjectReference{Kind: "CompositePodGroup", APIVersion: "scheduling.k8s.io/v1alpha3", Namespace: cpg.Namespace, Name: cpg.Name, UID: cpg.UID})
}

func compositeKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceCompositePodGroup, Namespace: unit.Namespace, Name: name}
}

func child(name string, minCount int32) *builders.InTreePodGroupBuilder {
	return builders.InTreePodGroup(unit.Namespace, name, minCount).Parent("train")
}

// A gang CompositePodGroup is one multislice workload: each child
// PodGroup a slice on its own pool, all admitted together. Its pods name
// only their child group; they are the composite's members whenever the
// composite is known, whichever came first, and follow the slices as
// children come and go.
func TestCompositePodGroupChildrenAreItsSlices(t *testing.T) {
	// As deployed: a gang that names no domain key takes whole pools.
	fixture := func(pools int) *fixture {
		f := newFixtureWith(t, state.Options{DefaultDomainKey: wellknown.NodePoolLabel}, builders.V5ePools(pools)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
		f.s.Feed().SetAPI(workload.SourceCompositePodGroup, state.APIServed)
		return f
	}
	t.Run("pods first, then the composite: one slice per child, each on its own pool", func(t *testing.T) {
		f := fixture(3)
		a, b := inTreeMembers("a", 2), inTreeMembers("b", 2)
		f.addPods(append(a, b...)...)
		if v := f.admit(a[0]); !v.Gang || !v.Wait {
			t.Fatalf("before its composite is known: %+v, want the pod to wait", v)
		}
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2), child("b", 2))
		for i, p := range []*corev1.Pod{a[0], b[1]} {
			if v := f.admit(p); !v.Gang || v.Member.Key != compositeKey("train") || v.Member.Slice != i {
				t.Fatalf("%s: %+v, want a member of slice %d of the composite", p.Name, v, i)
			}
		}
		_, r, _ := f.commit(compositeKey("train"))
		if len(r.Slices) != 2 || r.Slices[0].Domain == "" || r.Slices[0].Domain == r.Slices[1].Domain {
			t.Fatalf("reserved %+v %+v, want the two groups on two pools", r.Slices[0], r.Slices[1])
		}
		for _, s := range r.Slices {
			if len(s.Slots) != 2 {
				t.Fatalf("slice %+v, want its 2 pods", s)
			}
		}
	})
	t.Run("fewer children than minGroupCount: no child starts alone", func(t *testing.T) {
		f := fixture(3)
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2))
		a := inTreeMembers("a", 2)
		f.addPods(a...)
		if v := f.admit(a[0]); !v.Gang || !v.Wait || v.Member.Key != compositeKey("train") || !strings.Contains(v.Message, "waiting for 1 of 2 PodGroups of") {
			t.Fatalf("one group of two: %+v, want it to wait for the other", v)
		}
		// The second group comes: the gang is whole.
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2), child("b", 2))
		b := inTreeMembers("b", 2)
		f.addPods(b...)
		if _, r, _ := f.commit(compositeKey("train")); len(r.Slices) != 2 {
			t.Fatalf("reserved %+v, want both groups", r.Slices)
		}
	})
	t.Run("a child that comes first by name renumbers the slices", func(t *testing.T) {
		f := fixture(3)
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("b", 2))
		b := inTreeMembers("b", 2)
		f.addPods(b...)
		if v := f.admit(b[0]); v.Member.Slice != 0 {
			t.Fatalf("alone, b is slice 0: %+v", v)
		}
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2), child("b", 2))
		if v := f.admit(b[0]); v.Member.Key != compositeKey("train") || v.Member.Slice != 1 {
			t.Fatalf("after a: %+v, want b as slice 1", v)
		}
		a := inTreeMembers("a", 2)
		f.addPods(a...)
		if v := f.admit(a[1]); v.Member.Key != compositeKey("train") || v.Member.Slice != 0 {
			t.Fatalf("a: %+v, want slice 0", v)
		}
		if _, r, _ := f.commit(compositeKey("train")); len(r.Slices) != 2 || len(r.Slices[0].Slots) != 2 || len(r.Slices[1].Slots) != 2 {
			t.Fatalf("reserved %+v, want both groups whole", r.Slices)
		}
	})
	t.Run("an invalid composite: its pods say why", func(t *testing.T) {
		f := fixture(1)
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2))
		a := inTreeMembers("a", 2)
		f.addPods(a...)
		// The same composite, now with a basic child: refused as a whole.
		f.addComposite(builders.CompositePodGroup(unit.Namespace, "train", 2), child("a", 2), child("b", 2).Basic())
		f.s.Feed().UpsertSource(workload.Key{Source: workload.SourceInTreePodGroup, Namespace: unit.Namespace, Name: "a"}, nil,
			&workload.InvalidError{Object: "CompositePodGroup.scheduling.k8s.io ns/train", Field: "spec.schedulingPolicy.gang", Reason: "child PodGroup b has the basic policy"}, corev1.ObjectReference{})
		if v := f.admit(a[0]); !v.Unresolvable || !strings.Contains(v.Message, "child PodGroup b has the basic policy") {
			t.Fatalf("%+v, want the composite's error", v)
		}
	})
}

// The composite's topology constraint puts every slice in one domain of
// its key: with one subblock of block b0 taken, a composite of two
// one-subblock groups that must share a block goes to b1 whole, where
// the tightest fit alone would have split it over b0's free subblock and
// one of b1's.
func TestCompositePodGroupTopologyConstraintKeepsItsSlicesTogether(t *testing.T) {
	for _, tc := range []struct {
		name      string
		composite *builders.CompositePodGroupBuilder
		sameBlock bool
	}{
		{"together", builders.CompositePodGroup(unit.Namespace, "together", 2).Topology(gpuBlock), true},
		{"apart", builders.CompositePodGroup(unit.Namespace, "apart", 2), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*corev1.Node
			for _, name := range []string{"b0-s0", "b0-s1", "b1-s0", "b1-s1"} {
				nodes = append(nodes, builders.Node(name).GPU("nvidia-h100-80gb", 8).Label(corev1.LabelHostname, name).
					Label(gpuBlock, name[:2]).Label(gpuSubblock, name).Obj())
			}
			f := newFixture(t, nodes...)
			f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
			f.s.Feed().SetAPI(workload.SourceCompositePodGroup, state.APIServed)
			f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "taken", 1).Topology(gpuSubblock))
			f.addPods(gpuMembers("taken", 1, "8")...)
			_, r, _ := f.commit(workload.Key{Source: workload.SourceInTreePodGroup, Namespace: unit.Namespace, Name: "taken"})
			taken := r.Slices[0].Slots[0].Node
			child := func(name string) *builders.InTreePodGroupBuilder {
				return builders.InTreePodGroup(unit.Namespace, name, 1).Parent(tc.name).Topology(gpuSubblock)
			}
			f.addComposite(tc.composite, child("a"), child("b"))
			f.addPods(append(gpuMembers("a", 1, "8"), gpuMembers("b", 1, "8")...)...)
			_, r, _ = f.commit(compositeKey(tc.name))
			a, b := r.Slices[0].Slots[0].Node, r.Slices[1].Slots[0].Node
			if a == taken || b == taken || a == b {
				t.Fatalf("slices on %s and %s (%s taken)", a, b, taken)
			}
			if (a[:2] == b[:2]) != tc.sameBlock {
				t.Fatalf("slices on %s and %s, want them in one block: %v", a, b, tc.sameBlock)
			}
		})
	}
}
