package admission

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/tas"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Topology-aware placement: the pod sets whose templates ask for a topology
// of nested levels (block → subblock → host) are placed by tas.Place in
// the tree of the flavor they are charged to, in the same plan as the
// workload's other slices and its quota. Their slices are not confined to
// whole domains: they share domains with other workloads, taking room on
// nodes as unconfined slices do (slots), and each slice's reservation
// carries the labels of the deepest domain that holds all its nodes, so a
// node relabelled out of it leaves the plan.

// placeTopology places the pod sets of the demands at idx (indexes into
// demands) into r, node by node; taken are nodes other slices of this plan
// hold whole.
func (p *planning) placeTopology(sc *atomicScope, demands []sliceDemand, idx []int, taken map[string]bool, r *state.Reservation) *placement.Failure {
	bySlice := map[int]*sliceDemand{}
	var in []int
	for _, i := range idx {
		d := &demands[i]
		bySlice[d.slice] = d
		in = append(in, d.slice)
	}
	for _, group := range podSetGroups(p.self.Model.TopologyPodSets(in)) {
		if len(group) > 1 {
			if f := p.placeGroup(sc, group, bySlice, taken, r); f != nil {
				return f
			}
			continue
		}
		if _, f := p.placePodSet(sc, group[0], bySlice, taken, r, podSetScope{}); f != nil {
			return f
		}
	}
	return nil
}

// podSetGroups are the pod sets in order, those of one group
// (podset-group-name) together, where the group's first one is.
func podSetGroups(sets []workload.PodSet) [][]workload.PodSet {
	var out [][]workload.PodSet
	at := map[string]int{}
	for _, ps := range sets {
		g := ps.Request.Group
		if i, ok := at[g]; ok && g != "" {
			out[i] = append(out[i], ps)
			continue
		}
		if g != "" {
			at[g] = len(out)
		}
		out = append(out, []workload.PodSet{ps})
	}
	return out
}

// podSetScope narrows where a pod set may go: within the domain of path
// pin (nil: anywhere), outside the domains whose paths (joined by "/")
// avoid holds. empty counts each node's allocatable, less what this plan
// put there, rather than its free room: whether the pod set would ever fit.
type podSetScope struct {
	pin   []string
	avoid map[string]bool
	empty bool
}

// avoids reports whether the leaf's path lies in a domain s avoids.
func (s podSetScope) avoids(path []string) bool {
	for i := range path {
		if s.avoid[strings.Join(path[:i+1], "/")] {
			return true
		}
	}
	return false
}

// placeGroup places the pod sets of one group (a leader and its workers:
// podset-group-name) in one domain of their level: the largest first,
// where it alone would go, then the others within the domain it took. When
// one of them does not fit there, the group is placed again outside that
// domain, until a domain takes them all or none is left: one plan, all of
// the group or none of it. A group that would not fit even in the flavor's
// nodes emptied is unresolvable, as a pod set alone is.
func (p *planning) placeGroup(sc *atomicScope, group []workload.PodSet, bySlice map[int]*sliceDemand, taken map[string]bool, r *state.Reservation) *placement.Failure {
	first := 0
	for i, ps := range group {
		if ps.Pods > group[first].Pods {
			first = i
		}
	}
	order := append([]workload.PodSet{group[first]}, slices.Delete(slices.Clone(group), first, first+1)...)
	saved := cloneUsed(p.used)
	restore := func() {
		p.used = cloneUsed(saved)
		for _, ps := range order {
			for _, s := range ps.Slices {
				delete(r.Slices, s)
			}
		}
	}
	f := p.tryGroup(sc, order, bySlice, taken, r, false, restore)
	if f == nil {
		return nil
	}
	restore()
	if !f.Unresolvable && p.tryGroup(sc, order, bySlice, taken, r, true, restore) != nil {
		f = &placement.Failure{Unresolvable: true, Message: f.Message}
	}
	restore()
	return f
}

