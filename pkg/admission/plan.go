// Package admission decides where a gang goes: from a state.Snapshot it
// plans every slice of the workload's current gang at once — a distinct
// free domain per confined slice, room on nodes for every pod — and returns
// the reservation to commit, or why there is none. It holds no state.
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

	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Plan decides where the snapshot's workload (sn.Self) goes.
func Plan(sn *state.Snapshot) (*state.Reservation, *planner.Failure) {
	self := sn.Self
	if self == nil || self.Model == nil {
		return nil, &planner.Failure{Message: "the workload is not known yet"}
	}
	if sn.Qualifiers == nil {
		sn.Qualifiers = map[string]func(string) bool{}
	}
	p := &planning{sn: sn, self: self, quals: sn.Qualifiers, planned: map[int]bool{}}
	demands, ownDomains := p.demands()
	for _, d := range demands {
		p.planned[d.slice] = true
	}
	q := sn.Quota
	if q == nil {
		return p.place(demands, ownDomains)
	}
	if q.Problem != nil {
		return nil, quotaFailure(q.Problem)
	}
	// Quota and domains are granted together: each slice is charged to a
	// flavor (in the queue's order) and placed only on that flavor's
	// nodes; when the domains of the chosen flavors cannot take the
	// workload, the next flavors are tried.
	excluded := quota.Exclusions{}
	var last *planner.Failure
	for {
		charge, problem := q.View.Assign(q.ClusterQueue, q.Needs, excluded)
		if problem != nil {
			if last != nil {
				return nil, last
			}
			return nil, quotaFailure(problem)
		}
		r, fail := p.place(p.onFlavors(demands, q.View.Book(), charge), ownDomains)
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

func quotaFailure(p *quota.Problem) *planner.Failure {
	return &planner.Failure{Message: p.Message, Unresolvable: p.Config, Reason: p.Reason}
}

// onFlavors restricts each slice's pods to the nodes of the flavors it is
// charged to.
func (p *planning) onFlavors(demands []sliceDemand, book *quota.Book, c *quota.Charge) []sliceDemand {
	out := make([]sliceDemand, len(demands))
	for i, d := range demands {
		out[i] = d
		names := slices.Sorted(maps.Values(c.Flavors[d.slice]))
		names = slices.Compact(names)
		var flavors []*quota.Flavor
		for _, name := range names {
			if f := book.Flavor(name); f != nil && len(f.NodeLabels) > 0 {
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
func (p *planning) place(demands []sliceDemand, ownDomains map[string]map[string]int) (*state.Reservation, *planner.Failure) {
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
		req := planner.Request{}
		for _, i := range byKey[key] {
			req.Slices = append(req.Slices, demands[i].demand)
		}
		domains := p.domains(key, ownDomains[key], taken)
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
		plan, fail := planner.PlaceUnconfined(ds, p.unconfinedNodes(taken))
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

// domains lists key's domains as the planner sees them: free ones, and
// for the others why this workload may not use them.
func (p *planning) domains(key string, own map[string]int, taken map[string]bool) []planner.Domain {
	values := slices.Sorted(maps.Keys(p.sn.Domains[key]))
	out := make([]planner.Domain, 0, len(values))
	for _, v := range values {
		d := planner.Domain{Name: v}
		for _, name := range p.sn.Domains[key][v] {
			n := p.sn.Nodes[name]
			d.Nodes = append(d.Nodes, planner.Node{Name: name, Allocatable: n.Node.Allocatable, Free: n.Free, Usable: n.Node.Usable})
			if d.Unavailable != "" {
				continue
			}
			switch {
			case taken[name]:
				d.Unavailable = "taken by another slice of this workload"
			case n.Reserved:
				d.Unavailable = fmt.Sprintf("reserved for %s", n.ReservedBy)
			default:
				if h, ok := firstOtherHolder(n.Holders, p.self.Holder); ok {
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

func (p *planning) unconfinedNodes(taken map[string]bool) []planner.Node {
	names := slices.Sorted(maps.Keys(p.sn.Nodes))
	out := make([]planner.Node, 0, len(names))
	for _, name := range names {
		n := p.sn.Nodes[name]
		if taken[name] || n.Reserved {
			continue
		}
		if _, rejected := p.self.Rejected[topology.DomainRef{Value: name}]; rejected {
			continue
		}
		out = append(out, planner.Node{Name: name, Allocatable: n.Node.Allocatable, Free: n.Free, Usable: n.Node.Usable})
	}
	return out
}

// firstOtherHolder is the least holder other than self, in sortedHolders'
// order, without sorting: domains are listed for every plan.
func firstOtherHolder(m map[workload.Holder]int, self workload.Holder) (workload.Holder, bool) {
	var best workload.Holder
	found := false
	for h := range m {
		if h == self {
			continue
		}
		if !found || holderLess(h, best) {
			best, found = h, true
		}
	}
	return best, found
}

func holderLess(a, b workload.Holder) bool {
	if a.Key != b.Key {
		return a.Key.Compare(b.Key) < 0
	}
	return a.UID < b.UID
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
		ok := n != nil
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
