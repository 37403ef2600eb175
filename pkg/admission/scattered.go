package admission

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// scattered reports a workload whose pods already bound break the gang's
// promise in a way no plan can repair: a confined slice that still needs
// pods, whose pods sit in more than one domain (or on a node outside every
// domain), or sharing its domain with another slice. That happens when its
// pods were scheduled one by one, as plain pods: before the scheduler
// learned that their JobSet or PodGroup API is served, or by another
// scheduler. Planning the rest would complete the gang around the split
// (nil: nothing is scattered). Only a change to the workload's pods helps:
// its owner restarting it, or the pods deleted.
func (p *planning) scattered() *placement.Failure {
	model := p.self.Model
	type where struct {
		domains   []string // distinct domain values, in member order
		unlabeled []string // nodes without the slice's key
	}
	per := map[int]*where{}
	placed := map[int]int{}
	for _, m := range p.self.Members {
		i := m.Member.Slice
		if m.Node == "" || i >= len(model.Slices) || model.Slices[i].DomainKey == "" {
			continue
		}
		placed[i]++
		n := p.sn.Nodes[m.Node]
		if n == nil {
			// Not in the snapshot (being deleted): nothing to plan around.
			continue
		}
		w := per[i]
		if w == nil {
			w = &where{}
			per[i] = w
		}
		v, ok := n.Node.Labels()[model.Slices[i].DomainKey]
		switch {
		case !ok:
			if !slices.Contains(w.unlabeled, m.Node) {
				w.unlabeled = append(w.unlabeled, m.Node)
			}
		case !slices.Contains(w.domains, v):
			w.domains = append(w.domains, v)
		}
	}
	// A slice placed whole needs no plan, wherever its pods are: only the
	// slices that still need pods are planned wrong around a split.
	needs := func(i int) bool { return placed[i] < model.Slices[i].Pods }
	var problems []string
	owner := map[string]int{} // key=value → first slice found there
	for _, i := range slices.Sorted(maps.Keys(per)) {
		w, sl := per[i], &model.Slices[i]
		key := wellknown.ShortLabel(sl.DomainKey)
		name := describeSlice(i, sl.Name)
		switch {
		case !needs(i):
		case len(w.domains) > 1:
			problems = append(problems, fmt.Sprintf("%s has pods bound in %d domains (%s=%s)", name, len(w.domains), key, strings.Join(w.domains, ", ")))
		case len(w.unlabeled) > 0:
			problems = append(problems, fmt.Sprintf("%s has pods bound on %s, which has no %s label", name, strings.Join(w.unlabeled, ", "), key))
		}
		for _, v := range w.domains {
			at := sl.DomainKey + "=" + v
			other, seen := owner[at]
			if !seen {
				owner[at] = i
				continue
			}
			if needs(i) || needs(other) {
				problems = append(problems, fmt.Sprintf("%s and %s have pods bound in the same domain %s=%s", describeSlice(other, model.Slices[other].Name), name, key, v))
			}
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return &placement.Failure{Reason: state.ReasonGangBlocked, Unresolvable: true, Message: fmt.Sprintf(
		"%s cannot be completed as a gang: %s. Its pods were bound one by one, not as a gang "+
			"(before the scheduler found its API served, or by another scheduler); "+
			"restart or delete the workload to place it again", model.Key, strings.Join(problems, "; "))}
}

func describeSlice(i int, name string) string {
	if name == "" {
		return fmt.Sprintf("slice %d", i)
	}
	return fmt.Sprintf("slice %d (%s)", i, name)
}
