package tas

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

const (
	blockKey    = "cloud.google.com/gce-topology-block"
	subblockKey = "cloud.google.com/gce-topology-subblock"
	hostKey     = "cloud.google.com/gce-topology-host"
	hostnameKey = "kubernetes.io/hostname"
)

// fleetB builds a GPU fleet of blocks × subblocks × hosts and what each
// host takes. Block values are b0, b1, …; every block has subblocks s0, s1,
// … (so subblock values repeat across blocks); a host's node is named
// "b<i>-s<j>-h<k>" and carries that name as its host label. Indices are
// zero-padded so that name order is index order. Every host starts with a
// fit of 0.
type fleetB struct {
	levels []string
	nodes  map[string]map[string]string
	fits   Fit
	// perSub is the number of hosts per subblock.
	perSub int
}

func fleet(blocks, subblocks, hosts int) *fleetB {
	f := &fleetB{
		levels: []string{blockKey, subblockKey, hostKey},
		nodes:  map[string]map[string]string{},
		fits:   Fit{},
		perSub: hosts,
	}
	for b := range blocks {
		for s := range subblocks {
			for h := range hosts {
				bv, sv := "b"+pad(b, blocks), "s"+pad(s, subblocks)
				name := bv + "-" + sv + "-h" + pad(h, hosts)
				f.nodes[name] = map[string]string{blockKey: bv, subblockKey: sv, hostKey: name, hostnameKey: name}
			}
		}
	}
	return f
}

func pad(i, n int) string {
	return fmt.Sprintf("%0*d", len(strconv.Itoa(max(n-1, 0))), i)
}

// free sets the fit of the nodes under each of where (a node name or a
// prefix of one ending at a dash: "b0", "b0-s1", "b0-s1-h2"; none: every
// node) to pods.
func (f *fleetB) free(pods int32, where ...string) *fleetB {
	for name := range f.nodes {
		if len(where) == 0 || slices.ContainsFunc(where, func(w string) bool {
			return name == w || strings.HasPrefix(name, w+"-")
		}) {
			f.fits[name] = pods
		}
	}
	return f
}

// hosts sets the fits of the hosts of one subblock, in host order.
func (f *fleetB) hosts(subblock string, pods ...int32) *fleetB {
	for i, p := range pods {
		name := subblock + "-h" + pad(i, f.perSub)
		if _, ok := f.nodes[name]; !ok {
			panic("no node " + name)
		}
		f.fits[name] = p
	}
	return f
}

// levelsOf replaces the levels the tree is built over.
func (f *fleetB) levelsOf(keys ...string) *fleetB {
	f.levels = keys
	return f
}

// node adds a node with the given labels (key, value pairs) and fit.
func (f *fleetB) node(name string, pods int32, kv ...string) *fleetB {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	f.nodes[name] = m
	f.fits[name] = pods
	return f
}

func (f *fleetB) tree() *topology.Tree { return topology.NewTree(f.levels, f.nodes) }

// outcome is a placement or failure in a form tables state by value.
type outcome struct {
	Level   int
	Domains []string
	// Nodes is "node:pods" in order, space separated.
	Nodes string
	// Failure, when not nil, replaces the fields above.
	Failure *Failure
}

func outcomeOf(p Placement, f *Failure) outcome {
	if f != nil {
		return outcome{Failure: f}
	}
	o := outcome{Level: p.Level}
	for _, d := range p.Domains {
		o.Domains = append(o.Domains, d.ID())
	}
	var parts []string
	for _, n := range p.Nodes {
		parts = append(parts, fmt.Sprintf("%s:%d", n.Node, n.Pods))
	}
	o.Nodes = strings.Join(parts, " ")
	return o
}