// tryGroup is one pass of placeGroup over the domains, on the nodes' free
// room, or on their allocatable (empty: would the group ever fit?).
// restore undoes what a failed try of one domain planned.
func (p *planning) tryGroup(sc *atomicScope, order []workload.PodSet, bySlice map[int]*sliceDemand, taken map[string]bool, r *state.Reservation,
	empty bool, restore func()) *placement.Failure {
	var names []string
	for _, ps := range order {
		names = append(names, ps.Name)
	}
	avoid := map[string]bool{}
	var last *placement.Failure
domains:
	for {
		path, f := p.placePodSet(sc, order[0], bySlice, taken, r, podSetScope{avoid: avoid, empty: empty})
		if f != nil {
			if last == nil {
				return f
			}
			// The largest fits nowhere else: say why the group did not fit
			// where it did last.
			return last
		}
		for _, ps := range order[1:] {
			// Spread over top-level domains (path nil, preferred): the
			// others go where they fit.
			if _, f := p.placePodSet(sc, ps, bySlice, taken, r, podSetScope{pin: path, empty: empty}); f != nil {
				if path == nil {
					return f
				}
				last = &placement.Failure{Message: fmt.Sprintf("group %q (pod sets %s) fits whole in no one domain: where %s fit last (%s), %s",
					order[0].Request.Group, strings.Join(names, ", "), order[0].Name, strings.Join(path, "/"), f.Message)}
				restore()
				avoid[strings.Join(path, "/")] = true
				continue domains
			}
		}
		return nil
	}
}

// cloneUsed copies a plan's used room, node by node.
func cloneUsed(used map[string]workload.Resources) map[string]workload.Resources {
	out := maps.Clone(used)
	for n, u := range out {
		out[n] = maps.Clone(u)
	}
	return out
}

// placePodSet places one pod set: all its demanded slices, or none, within
// scope. It returns the path of the domain the pod set was kept within
// (nil when it was spread over top-level domains, or had nothing left to
// place).
func (p *planning) placePodSet(sc *atomicScope, ps workload.PodSet, bySlice map[int]*sliceDemand, taken map[string]bool, r *state.Reservation, scope podSetScope) ([]string, *placement.Failure) {
	fail := func(unresolvable bool, format string, args ...any) *placement.Failure {
		return &placement.Failure{Unresolvable: unresolvable, Message: fmt.Sprintf("pod set %s: ", ps.Name) + fmt.Sprintf(format, args...)}
	}
	levels, flavor, f := p.topologyLevels(ps)
	if f != nil {
		return nil, f
	}
	if err := ps.Request.CheckLevels(levels); err != nil {
		return nil, fail(true, "%v", err)
	}
	// The pod set's pods still to place, and what each asks: all alike.
	var pods int32
	var request workload.Resources
	var qualifies []func(string) bool
	sigs := map[string]bool{} // shapes of one signature qualify for the same nodes
	for _, s := range ps.Slices {
		for _, sh := range bySlice[s].demand.Shapes {
			if request == nil {
				request = sh.Request
			} else if !maps.Equal(request, sh.Request) {
				return nil, fail(true, "its pods ask for different resources (%s and %s); a pod set placed by topology has pods all alike", request, sh.Request)
			}
			if !sigs[sh.Sig] {
				sigs[sh.Sig] = true
				qualifies = append(qualifies, sh.Qualifies)
			}
			pods += int32(sh.Count)
		}
	}
	if pods == 0 {
		return nil, nil
	}
	var selector map[string]string
	if flavor != nil {
		selector = flavor.NodeLabels
	}
	tree := p.tree(sc, levels, selector)
	req := tas.PodSetRequest(ps.Request, tree, pods)
	if req.Mode == tas.Preferred && p.sn.Roomy() {
		// The roomiest domains of its level alone: it must fit in one of
		// them, as the fleet's plan would put it; a plan climbing a level
		// over them is not the fleet's, so it fails and the plan is made
		// again on every node, which climbs if it must.
		req.Mode = tas.Required
	}
	pin := p.pinned(ps, levels, req)
	if scope.pin != nil {
		pin = scope.pin
	}
	fit := tas.Fit{}
	asks := request.Asks()
	for _, leaf := range tree.Domains(len(levels) - 1) {
		if pin != nil && (len(leaf.Path) < len(pin) || !slices.Equal(leaf.Path[:len(pin)], pin)) || scope.avoids(leaf.Path) {
			continue
		}
		for _, name := range leaf.Nodes {
			n := int32(0)
			if scope.empty {
				n = p.everFitOn(name, asks, qualifies, pods)
			} else {
				n = p.fitOn(name, asks, qualifies, taken, pods)
			}
			if n > 0 {
				fit[name] = n
			}
		}
	}
	placed, tf := tas.Place(tree, fit, req)
	if tf != nil {
		// Unresolvable when even the flavor's nodes, empty, could not hold
		// the pod set: no eviction or finished workload will help.
		return nil, fail(!p.everFits(tree, req, asks, qualifies), "%s", tas.InResources(tf.Message, request))
	}
	// Pods in rank order: each slice, in index order, takes the next of
	// its pods' nodes, so a slice's pods sit as close as the placement
	// put consecutive pods.
	next, left := 0, int32(0)
	if len(placed.Nodes) > 0 {
		left = placed.Nodes[0].Pods
	}
	for _, s := range ps.Slices {
		d := bySlice[s]
		sr := &state.SliceReservation{Shapes: d.shapes}
		var used []string
		for shape, sh := range d.demand.Shapes {
			for want := int32(sh.Count); want > 0; {
				if left == 0 {
					next++
					left = placed.Nodes[next].Pods
				}
				node := placed.Nodes[next].Node
				n := min(want, left)
				sr.Slots = append(sr.Slots, placement.Slot{Node: node, Shape: shape, Count: int(n)})
				p.use(node, sh.Request, int64(n))
				used = append(used, node)
				want -= n
				left -= n
			}
		}
		sr.NodeLabels = p.sliceLabels(selector, levels, used)
		if d.demand.Pods() == p.self.Model.Slices[s].Pods {
			// Planned whole: completion index i takes the i-th pod's
			// node, in the placement's rank order.
			for _, sl := range sr.Slots {
				for range sl.Count {
					sr.Ranks = append(sr.Ranks, sl.Node)
				}
			}
		}
		r.Slices[s] = sr
	}
	if placed.Level < 0 || len(placed.Domains) != 1 {
		return nil, nil
	}
	return slices.Clone(placed.Domains[0].Path), nil
}

