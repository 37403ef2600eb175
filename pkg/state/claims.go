package state

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A claim is what a preemption leaves behind while its victims terminate:
// the nodes the preemptor's plan chose are kept for it — no other workload
// or pod may take them — and it does not preempt again until its victims
// are gone. It ends when the preemptor commits a reservation, is deleted,
// or after ClaimTimeout.
type claim struct {
	victims []workload.Key
	nodes   sets.Set[string]
	at      time.Time
	// gone is when the victims were first found gone (zero: not yet).
	gone time.Time
	// restart marks a restart hold (restarthold.go): no preemption, the
	// workload's own nodes kept while it restarts.
	restart bool
	// migration marks, with restart, a move hold (migrate.go): the nodes
	// a slice evicted off recycled nodes goes to, kept while its pods are
	// recreated.
	migration bool
	// keepsCharge: the workload was admitted when the claim began, and
	// keeps its quota while the claim lasts, though none of its pods is
	// on a node — it restarts, or waits for its victims to go.
	keepsCharge bool
}

// claimIndex holds the claims under way, by the workload each keeps nodes
// for (the preemptor, or the workload a restart or move hold is for).
//
// Invariant: nodes[n] == k exactly when n is in byWorkload[k].nodes (a
// node is kept for one workload at most: a later claim that takes a node
// takes it out of the index, not out of the earlier claim's set, and
// drop leaves a node another claim took alone); evicting[v] == k when v
// is among byWorkload[k].victims and no later claim named v. Only put,
// keep, drop and takeRestartNodes change them. Guarded by State.mu.
type claimIndex struct {
	byWorkload map[workload.Key]*claim
	nodes      map[string]workload.Key
	evicting   map[workload.Key]workload.Key
}

func newClaimIndex() claimIndex {
	return claimIndex{byWorkload: map[workload.Key]*claim{}, nodes: map[string]workload.Key{}, evicting: map[workload.Key]workload.Key{}}
}

// of is key's claim (nil: none).
func (x *claimIndex) of(key workload.Key) *claim { return x.byWorkload[key] }

// put records c as key's claim: its nodes are kept for key, taken from
// any other claim, and its victims are being evicted for key.
func (x *claimIndex) put(key workload.Key, c *claim) {
	for n := range c.nodes {
		x.nodes[n] = key
	}
	for _, v := range c.victims {
		x.evicting[v] = key
	}
	x.byWorkload[key] = c
}

// keep adds node to key's claim unless another workload's claim keeps it.
func (x *claimIndex) keep(key workload.Key, node string) {
	c := x.byWorkload[key]
	if k, taken := x.nodes[node]; c != nil && (!taken || k == key) {
		c.nodes.Insert(node)
		x.nodes[node] = key
	}
}

// keptFor returns the workload node is kept for, if any.
func (x *claimIndex) keptFor(node string) (workload.Key, bool) {
	k, ok := x.nodes[node]
	return k, ok
}

// isEvicting reports whether a claim evicts key.
func (x *claimIndex) isEvicting(key workload.Key) bool {
	_, ok := x.evicting[key]
	return ok
}

// keepsCharge reports whether key's claim keeps its quota.
func (x *claimIndex) keepsCharge(key workload.Key) bool {
	c := x.byWorkload[key]
	return c != nil && c.keepsCharge
}

// drop ends key's claim, reporting whether it had one.
func (x *claimIndex) drop(key workload.Key) bool {
	c := x.byWorkload[key]
	if c == nil {
		return false
	}
	for n := range c.nodes {
		if x.nodes[n] == key {
			delete(x.nodes, n)
		}
	}
	for _, v := range c.victims {
		if x.evicting[v] == key {
			delete(x.evicting, v)
		}
	}
	delete(x.byWorkload, key)
	return true
}

// takeRestartNodes gives key the nodes among nodes that another workload's
// restart hold kept: key's reservation planned them, as claimedForOther
// let it (a restart hold yields to a gang of higher priority).
func (x *claimIndex) takeRestartNodes(key workload.Key, nodes []string) {
	for _, n := range nodes {
		k, ok := x.nodes[n]
		if !ok || k == key {
			continue
		}
		if c := x.byWorkload[k]; c != nil && c.restart {
			c.nodes.Delete(n)
			delete(x.nodes, n)
		}
	}
}

// keys lists the workloads with a claim, sorted.
func (x *claimIndex) keys() []workload.Key {
	return slices.SortedFunc(maps.Keys(x.byWorkload), compareKeys)
}

