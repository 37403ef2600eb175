package state

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Migration off recycled nodes (seed 001, "node recycling"): GKE cordons a
// flex-start node in its recycling phase once the node's replacement is
// Ready, and removes it a while later; the pods still on it then die with
// it, and count as failures. The scheduler moves them before that, by
// eviction, and the state says what must move together and holds where it
// goes:
//
//   - A node is recycled when its lifetime (its ComputeClass's, see
//     pkg/feed/lifetimes.go) has a recycling start that has passed and the
//     node is cordoned. Both are needed: a cordon alone is a person's (or
//     a repair's) and says nothing of an end; the recycling phase alone
//     means a replacement was asked for, not that it is Ready.
//   - Recycled lists what runs there as MigrationUnits: a slice of a gang,
//     all of its placed pods, moves whole or not at all (its pods fail and
//     restart together anyway); a plain pod moves alone.
//   - SnapshotForMove is the workload as it would stand were the slice
//     gone, with the nodes that do not last taken out, on which the
//     planner (admission.PlanMove) decides whether the slice can be placed
//     again now; Apply (Decision.Hold) keeps the nodes it chose for the
//     workload (a claim, as a restart hold is) until its recreated pods
//     commit a reservation there.

// MigrationUnit is what must move off recycled nodes together: every
// placed pod of one slice of a gang, or one plain pod.
type MigrationUnit struct {
	// Key is the workload (a plain pod's own key for a queued plain pod,
	// the pod's name under SourcePod for others).
	Key workload.Key
	// Ref is the workload's object, for events (zero for a plain pod).
	Ref corev1.ObjectReference
	// Slice is the slice's index (-1 for a plain pod), SliceName its name.
	Slice     int
	SliceName string
	// Pods are the pods to evict: the slice's placed pods of the current
	// attempt, those on nodes that last too.
	Pods []MigratingPod
	// Recycled are the recycled nodes the pods are on, sorted; Ends is
	// the earliest end of life among them, RecycledSince the earliest
	// recycling start.
	Recycled      []string
	Ends          time.Time
	RecycledSince time.Time
	// Blocked says why the unit may not move now whatever the room ("":
	// it may, if the plan finds room).
	Blocked string
}

// MigratingPod is one pod of a unit and its node.
type MigratingPod struct {
	PodRef
	Node string
}

// Plain reports whether the unit is a plain pod.
func (u *MigrationUnit) Plain() bool { return u.Slice < 0 }

// ID tells units apart across rounds: the workload's key and slice, or
// the pod's UID.
func (u *MigrationUnit) ID() string {
	if u.Plain() && len(u.Pods) == 1 {
		return "pod/" + string(u.Pods[0].UID)
	}
	return fmt.Sprintf("%s#%d", u.Key, u.Slice)
}

// Describe names the unit for people: "slice 1 (train-slice-1) of
// JobSet ns/train", or "pod ns/p".
func (u *MigrationUnit) Describe() string {
	if u.Plain() {
		if len(u.Pods) == 1 {
			return fmt.Sprintf("pod %s/%s", u.Pods[0].Namespace, u.Pods[0].Name)
		}
		return u.Key.String()
	}
	name := ""
	if u.SliceName != "" {
		name = " (" + u.SliceName + ")"
	}
	return fmt.Sprintf("slice %d%s of %s", u.Slice, name, u.Key)
}

// Recycling reports whether node l, cordoned or not (unschedulable), is
// recycled at now: past its recycling start, and cordoned.
func Recycling(l topology.NodeLifetime, unschedulable bool, now time.Time) bool {
	return unschedulable && !l.Recycle.IsZero() && !now.Before(l.Recycle)
}

// Recycled lists, at the state's clock, what runs on recycled nodes and
// must move, ordered by the earliest end of life first: pods of this
// scheduler's profiles that are live and placed. Pods of other schedulers
// are the platform's to drain; a workload being evicted by a preemption,
// finished, or pods of an attempt its owner already replaced, are left
// to what is ending them.
func (up Upkeep) Recycled() []MigrationUnit {
	s := up.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	now := s.opts.Clock.Now()
	units := map[string]*MigrationUnit{}
	for _, name := range s.nodes.Bounded() {
		n := s.nodes.Node(name)
		if n == nil || !Recycling(n.Lifetime, n.Obj.Spec.Unschedulable, now) {
			continue
		}
		for _, uid := range slices.Sorted(maps.Keys(s.pods.onByUID(name))) {
			p := s.pods.onByUID(name)[uid]
			if !p.Live() || !s.registry.ours(p.Scheduler) {
				continue
			}
			u := up.unitOfLocked(p, units)
			if u == nil {
				continue
			}
			if !slices.Contains(u.Recycled, name) {
				u.Recycled = append(u.Recycled, name)
				slices.Sort(u.Recycled)
			}
			u.Ends = earlier(u.Ends, n.Lifetime.End)
			u.RecycledSince = earlier(u.RecycledSince, n.Lifetime.Recycle)
		}
	}
	out := make([]MigrationUnit, 0, len(units))
	for _, u := range units {
		out = append(out, *u)
	}
	slices.SortFunc(out, func(a, b MigrationUnit) int {
		if c := compareTimes(a.Ends, b.Ends); c != 0 {
			return c
		}
		return strings.Compare(a.ID(), b.ID())
	})
	return out
}

