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