// claimSettle is how long after its victims are gone a claim still stops
// its preemptor from preempting again: the scheduler's own snapshot of the
// cluster, taken at the start of each cycle, may still show the victims'
// pods, and a plan that fails on that stale room must not pick new
// victims and give up the domains already freed.
const claimSettle = 10 * time.Second

// DefaultClaimTimeout is the default of Options.ClaimTimeout.
const DefaultClaimTimeout = 5 * time.Minute

// PreemptionFacts is what deciding whether a gang member's failed cycle
// preempts reads (admission.PreemptFor), copied under one lock
// (State.Preemption).
type PreemptionFacts struct {
	// Now is when the copy was taken; Generation the state's generation
	// then.
	Now        time.Time
	Generation uint64
	// PlacedWhole: the workload runs whole and holds no reservation.
	PlacedWhole bool
	// HeadFailure is why the workload's last plan failed, when the pod is
	// the head its waiting workload plans through and the workload holds
	// no reservation (nil otherwise).
	HeadFailure *placement.Failure
	// Claim is the workload's preemption under way (nil: none; a restart
	// or move hold is none).
	Claim *ClaimFacts
	// NeverPreempts: the pod's preemptionPolicy is Never (its
	// PriorityClass says so), which kube-scheduler's own preemption
	// honours: its workload waits for room and evicts no one.
	NeverPreempts bool
}

// ClaimFacts is a copy of a preemption's claim.
type ClaimFacts struct {
	// Left are its victims that still have pods on nodes (being deleted
	// or not).
	Left []workload.Key
	// Gone is when its victims were first found gone (zero: not yet).
	Gone time.Time
}

// Underway reports whether the preemption is still under way at now: the
// workload must not preempt again while it is — it waits for its victims
// rather than evict more — nor, for claimSettle after they are gone, while
// the scheduler's snapshot may still show them.
func (c *ClaimFacts) Underway(now time.Time) bool {
	if c == nil {
		return false
	}
	return len(c.Left) > 0 || c.Gone.IsZero() || now.Sub(c.Gone) < claimSettle
}

// Preemption copies what deciding whether pod, a member of key's workload,
// preempts reads; the snapshot to choose victims on is copied apart, once
// the decision is to try (PreemptionSnapshot).
func (s *State) Preemption(pod *corev1.Pod, key workload.Key) PreemptionFacts {
	s.mu.RLock()
	defer s.mu.RUnlock()
	f := PreemptionFacts{Now: s.opts.Clock.Now(), Generation: s.generation,
		NeverPreempts: pod.Spec.PreemptionPolicy != nil && *pod.Spec.PreemptionPolicy == corev1.PreemptNever}
	w := s.workloads.of(key)
	f.PlacedWhole = w != nil && w.model != nil && s.reservations.of(key) == nil && w.placedWhole()
	if h := s.queued.headOf(pod.UID); h != nil && s.reservations.of(h.key) == nil {
		f.HeadFailure = h.failure
	}
	if c := s.claims.of(key); c != nil && !c.restart {
		f.Claim = &ClaimFacts{Gone: c.gone}
		for _, v := range c.victims {
			if vw := s.workloads.of(v); vw != nil && vw.onNodes() > 0 {
				f.Claim.Left = append(f.Claim.Left, v)
			}
		}
	}
	return f
}

// PreemptionSnapshot is the snapshot key's workload chooses victims on: a
// new value, planned (the snapshot its plan failed on in this cycle, nil:
// none) copied when it is key's, else a snapshot taken afresh, plus, for a
// workload waiting for quota, every workload admitted in its
// ClusterQueue's cohort (possible victims that hold no node the workload
// could use), each with the ClusterQueue it is charged to. planned itself
// is left as it was.
func (s *State) PreemptionSnapshot(key workload.Key, planned *Snapshot, requested Requested) *Snapshot {
	var sn *Snapshot
	if planned != nil && planned.Self != nil && planned.Self.Key == key {
		sn = planned.clone()
		if q := sn.Quota; q == nil || q.ClusterQueue == nil {
			// Nothing to add: no lock taken while evictions' pod events
			// may hold it.
			return sn
		}
	}
	fresh := sn == nil
	s.mu.Lock()
	if fresh {
		sn = s.copier.snapshotLocked(key, false) // Track may extend the domain index.
	}
	if q := sn.Quota; q != nil && q.ClusterQueue != nil {
		inCohort := map[string]bool{}
		for _, cq := range s.book.Cohort(q.ClusterQueue) {
			inCohort[cq.Name] = true
		}
		for k, w := range s.workloads.byKeys() {
			if c := s.book.ChargeOf(k); c != nil && inCohort[c.ClusterQueue] && w.livePods() > 0 {
				s.copier.viewLocked(sn, k)
			}
		}
	}
	s.mu.Unlock()
	if fresh {
		// What the scheduler's snapshot says pods request is read once
		// the state's lock is released.
		sn.subtractRequested(requested)
	}
	return sn
}