// unitOfLocked returns the unit pod p moves with, made on first sight and
// filed in units by ID; nil when p is left where it is.
func (up Upkeep) unitOfLocked(p *Pod, units map[string]*MigrationUnit) *MigrationUnit {
	s := up.s
	if !p.Gang || p.MemberErr != nil || p.Member.Key.Source == workload.SourcePod {
		u := &MigrationUnit{Key: p.Member.Key, Slice: -1,
			Pods: []MigratingPod{{PodRef: p.Ref(), Node: p.Node}}}
		if !p.Gang || p.MemberErr != nil {
			u.Key = workload.Key{Source: workload.SourcePod, Namespace: p.Namespace, Name: p.Name}
		} else if w := s.workloads.of(p.Member.Key); w != nil {
			u.Ref = w.ref
		}
		if prev := units[u.ID()]; prev != nil {
			return prev
		}
		units[u.ID()] = u
		return u
	}
	w := s.workloads.of(p.Member.Key)
	if w == nil || w.model == nil || w.model.Finished || !w.current(p) {
		return nil
	}
	if s.claims.isEvicting(w.key) {
		return nil
	}
	id := (&MigrationUnit{Key: w.key, Slice: p.Member.Slice}).ID()
	if u := units[id]; u != nil {
		return u
	}
	u := &MigrationUnit{Key: w.key, Ref: w.ref, Slice: p.Member.Slice, SliceName: w.model.Slices[p.Member.Slice].Name}
	for _, m := range w.members {
		if m.Node != "" && m.Live() && w.current(m) && m.Member.Slice == p.Member.Slice {
			u.Pods = append(u.Pods, MigratingPod{PodRef: m.Ref(), Node: m.Node})
		}
	}
	slices.SortFunc(u.Pods, func(a, b MigratingPod) int { return strings.Compare(a.Name, b.Name) })
	switch c := s.claims.of(w.key); {
	case s.reservations.of(w.key) != nil:
		u.Blocked = "its workload is being placed (pods of an earlier move, or of its start, are being scheduled): one move at a time"
	case c != nil && !c.migration && c.restart:
		u.Blocked = "its workload is restarting"
	case c != nil && !c.migration:
		u.Blocked = "its workload waits for the victims of its preemption"
	}
	units[id] = u
	return u
}

// SnapshotForMove is a snapshot of key's workload as it would stand were
// the placed pods of slice gone and recreated by their owner: their
// requests freed on their nodes, and the slice planned afresh, no longer
// pinned to its domain. The recreated pods are shaped as they will come
// (movedMembers): from the pods themselves, which carry what admission
// added to the template (tolerations of the nodes' accelerator taints);
// a slice JobSet's webhook stages comes back as its leader alone, its
// followers (pinned to the old leader's domain) to follow it. The nodes
// that do not last — being recycled or past their end
// (Lifetime.Ending), where a move would have to move again — are taken
// as unusable. What pods on nodes request is read from the state's own
// index of them, as the scheduler's cache counts it (every pod bound or
// assumed there that has not finished: those being deleted still occupy
// it), under the same lock: the copy is one.
func (s *State) SnapshotForMove(key workload.Key, slice int) *Snapshot {
	s.mu.Lock() // Track may extend the domain index.
	sn := s.copier.snapshotLocked(key, false)
	sn.subtractRequested(func(node string) (workload.Resources, bool) {
		if s.nodes.Node(node) == nil {
			return nil, false
		}
		out := workload.Resources{}
		for p := range s.pods.on(node) {
			if !p.Terminal || p.Deleting {
				out.AddScaled(p.Request, 1)
			}
		}
		return out, true
	})
	s.mu.Unlock()
	self := sn.Self
	if self == nil || self.Model == nil {
		return sn
	}
	gone := map[types.UID]bool{}
	var moved []*Pod
	members := make([]*Pod, 0, len(self.Members))
	for _, m := range self.Members {
		if m.Member.Slice == slice && m.Node != "" {
			gone[m.UID] = true
			moved = append(moved, m)
			continue
		}
		members = append(members, m)
	}
	self.Members = append(members, movedMembers(moved)...)
	slices.SortFunc(self.Members, func(a, b *Pod) int { return strings.Compare(a.Name, b.Name) })
	pods := make([]PodView, 0, len(self.Pods))
	for _, p := range self.Pods {
		if !gone[p.UID] {
			pods = append(pods, p)
			continue
		}
		n := sn.Nodes[p.Node]
		if n == nil {
			continue
		}
		// Free may be shared (NodeView.Free): changed on a copy.
		n.Free = maps.Clone(n.Free)
		if n.Free == nil {
			n.Free = workload.Resources{}
		}
		n.Free.AddScaled(p.Request, 1)
		if p.Holds {
			n.Holders = withOneHolderLess(n.Holders, self.Holder)
		}
	}
	self.Pods = pods
	for name, n := range sn.Nodes {
		if n.Node.Usable && n.Node.Lifetime.Ending(sn.Now) {
			gone := *n.Node
			gone.Usable = false
			view := *n
			view.Node = &gone
			sn.Nodes[name] = &view
		}
	}
	return sn
}

