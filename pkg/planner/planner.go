// Package planner assigns every slice of a workload its own exclusive
// topology domain, all at once, and places each slice's pods on nodes of
// that domain, from a snapshot of the cluster. It is a pure function of its
// inputs: no clocks, no API calls, no framework types.
//
// The plan is all-or-nothing: either every slice gets a distinct domain with
// room for all of its pods, or the planner says why not and whether waiting
// can help (another workload releasing a domain) or not (no domain in the
// cluster could ever hold the slice).
package planner

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"

	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Node is one node as the planner sees it.
type Node struct {
	Name string
	// Allocatable is the node's whole capacity; Free is what pods already
	// on it (bound or assumed) and other workloads' reservations leave.
	Allocatable workload.Resources
	Free        workload.Resources
	// Usable is false for nodes that take no new pods (NotReady, cordoned).
	Usable bool
	// EndsAt is when the node goes away by itself (zero: not known to);
	// Ending is set once its replacement is being made (flex-start
	// recycling). New pods go to nodes that last when such fit.
	EndsAt time.Time
	Ending bool
}

// lasts reports whether the node takes new work without cutting it short:
// not being replaced, and there until (when set).
func (n *Node) lasts(until time.Time) bool {
	return !n.Ending && (until.IsZero() || n.EndsAt.IsZero() || !n.EndsAt.Before(until))
}

// lastingFirst orders nodes that last before those that do not, keeping
// their order otherwise (the same slice when all last).
func lastingFirst(nodes []Node, until time.Time) []Node {
	short := 0
	for i := range nodes {
		if !nodes[i].lasts(until) {
			short++
		}
	}
	if short == 0 {
		return nodes
	}
	out := make([]Node, 0, len(nodes))
	for i := range nodes {
		if nodes[i].lasts(until) {
			out = append(out, nodes[i])
		}
	}
	for i := range nodes {
		if !nodes[i].lasts(until) {
			out = append(out, nodes[i])
		}
	}
	return out
}

// cutsShort reports whether slots put a pod on a node that does not last.
func cutsShort(nodes []Node, slots []placement.Slot, until time.Time) bool {
	for _, sl := range slots {
		for i := range nodes {
			if nodes[i].Name == sl.Node && !nodes[i].lasts(until) {
				return true
			}
		}
	}
	return false
}

// Domain is the set of nodes sharing one value of the domain key.
type Domain struct {
	Name  string
	Nodes []Node
	// Unavailable says why the workload may not use the domain now (held or
	// reserved by another workload, or its pods were rejected there); ""
	// when it is free.
	Unavailable string
	// Kept is set when the domain was kept for the workload while it
	// restarted: it goes back there before anywhere else.
	Kept bool
}

// Shape is a group of a slice's pods that ask for the same thing.
type Shape struct {
	Count   int
	Request workload.Resources
	// Qualifies reports whether a node passes these pods' node selector,
	// affinity and taints. It must not depend on the node's free capacity.
	Qualifies func(node string) bool
	// Sig is equal for shapes that are interchangeable (same request and
	// same Qualifies), which lets identical slices share the work of
	// testing a domain.
	Sig string
}

// SliceDemand is what one slice still needs placed.
type SliceDemand struct {
	Index  int
	Shapes []Shape
	// Describe is how users recognise the domains this slice asks for, e.g.
	// "gke-tpu-accelerator=tpu-v5-lite-podslice, gke-tpu-topology=2x4".
	Describe string
	// Fixed pins the slice to a domain (some of its pods are already bound
	// there, or an earlier startup group of the workload holds it).
	Fixed string
}

// Pods is the number of pods the demand places.
func (s *SliceDemand) Pods() int {
	n := 0
	for _, sh := range s.Shapes {
		n += sh.Count
	}
	return n
}

func (s *SliceDemand) sig() string {
	parts := make([]string, 0, len(s.Shapes)+1)
	parts = append(parts, s.Fixed)
	for _, sh := range s.Shapes {
		parts = append(parts, fmt.Sprintf("%s*%d", sh.Sig, sh.Count))
	}
	return strings.Join(parts, "|")
}

// Request is a workload asking for domains.
type Request struct {
	Slices []SliceDemand
	// Until, when set, is when the workload's run would end: domains whose
	// nodes all last until then are preferred to those that cut it short.
	Until time.Time
}

