// Package admission decides where a gang goes: from a state.Snapshot it
// plans every slice of the workload's current gang at once — a distinct
// free domain per confined slice, room on nodes for every pod — and returns
// the reservation to commit, or why there is none. PreEnqueue and
// PreFilter run the steps of a pod's way into and through a scheduling
// cycle in order against the shared state (admit, classify, plan on a
// snapshot, commit), one call for each of the plugins' extension points,
// and return outcomes the glue maps to statuses and notices. It holds no
// state of its own.
package admission

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Plan decides where the snapshot's workload (sn.Self) goes.
func Plan(sn *state.Snapshot) (*state.Reservation, *placement.Failure) {
	self := sn.Self
	if self == nil || self.Model == nil {
		return nil, &placement.Failure{Message: "the workload is not known yet"}
	}
	if sn.Qualifiers == nil {
		sn.Qualifiers = map[string]func(string) bool{}
	}
	p := &planning{sn: sn, self: self, quals: sn.Qualifiers, planned: map[int]bool{}}
	if f := p.scattered(); f != nil {
		return nil, f
	}
	demands, ownDomains := p.demands()
	for _, d := range demands {
		p.planned[d.slice] = true
	}
	if q := sn.Quota; q != nil && q.Problem != nil {
		return nil, state.QuotaFailure(q.Problem)
	}
	if sn.AtomicKey != "" && len(demands) > 0 {
		return p.planAtomic(demands, ownDomains)
	}
	return p.planIn(nil, demands, ownDomains)
}

// planIn plans the demands on the candidates of scope (nil: the whole
// snapshot), charging the workload's queue when it waits for admission.
func (p *planning) planIn(sc *atomicScope, demands []sliceDemand, ownDomains map[string]map[string]int) (*state.Reservation, *placement.Failure) {
	q := p.sn.Quota
	if q == nil {
		return p.place(sc, demands, ownDomains)
	}
	needs := q.Needs
	if sc != nil {
		needs = p.needsIn(sc, needs)
	}
	// Quota and domains are granted together: each slice is charged to a
	// flavor (in the queue's order) and placed only on that flavor's
	// nodes; when the domains of the chosen flavors cannot take the
	// workload, the next flavors are tried.
	excluded := quota.Exclusions{}
	var last *placement.Failure
	for {
		charge, problem := q.View.Assign(q.ClusterQueue, needs, excluded)
		if problem != nil {
			if last != nil {
				return nil, last
			}
			return nil, state.QuotaFailure(problem)
		}
		r, fail := p.place(sc, p.onFlavors(demands, q.View, charge), ownDomains)
		if fail == nil {
			r.Charge = charge
			return r, nil
		}
		last = fail
		grew := false
		for _, d := range demands {
			for _, f := range charge.Flavors[d.slice] {
				if !excluded[d.slice][f] {
					excluded.Exclude(d.slice, f)
					grew = true
				}
			}
		}
		if !grew {
			return nil, fail
		}
	}
}

// onFlavors restricts each slice's pods to the nodes of the flavors it is
// charged to.
func (p *planning) onFlavors(demands []sliceDemand, view *quota.View, c *quota.Charge) []sliceDemand {
	out := make([]sliceDemand, len(demands))
	p.charged = map[int][]*quota.Flavor{}
	for i, d := range demands {
		out[i] = d
		names := slices.Sorted(maps.Values(c.Flavors[d.slice]))
		names = slices.Compact(names)
		var flavors []*quota.Flavor
		for _, name := range names {
			f := view.Flavor(name)
			if f != nil {
				p.charged[d.slice] = append(p.charged[d.slice], f)
			}
			if f != nil && len(f.NodeLabels) > 0 {
				flavors = append(flavors, f)
			}
		}
		if len(flavors) == 0 {
			continue
		}
		onNode := func(node string) bool {
			n := p.sn.Nodes[node]
			if n == nil {
				return false
			}
			for _, f := range flavors {
				if !f.Matches(n.Node.Labels()) {
					return false
				}
			}
			return true
		}
		shapes := make([]planner.Shape, len(d.demand.Shapes))
		for j, sh := range d.demand.Shapes {
			qualifies := sh.Qualifies
			sh.Qualifies = func(node string) bool { return onNode(node) && qualifies(node) }
			sh.Sig += "|flavors=" + strings.Join(names, ",")
			shapes[j] = sh
		}
		out[i].demand.Shapes = shapes
	}
	return out
}

