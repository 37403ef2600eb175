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
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// atomicScope is what one value of the workload's atomic key (one zone)
// offers the gang: the candidate nodes carrying the value and, per domain
// key, the domains all of whose nodes carry it. A domain spread over two
// values lies in neither, and a node without the label (or with an empty
// value) in none.
type atomicScope struct {
	value string
	// nodes are sorted on first use (only unconfined slices need them
	// in order).
	nodes   []string
	sorted  bool
	domains map[string][]string
	// freeDomains and freeNodes measure the value's free room, so that
	// the roomiest value is tried first: domains with every node usable
	// and neither held nor reserved by another workload, and such nodes
	// with room for a pod of the gang.
	freeDomains, freeNodes int
	// flavors memoises whether a flavor has nodes under the value.
	flavors map[string]bool
}

func (sc *atomicScope) sortedNodes() []string {
	if !sc.sorted {
		slices.Sort(sc.nodes)
		sc.sorted = true
	}
	return sc.nodes
}

// planAtomic plans a workload whose slices must all land under one value
// of sn.AtomicKey: the whole gang (quota included) is planned under each
// value in turn, roomiest first, and takes the first under which all of it
// fits. Pods of the workload already placed (a running startup group, part
// of a slice) pin the value.
func (p *planning) planAtomic(demands []sliceDemand, own map[string]map[string]int) (*state.Reservation, *placement.Failure) {
	key := p.sn.AtomicKey
	pinned, fail := p.pinnedValue(key)
	if fail != nil {
		return nil, fail
	}
	scopes, byValue := p.atomicScopes(key, pinned, demands)
	if pinned != "" {
		sc := byValue[pinned]
		if sc == nil {
			sc = &atomicScope{value: pinned}
		}
		r, fail := p.planIn(sc, demands, own)
		if fail != nil {
			return nil, planner.AtomicFailure(key, len(demands), pinned, []planner.ValueFailure{{Value: pinned, Failure: fail}})
		}
		return r, nil
	}
	tried := make([]planner.ValueFailure, 0, len(scopes))
	for _, sc := range scopes {
		r, fail := p.planIn(sc, demands, own)
		if fail == nil {
			return r, nil
		}
		tried = append(tried, planner.ValueFailure{Value: sc.value, Failure: fail})
	}
	return nil, planner.AtomicFailure(key, len(demands), "", tried)
}

// pinnedValue is the value of key the workload's placed pods run under
// ("" when none is placed). Placed pods under two values, or on a node
// without one, leave no value the whole workload could share: it waits
// for them to end.
func (p *planning) pinnedValue(key string) (string, *placement.Failure) {
	label := wellknown.ShortLabel(key)
	pinned, by := "", ""
	for _, m := range p.self.Members {
		if m.Node == "" {
			continue
		}
		n := p.sn.Nodes[m.Node]
		if n == nil {
			continue // the node is gone, and the pod with it
		}
		v := n.Node.Labels()[key]
		switch {
		case v == "":
			return "", &placement.Failure{Message: fmt.Sprintf(
				"pod %s of the workload runs on node %s, which has no %s: its slices cannot all land within one %s", m.Name, m.Node, label, label)}
		case pinned == "":
			pinned, by = v, m.Name
		case v != pinned:
			return "", &placement.Failure{Message: fmt.Sprintf(
				"pods of the workload already run in two values of %s (%s in %s, %s in %s): its slices cannot all land within one", label, by, pinned, m.Name, v)}
		}
	}
	return pinned, nil
}

