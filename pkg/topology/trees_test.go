package topology

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

const groupKey = "example.com/node-group"

var gpuLevels = []string{blockKey, subblockKey}

// gpu is a GPU node of block b and subblock s in node group "tas".
func gpu(name, b, s string) *nodeB {
	return node(name).label(blockKey, b).label(subblockKey, s).label(groupKey, "tas")
}

// leaves lists a tree's leaves as "path: nodes".
func leaves(t *Tree) []string {
	var out []string
	for _, d := range t.Domains(len(t.Levels) - 1) {
		out = append(out, d.ID()+": "+joinNames(d.Nodes))
	}
	return out
}

func joinNames(names []string) string {
	s := ""
	for i, n := range names {
		if i > 0 {
			s += ","
		}
		s += n
	}
	return s
}

func TestIndexTreeIsKeptUntilANodeChangeCouldAlterIt(t *testing.T) {
	tas := map[string]string{groupKey: "tas"}
	cases := []struct {
		name string
		// change is applied to an index holding n1 (b1/s1) and n2 (b1/s2)
		// of group tas, and n3 (b1/s1) of no group.
		change func(ix *Index)
		kept   bool
		want   []string
	}{
		{"nothing", func(*Index) {}, true, []string{"b1/s1: n1", "b1/s2: n2"}},
		{"a label no tree reads", func(ix *Index) { ix.Upsert(gpu("n1", "b1", "s1").label("example.com/other", "x").obj()) }, true,
			[]string{"b1/s1: n1", "b1/s2: n2"}},
		{"a node of the selector turns NotReady", func(ix *Index) { ix.Upsert(gpu("n1", "b1", "s1").notReady().obj()) }, true,
			[]string{"b1/s1: n1", "b1/s2: n2"}},
		{"a node outside the selector moves", func(ix *Index) {
			ix.Upsert(node("n3").label(blockKey, "b2").label(subblockKey, "s9").obj())
		}, true, []string{"b1/s1: n1", "b1/s2: n2"}},
		{"a node outside the selector added", func(ix *Index) { ix.Upsert(node("n4").label(blockKey, "b1").label(subblockKey, "s1").obj()) }, true,
			[]string{"b1/s1: n1", "b1/s2: n2"}},
		{"a node of the selector added", func(ix *Index) { ix.Upsert(gpu("n4", "b2", "s1").obj()) }, false,
			[]string{"b1/s1: n1", "b1/s2: n2", "b2/s1: n4"}},
		{"a node relabelled into another subblock", func(ix *Index) { ix.Upsert(gpu("n1", "b1", "s2").obj()) }, false,
			[]string{"b1/s2: n1,n2"}},
		{"a node losing a level's label", func(ix *Index) {
			ix.Upsert(node("n2").label(blockKey, "b1").label(groupKey, "tas").obj())
		}, false, []string{"b1/s1: n1"}},
		{"a node leaving the selector", func(ix *Index) { ix.Upsert(gpu("n2", "b1", "s2").label(groupKey, "other").obj()) }, false,
			[]string{"b1/s1: n1"}},
		{"a node joining the selector", func(ix *Index) { ix.Upsert(gpu("n3", "b1", "s1").obj()) }, false,
			[]string{"b1/s1: n1,n3", "b1/s2: n2"}},
		{"a node of the selector deleted", func(ix *Index) { ix.Delete("n1") }, false, []string{"b1/s2: n2"}},
		{"a node outside the selector deleted", func(ix *Index) { ix.Delete("n3") }, true, []string{"b1/s1: n1", "b1/s2: n2"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ix := build(nil, gpu("n1", "b1", "s1"), gpu("n2", "b1", "s2"), node("n3").label(blockKey, "b1").label(subblockKey, "s1"))
			before := ix.Tree(gpuLevels, tas)
			if again := ix.Tree(gpuLevels, tas); again != before {
				t.Fatal("a second call built the tree again")
			}
			tc.change(ix)
			after := ix.Tree(gpuLevels, tas)
			if kept := after == before; kept != tc.kept {
				t.Errorf("tree kept: %v, want %v", kept, tc.kept)
			}
			if diff := gocmp.Diff(tc.want, leaves(after)); diff != "" {
				t.Errorf("leaves after the change (-want +got):\n%s", diff)
			}
			// A tree handed out earlier is a value: it still shows what
			// it was built from.
			if diff := gocmp.Diff([]string{"b1/s1: n1", "b1/s2: n2"}, leaves(before)); diff != "" {
				t.Errorf("the earlier tree changed (-want +got):\n%s", diff)
			}
		})
	}
}

func TestIndexTreesOfOtherLevelsOrSelectorsAreApart(t *testing.T) {
	ix := build(nil, gpu("n1", "b1", "s1"), gpu("n2", "b2", "s1"))
	all := ix.Tree(gpuLevels, nil)
	blocks := ix.Tree([]string{blockKey}, nil)
	tas := ix.Tree(gpuLevels, map[string]string{groupKey: "tas"})
	none := ix.Tree(gpuLevels, map[string]string{groupKey: "other"})
	if all == tas || all == blocks {
		t.Fatal("trees of different levels or selectors are one")
	}
	if got, want := leaves(blocks), []string{"b1: n1", "b2: n2"}; !gocmp.Equal(got, want) {
		t.Errorf("blocks: %v, want %v", got, want)
	}
	if got := leaves(none); len(got) != 0 {
		t.Errorf("a selector no node matches: %v", got)
	}
	ix.Upsert(gpu("n1", "b1", "s1").label(groupKey, "other").obj())
	if ix.Tree(gpuLevels, nil) != all {
		t.Error("a tree with no selector was dropped though no label it reads changed")
	}
	if ix.Tree(gpuLevels, map[string]string{groupKey: "tas"}) == tas {
		t.Error("the tree of the selector n1 left was kept")
	}
	if got, want := leaves(ix.Tree(gpuLevels, map[string]string{groupKey: "other"})), []string{"b1/s1: n1"}; !gocmp.Equal(got, want) {
		t.Errorf("the selector n1 joined: %v, want %v", got, want)
	}
}