// pinned is the path of the required domain the pod set's pods already
// placed sit in, or those of its group (nil: none placed, or not
// required): a pod replaced, or the rest of a pod set partly placed, joins
// its siblings there.
func (p *planning) pinned(ps workload.PodSet, levels []string, req tas.Request) []string {
	if req.Mode != tas.Required {
		return nil
	}
	for _, m := range p.self.Members {
		if m.Node == "" || m.Member.Slice >= len(p.self.Model.Slices) || !sameSet(p.self.Model.Slices[m.Member.Slice].Topology, ps.Request) {
			continue
		}
		n := p.sn.Nodes[m.Node]
		if n == nil {
			continue
		}
		path := make([]string, 0, req.Level+1)
		for _, key := range levels[:req.Level+1] {
			v, ok := n.Node.Labels()[key]
			if !ok {
				return nil
			}
			path = append(path, v)
		}
		return path
	}
	return nil
}

// sameSet reports whether a slice asking r belongs with the pod set asking
// ps: the same pod set, or one of its group (podset-group-name), which is
// kept in the same domain.
func sameSet(r, ps *workload.TopologyRequest) bool {
	return r == ps || r != nil && ps.Group != "" && r.Group == ps.Group
}

// topologyLevels are the levels the pod set is placed by, and the flavor
// they come from. A workload charged to a queue uses the Topology of the
// flavor its pod set is charged to; one outside queues is placed by the
// levels its request names, above the node itself.
func (p *planning) topologyLevels(ps workload.PodSet) ([]string, *quota.Flavor, *placement.Failure) {
	if p.sn.Quota == nil {
		return tas.QueuelessLevels(ps.Request), nil, nil
	}
	flavors := p.charged[ps.Slices[0]]
	var names []string
	for _, f := range flavors {
		names = append(names, f.Name)
		if f.Topology == "" {
			continue
		}
		if f.TopologyLevels == nil {
			return nil, nil, &placement.Failure{Unresolvable: true, Message: fmt.Sprintf(
				"pod set %s: ResourceFlavor %s names Topology %q, which does not exist: create it, or fix spec.topologyName", ps.Name, f.Name, f.Topology)}
		}
		return f.TopologyLevels, f, nil
	}
	return nil, nil, &placement.Failure{Unresolvable: true, Message: fmt.Sprintf(
		"pod set %s asks for a topology (%s), but ResourceFlavor %s it is charged to names none: give the flavor spec.topologyName, or queue it where one does",
		ps.Name, ps.Request, strings.Join(names, ", "))}
}