// Assignment is where one slice goes: its domain ("" when unconfined) and
// the node for every pod it still needs.
type Assignment struct {
	Domain string
	Slots  []placement.Slot
}

// Plan maps slice index to its assignment.
type Plan map[int]Assignment

// fit is how one slice fits one domain.
type fit struct {
	ever, now bool
	// short: its pods would run on a node that does not last.
	short bool
	// spare counts the qualifying usable nodes the slice leaves untouched:
	// the lower, the tighter the fit.
	spare int
	slots []placement.Slot
}

// MakePlan assigns each slice a distinct domain it fits in, preferring the
// domains kept for it while it restarted, then domains whose nodes last (see Request.Until, Node.Ending), then the
// domain the slice fills most tightly so large domains stay whole for large
// slices, and places its pods on that domain's nodes, on those that last
// first.
func MakePlan(req Request, domains []Domain) (Plan, *placement.Failure) {
	n := len(req.Slices)
	possible := make([][]int, n)
	usable := make([][]int, n)
	fits := make([]map[int]fit, n)
	// Identical slices (a JobSet's replicas) test each domain once.
	memo := map[string]map[int]fit{}
	sigs := make([]string, n)
	for i := range req.Slices {
		sigs[i] = req.Slices[i].sig()
	}
	enough := enoughPerfect(req, sigs, domains)
	for i := range req.Slices {
		s := &req.Slices[i]
		sig := sigs[i]
		cached := memo[sig]
		if cached == nil {
			cached = map[int]fit{}
			perfect := 0
			for d := range domains {
				if enough > 0 && perfect == enough {
					break
				}
				dom := &domains[d]
				if s.Fixed != "" && dom.Name != s.Fixed {
					continue
				}
				f := fit{}
				f.ever = pack(s.Shapes, dom.Nodes, false) != nil
				if f.ever && dom.Unavailable == "" {
					nodes := lastingFirst(dom.Nodes, req.Until)
					f.slots = pack(s.Shapes, nodes, true)
					f.now = f.slots != nil
					if f.now {
						f.spare = spare(s.Shapes, nodes, f.slots)
						f.short = cutsShort(nodes, f.slots, req.Until)
						if f.spare == 0 && !f.short {
							perfect++
						}
					}
				}
				cached[d] = f
			}
			memo[sig] = cached
		}
		fits[i] = cached
		type cand struct {
			d, spare    int
			short, kept bool
		}
		var now []cand
		for d := range domains {
			f, ok := cached[d]
			if !ok {
				continue
			}
			if f.ever {
				possible[i] = append(possible[i], d)
			}
			if f.now {
				now = append(now, cand{d, f.spare, f.short, domains[d].Kept})
			}
		}
		sort.SliceStable(now, func(a, b int) bool {
			if now[a].kept != now[b].kept {
				return now[a].kept
			}
			if now[a].short != now[b].short {
				return !now[a].short
			}
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
		return nil, &placement.Failure{Unresolvable: true, Message: unresolvableMessage(req, domains, possible)}
	}
	matched, assign := match(usable, len(domains))
	if matched < n {
		return nil, &placement.Failure{Message: waitingMessage(req, domains, possible, usable)}
	}
	plan := make(Plan, n)
	for i, d := range assign {
		plan[req.Slices[i].Index] = Assignment{Domain: domains[d].Name, Slots: fits[i][d].slots}
	}
	return plan, nil
}

// enoughPerfect is how many domains that a slice fits perfectly (filling
// every qualifying usable node, none of which cuts its run short) end the
// search for a domain per slice, or 0 when every domain must be tested.
//
// When the slices are identical, none is pinned to a domain, none of the
// domains is kept for the workload and the domains come sorted by name,
// each slice lists the same candidates in the same order, perfect fits
// first by name: once there are as many of those as slices, no domain
// further down the list can come before them, and the matching (greedy,
// each slice taking the first free candidate of the same list) gives slice
// k the k-th. The plan is then the one testing every domain would make,
// for what a gang asks of a cluster rather than what the cluster holds.
// A failed search tests every domain, for its message.
// sigs are the slices' signatures.
func enoughPerfect(req Request, sigs []string, domains []Domain) int {
	if len(req.Slices) == 0 || req.Slices[0].Fixed != "" {
		return 0
	}
	for _, sig := range sigs[1:] {
		if sig != sigs[0] {
			return 0
		}
	}
	for d := range domains {
		if domains[d].Kept || (d > 0 && domains[d-1].Name >= domains[d].Name) {
			return 0
		}
	}
	return len(req.Slices)
}

// PlaceUnconfined places the pods of slices that may go on any node,
// slice after slice, on the given nodes, consuming their free capacity, on
// nodes that last until until (when set) and are not being replaced first.
func PlaceUnconfined(slicesIn []SliceDemand, nodes []Node, until time.Time) (Plan, *placement.Failure) {
	nodes = lastingFirst(nodes, until)
	free := make([]Node, len(nodes))
	for i, n := range nodes {
		free[i] = n
		free[i].Free = clone(n.Free)
	}
	plan := Plan{}
	for i := range slicesIn {
		s := &slicesIn[i]
		slots := pack(s.Shapes, free, true)
		if slots == nil {
			if pack(s.Shapes, nodes, false) == nil {
				return nil, &placement.Failure{Unresolvable: true, Message: fmt.Sprintf("%d pods (%s) can never fit on the nodes matching %s together",
					s.Pods(), describeShapes(s.Shapes), orAny(s.Describe))}
			}
			return nil, &placement.Failure{Message: fmt.Sprintf("waiting for room for %d pods (%s) on nodes matching %s",
				s.Pods(), describeShapes(s.Shapes), orAny(s.Describe))}
		}
		consume(free, s.Shapes, slots)
		plan[s.Index] = Assignment{Slots: slots}
	}
	return plan, nil
}

// pack places every pod of shapes on nodes first-fit, largest shapes first,
// from free capacity of usable nodes (now) or from allocatable of all nodes
// (could ever). It returns nil when some pod does not fit.
func pack(shapes []Shape, nodes []Node, now bool) []placement.Slot {
	// One shape visits each node once: it reads the nodes' room as it is,
	// where several must take what each leaves from a copy.
	shared := len(shapes) == 1
	avail := make([]workload.Resources, len(nodes))
	for i := range nodes {
		if now && !nodes[i].Usable {
			continue
		}
		room := nodes[i].Allocatable
		if now {
			room = nodes[i].Free
		}
		if shared && room != nil { // nil marks nodes not to use
			avail[i] = room
		} else {
			avail[i] = clone(room)
		}
	}
	order := make([]int, len(shapes))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool {
		return bigger(shapes[order[a]].Request, shapes[order[b]].Request)
	})
	var slots []placement.Slot
	for _, si := range order {
		sh := &shapes[si]
		left := sh.Count
		for i := range nodes {
			if left == 0 {
				break
			}
			if avail[i] == nil || (sh.Qualifies != nil && !sh.Qualifies(nodes[i].Name)) {
				continue
			}
			c := avail[i].Count(sh.Request)
			if c < 0 || c > int64(left) {
				c = int64(left)
			}
			if c == 0 {
				continue
			}
			if !shared {
				for name, v := range sh.Request {
					avail[i][name] -= v * c
				}
			}
			slots = append(slots, placement.Slot{Node: nodes[i].Name, Shape: si, Count: int(c)})
			left -= int(c)
		}
		if left > 0 {
			return nil
		}
	}
	if slots == nil {
		slots = []placement.Slot{}
	}
	return slots
}

// spare counts the qualifying usable nodes the slots leave unused.
func spare(shapes []Shape, nodes []Node, slots []placement.Slot) int {
	used := map[string]bool{}
	for _, s := range slots {
		used[s.Node] = true
	}
	n := 0
	for i := range nodes {
		if !nodes[i].Usable || used[nodes[i].Name] {
			continue
		}
		for _, sh := range shapes {
			if sh.Qualifies == nil || sh.Qualifies(nodes[i].Name) {
				n++
				break
			}
		}
	}
	return n
}

func consume(nodes []Node, shapes []Shape, slots []placement.Slot) {
	idx := make(map[string]int, len(nodes))
	for i := range nodes {
		idx[nodes[i].Name] = i
	}
	for _, s := range slots {
		free := nodes[idx[s.Node]].Free
		for name, v := range shapes[s.Shape].Request {
			free[name] -= v * int64(s.Count)
		}
	}
}

// bigger orders requests: more kinds of resource first (a TPU worker before
// a CPU launcher), then larger in total.
func bigger(a, b workload.Resources) bool {
	if len(a) != len(b) {
		return len(a) > len(b)
	}
	var sa, sb int64
	for _, v := range a {
		sa += v
	}
	for _, v := range b {
		sb += v
	}
	return sa > sb
}

func clone(r workload.Resources) workload.Resources {
	out := make(workload.Resources, len(r))
	for k, v := range r {
		out[k] = v
	}
	return out
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
	next := make([]int, len(cands))
	for s := range cands {
		took := false
		for j := next[s]; j < len(cands[s]); j++ {
			if d := cands[s][j]; owner[d] < 0 {
				owner[d] = s
				next[s] = j + 1
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
	slices []int
}

func groups(req Request) []group {
	var out []group
	idx := map[string]int{}
	for i := range req.Slices {
		s := &req.Slices[i]
		k := s.Describe + "|" + s.sig()
		g, ok := idx[k]
		if !ok {
			g = len(out)
			idx[k] = g
			out = append(out, group{})
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
		s := &req.Slices[g.slices[0]]
		exist := distinct(possible, g.slices)
		if exist == 0 {
			largest := 0
			for d := range domains {
				largest = max(largest, capacity(s, &domains[d]))
			}
			parts = append(parts, fmt.Sprintf("a slice of %d pods (%s) fits in no domain matching %s (the largest holds %d such pods)",
				s.Pods(), describeShapes(s.Shapes), orAny(s.Describe), largest))
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

// capacity is how many pods of the slice's largest shape one domain could
// ever hold, for the "largest holds" hint.
func capacity(s *SliceDemand, dom *Domain) int {
	if len(s.Shapes) == 0 {
		return 0
	}
	// The shape pack places first, not merely the first listed (which may
	// be a small CPU-only launcher).
	sh := s.Shapes[0]
	for _, o := range s.Shapes[1:] {
		if bigger(o.Request, sh.Request) {
			sh = o
		}
	}
	total := 0
	for i := range dom.Nodes {
		if sh.Qualifies != nil && !sh.Qualifies(dom.Nodes[i].Name) {
			continue
		}
		if c := dom.Nodes[i].Allocatable.Count(sh.Request); c > 0 {
			total += int(c)
		}
	}
	return total
}

func waitingMessage(req Request, domains []Domain, possible, usable [][]int) string {
	var parts []string
	for _, g := range groups(req) {
		s := &req.Slices[g.slices[0]]
		exist := distinct(possible, g.slices)
		free := distinct(usable, g.slices)
		if free >= len(g.slices) {
			continue
		}
		msg := fmt.Sprintf("waiting for %d more domains matching %s (%d exist, %d free)",
			len(g.slices)-free, orAny(s.Describe), exist, free)
		if why := rejections(domains, possible, g.slices); why != "" {
			msg += "; " + why
		}
		parts = append(parts, msg)
	}
	if len(parts) == 0 {
		parts = append(parts, "waiting for free domains: the free ones cannot be shared out one per slice")
	}
	return strings.Join(parts, "; ")
}

// rejections names domains that are free of other workloads but where this
// workload's pods were rejected, so users see why those are not used.
func rejections(domains []Domain, possible [][]int, members []int) string {
	seen := map[int]bool{}
	var parts []string
	for _, i := range members {
		for _, d := range possible[i] {
			u := domains[d].Unavailable
			if seen[d] || !strings.HasPrefix(u, placement.RejectedPrefix) {
				continue
			}
			seen[d] = true
			parts = append(parts, fmt.Sprintf("%s %s", domains[d].Name, u))
		}
	}
	sort.Strings(parts)
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("and %d more", len(parts)-3))
	}
	return strings.Join(parts, ", ")
}

func describeShapes(shapes []Shape) string {
	parts := make([]string, 0, len(shapes))
	for _, sh := range shapes {
		parts = append(parts, sh.Request.String()+" each")
	}
	return strings.Join(parts, "; ")
}

func orAny(describe string) string {
	if describe == "" {
		return "any node"
	}
	return describe
}
