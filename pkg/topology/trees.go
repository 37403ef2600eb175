package topology

import (
	"maps"
	"slices"
	"strings"
)

// trees caches the Trees an Index was asked for, by levels and node
// selector. A Tree is an immutable value: a cached one is handed to every
// caller (a decision's copy included) until a node change could alter it,
// and then dropped, not updated, so that copies already handed out keep
// what they read.
type trees map[string]*cachedTree

type cachedTree struct {
	tree *Tree
	// keys are the labels the tree depends on: its levels' and its
	// selector's.
	keys     []string
	selector map[string]string
}

// TreeKey names a tree by its levels and selector, in a form no two
// different pairs share (label keys and values contain neither "\x00" nor
// "\x01"): the Index caches trees by it, and a decision's snapshot keeps
// the trees it was handed and those it built by it.
func TreeKey(levels []string, selector map[string]string) string {
	var b strings.Builder
	for _, l := range levels {
		b.WriteString(l)
		b.WriteByte(0)
	}
	b.WriteByte(1)
	for _, k := range slices.Sorted(maps.Keys(selector)) {
		b.WriteString(k)
		b.WriteByte(0)
		b.WriteString(selector[k])
		b.WriteByte(0)
	}
	return b.String()
}

// Tree returns the tree of levels (label keys, highest first) over the
// nodes that carry every label of selector (see NewTree). It is built on
// first use and kept until a node change could alter it: a node of the
// selector added or removed, or a label it depends on changed. The tree is
// shared: callers must not modify it.
func (ix *Index) Tree(levels []string, selector map[string]string) *Tree {
	key := TreeKey(levels, selector)
	if c, ok := ix.trees[key]; ok {
		return c.tree
	}
	nodes := map[string]map[string]string{}
	for name, n := range ix.nodes {
		if matches(n.Obj.Labels, selector) {
			nodes[name] = n.Obj.Labels
		}
	}
	c := &cachedTree{tree: NewTree(levels, nodes), selector: maps.Clone(selector)}
	c.keys = append(slices.Clone(levels), slices.Collect(maps.Keys(selector))...)
	if ix.trees == nil {
		ix.trees = trees{}
	}
	ix.trees[key] = c
	return c.tree
}

// dropTrees drops the cached trees a change of a node from old labels to
// labels (nil: the node is absent) could alter.
func (ix *Index) dropTrees(old, labels map[string]string) {
	for key, c := range ix.trees {
		was, is := old != nil && matches(old, c.selector), labels != nil && matches(labels, c.selector)
		if !was && !is {
			continue
		}
		if was != is || slices.ContainsFunc(c.keys, func(k string) bool {
			ov, oOK := old[k]
			nv, nOK := labels[k]
			return oOK != nOK || ov != nv
		}) {
			delete(ix.trees, key)
		}
	}
}

// matches reports whether labels carry every label of selector.
func matches(labels, selector map[string]string) bool {
	for k, v := range selector {
		if got, ok := labels[k]; !ok || got != v {
			return false
		}
	}
	return true
}
