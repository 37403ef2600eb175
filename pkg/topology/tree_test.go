package topology

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	gocmp "github.com/google/go-cmp/cmp"
)

const (
	blockKey    = "cloud.google.com/gce-topology-block"
	subblockKey = "cloud.google.com/gce-topology-subblock"
	hostKey     = "cloud.google.com/gce-topology-host"
	hostnameKey = "kubernetes.io/hostname"
)

// labelled is node name → labels, built by listing each node's labels as
// key, value pairs.
type labelled map[string]map[string]string

func (l labelled) add(name string, kv ...string) labelled {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	l[name] = m
	return l
}

// shape renders a tree as one line per domain, in path order: its ID, and
// at the last level its nodes. It also checks the links every domain must
// have (path, parent, level), so the tables need only state the shape.
func shape(t *testing.T, tr *Tree) []string {
	t.Helper()
	var out []string
	var walk func(ds []*TreeDomain, parent *TreeDomain, level int)
	walk = func(ds []*TreeDomain, parent *TreeDomain, level int) {
		if !slices.IsSortedFunc(ds, func(a, b *TreeDomain) int { return strings.Compare(a.Value, b.Value) }) {
			t.Errorf("children of %q not sorted by value", parent.ID())
		}
		for _, d := range ds {
			if d.Level != level || d.Parent != parent || len(d.Path) != level+1 || d.Path[level] != d.Value {
				t.Errorf("domain %q: level %d parent %q path %v; want level %d parent %q", d.ID(), d.Level, d.Parent.ID(), d.Path, level, parent.ID())
			}
			if parent != nil && !slices.Equal(d.Path[:level], parent.Path) {
				t.Errorf("domain %q: path does not extend its parent's %v", d.ID(), parent.Path)
			}
			line := d.ID()
			if level == len(tr.Levels)-1 {
				if len(d.Children) != 0 || len(d.Nodes) == 0 || !slices.IsSorted(d.Nodes) {
					t.Errorf("leaf %q: children %d, nodes %v", d.ID(), len(d.Children), d.Nodes)
				}
				line += " " + strings.Join(d.Nodes, ",")
			} else if len(d.Nodes) != 0 || len(d.Children) == 0 {
				t.Errorf("inner domain %q: nodes %v, children %d", d.ID(), d.Nodes, len(d.Children))
			}
			out = append(out, line)
			walk(d.Children, d, level+1)
		}
	}
	walk(tr.Roots, nil, 0)
	return out
}

func TestNewTree(t *testing.T) {
	gke := []string{blockKey, subblockKey, hostKey}
	cases := []struct {
		name   string
		levels []string
		nodes  labelled
		want   []string
	}{
		{
			name:   "block, subblock, host: one node per host, sorted by value",
			levels: gke,
			nodes: labelled{}.
				add("n3", blockKey, "b1", subblockKey, "s1", hostKey, "h3").
				add("n1", blockKey, "b0", subblockKey, "s1", hostKey, "h2").
				add("n2", blockKey, "b0", subblockKey, "s1", hostKey, "h1").
				add("n0", blockKey, "b0", subblockKey, "s0", hostKey, "h0"),
			want: []string{
				"b0", "b0/s0", "b0/s0/h0 n0", "b0/s1", "b0/s1/h1 n2", "b0/s1/h2 n1",
				"b1", "b1/s1", "b1/s1/h3 n3",
			},
		},
		{
			name:   "equal values under different parents are different domains",
			levels: gke,
			nodes: labelled{}.
				add("a", blockKey, "b0", subblockKey, "s1", hostKey, "h1").
				add("b", blockKey, "b1", subblockKey, "s1", hostKey, "h1"),
			want: []string{"b0", "b0/s1", "b0/s1/h1 a", "b1", "b1/s1", "b1/s1/h1 b"},
		},
		{
			name:   "hostname as the last level: each leaf is its node",
			levels: []string{blockKey, hostnameKey},
			nodes: labelled{}.
				add("x", blockKey, "b0", hostnameKey, "x").
				add("y", blockKey, "b0", hostnameKey, "y"),
			want: []string{"b0", "b0/x x", "b0/y y"},
		},
		{
			name:   "a leaf above the hosts holds several nodes, sorted",
			levels: []string{blockKey, subblockKey},
			nodes: labelled{}.
				add("n2", blockKey, "b0", subblockKey, "s0").
				add("n1", blockKey, "b0", subblockKey, "s0").
				add("n3", blockKey, "b0", subblockKey, "s1"),
			want: []string{"b0", "b0/s0 n1,n2", "b0/s1 n3"},
		},
		{
			name:   "nodes lacking a level's label are left out",
			levels: gke,
			nodes: labelled{}.
				add("ok", blockKey, "b0", subblockKey, "s0", hostKey, "h0").
				add("no-host", blockKey, "b0", subblockKey, "s0").
				add("no-block", subblockKey, "s0", hostKey, "h1").
				add("none"),
			want: []string{"b0", "b0/s0", "b0/s0/h0 ok"},
		},
		{
			name:   "an empty value is a value",
			levels: []string{blockKey, subblockKey},
			nodes:  labelled{}.add("n", blockKey, "", subblockKey, "s0"),
			want:   []string{"", "/s0 n"},
		},
		{
			name:   "no levels: empty tree",
			nodes:  labelled{}.add("n", blockKey, "b0"),
			levels: nil,
		},
		{
			name:   "no nodes: empty tree",
			levels: gke,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr := NewTree(tc.levels, tc.nodes)
			if diff := gocmp.Diff(tc.want, shape(t, tr)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
			if !slices.Equal(tr.Levels, tc.levels) {
				t.Errorf("levels %v, want %v", tr.Levels, tc.levels)
			}
		})
	}
}

