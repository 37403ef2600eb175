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
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

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
		members []*state.Pod
		domain  map[string]string // key → value of its placed pods
	}
	per := make([]sliceMembers, len(model.Slices))
	own := map[string]map[string]int{}
	for _, m := range p.self.Members {
		sm := &per[m.Member.Slice]
		sm.members = append(sm.members, m)
		if m.Node == "" {
			continue
		}
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
		need := workload.StillNeeds(sl.Pods, sm.members, func(m *state.Pod) bool { return m.Node != "" }, func(m *state.Pod) bool { return m.Member.Leader })
		if need.Unplaced() == 0 {
			continue
		}
		d := sliceDemand{slice: i, demand: planner.SliceDemand{Index: i, Fixed: sm.domain[sl.DomainKey]}}
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
		// Each waiting member is sized from its own spec; the pods not
		// created yet (JobSet followers) like the slice's leader, or its
		// template when it has no member (workload.StillNeeds).
		for _, j := range need.Waiting {
			m := sm.members[j]
			add(m.Spec, m.Request, m.RequestSig, 1)
		}
		spec := sl.Template
		if need.StandIn >= 0 {
			m := sm.members[need.StandIn]
			add(m.Spec, m.Request, m.RequestSig, need.Rest)
			spec = m.Spec
		} else if sl.Template != nil {
			req := workload.PodRequests(sl.Template)
			add(sl.Template, req, req.String(), need.Rest)
		}
		if spec != nil {
			d.demand.Describe = describeSelector(spec)
		}
		out = append(out, d)
	}
	return out, own
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