// tree is the topology tree of levels over the snapshot's nodes (those of
// scope, when set) that carry every label of selector: the one the
// snapshot came with (the state's index keeps them across decisions), else
// built once per snapshot. A tree handed by the index may list a node the
// snapshot lacks; every reader skips such a node.
func (p *planning) tree(sc *atomicScope, levels []string, selector map[string]string) *topology.Tree {
	key := topology.TreeKey(levels, selector)
	if sc != nil {
		key += "\x01" + sc.value
	}
	if t, ok := p.sn.Trees[key]; ok {
		return t
	}
	var names []string
	if sc != nil {
		names = sc.sortedNodes()
	} else {
		names = slices.Collect(maps.Keys(p.sn.Nodes))
	}
	nodes := map[string]map[string]string{}
	for _, name := range names {
		if n := p.sn.Nodes[name]; n != nil && quota.AdmitsNode(selector, n.Node.Labels()) {
			nodes[name] = n.Node.Labels()
		}
	}
	t := topology.NewTree(levels, nodes)
	if p.sn.Trees == nil {
		p.sn.Trees = map[string]*topology.Tree{}
	}
	p.sn.Trees[key] = t
	return t
}

// fitOn is how many pods asking request the node takes now (at most
// most): none on a node another slice of this plan holds whole, reserved
// or held by another workload, not taking pods, being replaced, or one the
// pods do not qualify for.
//
// It runs for every node of the tree each decision: the room is counted
// first, the cheapest test, and a full node is passed over without the
// others.
func (p *planning) fitOn(name string, asks workload.Asks, qualifies []func(string) bool, taken map[string]bool, most int32) int32 {
	n := p.sn.Nodes[name]
	if n == nil || !n.Node.Usable {
		return 0
	}
	free := n.Free
	if u := p.used[name]; u != nil {
		free = free.Sub(u)
	}
	fits := tas.AsksIn(free, asks, most)
	if fits == 0 || n.Node.Lifetime.Ending(p.sn.Now) || p.closed(name, n, taken) || !qualifiesAll(qualifies, name) {
		return 0
	}
	return fits
}

// everFitOn is how many pods asking request the node would take (at most
// most) were it empty but for what this plan put there.
func (p *planning) everFitOn(name string, asks workload.Asks, qualifies []func(string) bool, most int32) int32 {
	n := p.sn.Nodes[name]
	if n == nil || !qualifiesAll(qualifies, name) {
		return 0
	}
	room := n.Node.Allocatable
	if u := p.used[name]; u != nil {
		room = room.Sub(u)
	}
	return tas.AsksIn(room, asks, most)
}

// qualifiesAll reports whether node passes every qualifier.
func qualifiesAll(qualifies []func(string) bool, node string) bool {
	for _, q := range qualifies {
		if !q(node) {
			return false
		}
	}
	return true
}

// everFits reports whether the pod set would fit in tree were its nodes
// empty and taking pods: counted from their allocatable.
func (p *planning) everFits(tree *topology.Tree, req tas.Request, asks workload.Asks, qualifies []func(string) bool) bool {
	fit := tas.Fit{}
	for _, leaf := range tree.Domains(len(tree.Levels) - 1) {
		for _, name := range leaf.Nodes {
			if n := p.sn.Nodes[name]; n != nil && qualifiesAll(qualifies, name) {
				fit[name] = tas.AsksIn(n.Node.Allocatable, asks, req.Pods)
			}
		}
	}
	_, f := tas.Place(tree, fit, req)
	return f == nil
}

// use records that the plan put n pods asking request on node.
func (p *planning) use(node string, request workload.Resources, n int64) {
	if p.used == nil {
		p.used = map[string]workload.Resources{}
	}
	if p.used[node] == nil {
		p.used[node] = workload.Resources{}
	}
	p.used[node].AddScaled(request, n)
}

// sliceLabels are the labels every node of a slice carries: the flavor's,
// and the slice's path down to the deepest level at which all its nodes
// agree.
func (p *planning) sliceLabels(selector map[string]string, levels []string, nodes []string) map[string]string {
	out := maps.Clone(selector)
	if len(nodes) == 0 {
		return out
	}
	if out == nil {
		out = map[string]string{}
	}
	first := p.sn.Nodes[nodes[0]].Node.Labels()
	for _, key := range levels {
		v := first[key]
		for _, name := range nodes[1:] {
			if p.sn.Nodes[name].Node.Labels()[key] != v {
				return out
			}
		}
		out[key] = v
	}
	return out
}
