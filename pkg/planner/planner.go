// Package planner assigns every slice of a workload its own exclusive
// topology domain, all at once, from a snapshot of the cluster. It is a pure
// function of its inputs: no clocks, no API calls, no framework types.
//
// The plan is all-or-nothing: either every slice gets a distinct domain with
// room for all of its pods, or the planner says why not and whether waiting
// can help (another workload releasing a domain) or not (no domain in the
// cluster could ever hold the slice).
package planner

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Node is one node of a domain as the planner sees it.
type Node struct {
	Name string
	// Allocatable is the node's whole capacity; Free is what pods already
	// on it (bound or assumed) leave.
	Allocatable workload.Resources
	Free        workload.Resources
	// Usable is false for nodes that take no new pods (NotReady, cordoned).
	Usable bool
}

// Domain is the set of nodes sharing one value of the domain key.
type Domain struct {
	Name  string
	Nodes []Node
	// Holder is the workload holding the domain ("" when free). A domain is
	// held by a reservation or by any bound pod of another confined slice.
	Holder string
}

// SliceDemand is what one slice needs.
type SliceDemand struct {
	Index   int
	Pods    int
	Request workload.Resources
	// Qualifies reports whether a node passes the slice's node selector,
	// affinity and taints. It must not depend on the node's free capacity.
	Qualifies func(domain string, node *Node) bool
	// Describe is how users recognise the domains this slice asks for, e.g.
	// "gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4".
	Describe string
	// Fixed pins the slice to a domain (some of its pods are already bound
	// there); Bound is how many, so only the rest need free capacity.
	Fixed string
	Bound int
}

// Request is a workload asking for domains.
type Request struct {
	Workload string
	Slices   []SliceDemand
}

// Plan maps slice index to domain name.
type Plan map[int]string

// Failure explains why no plan exists.
type Failure struct {
	// Unresolvable is true when no change in other workloads can help: the
	// cluster has too few domains that could ever hold these slices.
	Unresolvable bool
	Message      string
}

func (f *Failure) Error() string { return f.Message }

// MakePlan assigns each slice a distinct domain it fits in, preferring the
// domain the slice fills most tightly so large domains stay whole for large
// slices. Domains held by other workloads are not used.
func MakePlan(req Request, domains []Domain) (Plan, *Failure) {
	n := len(req.Slices)
	// For each slice: domains it could ever use (ignoring other workloads
	// and current usage) and domains it can use now, best fit first.
	possible := make([][]int, n)
	usable := make([][]int, n)
	for i, s := range req.Slices {
		type cand struct {
			d, spare int
		}
		var now []cand
		for d := range domains {
			dom := &domains[d]
			if s.Fixed != "" && dom.Name != s.Fixed {
				continue
			}
			if capacity(&s, dom, false) >= s.Pods {
				possible[i] = append(possible[i], d)
			}
			if dom.Holder != "" && dom.Holder != req.Workload {
				continue
			}
			if c := capacity(&s, dom, true); c >= s.Pods-s.Bound {
				now = append(now, cand{d, c - (s.Pods - s.Bound)})
			}
		}
		sort.SliceStable(now, func(a, b int) bool {
			if now[a].spare != now[b].spare {
				return now[a].spare < now[b].spare
			}
			return domains[now[a].d].Name < domains[now[b].d].Name
		})
		for _, c := range now {
			usable[i] = append(usable[i], c.d)
		}
	}

	if matched, _ := match(possible, len(domains)); matched < n {
		return nil, &Failure{Unresolvable: true, Message: unresolvableMessage(req, domains, possible)}
	}
	matched, assign := match(usable, len(domains))
	if matched < n {
		return nil, &Failure{Message: waitingMessage(req, possible, usable)}
	}
	plan := make(Plan, n)
	for i, d := range assign {
		plan[req.Slices[i].Index] = domains[d].Name
	}
	return plan, nil
}

// capacity is how many pods of s fit on the domain's qualifying nodes, from
// free capacity (now) or from allocatable (could ever). The surplus over
// s.Pods measures how loosely the slice would fill the domain.
func capacity(s *SliceDemand, dom *Domain, now bool) int {
	total := 0
	for i := range dom.Nodes {
		node := &dom.Nodes[i]
		if now && !node.Usable {
			continue
		}
		if s.Qualifies != nil && !s.Qualifies(dom.Name, node) {
			continue
		}
		avail := node.Allocatable
		if now {
			avail = node.Free
		}
		c := avail.Count(s.Request)
		if c < 0 || c > int64(s.Pods) {
			c = int64(s.Pods)
		}
		total += int(c)
	}
	return total
}

