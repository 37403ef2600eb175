package tas

import (
	"cmp"
	"slices"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

// view is a tree flattened level by level for one call of Place, with what
// each domain takes now and what is placed in it. Each level's domains are
// contiguous and in path order, and a domain's children are contiguous in
// the next level: so an index orders domains by path within a level, and
// every child comes after its parent.
type view struct {
	t   *topology.Tree
	fit Fit
	r   Request
	// doms are all domains, level 0 first.
	doms []dom
	// start[i] is the index of the first domain of level i;
	// start[len(levels)] == len(doms).
	start []int
	// scratch is reused to sort the children of one domain.
	scratch []int
}

// dom is one domain in a view.
type dom struct {
	d     *topology.TreeDomain
	level int
	// lo and hi bound its children's indices: doms[lo:hi].
	lo, hi int
	// pods is how many pods its nodes take now: the sum of their fits.
	pods int64
	// slices is how many whole slices it takes now; set at and above
	// SliceLevel only. A slice never straddles two domains of SliceLevel,
	// so at SliceLevel it is floor(pods/SliceSize) and above it the sum of
	// the children's.
	slices int64
	// take is what is placed in it, in the units of room.
	take int64
}

// newView flattens t and counts what each domain takes, bottom-up.
func newView(t *topology.Tree, fit Fit, r Request) *view {
	v := &view{t: t, fit: fit, r: r, start: make([]int, len(t.Levels)+1)}
	v.doms = make([]dom, 0, count(t))
	for _, d := range t.Roots {
		if d != nil {
			v.doms = append(v.doms, dom{d: d})
		}
	}
	last := len(t.Levels) - 1
	for lvl := 0; lvl < last; lvl++ {
		v.start[lvl+1] = len(v.doms)
		for i := v.start[lvl]; i < v.start[lvl+1]; i++ {
			lo := len(v.doms)
			for _, c := range v.doms[i].d.Children {
				if c != nil {
					v.doms = append(v.doms, dom{d: c, level: lvl + 1})
				}
			}
			v.doms[i].lo, v.doms[i].hi = lo, len(v.doms)
		}
	}
	v.start[last+1] = len(v.doms)

	size := int64(r.SliceSize)
	for i := len(v.doms) - 1; i >= 0; i-- {
		x := &v.doms[i]
		if x.level == last {
			for _, n := range x.d.Nodes {
				x.pods += int64(max(fit[n], 0))
			}
		}
		for _, c := range v.doms[x.lo:x.hi] {
			x.pods += c.pods
			x.slices += c.slices
		}
		switch {
		case x.level == r.SliceLevel:
			x.slices = x.pods / size
		case x.level > r.SliceLevel:
			x.slices = 0
		}
	}
	return v
}

// count is the number of domains of t, found without visiting the leaves
// (the bulk of a tree), so that a view is allocated once.
func count(t *topology.Tree) int {
	n := len(t.Roots)
	cur := t.Roots
	for lvl := 0; lvl+1 < len(t.Levels); lvl++ {
		var next []*topology.TreeDomain
		for _, d := range cur {
			if d == nil {
				continue
			}
			n += len(d.Children)
			if lvl+2 < len(t.Levels) {
				next = append(next, d.Children...)
			}
		}
		cur = next
	}
	return n
}

// level lists the indices of the domains of level lvl.
func (v *view) level(lvl int) []int {
	out := make([]int, 0, v.start[lvl+1]-v.start[lvl])
	for i := v.start[lvl]; i < v.start[lvl+1]; i++ {
		out = append(out, i)
	}
	return out
}

// room is what domain i takes now, in the units it is handed: slices at
// and above SliceLevel, pods below it.
func (v *view) room(i int) int64 {
	if v.doms[i].level <= v.r.SliceLevel {
		return v.doms[i].slices
	}
	return v.doms[i].pods
}

// tighter orders domains by how little room they would have left after
// taking the same share: less room first, then fewer pods (slices being
// equal), then path order.
func (v *view) tighter(a, b int) int {
	return cmp.Or(cmp.Compare(v.room(a), v.room(b)), cmp.Compare(v.doms[a].pods, v.doms[b].pods), cmp.Compare(a, b))
}

// tightest returns the domain of level lvl (at or above SliceLevel) that
// takes need slices with the least room to spare, or -1 if none does; and
// the most slices any domain of the level takes.
func (v *view) tightest(lvl int, need int64) (best int, most int64) {
	best = -1
	for i := v.start[lvl]; i < v.start[lvl+1]; i++ {
		most = max(most, v.doms[i].slices)
		if v.doms[i].slices >= need && (best < 0 || v.tighter(i, best) < 0) {
			best = i
		}
	}
	return best, most
}

// distribute hands units over the domains cands (siblings, or the
// top-level domains), setting their take, and reports whether they had
// room enough. It uses as few domains as it can by taking the largest
// first, each whole; the one that completes the share is instead the
// tightest of those left that can, so the room left over is gathered in
// the domains not used. Ties go to path order.
func (v *view) distribute(cands []int, units int64) bool {
	var total int64
	for _, i := range cands {
		total += v.room(i)
	}
	if total < units {
		return false
	}
	slices.SortFunc(cands, func(a, b int) int {
		return cmp.Or(cmp.Compare(v.room(b), v.room(a)), cmp.Compare(v.doms[a].pods, v.doms[b].pods), cmp.Compare(a, b))
	})
	left := units
	for k, i := range cands {
		if left == 0 {
			break
		}
		if v.room(i) < left {
			v.doms[i].take = v.room(i)
			left -= v.room(i)
			continue
		}
		// Sorted largest first, those that can complete the share are a
		// run from k on; the tightest is the first of its last room value.
		last := i
		for _, j := range cands[k+1:] {
			if v.room(j) < left {
				break
			}
			if v.room(j) < v.room(last) {
				last = j
			}
		}
		v.doms[last].take = left
		left = 0
	}
	return left == 0
}

// descend hands each chosen domain's take down to its children, level by
// level, and reports whether every share found room (it does in a tree
// shaped as topology.NewTree builds it).
func (v *view) descend() bool {
	for lvl := 0; lvl+1 < len(v.t.Levels); lvl++ {
		for i := v.start[lvl]; i < v.start[lvl+1]; i++ {
			x := &v.doms[i]
			if x.take == 0 {
				continue
			}
			units := x.take
			if lvl == v.r.SliceLevel {
				// Below SliceLevel room counts pods: a slice is split
				// only over the children of its own domain.
				units *= int64(v.r.SliceSize)
			}
			v.scratch = v.scratch[:0]
			for c := x.lo; c < x.hi; c++ {
				v.scratch = append(v.scratch, c)
			}
			if !v.distribute(v.scratch, units) {
				return false
			}
		}
	}
	return true
}

// emit lists the pods placed in each leaf over its nodes: leaves in path
// order, a leaf's nodes in name order, each filled up to its fit. It
// reports whether every leaf's nodes took its share.
func (v *view) emit() ([]NodeCount, bool) {
	last := len(v.t.Levels) - 1
	var out []NodeCount
	for i := v.start[last]; i < v.start[last+1]; i++ {
		left := v.doms[i].take
		if last == v.r.SliceLevel {
			left *= int64(v.r.SliceSize)
		}
		for _, n := range v.doms[i].d.Nodes {
			if left == 0 {
				break
			}
			k := min(int64(max(v.fit[n], 0)), left)
			if k > 0 {
				out = append(out, NodeCount{Node: n, Pods: int32(k)})
				left -= k
			}
		}
		if left != 0 {
			return nil, false
		}
	}
	return out, true
}