// movedMembers are the pending members a slice's evicted pods come back
// as: unplaced copies (the state's records are shared, never changed); for
// a slice whose leader JobSet's webhook staged, the leader alone, as its
// Job recreates it first and the planner shapes the followers still to
// come like it (their node selectors pinned them to the old domain).
func movedMembers(pods []*Pod) []*Pod {
	for _, p := range pods {
		if p.StagedLeader {
			pods = []*Pod{p}
			break
		}
	}
	out := make([]*Pod, 0, len(pods))
	for _, p := range pods {
		c := *p
		c.Node, c.Assumed = "", false
		c.holds, c.heldDomain = nil, nil
		out = append(out, &c)
	}
	return out
}

// withOneHolderLess is holders with one pod of h fewer: a new map (the
// snapshot's may be the state's own).
func withOneHolderLess(holders map[workload.Holder]int, h workload.Holder) map[workload.Holder]int {
	if holders[h] == 0 {
		return holders
	}
	out := maps.Clone(holders)
	if out[h]--; out[h] <= 0 {
		delete(out, h)
	}
	return out
}

// holdForMoveLocked keeps for key's workload the nodes r (a plan made on
// SnapshotForMove, Decision.Hold) chose, while the pods it evicts are
// recreated: no other workload plans there, the workload's own plan
// prefers them (Kept), and it keeps its quota though none of its pods may
// be on a node. The hold is a claim like a restart hold (restarthold.go),
// and ends like one: when the workload commits a reservation, after
// Options.RestartHold, or when a restart hold replaces it. A second move
// of the same workload before its pods are placed adds its nodes to the
// hold. It refuses what moved under the plan: the workload holds a
// reservation or another claim meanwhile, or a node the plan puts pods on
// is kept for another workload; with RestartHold 0 nothing is kept, and
// it succeeds.
func (ap applier) holdForMoveLocked(key workload.Key, r *Reservation) error {
	s := ap.s
	if s.reservations.of(key) != nil {
		return fmt.Errorf("%s is being placed", key)
	}
	c := s.claims.of(key)
	if c != nil && !c.migration {
		return fmt.Errorf("%s holds another claim", key)
	}
	for _, sr := range r.Slices {
		for _, slot := range sr.Slots {
			if k, ok := ap.claimedForOther(slot.Node, key, true); ok {
				return fmt.Errorf("node %s is kept for %s", slot.Node, k)
			}
		}
	}
	if s.opts.RestartHold <= 0 || s.workloads.of(key) == nil {
		return nil
	}
	if c == nil {
		c = &claim{nodes: sets.New[string](), restart: true, migration: true, keepsCharge: s.book.ChargeOf(key) != nil}
		s.claims.put(key, c)
	}
	c.at = s.opts.Clock.Now()
	for _, n := range planNodes(s.nodes, r) {
		s.claims.keep(key, n)
	}
	s.bumpLocked()
	return nil
}

func earlier(a, b time.Time) time.Time {
	if a.IsZero() || (!b.IsZero() && b.Before(a)) {
		return b
	}
	return a
}

// compareTimes orders times, a zero time (none) last.
func compareTimes(a, b time.Time) int {
	switch {
	case a.Equal(b):
		return 0
	case a.IsZero():
		return 1
	case b.IsZero():
		return -1
	}
	return a.Compare(b)
}
