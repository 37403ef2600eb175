package state

import (
	"cmp"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/tas"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// domainRoom keeps, for the topology levels decisions have asked about,
// the room each domain's nodes have free: so that the snapshot for
// planning a gang required in one domain of a level copies the few domains
// that could take it, not every node of the fleet (topologyNodesLocked).
//
// A domain here is a path of label values down one level of a list of
// levels (levels 0..L of a Topology), as topology.Tree names it; the free
// room of a node is its allocatable less what the live pods the state
// knows on it request, each resource at least zero (an unusable node has
// none). A domain's sum is an upper bound of what a snapshot counts free
// there: the snapshot also takes off what the scheduler's own snapshot
// counts (assumed pods) and other workloads' reservations, and a pod must
// fit on one node, not in the sum.
//
// Invariant: for every tracked spec, domains[spec][path] holds the nodes n
// with paths[n][spec] == path and the sum of their free[n], and exists only
// while it holds a node; a dirty node's contribution is what free[n] and
// paths[n] record, refreshed (taken off, counted again) before the sums
// are read. Nodes become dirty when a pod is indexed on or dropped from
// them and when they change (touch). Guarded by State.mu.
type domainRoom struct {
	// levels are the tracked specs' levels, by spec (levelsSpec).
	levels  map[string][]string
	domains map[string]map[string]*roomDomain
	// free and paths are each counted node's last contribution: its free
	// room, and per spec the path it was added under (absent: none, as
	// the node lacks a level's label).
	free  map[string]workload.Resources
	paths map[string]map[string]string
	dirty map[string]bool
}

func newDomainRoom() domainRoom {
	return domainRoom{
		levels: map[string][]string{}, domains: map[string]map[string]*roomDomain{}, free: map[string]workload.Resources{},
		paths: map[string]map[string]string{}, dirty: map[string]bool{},
	}
}

// levelsSpec names levels (highest first) in a form no two lists share.
func levelsSpec(levels []string) string { return strings.Join(levels, "\x00") }

// touch marks node's contribution stale: a pod came or went, or the node
// changed (or went away).
func (r *domainRoom) touch(node string) {
	if node != "" && len(r.levels) > 0 {
		r.dirty[node] = true
	}
}

// track starts keeping the domains of levels: every node of ix is
// counted (again) at the next refresh.
func (r *domainRoom) track(levels []string, ix *topology.Index) string {
	spec := levelsSpec(levels)
	if _, ok := r.levels[spec]; ok {
		return spec
	}
	r.levels[spec] = slices.Clone(levels)
	r.domains[spec] = map[string]*roomDomain{}
	for _, name := range ix.AllNodes() {
		if _, counted := r.free[name]; counted && !r.dirty[name] {
			r.addTo(spec, name, ix.Node(name))
			continue
		}
		r.dirty[name] = true
	}
	return spec
}

// refresh counts the dirty nodes again.
func (r *domainRoom) refresh(ix *topology.Index, pods *podIndex) {
	for name := range r.dirty {
		r.remove(name)
		if n := ix.Node(name); n != nil {
			r.free[name] = nodeFree(n, pods)
			for spec := range r.levels {
				r.addTo(spec, name, n)
			}
		}
	}
	clear(r.dirty)
}

// remove takes node's last contribution off every spec.
func (r *domainRoom) remove(name string) {
	free := r.free[name]
	for spec, path := range r.paths[name] {
		d := r.domains[spec][path]
		d.free.AddScaled(free, -1)
		delete(d.nodes, name)
		if len(d.nodes) == 0 {
			delete(r.domains[spec], path)
		}
	}
	delete(r.paths, name)
	delete(r.free, name)
}

// addTo adds node n's free room (r.free) to its domain of spec, if it
// carries every level's label.
func (r *domainRoom) addTo(spec, name string, n *topology.Node) {
	levels := r.levels[spec]
	values := make([]string, len(levels))
	for i, key := range levels {
		v, ok := n.Labels()[key]
		if !ok {
			return
		}
		values[i] = v
	}
	path := strings.Join(values, "/") // label values contain no "/"
	if r.paths[name] == nil {
		r.paths[name] = map[string]string{}
	}
	r.paths[name][spec] = path
	d := r.domains[spec][path]
	if d == nil {
		d = &roomDomain{path: values, free: workload.Resources{}, nodes: map[string]bool{}}
		r.domains[spec][path] = d
	}
	d.free.AddScaled(r.free[name], 1)
	d.nodes[name] = true
}

// nodeFree is n's allocatable less what the live pods on it request, each
// resource at least zero; nothing for a node not taking pods.
func nodeFree(n *topology.Node, pods *podIndex) workload.Resources {
	if !n.Usable {
		return workload.Resources{}
	}
	free := workload.Resources{}
	free.AddScaled(n.Allocatable, 1)
	for p := range pods.on(n.Obj.Name) {
		if !p.Terminal {
			free.AddScaled(p.Request, -1)
		}
	}
	for name, v := range free {
		if v < 0 {
			free[name] = 0
		}
	}
	return free
}

// roomDomain is one domain of a spec: its path (the values of the
// levels), its nodes and the sum of their free room.
type roomDomain struct {
	path  []string
	free  workload.Resources
	nodes map[string]bool
}

// roomyDomain is a domain that may take a pod set, and how many of its
// pods at most.
type roomyDomain struct {
	*roomDomain
	most int64
}

// tightest lists, of spec's domains, at most limit that may take pods
// pods asking asks (their sums hold as many), the tightest first (fewest
// such pods, then path in natural order, as tas.Place breaks ties), and
// their nodes. It costs a pass over spec's domains, none over nodes but
// those listed.
func (r *domainRoom) tightest(spec string, asks workload.Asks, pods int64, limit int) [][]string {
	var best []roomyDomain
	for _, dom := range r.domains[spec] {
		most := asks.Count(dom.free)
		if most < pods && most >= 0 || len(best) == limit && most > best[limit-1].most {
			continue
		}
		d := roomyDomain{roomDomain: dom, most: most}
		at, _ := slices.BinarySearchFunc(best, d, compareRoomy)
		if at >= limit {
			continue
		}
		best = slices.Insert(best, at, d)
		if len(best) > limit {
			best = best[:limit]
		}
	}
	out := make([][]string, 0, len(best))
	for _, d := range best {
		names := make([]string, 0, len(d.nodes))
		for name := range d.nodes {
			names = append(names, name)
		}
		out = append(out, names)
	}
	return out
}

func compareRoomy(a, b roomyDomain) int {
	if c := cmp.Compare(a.most, b.most); c != 0 {
		return c
	}
	return slices.CompareFunc(a.path, b.path, topology.CompareNatural)
}

// narrowCandidates is how many domains of its level a snapshot for
// planning copies for each pod set required in one (topologyNodesLocked):
// the tightest by their sums, as the plan would choose among them, with a
// few more in case the tightest's room is scattered over nodes too full
// for a pod. When none of them takes the pod set, the plan fails and is
// made again on every node (Snapshot.Partial).
const narrowCandidates = 3

// topologyNodesLocked lists the nodes a snapshot for planning copies for
// w when every active slice of it is in a pod set required or preferred in
// one domain of a level (podset-required-topology,
// podset-preferred-topology): the nodes of the few domains of
// that level whose free room could take the pod set, tightest first
// (domainRoom.tightest), for each Topology the pod set may be placed by
// (its flavors', or the levels its request names outside queues). ok is
// false when the snapshot must hold every node: another kind of slice
// (sliced or unconstrained), a grouped pod set, pods of w already placed (they pin the
// domain the rest joins), or levels the plan cannot resolve (it says why
// on every node).
func (cp copier) topologyNodesLocked(w *Workload, active []int, q *QuotaDecision) (names []string, ok bool) {
	s := cp.s
	for _, i := range active {
		r := w.model.Slices[i].Topology
		if r == nil || (r.Mode != workload.TopologyRequired && r.Mode != workload.TopologyPreferred) || r.Level == "" || r.Group != "" {
			return nil, false
		}
	}
	for _, p := range w.members {
		if p.Node != "" && w.current(p) {
			return nil, false
		}
	}
	var levelLists [][]string
	switch {
	case q == nil:
		levelLists = nil // each pod set's own (tas.QueuelessLevels)
	case q.Problem != nil || q.ClusterQueue == nil || q.View == nil:
		return nil, false
	default:
		for _, g := range q.ClusterQueue.Groups {
			for _, name := range g.Flavors {
				f := q.View.Flavor(name)
				if f == nil || f.Topology == "" {
					continue
				}
				if f.TopologyLevels == nil {
					return nil, false
				}
				levelLists = append(levelLists, f.TopologyLevels)
			}
		}
		if len(levelLists) == 0 {
			return nil, false
		}
	}
	seen := map[string]bool{}
	for _, ps := range w.model.TopologyPodSets(active) {
		lists := levelLists
		if q == nil {
			lists = [][]string{tas.QueuelessLevels(ps.Request)}
		}
		asks := w.model.Slices[ps.Slices[0]].Request.Asks()
		for _, levels := range lists {
			at := slices.Index(levels, ps.Request.Level)
			if at < 0 {
				return nil, false
			}
			spec := s.room.track(levels[:at+1], s.nodes)
			s.room.refresh(s.nodes, &s.pods)
			for _, domain := range s.room.tightest(spec, asks, int64(ps.Pods), narrowCandidates) {
				for _, name := range domain {
					if !seen[name] && s.nodes.Node(name) != nil {
						seen[name] = true
						names = append(names, name)
					}
				}
			}
		}
	}
	return names, true
}