// check asserts what holds of every placement: the counts add up to the
// pod set and stay within each node's fit; nodes come in rank order (leaves
// in path order, a leaf's nodes in name order, each once); the pods stay
// within the domain(s) reported, which for Required is one of the level
// asked; and every slice, read off the nodes in order SliceSize pods at a
// time, lies within one domain of SliceLevel.
func check(t testing.TB, tr *topology.Tree, fit Fit, r Request, p Placement) {
	t.Helper()
	last := len(tr.Levels) - 1
	leafOf := map[string]*topology.TreeDomain{}
	rank := map[*topology.TreeDomain]int{}
	for i, d := range tr.Domains(last) {
		rank[d] = i
		for _, n := range d.Nodes {
			leafOf[n] = d
		}
	}
	var sum int64
	prev := -1
	prevNode := ""
	for _, nc := range p.Nodes {
		leaf := leafOf[nc.Node]
		switch {
		case leaf == nil:
			t.Fatalf("node %q is not in the tree", nc.Node)
		case nc.Pods < 1 || nc.Pods > fit[nc.Node]:
			t.Fatalf("node %q gets %d pods, fit %d", nc.Node, nc.Pods, fit[nc.Node])
		case rank[leaf] < prev || rank[leaf] == prev && nc.Node <= prevNode:
			t.Fatalf("node %q out of rank order in %v", nc.Node, p.Nodes)
		}
		prev, prevNode = rank[leaf], nc.Node
		sum += int64(nc.Pods)
	}
	if sum != int64(r.Pods) {
		t.Fatalf("placed %d pods, want %d", sum, r.Pods)
	}

	switch {
	case p.Level >= 0:
		if len(p.Domains) != 1 || p.Domains[0].Level != p.Level {
			t.Fatalf("placement at level %d has domains %v", p.Level, ids(p.Domains))
		}
		for _, nc := range p.Nodes {
			if up(leafOf[nc.Node], p.Level) != p.Domains[0] {
				t.Fatalf("node %q is outside %s", nc.Node, p.Domains[0].ID())
			}
		}
	case r.Mode == Required:
		t.Fatalf("required placement spread over %v", ids(p.Domains))
	default:
		used := map[*topology.TreeDomain]bool{}
		for _, nc := range p.Nodes {
			used[up(leafOf[nc.Node], 0)] = true
		}
		if len(used) != len(p.Domains) || len(p.Domains) < 2 {
			t.Fatalf("spread placement reports %v, uses %d top-level domains", ids(p.Domains), len(used))
		}
		for i, d := range p.Domains {
			if !used[d] || i > 0 && p.Domains[i-1].ID() >= d.ID() {
				t.Fatalf("spread placement reports %v: unused or out of order", ids(p.Domains))
			}
		}
	}
	switch {
	case r.Mode == Required && p.Level != r.Level,
		r.Mode == Preferred && p.Level > r.Level,
		r.Mode == Unconstrained && p.Level > r.SliceLevel:
		t.Fatalf("%v placement at level %d for %+v", r.Mode, p.Level, r)
	}

	// Slices: SliceSize pods at a time, in rank order.
	var in *topology.TreeDomain
	var filled int32
	for _, nc := range p.Nodes {
		d := up(leafOf[nc.Node], r.SliceLevel)
		for left := nc.Pods; left > 0; {
			if filled == 0 {
				in = d
			} else if d != in {
				t.Fatalf("a slice straddles %s and %s: %v", in.ID(), d.ID(), p.Nodes)
			}
			k := min(left, r.SliceSize-filled)
			filled = (filled + k) % r.SliceSize
			left -= k
		}
	}
}

// up is d's ancestor (or d) at level.
func up(d *topology.TreeDomain, level int) *topology.TreeDomain {
	for d != nil && d.Level > level {
		d = d.Parent
	}
	return d
}

func ids(ds []*topology.TreeDomain) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.ID())
	}
	return out
}

// slicesIn counts, independently of Place, the whole slices of size that
// domain d (at or above sliceLevel) takes.
func slicesIn(d *topology.TreeDomain, fit Fit, size int32, sliceLevel int) int64 {
	if d.Level < sliceLevel {
		var n int64
		for _, c := range d.Children {
			n += slicesIn(c, fit, size, sliceLevel)
		}
		return n
	}
	var pods int64
	var walk func(d *topology.TreeDomain)
	walk = func(d *topology.TreeDomain) {
		for _, n := range d.Nodes {
			pods += int64(max(fit[n], 0))
		}
		for _, c := range d.Children {
			walk(c)
		}
	}
	walk(d)
	return pods / int64(size)
}
