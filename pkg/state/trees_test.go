package state_test

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A snapshot of a workload whose pod sets ask for a topology comes with the
// tree of the levels they ask for, from the index's cache: the same tree
// for every decision until a node's labels change, and then one that reads
// the new labels.
func TestSnapshotCarriesTheIndexTrees(t *testing.T) {
	const subblock = "cloud.google.com/gce-topology-subblock"
	var nodes []*corev1.Node
	for i := range 4 {
		nodes = append(nodes, builders.Node(fmt.Sprintf("gpu-%d", i)).GPU("nvidia-h100-80gb", 8).
			Label(subblock, fmt.Sprintf("sb-%d", i/2)).Obj())
	}
	f := newFixture(t, nodes...)
	js := unit.JobSet("tas").Unconfined().
		Pod(func(p *builders.PodBuilder) {
			p.Request(wellknown.ResourceGPU, "8").Annotation(wellknown.RequiredTopologyAnnotation, subblock)
		}).
		ReplicatedJob("workers", 1, 2).Obj()
	f.addGang(js)
	key := topology.TreeKey([]string{subblock, corev1.LabelHostname}, nil)

	first := f.snapshot(jsKey("tas")).Trees[key]
	if first == nil {
		t.Fatalf("the snapshot has no tree %q; it has %v", key, f.snapshot(jsKey("tas")).Trees)
	}
	if got := len(first.Domains(0)); got != 2 {
		t.Fatalf("the tree has %d subblocks, want 2", got)
	}
	if again := f.snapshot(jsKey("tas")).Trees[key]; again != first {
		t.Errorf("a second decision's snapshot has another tree: the index built it again with no node changed")
	}

	// gpu-3 moves to a subblock of its own: the next snapshot's tree reads it.
	f.addNodes(builders.Node("gpu-3").GPU("nvidia-h100-80gb", 8).Label(subblock, "sb-9").Obj())
	after := f.snapshot(jsKey("tas")).Trees[key]
	if after == first {
		t.Fatal("the snapshot after a node's relabelling kept the old tree")
	}
	got := map[string][]string{}
	for _, leaf := range after.Domains(1) {
		got[leaf.Path[0]] = append(got[leaf.Path[0]], leaf.Nodes...)
	}
	want := map[string][]string{"sb-0": {"gpu-0", "gpu-1"}, "sb-1": {"gpu-2"}, "sb-9": {"gpu-3"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("subblocks after gpu-3 moved (-want +got):\n%s", diff)
	}
}
