package tas

import (
	"fmt"
	"math"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

// Mode is how strictly a pod set is kept within one domain of its level.
// The zero Mode is not a mode: a request must say which it wants.
type Mode int

const (
	// Required keeps all pods in one domain of Request.Level, or places
	// none.
	Required Mode = iota + 1
	// Preferred keeps all pods in one domain of Request.Level if one takes
	// them, else in one domain of the nearest level above that does, else
	// spreads them over as few top-level domains as possible.
	Preferred
	// Unconstrained places the pods anywhere, packed into as few domains
	// as possible: Preferred, starting at Request.SliceLevel.
	Unconstrained
)

func (m Mode) String() string {
	switch m {
	case Required:
		return "Required"
	case Preferred:
		return "Preferred"
	case Unconstrained:
		return "Unconstrained"
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// Request is what a pod set asks of the topology.
type Request struct {
	// Pods is the number of pods of the pod set; they are all alike.
	Pods int32
	Mode Mode
	// Level is the index into the tree's levels of the required or
	// preferred level; Unconstrained ignores it.
	Level int
	// SliceSize is the number of pods per slice; 1 when the pod set has no
	// slices. It divides Pods.
	SliceSize int32
	// SliceLevel is the level each slice is kept within one domain of: at
	// or below Level for Required and Preferred; the last level when the
	// pod set has no slices.
	SliceLevel int
}

// Fit says how many more of the pod set's pods each node takes now (absent
// or negative: none). The caller computes it from the node's free room,
// other workloads' usage and the pod's request; the placement only counts
// it, so it is non-exclusive: workloads share a domain when room allows.
type Fit map[string]int32

// NodeCount is how many of the pod set's pods go to one node.
type NodeCount struct {
	Node string
	Pods int32
}

// Placement is where a pod set goes.
type Placement struct {
	// Level is the level the pod set is kept within: Request.Level for
	// Required, the level it fitted at for Preferred and Unconstrained,
	// and -1 when it is spread over several top-level domains.
	Level int
	// Domains are the domains of Level holding the pods: one when Level
	// is not -1, else the top-level domains used, in path order.
	Domains []*topology.TreeDomain
	// Nodes are the nodes used, none with zero pods, in rank order: the
	// chosen leaves in path order, and within a leaf its nodes in name
	// order. So pods i and i+1 share a host where they can, then the
	// lowest level above, …; each slice's pods are consecutive and within
	// one domain of SliceLevel. The counts add up to Request.Pods.
	Nodes []NodeCount
}

// Failure says why a pod set could not be placed now (or why its request
// is not valid).
type Failure struct {
	// Level is the level asked: Request.Level, or for Unconstrained
	// Request.SliceLevel.
	Level int
	// Tried is the number of domains looked at: those of Level for
	// Required, the top-level ones when even spreading fails.
	Tried int
	// Needed is the number of pods that had to fit (all of Request.Pods).
	Needed int32
	// Largest is the most pods, counted as whole slices × SliceSize, that
	// any one domain of Level takes now for Required; for a failed spread,
	// what the whole tree takes.
	Largest int32
	// Message says the above in a sentence, e.g. "needs 16 pods in one
	// cloud.google.com/gce-topology-subblock; the largest free one takes 12
	// (64 tried)", or what is wrong with the request.
	Message string
}

func (f *Failure) Error() string { return f.Message }

// Place decides where the pod set of r goes in t, given what each node
// takes now. It never modifies t or fit, and costs
// O(nodes + domains·log domains): one pass summing fits bottom-up, one
// scan per level looked at, and a sort of the children of each domain it
// descends through.
//
// The tree must be shaped as topology.NewTree builds it: each domain
// reachable once, each node listed once. Nodes are counted only at the
// last level, and domains deeper than it are not looked at.
//
// How it places, in units of slices at and above SliceLevel and of pods
// below it (a slice never straddles two domains of SliceLevel):
//   - Count: a leaf takes the sum of its nodes' fits; a domain of
//     SliceLevel takes floor(pods/SliceSize) slices; a domain above it the
//     sum of its children's slices.
//   - Choose: at the level asked, the tightest domain that takes the whole
//     set (fewest slices, then fewest pods, then first in path order), so
//     large free domains stay whole for larger sets. Preferred and
//     Unconstrained climb a level while none does, and at the top spread
//     over the fewest top-level domains.
//   - Descend: each chosen domain hands its share to its children, the
//     largest first, so it uses as few as possible, and the last one taken
//     is the smallest that completes the share, leaving the free room
//     gathered in as few domains as possible.
func Place(t *topology.Tree, fit Fit, r Request) (Placement, *Failure) {
	if f := validate(t, r); f != nil {
		return Placement{}, f
	}
	v := newView(t, fit, r)
	need := int64(r.Pods / r.SliceSize)

	var p Placement
	switch r.Mode {
	case Required:
		best, most := v.tightest(r.Level, need)
		if best < 0 {
			return Placement{}, v.requiredFailure(most)
		}
		v.doms[best].take = need
		p = Placement{Level: r.Level, Domains: []*topology.TreeDomain{v.doms[best].d}}
	default:
		from := r.AskedLevel()
		p.Level = -1
		for lvl := from; lvl >= 0; lvl-- {
			if best, _ := v.tightest(lvl, need); best >= 0 {
				v.doms[best].take = need
				p = Placement{Level: lvl, Domains: []*topology.TreeDomain{v.doms[best].d}}
				break
			}
		}
		if p.Level < 0 {
			if !v.distribute(v.level(0), need) {
				return Placement{}, v.spreadFailure(from)
			}
			for i := v.start[0]; i < v.start[1]; i++ {
				if v.doms[i].take > 0 {
					p.Domains = append(p.Domains, v.doms[i].d)
				}
			}
		}
	}
	if !v.descend() {
		return Placement{}, v.inconsistent()
	}
	nodes, ok := v.emit()
	if !ok {
		return Placement{}, v.inconsistent()
	}
	p.Nodes = nodes
	return p, nil
}

// validate returns what is wrong with r on t, if anything.
func validate(t *topology.Tree, r Request) *Failure {
	bad := func(format string, args ...any) *Failure {
		return &Failure{Level: r.Level, Needed: r.Pods, Message: "invalid request: " + fmt.Sprintf(format, args...)}
	}
	if t == nil || len(t.Levels) == 0 {
		return bad("the topology has no levels")
	}
	n := len(t.Levels)
	switch {
	case r.Mode != Required && r.Mode != Preferred && r.Mode != Unconstrained:
		return bad("unknown mode %v", r.Mode)
	case r.Pods < 1:
		return bad("%d pods; a pod set has at least 1", r.Pods)
	case r.SliceSize < 1:
		return bad("slice size %d; a slice has at least 1 pod", r.SliceSize)
	case r.Pods%r.SliceSize != 0:
		return bad("slice size %d does not divide %d pods", r.SliceSize, r.Pods)
	case r.SliceLevel < 0 || r.SliceLevel >= n:
		return bad("slice level %d is not one of the topology's %d levels", r.SliceLevel, n)
	case r.Mode == Unconstrained:
		return nil
	case r.Level < 0 || r.Level >= n:
		return bad("level %d is not one of the topology's %d levels", r.Level, n)
	case r.SliceLevel < r.Level:
		return bad("slice level %s is above the pod set's level %s", t.Levels[r.SliceLevel], t.Levels[r.Level])
	}
	return nil
}

// requiredFailure says that no domain of r.Level takes the pod set; most
// is the most slices any one takes.
func (v *view) requiredFailure(most int64) *Failure {
	r := v.r
	tried := len(v.level(r.Level))
	largest := clamp32(most * int64(r.SliceSize))
	msg := fmt.Sprintf("needs %s in one %s%s", v.demand(), v.t.Levels[r.Level], v.sliceClause(r.Level))
	if tried == 0 {
		msg += "; the topology has no node carrying every level's label"
	} else {
		msg += fmt.Sprintf("; the largest free one takes %s (%d tried)", v.supply(most), tried)
	}
	return &Failure{Level: r.Level, Tried: tried, Needed: r.Pods, Largest: largest, Message: msg}
}

// spreadFailure says that even all top-level domains together do not take
// the pod set; asked is the level it was first tried at.
func (v *view) spreadFailure(asked int) *Failure {
	r := v.r
	roots := v.level(0)
	var total int64
	for _, i := range roots {
		total += v.doms[i].slices
	}
	msg := "needs " + v.demand()
	if r.Mode == Preferred {
		msg += ", preferably in one " + v.t.Levels[r.Level]
	}
	msg += v.sliceClause(-1)
	msg += fmt.Sprintf("; the whole topology takes %s (%d %s tried)", v.supply(total), len(roots), v.t.Levels[0])
	return &Failure{Level: asked, Tried: len(roots), Needed: r.Pods, Largest: clamp32(total * int64(r.SliceSize)), Message: msg}
}

// inconsistent reports a tree whose counts do not add up: one not shaped
// as topology.NewTree builds it.
func (v *view) inconsistent() *Failure {
	return &Failure{Level: v.r.Level, Needed: v.r.Pods,
		Message: "the topology tree is inconsistent: a domain's nodes do not take what its counts say"}
}

// demand phrases the pod set for a message: its pods, or its slices.
func (v *view) demand() string {
	r := v.r
	if r.SliceSize == 1 {
		return plural(int64(r.Pods), "pod")
	}
	return fmt.Sprintf("%s of %d pods", plural(int64(r.Pods/r.SliceSize), "slice"), r.SliceSize)
}

// sliceClause says where each slice must stay, unless the pod set has no
// slices or the message already names that level (lvl; -1: none).
func (v *view) sliceClause(lvl int) string {
	if v.r.SliceSize == 1 || v.r.SliceLevel == lvl {
		return ""
	}
	return ", each slice in one " + v.t.Levels[v.r.SliceLevel]
}

// supply phrases a count of slices the way demand phrases the pod set.
func (v *view) supply(slices int64) string {
	if v.r.SliceSize == 1 {
		return fmt.Sprint(slices)
	}
	return plural(slices, "slice")
}

func plural(n int64, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func clamp32(n int64) int32 {
	return int32(min(n, math.MaxInt32))
}