// clone is a copy of sn a decision may simulate on (see simulate.go) while
// whoever holds sn goes on reading it: its maps of workloads, ClusterQueues
// and nodes, and each node's free room, are its own.
func (sn *Snapshot) clone() *Snapshot {
	out := *sn
	out.Workloads = maps.Clone(sn.Workloads)
	out.ClusterQueues = maps.Clone(sn.ClusterQueues)
	out.Nodes = make(map[string]*NodeView, len(sn.Nodes))
	for name, n := range sn.Nodes {
		c := *n
		c.Free = maps.Clone(n.Free)
		out.Nodes[name] = &c
	}
	return &out
}

// Claim is a preemption decided (admission.PreemptFor): Apply records it
// as a claim of Decision.Key.
type Claim struct {
	// Priority is the preemptor's.
	Priority int32
	// Victims are the workloads evicted whole, and Plan where the
	// preemptor was planned once they are gone: the nodes it chose are
	// kept for it.
	Victims []workload.Key
	Plan    *Reservation
}

// Victim is a workload a claim applied evicts: every live pod of it, of
// any attempt, goes.
type Victim struct {
	Key  workload.Key
	Ref  corev1.ObjectReference
	Pods []PodRef
}

// applyClaimsLocked writes what a decision says of claims: that Key's
// preemption found no victims at Generation (a workload waiting for quota
// is not let through to preempt again until something changes), that its
// victims were found gone, a move hold (Hold, see holdForMoveLocked), or
// a preemption (Claim): Key evicts the claim's victims to take the nodes
// its plan chose, and out.Victims lists them to evict. A claim is refused
// when what moved under the decision makes it wrong: the preemptor or a
// victim gone, a victim another preemption evicts meanwhile, a node the
// plan puts pods on kept meanwhile for a workload that is not a victim.
func (ap applier) applyClaimsLocked(d Decision, out *Applied) {
	s := ap.s
	if d.NoVictims {
		if w := s.workloads.of(d.Key); w != nil {
			w.noVictimsGen = d.Generation + 1
		}
	}
	if c := s.claims.of(d.Key); !d.VictimsGone.IsZero() && c != nil && !c.restart && c.gone.IsZero() {
		c.gone = d.VictimsGone
	}
	if d.Hold != nil {
		out.Refused = ap.holdForMoveLocked(d.Key, d.Hold)
	}
	if d.Claim == nil {
		return
	}
	key, victim := d.Key, map[workload.Key]bool{}
	if s.workloads.of(key) == nil {
		out.Refused = fmt.Errorf("%s is gone", key)
		return
	}
	for _, v := range d.Claim.Victims {
		if s.workloads.of(v) == nil {
			out.Refused = fmt.Errorf("preemption victim %s is gone", v)
			return
		}
		if by, ok := s.claims.evicting[v]; ok && by != key {
			out.Refused = fmt.Errorf("preemption victim %s is being evicted for %s", v, by)
			return
		}
		victim[v] = true
	}
	for _, sr := range d.Claim.Plan.Slices {
		for _, slot := range sr.Slots {
			if k, ok := ap.claimedForOther(slot.Node, key, true); ok && !victim[k] {
				out.Refused = fmt.Errorf("node %s is kept for %s", slot.Node, k)
				return
			}
		}
	}
	now := s.opts.Clock.Now()
	for _, v := range d.Claim.Victims {
		w := s.workloads.of(v)
		w.eviction = &Eviction{By: key, Priority: d.Claim.Priority, At: now}
		out.Victims = append(out.Victims, Victim{Key: v, Ref: w.ref, Pods: w.livePodRefs()})
	}
	s.claims.drop(key)
	// An admitted preemptor (capacity preemption: it lost its domains, it
	// did not lose its quota) keeps its charge while its victims go.
	s.claims.put(key, &claim{victims: slices.Clone(d.Claim.Victims), nodes: sets.New(planNodes(s.nodes, d.Claim.Plan)...), at: now,
		keepsCharge: s.book.ChargeOf(key) != nil})
	s.bumpLocked()
}

