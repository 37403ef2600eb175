package topology

import (
	"slices"
	"strings"
)

// Tree arranges nodes by the values of ordered label keys (levels, highest
// first): a domain of level i is the nodes sharing the values of levels
// 0..i, so every domain lies wholly inside one domain of each level above
// it. Values need not be unique across parents (two blocks may each have a
// subblock "s1"): a domain is named by its path, not by its value.
//
// A Tree is a value built once by NewTree and read only afterwards; nothing
// in it is updated in place.
type Tree struct {
	// Levels are the label keys, highest (coarsest) first, e.g.
	// cloud.google.com/gce-topology-block, …-subblock, …-host.
	Levels []string
	// Roots are the level-0 domains, sorted by value in natural order
	// (digits by number: h8 before h10, see CompareNatural).
	Roots []*TreeDomain
}

// TreeDomain is one domain of a Tree: the nodes whose labels carry the
// values of Path at levels 0..Level.
type TreeDomain struct {
	// Level is the index into Tree.Levels of the level this domain is of.
	Level int
	// Value is this domain's value of Tree.Levels[Level].
	Value string
	// Path is the values of levels 0..Level; len(Path) == Level+1 and
	// Path[Level] == Value.
	Path []string
	// Parent is the domain of Level-1 holding this one (nil at level 0).
	Parent *TreeDomain
	// Children are the domains of Level+1 inside this one, sorted by
	// value in natural order; empty at the last level.
	Children []*TreeDomain
	// Nodes are the names of this domain's nodes in natural order, set
	// only at the last level. Every leaf holds at least one node; when the last level
	// is kubernetes.io/hostname, exactly one.
	Nodes []string
}

// ID is the domain's path joined with "/": stable across trees built from
// the same labels and unique within a tree (label values cannot contain
// "/").
func (d *TreeDomain) ID() string {
	if d == nil {
		return ""
	}
	return strings.Join(d.Path, "/")
}

// NewTree builds the tree of the given levels (label keys, highest first)
// over nodes (node name → labels). A node lacking the label of any level is
// left out: it belongs to no domain of the levels it lacks, so it cannot be
// placed by them. With no levels the tree is empty. The tree keeps no
// reference to levels or nodes.
func NewTree(levels []string, nodes map[string]map[string]string) *Tree {
	t := &Tree{Levels: slices.Clone(levels)}
	if len(levels) == 0 {
		return t
	}
	// Built as maps keyed by value under each parent, then frozen into
	// sorted slices; a domain's identity is its place under its parent,
	// which is what makes equal values under different parents distinct.
	type draft struct {
		d    *TreeDomain
		kids map[string]*draft
	}
	roots := map[string]*draft{}
	last := len(levels) - 1
nodes:
	for name, labels := range nodes {
		for _, key := range levels {
			if _, ok := labels[key]; !ok {
				continue nodes
			}
		}
		var parent *draft
		for i, key := range levels {
			v := labels[key]
			kids := roots
			if parent != nil {
				if parent.kids == nil {
					parent.kids = map[string]*draft{}
				}
				kids = parent.kids
			}
			dr := kids[v]
			if dr == nil {
				d := &TreeDomain{Level: i, Value: v}
				if parent != nil {
					d.Parent = parent.d
					d.Path = append(slices.Clip(parent.d.Path), v)
				} else {
					d.Path = []string{v}
				}
				dr = &draft{d: d}
				kids[v] = dr
			}
			if i == last {
				dr.d.Nodes = append(dr.d.Nodes, name)
			}
			parent = dr
		}
	}
	var freeze func(kids map[string]*draft) []*TreeDomain
	freeze = func(kids map[string]*draft) []*TreeDomain {
		if len(kids) == 0 {
			return nil
		}
		out := make([]*TreeDomain, 0, len(kids))
		for _, dr := range kids {
			dr.d.Children = freeze(dr.kids)
			slices.SortFunc(dr.d.Nodes, CompareNatural)
			out = append(out, dr.d)
		}
		slices.SortFunc(out, func(a, b *TreeDomain) int { return CompareNatural(a.Value, b.Value) })
		return out
	}
	t.Roots = freeze(roots)
	return t
}

// Domains lists all domains of a level in path order (nil for a level out
// of range). It walks the tree down to that level.
func (t *Tree) Domains(level int) []*TreeDomain {
	if t == nil || level < 0 || level >= len(t.Levels) {
		return nil
	}
	cur := t.Roots
	for i := 0; i < level; i++ {
		var next []*TreeDomain
		for _, d := range cur {
			next = append(next, d.Children...)
		}
		cur = next
	}
	return slices.Clone(cur)
}

// LevelOf is the index of key among the levels, or -1 if it is not one.
func (t *Tree) LevelOf(key string) int {
	if t == nil {
		return -1
	}
	return slices.Index(t.Levels, key)
}
