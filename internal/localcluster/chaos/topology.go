package chaos

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// keptDomain is one pod set (or one slice of it) that must lie in one
// domain of a level: the values of the level's label on its bound pods'
// nodes, and which pod is on each.
type keptDomain struct {
	gang, what, level string
	member            Member
	values            map[string][]string // label value → pods
}

// CheckTopology checks invariant (e): a pod set whose pod template
// requires one domain of a level (kueue.x-k8s.io/podset-required-topology)
// has its live bound pods, per gang attempt, under one value of that
// level's node label; and each slice of a sliced pod set
// (podset-slice-required-topology, podset-slice-size; its pods by
// completion index) under one value of the slice level's. Pods read their
// request from their own annotations, which their template gave them.
func CheckTopology(w *World) []Violation {
	sets := map[string]*keptDomain{}
	keep := func(key, gang, what, level, value, pod string, m Member) {
		d := sets[key]
		if d == nil {
			d = &keptDomain{gang: gang, what: what, level: level, member: m, values: map[string][]string{}}
			sets[key] = d
		}
		d.values[value] = append(d.values[value], pod)
	}
	for _, p := range w.Pods {
		if !Bound(p) || !Live(p) {
			continue
		}
		node := w.Nodes[p.Spec.NodeName]
		if node == nil {
			continue
		}
		m := MemberOf(p)
		gang := m.GangKey()
		podSet := p.Labels[jobsetv1alpha2.ReplicatedJobNameKey]
		if podSet == "" {
			podSet = p.Labels[wellknown.JobNameLabel]
		}
		a := p.Annotations
		if level := a[wellknown.RequiredTopologyAnnotation]; level != "" {
			what := "pod set " + podSet
			keep(gang+"|"+what, gang, what, level, node.Labels[level], p.Name, m)
		}
		level := a[wellknown.SliceRequiredTopologyAnnotation]
		size, err := strconv.Atoi(a[wellknown.SliceSizeAnnotation])
		index, ierr := strconv.Atoi(p.Labels[wellknown.JobCompletionIndexLabel])
		if level != "" && err == nil && size > 0 && ierr == nil {
			what := fmt.Sprintf("slice %d of Job %s", index/size, p.Labels[wellknown.JobNameLabel])
			keep(gang+"|"+what, gang, what, level, node.Labels[level], p.Name, m)
		}
	}
	var out []Violation
	for _, key := range sortedKeys(sets) {
		d := sets[key]
		if len(d.values) < 2 {
			continue
		}
		var where []string
		for _, v := range sortedKeys(d.values) {
			pods := d.values[v]
			sort.Strings(pods)
			if v == "" {
				v = "(no label)"
			}
			where = append(where, fmt.Sprintf("%s: %s", v, strings.Join(pods, ", ")))
		}
		out = append(out, Violation{
			Invariant: KeptTopology, Key: "topology " + key, gang: d.gang, workload: d.member.Workload,
			Objects: []string{d.member.Workload.String()},
			Message: fmt.Sprintf("%s of %s requires one %s and spans %d: %s", d.what, d.gang, d.level, len(d.values), strings.Join(where, "; ")),
		})
	}
	return out
}
