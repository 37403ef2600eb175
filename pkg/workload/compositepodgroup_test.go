package workload_test

import (
	"strings"
	"testing"

	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestFromCompositePodGroup(t *testing.T) {
	const pool, block, subblock = wellknown.NodePoolLabel, wellknown.GCETopologyBlockLabel, wellknown.GCETopologySubblockLabel
	child := func(name string, minCount int32) *builders.InTreePodGroupBuilder {
		return builders.InTreePodGroup("ns", name, minCount).Parent("train")
	}
	type slice struct {
		name     string
		pods     int
		domain   string
		required string
	}
	for name, tc := range map[string]struct {
		composite *builders.CompositePodGroupBuilder
		children  []*builders.InTreePodGroupBuilder
		// wantNil: not a gang; wantErr: the field the error names.
		wantNil    bool
		wantErr    string
		wantSlices []slice
		wantAtomic string
		wantQueue  string
	}{
		"two groups, a whole pool each, in name order": {
			composite:  builders.CompositePodGroup("ns", "train", 2),
			children:   []*builders.InTreePodGroupBuilder{child("slice-b", 4), child("slice-a", 4)},
			wantSlices: []slice{{name: "slice-a", pods: 4, domain: pool}, {name: "slice-b", pods: 4, domain: pool}},
		},
		"children's constraints: a shared subblock each; the composite's: one block": {
			composite:  builders.CompositePodGroup("ns", "train", 2).Topology(block),
			children:   []*builders.InTreePodGroupBuilder{child("a", 2).Topology(subblock), child("b", 2).Topology(subblock)},
			wantSlices: []slice{{name: "a", pods: 2, required: subblock}, {name: "b", pods: 2, required: subblock}},
			wantAtomic: block,
		},
		"a child with our annotation takes its domain whole": {
			composite:  builders.CompositePodGroup("ns", "train", 1),
			children:   []*builders.InTreePodGroupBuilder{child("a", 8).Exclusive(subblock)},
			wantSlices: []slice{{name: "a", pods: 8, domain: subblock}},
		},
		"the composite's domain-key annotation: a whole domain per group, unless the group says": {
			composite:  builders.CompositePodGroup("ns", "train", 3).Annotation(wellknown.PodGroupDomainKeyAnnotation, subblock),
			children:   []*builders.InTreePodGroupBuilder{child("a", 2), child("b", 2).Topology(block), child("c", 2).Exclusive(pool)},
			wantSlices: []slice{{name: "a", pods: 2, domain: subblock}, {name: "b", pods: 2, required: block}, {name: "c", pods: 2, domain: pool}},
		},
		"a bad domain-key annotation": {composite: builders.CompositePodGroup("ns", "train", 1).Annotation(wellknown.PodGroupDomainKeyAnnotation, "not a key!"),
			wantErr: "metadata.annotations[" + wellknown.PodGroupDomainKeyAnnotation + "]"},
		"fewer children than minGroupCount: the gang waits for the rest": {
			composite:  builders.CompositePodGroup("ns", "train", 3),
			children:   []*builders.InTreePodGroupBuilder{child("a", 2)},
			wantSlices: []slice{{name: "a", pods: 2, domain: pool}, {name: "(group 2 of 3, not created yet)", pods: 1, domain: pool}, {name: "(group 3 of 3, not created yet)", pods: 1, domain: pool}},
		},
		"more children than minGroupCount: all of them together": {
			composite:  builders.CompositePodGroup("ns", "train", 1),
			children:   []*builders.InTreePodGroupBuilder{child("a", 1), child("b", 1)},
			wantSlices: []slice{{name: "a", pods: 1, domain: pool}, {name: "b", pods: 1, domain: pool}},
		},
		"the groups' queue is the gang's": {
			composite:  builders.CompositePodGroup("ns", "train", 2),
			children:   []*builders.InTreePodGroupBuilder{child("a", 1).Queue("team"), child("b", 1)},
			wantSlices: []slice{{name: "a", pods: 1, domain: pool}, {name: "b", pods: 1, domain: pool}}, wantQueue: "team",
		},
		"the composite's queue, its groups agreeing": {
			composite:  builders.CompositePodGroup("ns", "train", 1).Queue("team"),
			children:   []*builders.InTreePodGroupBuilder{child("a", 1).Queue("team")},
			wantSlices: []slice{{name: "a", pods: 1, domain: pool}}, wantQueue: "team",
		},
		"groups naming two queues": {composite: builders.CompositePodGroup("ns", "train", 2).Queue("team"),
			children: []*builders.InTreePodGroupBuilder{child("a", 1), child("b", 1).Queue("other")}, wantErr: "child PodGroup b"},
		"atomic annotation agreeing with the constraint": {
			composite:  builders.CompositePodGroup("ns", "train", 1).Topology(block).Annotation(wellknown.AtomicTopologyAnnotation, block),
			children:   []*builders.InTreePodGroupBuilder{child("a", 1)},
			wantSlices: []slice{{name: "a", pods: 1, domain: pool}}, wantAtomic: block,
		},
		"basic composite: its groups are on their own": {composite: builders.CompositePodGroup("ns", "train", 2).Basic(), wantNil: true},
		"zero minGroupCount":                           {composite: builders.CompositePodGroup("ns", "train", 0), wantErr: "spec.schedulingPolicy.gang.minGroupCount"},
		"huge minGroupCount":                           {composite: builders.CompositePodGroup("ns", "train", 1<<30), wantErr: "spec.schedulingPolicy.gang.minGroupCount"},
		"nested composite":                             {composite: builders.CompositePodGroup("ns", "train", 1).Parent("top"), wantErr: "spec.parentCompositePodGroupName"},
		"two constraints":                              {composite: builders.CompositePodGroup("ns", "train", 1).Topology(block).Topology(pool), wantErr: "spec.schedulingConstraints.topology"},
		"empty constraint":                             {composite: builders.CompositePodGroup("ns", "train", 1).Topology(""), wantErr: "spec.schedulingConstraints.topology[0].key"},
		"bad constraint":                               {composite: builders.CompositePodGroup("ns", "train", 1).Topology("not a key!"), wantErr: "spec.schedulingConstraints.topology[0].key"},
		"constraint and annotation disagree": {composite: builders.CompositePodGroup("ns", "train", 1).Topology(block).Annotation(wellknown.AtomicTopologyAnnotation, pool),
			wantErr: "spec.schedulingConstraints.topology[0].key"},
		"a basic child in a gang": {composite: builders.CompositePodGroup("ns", "train", 2),
			children: []*builders.InTreePodGroupBuilder{child("a", 2), child("b", 2).Basic()}, wantErr: "child PodGroup b has the basic policy"},
		"a malformed child": {composite: builders.CompositePodGroup("ns", "train", 2),
			children: []*builders.InTreePodGroupBuilder{child("a", 2), child("b", 0)}, wantErr: "spec.schedulingPolicy.gang.minCount"},
	} {
		t.Run(name, func(t *testing.T) {
			var children []*schedv1beta1.PodGroup
			for _, c := range tc.children {
				children = append(children, c.Obj())
			}
			w, err := workload.FromCompositePodGroup(tc.composite.Obj(), children, pool)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "CompositePodGroup.scheduling.k8s.io ns/train") {
					t.Fatalf("err = %v, want one naming the composite and %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNil {
				if w != nil {
					t.Fatalf("a basic composite is no gang, got %+v", w)
				}
				return
			}
			if w.Key != (workload.Key{Source: workload.SourceCompositePodGroup, Namespace: "ns", Name: "train"}) || w.AtomicKey != tc.wantAtomic || w.QueueName != tc.wantQueue {
				t.Fatalf("key %v, atomic %q, queue %q; want atomic %q, queue %q", w.Key, w.AtomicKey, w.QueueName, tc.wantAtomic, tc.wantQueue)
			}
			if len(w.Slices) != len(tc.wantSlices) {
				t.Fatalf("%d slices, want %d: %+v", len(w.Slices), len(tc.wantSlices), w.Slices)
			}
			mapped := 0
			for i, want := range tc.wantSlices {
				s := w.Slices[i]
				got := slice{name: s.Name, pods: s.Pods, domain: s.DomainKey}
				if s.Topology != nil {
					if s.Topology.Mode != workload.TopologyRequired {
						t.Errorf("slice %d: topology %v, want required", i, s.Topology)
					}
					got.required = s.Topology.Level
				}
				if s.Index != i || got != want {
					t.Errorf("slice %d = %+v (index %d), want %+v", i, got, s.Index, want)
				}
				// A child's pods are the slice's; a missing child's slice
				// has no PodGroup to name it.
				if at, ok := w.Children[workload.Key{Source: workload.SourceInTreePodGroup, Namespace: "ns", Name: s.Name}]; ok {
					mapped++
					if at != i {
						t.Errorf("child %s maps to slice %d, want %d", s.Name, at, i)
					}
				}
			}
			if mapped != len(tc.children) || len(w.Children) != len(tc.children) {
				t.Errorf("children %v, want the %d groups", w.Children, len(tc.children))
			}
		})
	}
}
