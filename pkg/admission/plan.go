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

	corev1 "k8s.io/api/core/v1"
	corev1helpers "k8s.io/component-helpers/scheduling/corev1"
	"k8s.io/component-helpers/scheduling/corev1/nodeaffinity"
	"k8s.io/klog/v2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
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
	for i, d := range demands {
		out[i] = d
		names := slices.Sorted(maps.Values(c.Flavors[d.slice]))
		names = slices.Compact(names)
		var flavors []*quota.Flavor
		for _, name := range names {
			if f := view.Flavor(name); f != nil && len(f.NodeLabels) > 0 {
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
	var unconfined []int
	for i := range demands {
		if k := model.Slices[demands[i].slice].DomainKey; k != "" {
			byKey[k] = append(byKey[k], i)
		} else {
			unconfined = append(unconfined, i)
		}
	}
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

type sliceDemand struct {
	slice  int
	demand planner.SliceDemand
	shapes []state.ShapeRequest
}

// demands lists what each active slice still needs placed, and where the
// workload's slices already are: per key, domain value → slice index.
func (p *planning) demands() ([]sliceDemand, map[string]map[string]int) {
	model := p.self.Model
	type sliceMembers struct {
		placed  int
		domain  map[string]string // key → value of its placed pods
		pending []*state.Pod
		any     *state.Pod
	}
	per := make([]sliceMembers, len(model.Slices))
	own := map[string]map[string]int{}
	for _, m := range p.self.Members {
		sm := &per[m.Member.Slice]
		if sm.any == nil || (m.Member.Leader && !sm.any.Member.Leader) {
			sm.any = m
		}
		if m.Node == "" {
			sm.pending = append(sm.pending, m)
			continue
		}
		sm.placed++
		key := model.Slices[m.Member.Slice].DomainKey
		if n := p.sn.Nodes[m.Node]; n != nil && key != "" {
			if v, ok := n.Node.Labels()[key]; ok {
				if own[key] == nil {
					own[key] = map[string]int{}
				}
				own[key][v] = m.Member.Slice
				if sm.domain == nil {
					sm.domain = map[string]string{}
				}
				sm.domain[key] = v
			}
		}
	}
	var out []sliceDemand
	for _, i := range p.self.Active {
		sl := &model.Slices[i]
		sm := &per[i]
		need := sl.Pods - sm.placed
		if need <= 0 {
			continue
		}
		d := sliceDemand{slice: i, demand: planner.SliceDemand{Index: i, Fixed: sm.domain[sl.DomainKey]}}
		// Each member is sized from its own spec: admission may have added
		// what the template lacks, and a PodGroup's members differ.
		bySig := map[string]int{}
		add := func(spec *corev1.PodSpec, req workload.Resources, sig string, n int) {
			if n <= 0 {
				return
			}
			// Pods are interchangeable when they ask for the same room
			// and qualify for the same nodes.
			qsig := sig + "|" + schedulingSig(spec)
			if idx, ok := bySig[qsig]; ok {
				d.demand.Shapes[idx].Count += n
				return
			}
			bySig[qsig] = len(d.shapes)
			d.shapes = append(d.shapes, state.ShapeRequest{Sig: sig, Request: req})
			d.demand.Shapes = append(d.demand.Shapes, planner.Shape{Count: n, Request: req, Qualifies: p.qualifier(qsig, spec), Sig: qsig})
		}
		for _, m := range sm.pending {
			add(m.Spec, m.Request, m.RequestSig, 1)
		}
		rest := need - len(sm.pending)
		switch {
		case rest <= 0:
		case sm.any != nil:
			// Members not created yet (JobSet followers) are shaped like
			// their Job's leader.
			add(sm.any.Spec, sm.any.Request, sm.any.RequestSig, rest)
		case sl.Template != nil:
			req := workload.PodRequests(sl.Template)
			add(sl.Template, req, req.String(), rest)
		}
		if d.demand.Pods() > need {
			trim(&d.demand, need)
		}
		spec := sl.Template
		if sm.any != nil {
			spec = sm.any.Spec
		}
		if spec != nil {
			d.demand.Describe = describeSelector(spec)
		}
		out = append(out, d)
	}
	return out, own
}

// trim keeps a slice's demand within its size when more pods exist than
// it needs (a PodGroup with members beyond minMember).
func trim(d *planner.SliceDemand, need int) {
	for i := len(d.Shapes) - 1; i >= 0 && d.Pods() > need; i-- {
		cut := min(d.Shapes[i].Count, d.Pods()-need)
		d.Shapes[i].Count -= cut
	}
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
		if taken[name] || n.Reserved || p.heldByOther(n) {
			continue
		}
		if _, rejected := p.self.Rejected[topology.DomainRef{Value: name}]; rejected {
			continue
		}
		out = append(out, p.plannerNode(name, n))
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

var logger = klog.Background().WithName("admission")

// qualifier says whether a node passes a spec's node selector, required
// node affinity and NoSchedule/NoExecute taints; answers are memoised per
// node and shared by every shape with the same scheduling signature.
func (p *planning) qualifier(sig string, spec *corev1.PodSpec) func(string) bool {
	if q, ok := p.quals[sig]; ok {
		return q
	}
	affinity := nodeaffinity.GetRequiredNodeAffinity(&corev1.Pod{Spec: *spec})
	memo := map[string]bool{}
	q := func(name string) bool {
		if ok, seen := memo[name]; seen {
			return ok
		}
		n := p.sn.Nodes[name]
		ok := n != nil && p.sn.NodeSelector.Matches(n.Node.Obj.Labels)
		if ok {
			match, err := affinity.Match(n.Node.Obj)
			ok = err == nil && match
		}
		if ok {
			_, untolerated := corev1helpers.FindMatchingUntoleratedTaint(logger, n.Node.Obj.Spec.Taints, spec.Tolerations, func(t *corev1.Taint) bool {
				return t.Effect == corev1.TaintEffectNoSchedule || t.Effect == corev1.TaintEffectNoExecute
			}, true)
			ok = !untolerated
		}
		memo[name] = ok
		return ok
	}
	p.quals[sig] = q
	return q
}

// schedulingSig renders what a qualifier depends on.
func schedulingSig(spec *corev1.PodSpec) string {
	var b strings.Builder
	for _, k := range slices.Sorted(maps.Keys(spec.NodeSelector)) {
		fmt.Fprintf(&b, "%s=%s,", k, spec.NodeSelector[k])
	}
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		fmt.Fprintf(&b, "|%v", a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution)
	}
	for _, t := range spec.Tolerations {
		fmt.Fprintf(&b, "|%s%s%s%s", t.Key, t.Operator, t.Value, t.Effect)
	}
	return b.String()
}

// describeSelector renders a spec's node selector for users, e.g.
// "gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4".
func describeSelector(spec *corev1.PodSpec) string {
	keys := slices.Sorted(maps.Keys(spec.NodeSelector))
	parts := make([]string, 0, len(keys))
	for _, k := range keys {
		parts = append(parts, fmt.Sprintf("%s=%s", wellknown.ShortLabel(k), spec.NodeSelector[k]))
	}
	return strings.Join(parts, ", ")
}

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