// match finds a maximum matching of slices to distinct domains (Kuhn's
// augmenting paths), trying each slice's candidates in their given order,
// so the best-fit preference is kept wherever it does not cost a slice.
// It returns the matching size and, per slice, its domain (-1 if none).
func match(cands [][]int, domains int) (int, []int) {
	owner := make([]int, domains) // domain -> slice, -1 if free
	for i := range owner {
		owner[i] = -1
	}
	var try func(s int, seen []bool) bool
	try = func(s int, seen []bool) bool {
		for _, d := range cands[s] {
			if seen[d] {
				continue
			}
			seen[d] = true
			if owner[d] < 0 || try(owner[d], seen) {
				owner[d] = s
				return true
			}
		}
		return false
	}
	// Greedy first, in slice order, each slice taking its best free
	// candidate; augmenting paths then only move slices when that is the
	// only way to give an unmatched slice a domain.
	matched := 0
	var unmatched []int
	for s := range cands {
		took := false
		for _, d := range cands[s] {
			if owner[d] < 0 {
				owner[d] = s
				took = true
				break
			}
		}
		if took {
			matched++
		} else {
			unmatched = append(unmatched, s)
		}
	}
	seen := make([]bool, domains)
	for _, s := range unmatched {
		clear(seen)
		if try(s, seen) {
			matched++
		}
	}
	assign := make([]int, len(cands))
	for i := range assign {
		assign[i] = -1
	}
	for d, s := range owner {
		if s >= 0 {
			assign[s] = d
		}
	}
	return matched, assign
}

// group is a set of slices asking for the same kind of domain.
type group struct {
	describe string
	slices   []int
}

func groups(req Request) []group {
	var out []group
	idx := map[string]int{}
	for i, s := range req.Slices {
		k := fmt.Sprintf("%s|%d|%s", s.Describe, s.Pods, s.Request)
		g, ok := idx[k]
		if !ok {
			g = len(out)
			idx[k] = g
			out = append(out, group{describe: s.Describe})
		}
		out[g].slices = append(out[g].slices, i)
	}
	return out
}

func distinct(lists [][]int, members []int) int {
	seen := map[int]bool{}
	for _, i := range members {
		for _, d := range lists[i] {
			seen[d] = true
		}
	}
	return len(seen)
}

func unresolvableMessage(req Request, domains []Domain, possible [][]int) string {
	var parts []string
	for _, g := range groups(req) {
		s := req.Slices[g.slices[0]]
		exist := distinct(possible, g.slices)
		if exist == 0 {
			largest := 0
			for d := range domains {
				largest = max(largest, capacity(&s, &domains[d], false))
			}
			parts = append(parts, fmt.Sprintf("a slice of %d pods (%s each) fits in no domain matching %s (the largest holds %d such pods)",
				s.Pods, s.Request, orAny(s.Describe), largest))
			continue
		}
		if exist < len(g.slices) {
			parts = append(parts, fmt.Sprintf("%d slices need %d domains matching %s, only %d exist",
				len(g.slices), len(g.slices), orAny(s.Describe), exist))
		}
	}
	if len(parts) == 0 {
		parts = append(parts, "the slices' domain choices overlap so that no assignment of distinct domains exists")
	}
	slices.Sort(parts)
	return strings.Join(parts, "; ")
}

func waitingMessage(req Request, possible, usable [][]int) string {
	var parts []string
	for _, g := range groups(req) {
		s := req.Slices[g.slices[0]]
		exist := distinct(possible, g.slices)
		free := distinct(usable, g.slices)
		if free >= len(g.slices) {
			continue
		}
		parts = append(parts, fmt.Sprintf("waiting for %d more domains matching %s (%d exist, %d free)",
			len(g.slices)-free, orAny(s.Describe), exist, free))
	}
	if len(parts) == 0 {
		parts = append(parts, "waiting for free domains: the free ones cannot be shared out one per slice")
	}
	return strings.Join(parts, "; ")
}

func orAny(describe string) string {
	if describe == "" {
		return "any node"
	}
	return describe
}
