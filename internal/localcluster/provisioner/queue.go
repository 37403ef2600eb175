package provisioner

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
)

// Candidate is a request whose delay has passed and that has no nodes yet.
type Candidate struct {
	Ref     Ref
	Created time.Time
	Demand  Demand
	// Problem, when set, is why Demand could not be worked out.
	Problem *Problem
}

// Final reports whether the candidate can never be provisioned: its
// request is malformed, no node could run its pods, or it needs more nodes
// than any zone it may use holds.
func (c Candidate) Final(zones []nodepools.Zone) bool {
	if c.Problem != nil {
		return !c.Problem.Wait
	}
	_, fit := ChooseZone(c.Demand, zones, nil)
	return fit == Never
}

// Action is what to do with a candidate now.
type Action int

const (
	// Wait: leave the request Accepted; Reason and Message say why.
	Wait Action = iota
	// Provision: create its nodes in Zone.
	Provision
	// Fail: set Failed with Reason and Message; final.
	Fail
)

func (a Action) String() string {
	switch a {
	case Provision:
		return "Provision"
	case Fail:
		return "Fail"
	default:
		return "Wait"
	}
}

// Decision is what Schedule decided for one candidate.
type Decision struct {
	Ref     Ref
	Action  Action
	Zone    string
	Reason  string
	Message string
}

// Schedule decides for every candidate, in creation order (then namespace
// and name), given how many provisioned nodes each zone holds now (used,
// by zone name).
//
// The queue is FIFO: the first request that does not fit now waits, and so
// does every request behind it, even one that would fit, so that a large
// request is not starved by a stream of small ones; capacity freed goes to
// the head first. Requests that can never be provisioned fail at once and
// do not hold up the queue; neither does one still waiting for its
// PodTemplates. used is not changed.
func Schedule(cands []Candidate, zones []nodepools.Zone, used map[string]int) []Decision {
	order := make([]Candidate, len(cands))
	copy(order, cands)
	sort.SliceStable(order, func(i, j int) bool {
		a, b := order[i], order[j]
		if !a.Created.Equal(b.Created) {
			return a.Created.Before(b.Created)
		}
		if a.Ref.Namespace != b.Ref.Namespace {
			return a.Ref.Namespace < b.Ref.Namespace
		}
		return a.Ref.Name < b.Ref.Name
	})
	inUse := make(map[string]int, len(used))
	for z, n := range used {
		inUse[z] = n
	}
	var blockedBy *Candidate
	out := make([]Decision, 0, len(order))
	for i := range order {
		c := &order[i]
		if c.Problem != nil {
			d := Decision{Ref: c.Ref, Action: Fail, Reason: c.Problem.Reason, Message: c.Problem.Message}
			if c.Problem.Wait {
				d.Action = Wait
			}
			out = append(out, d)
			continue
		}
		zone, fit := ChooseZone(c.Demand, zones, inUse)
		switch {
		case fit == Never:
			out = append(out, Decision{Ref: c.Ref, Action: Fail, Reason: ReasonExceedsZoneCapacity, Message: neverMessage(c.Demand, zones)})
		case blockedBy != nil:
			out = append(out, Decision{Ref: c.Ref, Action: Wait, Reason: ReasonNotProvisioned,
				Message: fmt.Sprintf("queued behind %s, which waits for %s", blockedBy.Ref, nodesInOneZone(blockedBy.Demand.Nodes))})
		case fit == NotNow:
			blockedBy = c
			out = append(out, Decision{Ref: c.Ref, Action: Wait, Reason: ReasonNotProvisioned, Message: waitMessage(c.Demand, zones, inUse)})
		default:
			inUse[zone] += c.Demand.Nodes
			out = append(out, Decision{Ref: c.Ref, Action: Provision, Zone: zone, Reason: ReasonProvisioned,
				Message: fmt.Sprintf("provisioned %s in %s", plural(c.Demand.Nodes, "node"), zone)})
		}
	}
	return out
}

// Fit says whether a demand fits the zones.
type Fit int

const (
	// Fits: a zone has room now.
	Fits Fit = iota
	// NotNow: a zone could hold it once nodes are removed.
	NotNow
	// Never: every zone it may use holds fewer nodes than it needs.
	Never
)

// ChooseZone picks the zone for a demand: of the zones it may use with
// room for all of its nodes, the one with the least room (leaving larger
// holes for larger requests), the first configured on a tie.
func ChooseZone(d Demand, zones []nodepools.Zone, used map[string]int) (string, Fit) {
	best, bestFree := "", 0
	fit := Never
	for _, z := range zones {
		if !slices.Contains(d.Zones, z.Name) || d.Nodes > z.MaxNodes {
			continue
		}
		fit = NotNow
		free := z.MaxNodes - used[z.Name]
		if free >= d.Nodes && (best == "" || free < bestFree) {
			best, bestFree = z.Name, free
		}
	}
	if best != "" {
		return best, Fits
	}
	return "", fit
}

func neverMessage(d Demand, zones []nodepools.Zone) string {
	largest, largestName := 0, ""
	for _, z := range zones {
		if slices.Contains(d.Zones, z.Name) && z.MaxNodes > largest {
			largest, largestName = z.MaxNodes, z.Name
		}
	}
	return fmt.Sprintf("needs %s (%s); the largest zone it may use, %s, holds %s",
		nodesInOneZone(d.Nodes), describePodSets(d), largestName, plural(largest, "node"))
}

func waitMessage(d Demand, zones []nodepools.Zone, used map[string]int) string {
	var free []string
	for _, z := range zones {
		if slices.Contains(d.Zones, z.Name) {
			n := max(z.MaxNodes-used[z.Name], 0)
			free = append(free, fmt.Sprintf("%s has %d of %d free", z.Name, n, z.MaxNodes))
		}
	}
	return fmt.Sprintf("waiting for %s (%s): %s", nodesInOneZone(d.Nodes), describePodSets(d), strings.Join(free, ", "))
}

func nodesInOneZone(n int) string { return plural(n, "node") + " in one zone" }

// describePodSets renders a demand's pod sets: "pod set 0: 3 pods, 2 per
// node".
func describePodSets(d Demand) string {
	parts := make([]string, 0, len(d.PodSets))
	for i, ps := range d.PodSets {
		parts = append(parts, fmt.Sprintf("pod set %d: %s, %d per node", i, plural(ps.Pods, "pod"), ps.PodsPerNode))
	}
	return strings.Join(parts, "; ")
}
