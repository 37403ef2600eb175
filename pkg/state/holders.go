package state

import (
	"maps"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// domainHolders counts the live placed pods of confined gang slices by the
// workload (holder) they belong to: per node, and per domain they hold. A
// domain with any of them is held: no other workload's pod, confined or
// not, goes anywhere in it.
//
// Invariant: nodeHolders[n][h] is the number of indexed pods p on node n
// with *p.holds == h; domainHeld[d][h] counts those of them with
// *p.heldDomain == d, and heldKeys[k] the pods whose heldDomain has key k.
// Only hold and unhold change them (through p.holds and p.heldDomain, which
// they set and clear), and a node's holder map is replaced, never changed
// in place: snapshots share it (see nodeViewLocked). Guarded by State.mu.
type domainHolders struct {
	// topo is the State's node index, read for the domains nodes lie in.
	topo        *topology.Index
	nodeHolders map[string]map[workload.Holder]int
	domainHeld  map[topology.DomainRef]map[workload.Holder]int
	heldKeys    map[string]int
}

func newDomainHolders(topo *topology.Index) domainHolders {
	return domainHolders{
		topo:        topo,
		nodeHolders: map[string]map[workload.Holder]int{},
		domainHeld:  map[topology.DomainRef]map[workload.Holder]int{},
		heldKeys:    map[string]int{},
	}
}

// hold: a live placed pod of a confined slice holds its node's domains
// against other workloads for as long as it runs, whatever attempt it
// belongs to. Whether the slice is confined comes from its workload w.
func (d *domainHolders) hold(w *Workload, p *Pod) {
	p.holds = nil
	if p.Node == "" || p.Terminal || w.model == nil || !w.confines(p.Member.Slice) {
		return
	}
	h := workload.Holder{Key: w.key, UID: p.Member.OwnerUID}
	if h.UID == "" {
		h.UID = w.model.UID
	}
	p.holds = &h
	// A node's holder map is replaced, never changed in place: snapshots
	// share it (see nodeViewLocked).
	m := maps.Clone(d.nodeHolders[p.Node])
	if m == nil {
		m = map[workload.Holder]int{}
	}
	m[h]++
	d.nodeHolders[p.Node] = m
	if key := w.domainKeyOf(p.Member.Slice); key != "" {
		// A key pods hold by is indexed, so that a node relabelled under
		// them moves what they hold (nodeChangedLocked), even for a
		// workload this scheduler never planned (placed before it started).
		d.topo.Track(key)
		if v, ok := d.topo.DomainOf(p.Node, key); ok {
			ref := topology.DomainRef{Key: key, Value: v}
			p.heldDomain = &ref
			held := d.domainHeld[ref]
			if held == nil {
				held = map[workload.Holder]int{}
				d.domainHeld[ref] = held
			}
			held[h]++
			d.heldKeys[key]++
		}
	}
}

// unhold drops what p holds. Callers that do not put the hold back bump
// the generation: a domain may have been freed.
func (d *domainHolders) unhold(p *Pod) {
	if p.holds == nil {
		return
	}
	if m := d.nodeHolders[p.Node]; m != nil {
		// Replaced, not changed in place (see hold).
		m = maps.Clone(m)
		m[*p.holds]--
		if m[*p.holds] <= 0 {
			delete(m, *p.holds)
		}
		if len(m) == 0 {
			delete(d.nodeHolders, p.Node)
		} else {
			d.nodeHolders[p.Node] = m
		}
	}
	if ref := p.heldDomain; ref != nil {
		if held := d.domainHeld[*ref]; held != nil {
			held[*p.holds]--
			if held[*p.holds] <= 0 {
				delete(held, *p.holds)
			}
			if len(held) == 0 {
				delete(d.domainHeld, *ref)
			}
		}
		if d.heldKeys[ref.Key]--; d.heldKeys[ref.Key] <= 0 {
			delete(d.heldKeys, ref.Key)
		}
		p.heldDomain = nil
	}
	p.holds = nil
}

// domainHolderLocked returns a holder, other than own (nil: none), of a
// confined slice running in a domain node lies in, and that domain.
func (d *domainHolders) domainHolderLocked(node string, own *workload.Holder) (workload.Holder, topology.DomainRef, bool) {
	for key := range d.heldKeys {
		v, ok := d.topo.DomainOf(node, key)
		if !ok {
			continue
		}
		ref := topology.DomainRef{Key: key, Value: v}
		if h, ok := workload.FirstBlocking(d.domainHeld[ref], own); ok {
			return h, ref, true
		}
	}
	return workload.Holder{}, topology.DomainRef{}, false
}

// blockingOn returns a holder of pods on node that blocks own, if any.
func (d *domainHolders) blockingOn(node string, own *workload.Holder) (workload.Holder, bool) {
	return workload.FirstBlocking(d.nodeHolders[node], own)
}

// heldByOther reports whether a domain of nodes is one no plan of self may
// use: a holder that Blocks self runs pods on one of its nodes, and none of
// self's workload's own pods (placed on own) runs there, which would make
// it self's domain or a scattered slice's, for the plan to read.
func (d *domainHolders) heldByOther(nodes []string, self workload.Holder, own map[string]bool) bool {
	held := false
	for _, name := range nodes {
		if own[name] {
			return false
		}
		if _, ok := d.blockingOn(name, &self); ok {
			held = true
		}
	}
	return held
}