func TestNewTreeKeepsNoReference(t *testing.T) {
	levels := []string{blockKey, hostnameKey}
	nodes := labelled{}.add("n", blockKey, "b0", hostnameKey, "n")
	tr := NewTree(levels, nodes)
	levels[0] = "changed"
	nodes["n"][blockKey] = "b9"
	if tr.Levels[0] != blockKey || tr.Roots[0].Value != "b0" {
		t.Errorf("tree follows its inputs: levels %v, root %q", tr.Levels, tr.Roots[0].Value)
	}
	// Children's paths are their own: extending one does not reach a sibling.
	tr = NewTree([]string{blockKey, subblockKey}, labelled{}.
		add("a", blockKey, "b0", subblockKey, "s0").
		add("b", blockKey, "b0", subblockKey, "s1"))
	kids := tr.Roots[0].Children
	_ = append(kids[0].Path, "x")
	if kids[1].Path[1] != "s1" {
		t.Errorf("sibling path changed: %v", kids[1].Path)
	}
}

func TestTreeDomains(t *testing.T) {
	nodes := labelled{}
	for _, b := range []string{"b1", "b0"} {
		for _, s := range []string{"s1", "s0"} {
			for _, h := range []string{"h1", "h0"} {
				name := fmt.Sprintf("%s-%s-%s", b, s, h)
				nodes.add(name, blockKey, b, subblockKey, s, hostKey, name)
			}
		}
	}
	tr := NewTree([]string{blockKey, subblockKey, hostKey}, nodes)
	ids := func(ds []*TreeDomain) []string {
		var out []string
		for _, d := range ds {
			out = append(out, d.ID())
		}
		return out
	}
	cases := []struct {
		level int
		want  []string
	}{
		{-1, nil},
		{0, []string{"b0", "b1"}},
		{1, []string{"b0/s0", "b0/s1", "b1/s0", "b1/s1"}},
		{2, []string{
			"b0/s0/b0-s0-h0", "b0/s0/b0-s0-h1", "b0/s1/b0-s1-h0", "b0/s1/b0-s1-h1",
			"b1/s0/b1-s0-h0", "b1/s0/b1-s0-h1", "b1/s1/b1-s1-h0", "b1/s1/b1-s1-h1",
		}},
		{3, nil},
	}
	for _, tc := range cases {
		if diff := gocmp.Diff(tc.want, ids(tr.Domains(tc.level))); diff != "" {
			t.Errorf("Domains(%d) (-want +got):\n%s", tc.level, diff)
		}
	}
	// The list is the caller's: changing it leaves the tree alone.
	roots := tr.Domains(0)
	roots[0] = nil
	if tr.Roots[0] == nil {
		t.Error("Domains(0) shares the tree's roots")
	}
	var none *Tree
	if none.Domains(0) != nil || none.LevelOf(blockKey) != -1 {
		t.Error("a nil tree has domains or levels")
	}
}

func TestTreeLevelOf(t *testing.T) {
	tr := NewTree([]string{blockKey, subblockKey, hostKey}, nil)
	for key, want := range map[string]int{blockKey: 0, subblockKey: 1, hostKey: 2, hostnameKey: -1, "": -1} {
		if got := tr.LevelOf(key); got != want {
			t.Errorf("LevelOf(%q) = %d, want %d", key, got, want)
		}
	}
}

func TestTreeDomainID(t *testing.T) {
	var d *TreeDomain
	if d.ID() != "" {
		t.Errorf("nil domain ID %q", d.ID())
	}
	d = &TreeDomain{Level: 2, Value: "h", Path: []string{"b", "s", "h"}}
	if d.ID() != "b/s/h" {
		t.Errorf("ID %q", d.ID())
	}
}

// Domains and nodes numbered as fleets number them come in their numbers'
// order, so a placement's rank order follows them: host 8 before host 10.
func TestTreeNaturalOrder(t *testing.T) {
	nodes := map[string]map[string]string{}
	for _, n := range []string{"node-10", "node-8", "node-9", "node-11"} {
		nodes[n] = map[string]string{"block": "b1", "host": n}
	}
	nodes["node-100"] = map[string]string{"block": "b10", "host": "node-100"}
	nodes["node-2"] = map[string]string{"block": "b2", "host": "node-2"}
	tr := NewTree([]string{"block", "host"}, nodes)
	var blocks, hosts []string
	for _, d := range tr.Domains(0) {
		blocks = append(blocks, d.Value)
	}
	for _, d := range tr.Domains(1) {
		hosts = append(hosts, d.Value)
	}
	if want := []string{"b1", "b2", "b10"}; !slices.Equal(blocks, want) {
		t.Errorf("blocks %v, want %v", blocks, want)
	}
	if want := []string{"node-8", "node-9", "node-10", "node-11", "node-2", "node-100"}; !slices.Equal(hosts, want) {
		t.Errorf("hosts %v, want %v", hosts, want)
	}
}