// atomicScopes groups the snapshot's candidates by their value of key, once
// per plan (one pass over the domains of the demands' keys, and one over
// the nodes when a slice is unconfined), and orders the values roomiest
// first, then by name. only, when set, keeps that value alone.
func (p *planning) atomicScopes(key, only string, demands []sliceDemand) ([]*atomicScope, map[string]*atomicScope) {
	sn := p.sn
	byValue := map[string]*atomicScope{}
	scope := func(v string) *atomicScope {
		sc := byValue[v]
		if sc == nil {
			sc = &atomicScope{value: v, domains: map[string][]string{}}
			byValue[v] = sc
		}
		return sc
	}
	requests := map[string]workload.Resources{}
	var domainKeys []string
	unconfined := false
	for _, d := range demands {
		for _, sh := range d.shapes {
			requests[sh.Sig] = sh.Request
		}
		switch k := p.self.Model.Slices[d.slice].DomainKey; {
		case k == "":
			unconfined = true
		case !slices.Contains(domainKeys, k):
			domainKeys = append(domainKeys, k)
		}
	}
	// Unconfined slices may use any node carrying the value; confined ones
	// only the nodes of its domains, which the pass over the domains
	// collects (a node in domains of two keys then counts twice, which
	// only weighs on the order).
	if unconfined {
		for name, n := range sn.Nodes {
			v := n.Node.Labels()[key]
			if v == "" || (only != "" && v != only) {
				continue
			}
			sc := scope(v)
			sc.nodes = append(sc.nodes, name)
			if p.freeNode(n) && roomForOne(n.Free, requests) {
				sc.freeNodes++
			}
		}
	}
	for _, dk := range domainKeys {
		for _, dv := range sn.DomainValues(dk) {
			names := sn.Domains[dk][dv]
			v, free, freeNodes := "", true, 0
			for _, name := range names {
				n := sn.Nodes[name]
				nv := n.Node.Labels()[key]
				if nv == "" || (v != "" && nv != v) {
					v = ""
					break
				}
				v = nv
				if p.freeNode(n) {
					if roomForOne(n.Free, requests) {
						freeNodes++
					}
				} else {
					free = false
				}
			}
			if v == "" || (only != "" && v != only) {
				continue
			}
			sc := scope(v)
			sc.domains[dk] = append(sc.domains[dk], dv)
			if free {
				sc.freeDomains++
			}
			if !unconfined {
				sc.nodes = append(sc.nodes, names...)
				sc.freeNodes += freeNodes
			}
		}
	}
	out := slices.Collect(maps.Values(byValue))
	slices.SortFunc(out, func(a, b *atomicScope) int {
		if a.freeDomains != b.freeDomains {
			return b.freeDomains - a.freeDomains
		}
		if a.freeNodes != b.freeNodes {
			return b.freeNodes - a.freeNodes
		}
		return strings.Compare(a.value, b.value)
	})
	return out, byValue
}

// freeNode reports whether a node is usable and neither reserved for nor
// held by another workload.
func (p *planning) freeNode(n *state.NodeView) bool {
	if !n.Node.Usable || n.Reserved {
		return false
	}
	for h := range n.Holders {
		if h != p.self.Holder {
			return false
		}
	}
	return true
}

// roomForOne reports whether free has room for one pod of any of the
// requests (any room at all when there are none).
func roomForOne(free workload.Resources, requests map[string]workload.Resources) bool {
	if len(requests) == 0 {
		return true
	}
	for _, r := range requests {
		if free.Count(r) != 0 {
			return true
		}
	}
	return false
}

// needsIn restricts the quota needs to flavors with nodes under the
// scope's value: a flavor of another zone cannot hold a slice there.
func (p *planning) needsIn(sc *atomicScope, needs []quota.Need) []quota.Need {
	out := make([]quota.Need, len(needs))
	for i, n := range needs {
		compatible := n.Compatible
		n.Compatible = func(f *quota.Flavor) bool {
			return (compatible == nil || compatible(f)) && p.flavorIn(f, sc)
		}
		n.CompatibleKey += "|" + p.sn.AtomicKey + "=" + sc.value
		out[i] = n
	}
	return out
}

// flavorIn reports whether any of the scope's nodes belongs to flavor f.
func (p *planning) flavorIn(f *quota.Flavor, sc *atomicScope) bool {
	if len(f.NodeLabels) == 0 {
		return true
	}
	if v, ok := f.NodeLabels[p.sn.AtomicKey]; ok && v != sc.value {
		return false
	}
	if in, ok := sc.flavors[f.Name]; ok {
		return in
	}
	in := false
	for _, name := range sc.nodes {
		if f.Matches(p.sn.Nodes[name].Node.Labels()) {
			in = true
			break
		}
	}
	if sc.flavors == nil {
		sc.flavors = map[string]bool{}
	}
	sc.flavors[f.Name] = in
	return in
}