// planNodes lists the nodes r plans on: every node of each confined
// slice's domain (as nodes has them), and each slot's node.
func planNodes(nodes *topology.Index, r *Reservation) []string {
	var out []string
	for _, sr := range r.Slices {
		if sr.Domain != "" {
			out = append(out, nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})...)
		}
		for _, slot := range sr.Slots {
			out = append(out, slot.Node)
		}
	}
	return out
}

// livePodRefs lists every live pod of w, of any attempt, by name:
// evicting a workload removes all of it.
func (w *Workload) livePodRefs() []PodRef {
	var out []PodRef
	for _, p := range w.members {
		if !p.Terminal {
			out = append(out, p.Ref())
		}
	}
	slices.SortFunc(out, func(a, b PodRef) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Peers lists the live pods of pod's workload that belong to the same
// object and attempt as pod (pod excluded; none for a plain pod): what was
// evicted with it when its workload was evicted whole.
func (rp Reports) Peers(pod *corev1.Pod) []PodRef {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.pods.get(pod.UID)
	if p == nil || !p.Gang || p.MemberErr != nil {
		return nil
	}
	w := s.workloads.of(p.Member.Key)
	if w == nil {
		return nil
	}
	var out []PodRef
	for _, o := range w.members {
		if o.UID != p.UID && !o.Terminal && o.Member.OwnerUID == p.Member.OwnerUID && o.Member.RestartAttempt == p.Member.RestartAttempt {
			out = append(out, o.Ref())
		}
	}
	slices.SortFunc(out, func(a, b PodRef) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// claimedForOther says which other workload node is kept for, if any
// (placement.ClaimKeeps, on what the state holds of the claim and of the
// two workloads).
func (ap applier) claimedForOther(node string, self workload.Key, gang bool) (workload.Key, bool) {
	s := ap.s
	k, ok := s.claims.keptFor(node)
	if !ok {
		return workload.Key{}, false
	}
	c := s.claims.of(k)
	restart := c != nil && c.restart
	var byPriority int32
	if h := s.workloads.of(k); h != nil {
		byPriority = h.priority
	} else {
		// Of a workload the state no longer holds: its hold yields to
		// no one.
		restart = false
	}
	claimant := placement.Claimant{Key: self, Gang: gang}
	if w := s.workloads.of(self); w != nil {
		claimant.Priority = w.priority
	} else {
		restart = false
	}
	if !placement.ClaimKeeps(k, restart, byPriority, claimant) {
		return workload.Key{}, false
	}
	return k, true
}

// expireClaimsLocked ends claims past their timeout (a restart hold's is
// Options.RestartHold); a workload whose claim kept its charge gives its
// quota back unless something else of its admission lives.
func (up Upkeep) expireClaimsLocked(now time.Time) (bool, Actions) {
	s := up.s
	ended := false
	var acts Actions
	for _, key := range s.claims.keys() {
		c := s.claims.of(key)
		timeout := s.opts.ClaimTimeout
		if c.restart {
			timeout = s.opts.RestartHold
		}
		if now.Sub(c.at) < timeout {
			continue
		}
		ended = s.claims.drop(key) || ended
		if w := s.workloads.of(key); w != nil && c.keepsCharge {
			switch {
			case c.migration:
				acts.Events = append(acts.Events, Event{Ref: w.ref, Reason: ReasonRestartHoldExpired,
					Message: fmt.Sprintf("the pods of %s moved off nodes being recycled were not placed again within %s: the nodes and the quota kept for them are no longer kept", key, s.opts.RestartHold)})
			case c.restart:
				acts.Events = append(acts.Events, Event{Ref: w.ref, Reason: ReasonRestartHoldExpired,
					Message: fmt.Sprintf("%s did not come back within %s of its restart: its nodes and its quota are no longer kept for it", key, s.opts.RestartHold)})
			}
			acts.merge(s.settleQuotaLocked(w))
		}
	}
	return ended, acts
}

// onNodes counts the workload's pods still on a node, any attempt: live
// ones and those being deleted.
func (w *Workload) onNodes() int {
	n := 0
	for _, p := range w.members {
		if p.Node != "" && (p.Live() || p.Deleting) {
			n++
		}
	}
	return n
}