// place plans the demands: a free domain for every confined slice, room
// on nodes for every pod.
func (p *planning) place(sc *atomicScope, demands []sliceDemand, ownDomains map[string]map[string]int) (*state.Reservation, *placement.Failure) {
	sn, self := p.sn, p.self
	model := self.Model
	r := &state.Reservation{
		Holder:  self.Holder,
		Attempt: model.RestartAttempt,
		Staged:  self.Staged,
		Slices:  map[int]*state.SliceReservation{},
	}
	byKey := map[string][]int{}
	var unconfined, topo []int
	for i := range demands {
		sl := &model.Slices[demands[i].slice]
		switch {
		case sl.DomainKey != "":
			byKey[sl.DomainKey] = append(byKey[sl.DomainKey], i)
		case sl.Topology != nil:
			topo = append(topo, i)
		default:
			unconfined = append(unconfined, i)
		}
	}
	p.used = nil
	taken := map[string]bool{}
	for _, key := range slices.Sorted(maps.Keys(byKey)) {
		req := planner.Request{Until: sn.RunUntil}
		for _, i := range byKey[key] {
			req.Slices = append(req.Slices, demands[i].demand)
		}
		if len(p.sn.Domains[key]) == 0 {
			// No node carries the key at all: a typo in the exclusive
			// topology, or pools not labelled. Say which key.
			return nil, &placement.Failure{Unresolvable: true, Message: fmt.Sprintf(
				"no node carries the label %s that its exclusive topology names, so its %d confined slice(s) have no domain at all: label the nodes of its node pools, or fix the exclusive-topology key",
				key, len(req.Slices))}
		}
		domains := p.domains(key, ownDomains[key], taken, sc)
		plan, fail := planner.MakePlan(req, domains)
		if fail != nil {
			return nil, fail
		}
		for _, i := range byKey[key] {
			d := &demands[i]
			a := plan[d.slice]
			r.Slices[d.slice] = &state.SliceReservation{DomainKey: key, Domain: a.Domain, Slots: a.Slots, Shapes: d.shapes}
			for _, n := range sn.Domains[key][a.Domain] {
				taken[n] = true
			}
		}
	}
	if len(topo) > 0 {
		if f := p.placeTopology(sc, demands, topo, taken, r); f != nil {
			return nil, f
		}
	}
	if len(unconfined) > 0 {
		var ds []planner.SliceDemand
		for _, i := range unconfined {
			ds = append(ds, demands[i].demand)
		}
		plan, fail := planner.PlaceUnconfined(ds, p.unconfinedNodes(taken, sc), sn.RunUntil)
		if fail != nil {
			return nil, fail
		}
		for _, i := range unconfined {
			d := &demands[i]
			r.Slices[d.slice] = &state.SliceReservation{Slots: plan[d.slice].Slots, Shapes: d.shapes}
		}
	}
	return r, nil
}

type planning struct {
	sn    *state.Snapshot
	self  *state.WorkloadView
	quals map[string]func(string) bool
	// planned lists the slices this plan places (not already whole).
	planned map[int]bool
	// held are the domains other workloads' confined slices run in, by
	// key (see heldByOther); nil until first asked.
	held map[string]map[string]bool
	// charged are the flavors each slice is charged to in the quota
	// assignment being placed (see onFlavors).
	charged map[int][]*quota.Flavor
	// used is what this plan's topology pod sets put on each node so far
	// (see placeTopology).
	used map[string]workload.Resources
}

