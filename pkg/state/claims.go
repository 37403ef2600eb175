package state

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

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

// PreemptionSnapshot is Snapshot plus, for a workload waiting for quota,
// every workload admitted in its ClusterQueue's cohort (possible victims
// that hold no node the workload could use), each with the ClusterQueue it
// is charged to.
func (s *State) PreemptionSnapshot(key workload.Key, requested Requested) *Snapshot {
	return s.ForPreemption(s.Snapshot(key, requested))
}

// ForPreemption adds to a snapshot taken for planning (sn, left as Plan
// found it) what PreemptionSnapshot adds, and returns it.
func (s *State) ForPreemption(sn *Snapshot) *Snapshot {
	q := sn.Quota
	if q == nil || q.ClusterQueue == nil {
		// Nothing to add: no lock taken while evictions' pod events may
		// hold it.
		return sn
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	inCohort := map[string]bool{}
	for _, cq := range s.book.Cohort(q.ClusterQueue) {
		inCohort[cq.Name] = true
	}
	for k, w := range s.workloads {
		if c := s.book.ChargeOf(k); c != nil && inCohort[c.ClusterQueue] && w.livePods() > 0 {
			s.viewLocked(sn, k)
		}
	}
	return sn
}

// Claim records that preemptor, of priority priority, evicts victims to
// take the domains its plan r chose.
func (s *State) Claim(preemptor workload.Key, priority int32, victims []workload.Key, r *Reservation) {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.opts.Clock.Now()
	for _, v := range victims {
		if w := s.workloads[v]; w != nil {
			w.eviction = &Eviction{By: preemptor, Priority: priority, At: now}
		}
	}
	s.claims.drop(preemptor)
	// An admitted preemptor (capacity preemption: it lost its domains, it
	// did not lose its quota) keeps its charge while its victims go.
	c := &claim{victims: slices.Clone(victims), nodes: sets.New[string](), at: s.opts.Clock.Now(),
		keepsCharge: s.book.ChargeOf(preemptor) != nil}
	for _, sr := range r.Slices {
		if sr.Domain != "" {
			c.nodes.Insert(s.nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})...)
		}
		for _, slot := range sr.Slots {
			c.nodes.Insert(slot.Node)
		}
	}
	s.claims.put(preemptor, c)
	s.bumpLocked()
}

// PreemptionUnderway reports whether key's last preemption is still under
// way, and the victims that still have pods on nodes. While it is, the
// workload must not preempt again: it waits for its victims rather than
// evict more — and, for claimSettle after they are gone, for the
// scheduler's snapshot to see them gone.
func (s *State) PreemptionUnderway(key workload.Key) (underway bool, left []workload.Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	c := s.claims.of(key)
	if c == nil || c.restart {
		return false, nil
	}
	for _, v := range c.victims {
		if w := s.workloads[v]; w != nil && w.onNodes() > 0 {
			left = append(left, v)
		}
	}
	if len(left) > 0 {
		return true, left
	}
	now := s.opts.Clock.Now()
	if c.gone.IsZero() {
		c.gone = now
	}
	return now.Sub(c.gone) < claimSettle, nil
}

// PreemptionFailed records that key found no victims: a workload waiting
// for quota is not let through to preempt again until something changes.
func (s *State) PreemptionFailed(key workload.Key) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.workloads[key]; w != nil {
		w.noVictimsGen = s.generation + 1
	}
}

// mayPreemptForQuotaLocked says whether w, which its quota keeps waiting,
// should still go to a scheduling cycle, where it may reclaim quota by
// preemption: its ClusterQueue's policies allow some preemption, it has
// not found no victims since the state last changed, and no preemption of
// its own is under way (its victims' quota wakes it when they are gone).
func (s *State) mayPreemptForQuotaLocked(w *Workload) bool {
	if c := s.claims.of(w.key); w.noVictimsGen == s.generation+1 || (c != nil && !c.restart) {
		return false
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		return false
	}
	pol := cq.Preemption
	return pol.WithinClusterQueue == "LowerPriority" || pol.WithinClusterQueue == "LowerOrNewerEqualPriority" ||
		(cq.Cohort != "" && (pol.ReclaimWithinCohort == "Any" || pol.ReclaimWithinCohort == "LowerPriority" || pol.BorrowWithinCohort == "LowerPriority")) ||
		pol.ReclaimOutOfCohort
}

// VictimPods lists every live pod of a workload, of any attempt: evicting
// a workload removes all of it.
func (s *State) VictimPods(key workload.Key) []PodRef {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w := s.workloads[key]
	if w == nil {
		return nil
	}
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
func (s *State) Peers(pod *corev1.Pod) []PodRef {
	s.mu.RLock()
	defer s.mu.RUnlock()
	p := s.pods[pod.UID]
	if p == nil || !p.Gang || p.MemberErr != nil {
		return nil
	}
	w := s.workloads[p.Member.Key]
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

// OurScheduler reports whether name is one of this scheduler's profiles.
func (s *State) OurScheduler(name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.registry.ours(name)
}

// claimedForOther says which other workload node is kept for, if any. A
// restart hold does not keep a node from a gang of higher priority: that
// gang could have preempted the workload while it ran, and a restart must
// not shield it (see restarthold.go).
func (s *State) claimedForOther(node string, self workload.Key, gang bool) (workload.Key, bool) {
	k, ok := s.claims.keptFor(node)
	if !ok || (gang && k == self) {
		return workload.Key{}, false
	}
	if gang && s.yieldsToLocked(k, self) {
		return workload.Key{}, false
	}
	return k, true
}

// yieldsToLocked reports whether holder's claim is a restart hold that
// gives way to self, of higher priority.
func (s *State) yieldsToLocked(holder, self workload.Key) bool {
	c, h, w := s.claims.of(holder), s.workloads[holder], s.workloads[self]
	return c != nil && c.restart && h != nil && w != nil && w.priority > h.priority
}

// expireClaimsLocked ends claims past their timeout (a restart hold's is
// Options.RestartHold); a workload whose claim kept its charge gives its
// quota back unless something else of its admission lives.
func (s *State) expireClaimsLocked(now time.Time) (bool, Actions) {
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
		if w := s.workloads[key]; w != nil && c.keepsCharge {
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