// heldByOther reports whether n lies in a domain a confined slice of
// another workload runs in: no pod of this workload, confined or not,
// goes there.
func (p *planning) heldByOther(n *state.NodeView) bool {
	if p.held == nil {
		p.held = map[string]map[string]bool{}
		for _, m := range p.sn.Nodes {
			for h := range m.Holders {
				if !h.Blocks(&p.self.Holder) {
					continue
				}
				v := p.sn.Workloads[h.Key]
				if v == nil || v.Model == nil {
					continue
				}
				for _, sl := range v.Model.Slices {
					if sl.DomainKey == "" {
						continue
					}
					if value, ok := m.Node.Labels()[sl.DomainKey]; ok {
						if p.held[sl.DomainKey] == nil {
							p.held[sl.DomainKey] = map[string]bool{}
						}
						p.held[sl.DomainKey][value] = true
					}
				}
			}
		}
	}
	for key, values := range p.held {
		if v, ok := n.Node.Labels()[key]; ok && values[v] {
			return true
		}
	}
	return false
}

// domains lists key's domains (those of scope, when set) as the planner
// sees them: free ones, and for the others why this workload may not use
// them.
func (p *planning) domains(key string, own map[string]int, taken map[string]bool, sc *atomicScope) []planner.Domain {
	var values []string
	if sc != nil {
		values = sc.domains[key]
	} else {
		values = p.sn.DomainValues(key)
	}
	out := make([]planner.Domain, 0, len(values))
	for _, v := range values {
		if p.sn.Elided[key][v] {
			// Held by another workload, its nodes left out of the
			// snapshot: unusable, and nothing else is read of it (a plan
			// that fails is made again on a full snapshot).
			out = append(out, planner.Domain{Name: v, Unavailable: "held by another workload"})
			continue
		}
		d := planner.Domain{Name: v}
		for _, name := range p.sn.Domains[key][v] {
			n := p.sn.Nodes[name]
			d.Nodes = append(d.Nodes, p.plannerNode(name, n))
			d.Kept = d.Kept || n.Kept
			if d.Unavailable != "" {
				continue
			}
			switch {
			case taken[name]:
				d.Unavailable = "taken by another slice of this workload"
			case n.Reserved:
				d.Unavailable = fmt.Sprintf("reserved for %s", n.ReservedBy)
			default:
				if h, ok := workload.FirstBlocking(n.Holders, &p.self.Holder); ok {
					d.Unavailable = fmt.Sprintf("held by %s", h)
				}
			}
		}
		if j, held := own[v]; held && d.Unavailable == "" && !p.planned[j] {
			d.Unavailable = fmt.Sprintf("held by slice %d of this workload", j)
		}
		if why, ok := p.self.Rejected[topology.DomainRef{Key: key, Value: v}]; ok && d.Unavailable == "" {
			d.Unavailable = why
		}
		out = append(out, d)
	}
	return out
}

// closed reports whether no pod of this plan outside a confined slice may
// use node n: another slice of this plan holds it whole, it is reserved
// for another workload or lies in a domain another holds, or the
// workload's pods were rejected there.
func (p *planning) closed(name string, n *state.NodeView, taken map[string]bool) bool {
	if taken[name] || n.Reserved || p.heldByOther(n) {
		return true
	}
	_, rejected := p.self.Rejected[topology.DomainRef{Value: name}]
	return rejected
}

func (p *planning) unconfinedNodes(taken map[string]bool, sc *atomicScope) []planner.Node {
	var names []string
	if sc != nil {
		names = sc.sortedNodes()
	} else {
		names = slices.Sorted(maps.Keys(p.sn.Nodes))
	}
	out := make([]planner.Node, 0, len(names))
	for _, name := range names {
		n := p.sn.Nodes[name]
		if p.closed(name, n, taken) {
			continue
		}
		pn := p.plannerNode(name, n)
		if u := p.used[name]; u != nil {
			// What this plan's topology pod sets took.
			pn.Free = pn.Free.Sub(u)
		}
		out = append(out, pn)
	}
	return out
}

// plannerNode is a snapshot node as the planner sees it, its lifetime read
// at the snapshot's time.
func (p *planning) plannerNode(name string, n *state.NodeView) planner.Node {
	l := n.Node.Lifetime
	return planner.Node{Name: name, Allocatable: n.Node.Allocatable, Free: n.Free, Usable: n.Node.Usable,
		EndsAt: l.End, Ending: l.Ending(p.sn.Now)}
}
