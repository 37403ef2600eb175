package state

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Quota-managed workloads name a LocalQueue. Such a workload is admitted —
// charged to its ClusterQueue — in the same decision that reserves its
// domains, and stays charged while its reservation or any placed pod of
// its current attempt lives. Until then its gang's head waits in
// PreEnqueue whenever its queue says it may not go yet (no quota, behind
// the queue's head, yielding to a fairer share), so waiting workloads do
// not spin through scheduling cycles; whatever frees quota or changes a
// queue object re-activates them.

// SetFlavor records a ResourceFlavor.
func (s *State) SetFlavor(f *quota.Flavor) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetFlavor(f) {
		return Actions{}
	}
	return s.queuesChangedLocked()
}

// DeleteFlavor forgets a ResourceFlavor.
func (s *State) DeleteFlavor(name string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteFlavor(name)
	return s.queuesChangedLocked()
}

// SetClusterQueue records a ClusterQueue. Like every Set of a queue
// object, it wakes waiting workloads only when the object's model changed:
// the status the scheduler writes comes back as updates, and waking every
// gated workload on each would run all of them through PreEnqueue again.
func (s *State) SetClusterQueue(cq *quota.ClusterQueue) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetClusterQueue(cq) {
		return Actions{}
	}
	return s.queuesChangedLocked()
}

// DeleteClusterQueue forgets a ClusterQueue.
func (s *State) DeleteClusterQueue(name string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteClusterQueue(name)
	return s.queuesChangedLocked()
}

// SetLocalQueue records a LocalQueue.
func (s *State) SetLocalQueue(lq *quota.LocalQueue) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetLocalQueue(lq) {
		return Actions{}
	}
	return s.queuesChangedLocked()
}

// DeleteLocalQueue forgets a LocalQueue.
func (s *State) DeleteLocalQueue(namespace, name string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteLocalQueue(namespace, name)
	return s.queuesChangedLocked()
}

// SetNamespace records a namespace's labels for namespace selectors.
func (s *State) SetNamespace(name string, labels map[string]string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetNamespace(name, labels) {
		return Actions{}
	}
	return s.queuesChangedLocked()
}

// DeleteNamespace forgets a namespace.
func (s *State) DeleteNamespace(name string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteNamespace(name)
	return s.queuesChangedLocked()
}

// queuesChangedLocked: a queue object changed, which may admit waiting
// workloads (or make a failed plan worth retrying).
func (s *State) queuesChangedLocked() Actions {
	s.bumpLocked()
	s.rechargeAllLocked()
	s.reindexQueuedLocked()
	return Actions{Activate: s.wakeAllLocked()}
}

// queueNameLocked returns the LocalQueue w is admitted through ("": w is
// not quota-managed).
func (s *State) queueNameLocked(w *Workload) string {
	if w.model == nil || s.registry.api(QueueAPI) == APINotServed {
		return ""
	}
	if w.model.QueueName != "" {
		return w.model.QueueName
	}
	// The default applies only in namespaces that have such a LocalQueue,
	// so that turning it on does not stop every other namespace.
	if d := s.opts.DefaultLocalQueue; d != "" && s.book.HasLocalQueue(w.key.Namespace, d) {
		return d
	}
	return ""
}

// awaitingAdmissionLocked reports whether w is quota-managed and not
// admitted yet.
func (s *State) awaitingAdmissionLocked(w *Workload) bool {
	return s.queueNameLocked(w) != "" && s.book.ChargeOf(w.key) == nil && s.reservations[w.key] == nil
}

// needsLocked is what admitting w charges: every pod of every slice, each
// sized from its own spec where it exists and from its slice's first pod
// or template otherwise. The result is cached until the model or the
// members change: callers must not modify it.
func (s *State) needsLocked(w *Workload) []quota.Need {
	if c := &w.needs; c.model != w.model || c.gen != w.membersGen || c.needs == nil {
		*c = needsCache{model: w.model, gen: w.membersGen, needs: s.computeNeedsLocked(w)}
		c.shape = quota.Shape(c.needs)
	}
	return w.needs.needs
}

// shapeLocked is quota.Shape of w's needs.
func (s *State) shapeLocked(w *Workload) string {
	s.needsLocked(w)
	return w.needs.shape
}

func (s *State) computeNeedsLocked(w *Workload) []quota.Need {
	model := w.model
	type acc struct {
		total workload.Resources
		n     int
		any   *Pod
	}
	per := make([]acc, len(model.Slices))
	for _, p := range w.members {
		if !p.Live() || !w.current(p) {
			continue
		}
		a := &per[p.Member.Slice]
		if a.n >= model.Slices[p.Member.Slice].Pods {
			continue
		}
		if a.total == nil {
			a.total = workload.Resources{}
		}
		a.total.AddScaled(p.Request, 1)
		a.n++
		if a.any == nil || p.Member.Leader {
			a.any = p
		}
	}
	out := make([]quota.Need, 0, len(model.Slices))
	for i, sl := range model.Slices {
		a := per[i]
		total := a.total
		if total == nil {
			total = workload.Resources{}
		}
		rest := int64(sl.Pods - a.n)
		spec := sl.Template
		switch {
		case rest <= 0:
		case a.any != nil:
			total.AddScaled(a.any.Request, rest)
			spec = a.any.Spec
		case sl.Request != nil:
			total.AddScaled(sl.Request, rest)
		}
		out = append(out, quota.Need{Slice: i, Count: 1, Request: total, Compatible: compatibleWith(spec), CompatibleKey: selectorKey(spec)})
	}
	return out
}

// compatibleWith says whether pods of spec could run on a flavor's nodes:
// their node selector must not contradict the flavor's node labels.
func compatibleWith(spec *corev1.PodSpec) func(*quota.Flavor) bool {
	if spec == nil || len(spec.NodeSelector) == 0 {
		return nil
	}
	sel := spec.NodeSelector
	return func(f *quota.Flavor) bool {
		for k, v := range f.NodeLabels {
			if want, ok := sel[k]; ok && want != v {
				return false
			}
		}
		return true
	}
}

// selectorKey identifies what compatibleWith(spec) decides by.
func selectorKey(spec *corev1.PodSpec) string {
	if spec == nil || len(spec.NodeSelector) == 0 {
		return ""
	}
	return labelsKey(spec.NodeSelector)
}

// QueueRound is what the queue verdict on one quota-managed workload
// reads, copied from the state: its queue's quota, and the pending
// workloads of its cohort that matter to it — the head of its own queue,
// heads that have starved in it, and the heads of the cohort's other
// queues (for fair sharing). admission.QueueVerdict decides on it.
type QueueRound struct {
	Key workload.Key
	// Problem is set when the workload's queue cannot admit it at all now
	// (the queue API not known yet, a queue object missing): the verdict
	// is that problem, and nothing else is filled in.
	Problem *quota.Problem
	View    *quota.View
	// Candidates are the workload itself, first, then the others.
	Candidates []QueueCandidate
	Now        time.Time
	Starvation time.Duration
	// MayPreempt: its ClusterQueue's policies let it reclaim quota by
	// preemption, and no search for victims of its own is known to be
	// vain or under way (see mayPreemptForQuotaLocked).
	MayPreempt bool
}

// QueueCandidate is one pending workload of a QueueRound, not charged.
type QueueCandidate struct {
	Place        quota.Candidate
	ClusterQueue *quota.ClusterQueue
	// Needs are what admitting it charges; shared with the state's cache:
	// read-only.
	Needs []quota.Need
	// Head is its waiting head when it holds no reservation: the pod to
	// wake when another workload yields to it (nil: none).
	Head *PodRef
}

// Candidate returns the round's candidate for key (nil: none).
func (r *QueueRound) Candidate(key workload.Key) *QueueCandidate {
	for i := range r.Candidates {
		if r.Candidates[i].Place.Key == key {
			return &r.Candidates[i]
		}
	}
	return nil
}

// queueRoundLocked gathers what the queue verdict on w reads.
func (s *State) queueRoundLocked(w *Workload) *QueueRound {
	r := &QueueRound{Key: w.key}
	if r.Problem = s.queueAPIProblemLocked(); r.Problem != nil {
		return r
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		r.Problem = p
		return r
	}
	r.View, r.Now, r.Starvation = s.book.View(), s.opts.Clock.Now(), s.opts.QuotaStarvation
	r.MayPreempt = s.mayPreemptForQuotaLocked(w)
	r.Candidates = []QueueCandidate{s.queueCandidateLocked(w, cq)}
	cohort := s.book.Cohort(cq)
	heads := map[string]*Workload{}
	var starving []*Workload
	for _, q := range cohort {
		pending := s.queued.of(q.Name)
		if q.Name != cq.Name {
			if h := pending.at(0); h != nil {
				heads[q.Name] = h
			}
			continue
		}
		// w's own queue: what comes before w, a prefix of the order.
		for i := 0; ; i++ {
			o := pending.at(i)
			if o == nil || (o != w && !s.before(o, w)) {
				break
			}
			if o == w {
				continue
			}
			if heads[q.Name] == nil {
				heads[q.Name] = o
			}
			if since := o.waitingForQuotaSince(); !since.IsZero() && r.Now.Sub(since) >= s.opts.QuotaStarvation {
				starving = append(starving, o)
			}
		}
	}
	seen := map[workload.Key]bool{w.key: true}
	add := func(o *Workload, q *quota.ClusterQueue) {
		if o == nil || seen[o.key] {
			return
		}
		seen[o.key] = true
		r.Candidates = append(r.Candidates, s.queueCandidateLocked(o, q))
	}
	for _, q := range cohort {
		h := heads[q.Name]
		if h == nil || (q.Name == cq.Name && !s.before(h, w)) {
			continue
		}
		if q.Name != cq.Name && h.failure != nil {
			// A head whose last plan failed is not yielded to: it may
			// not be placeable at all.
			continue
		}
		add(h, q)
	}
	for _, o := range starving {
		add(o, cq)
	}
	return r
}

func (s *State) queueCandidateLocked(w *Workload, cq *quota.ClusterQueue) QueueCandidate {
	c := QueueCandidate{Place: queuePlace(w, cq), ClusterQueue: cq, Needs: s.needsLocked(w)}
	if w.waitingHead != nil && s.reservations[w.key] == nil {
		head := *w.waitingHead
		c.Head = &head
	}
	return c
}

// RecordQueueVerdict records the queue's verdict on a workload (problem
// nil: it may plan), shown on its Workload while no quota is reserved,
// unless a blocked member's reason stands (MemberUnschedulable); waiting
// for quota starts its starvation clock.
func (s *State) RecordQueueVerdict(key workload.Key, problem *quota.Problem) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	w := s.workloads[key]
	if w == nil {
		return
	}
	if w.blockedBy == nil {
		w.queueProblem.Store(problem)
	}
	if problem != nil && problem.Reason == quota.ReasonQuotaExceeded {
		w.markWaitingForQuota(s.opts.Clock.Now())
	}
}

// queuePlace is w's place in cq's order, as a candidate with no charge.
func queuePlace(w *Workload, cq *quota.ClusterQueue) quota.Candidate {
	return quota.Candidate{Key: w.key, ClusterQueue: cq.Name, Priority: w.priority, Created: w.model.Created, WaitingSince: w.waitingForQuotaSince()}
}

// before is the queue order between two pending workloads.
func (s *State) before(a, b *Workload) bool {
	return quota.Precedes(a.priority, b.priority, a.model.Created, b.model.Created, a.key, b.key)
}

// QuotaDecision is what a plan needs to charge a workload's quota.
type QuotaDecision struct {
	ClusterQueue *quota.ClusterQueue
	View         *quota.View
	Needs        []quota.Need
	// Problem is set when the workload's queue cannot admit it at all.
	Problem *quota.Problem
}

// quotaDecisionLocked prepares the quota part of w's plan (nil when w is
// not quota-managed or already admitted).
func (s *State) quotaDecisionLocked(w *Workload) *QuotaDecision {
	if !s.awaitingAdmissionLocked(w) {
		return nil
	}
	if p := s.queueAPIProblemLocked(); p != nil {
		return &QuotaDecision{Problem: p}
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		return &QuotaDecision{Problem: p}
	}
	return &QuotaDecision{ClusterQueue: cq, View: s.book.View(), Needs: s.needsLocked(w)}
}

// chargeLocked admits w with c, if the quota it was decided on is still
// there.
func (s *State) chargeLocked(w *Workload, c *quota.Charge) error {
	cq := s.book.ClusterQueue(c.ClusterQueue)
	if cq == nil {
		return fmt.Errorf("ClusterQueue %s was deleted meanwhile", c.ClusterQueue)
	}
	view := s.book.View()
	for fr, v := range c.Usage {
		if avail := view.Available(cq, fr); v > avail {
			return fmt.Errorf("the quota of %s in ClusterQueue %s was taken meanwhile", fr, cq.Name)
		}
	}
	s.book.Charge(w.key, c)
	s.trackQueuedLocked(w)
	w.quotaSince.Store(0)
	w.queueProblem.Store(nil)
	return nil
}

// waitingForQuotaSince is when w was first found waiting for quota (zero:
// it is not).
func (w *Workload) waitingForQuotaSince() time.Time {
	if n := w.quotaSince.Load(); n != 0 {
		return time.Unix(0, n)
	}
	return time.Time{}
}

// markWaitingForQuota records that w waits for quota, from now unless it
// already did.
func (w *Workload) markWaitingForQuota(now time.Time) { w.quotaSince.CompareAndSwap(0, now.UnixNano()) }

// settleQuotaLocked releases w's charge once nothing of its admission
// lives (see holdsQuotaLocked). Freed quota wakes the workloads waiting
// for it.
func (s *State) settleQuotaLocked(w *Workload) Actions {
	if s.book.ChargeOf(w.key) == nil || s.holdsQuotaLocked(w) {
		return Actions{}
	}
	c := s.book.Release(w.key)
	s.trackQueuedLocked(w)
	s.bumpLocked()
	return Actions{Activate: s.wakeCohortLocked(c.ClusterQueue)}
}

// holdsQuotaLocked reports whether anything of w's admission lives: a
// reservation being placed, a claim keeping its nodes (it restarts, or
// waits for the victims of its capacity preemption), a provisioning check holding quota for
// capacity being provisioned (while its owner still wants it), or any of
// its pods on a node, of any attempt, terminating ones included. Usage
// follows what the API shows: a pod uses its node until it is gone,
// whether or not its owner is finished, restarting or deleted.
func (s *State) holdsQuotaLocked(w *Workload) bool {
	if s.reservations[w.key] != nil || w.onNodes() > 0 || s.claims.keepsCharge(w.key) {
		return true
	}
	return w.model != nil && w.observed && !w.model.Finished && w.check.holdsQuota()
}

// rechargeLocked charges a quota-managed workload found with pods on
// nodes and no charge (the scheduler restarted, or its queue objects or
// the queue API appeared after its pods were placed): each slice to the
// flavor of the nodes its pods run on, whether or not the quota has room.
// It reports whether it charged w. A workload whose queue cannot be
// resolved yet is charged once it can (queuesChangedLocked).
func (s *State) rechargeLocked(w *Workload) bool {
	if w.model == nil || !s.awaitingAdmissionLocked(w) || w.onNodes() == 0 {
		return false
	}
	if c := s.recorded.chargeFor(w.key, w.model.UID); c != nil {
		// Charged as its Workload object records, to the ClusterQueue and
		// flavors it was admitted with, whatever the queue objects say now.
		s.book.Charge(w.key, c)
	} else if !s.forceChargeLocked(w) {
		return false
	}
	for _, c := range w.slices {
		if c.placed > 0 {
			// Its current attempt runs.
			w.ranAttempt = w.model.RestartAttempt + 1
			w.ranDomains = w.ranDomains[:0]
			for _, m := range w.members {
				if m.heldDomain != nil && m.Live() && !slices.Contains(w.ranDomains, *m.heldDomain) {
					w.ranDomains = append(w.ranDomains, *m.heldDomain)
				}
			}
			break
		}
	}
	if w.placedAt.IsZero() {
		// Found running after a restart: its pods' age stands in.
		for _, m := range w.members {
			if m.Live() && m.Created.After(w.placedAt) {
				w.placedAt = m.Created
			}
		}
	}
	s.trackQueuedLocked(w)
	return true
}

// forceChargeLocked charges w, found with pods on nodes and no record of
// its admission, to its queue: each slice to the flavor of the nodes its
// pods run on. It reports false when the queue cannot be resolved.
func (s *State) forceChargeLocked(w *Workload) bool {
	cq, p := s.book.Resolve(w.key.Namespace, s.queueNameLocked(w))
	if p != nil {
		return false
	}
	needs := slices.Clone(s.needsLocked(w))
	for _, m := range w.members {
		if m.Node == "" || !(m.Live() || m.Deleting) || m.Member.Slice >= len(needs) {
			continue
		}
		n := s.nodes.Node(m.Node)
		if n == nil {
			continue
		}
		labels := n.Labels()
		needs[m.Member.Slice].Compatible = func(f *quota.Flavor) bool { return f.Matches(labels) }
	}
	s.book.Charge(w.key, s.book.View().Force(cq, needs))
	return true
}

// rechargeAllLocked charges every workload with pods on nodes that is
// not charged yet: what the queues could not account for before (a
// missing flavor or LocalQueue, the queue API not served) is accounted
// for before anything else is admitted.
func (s *State) rechargeAllLocked() {
	for _, w := range s.workloads {
		s.rechargeLocked(w)
	}
}

// queueAPIProblemLocked: until discovery answers whether the queue API is
// served, quota-managed workloads wait.
func (s *State) queueAPIProblemLocked() *quota.Problem {
	if s.registry.api(QueueAPI) == APIUnknown {
		return &quota.Problem{Reason: quota.ReasonQueueAPIUnknown, Config: true,
			Message: "waiting to learn whether the multislice.dev queue API is served"}
	}
	return nil
}

// AloneRound is what admitting a queued plain pod's workload on quota
// alone reads (admission.AdmitAlone): no plan, the scheduler's own filters
// choose the node among those of the flavors it is charged to (NodeAllowed
// keeps it there). A plan would copy every node into a snapshot for one
// pod.
type AloneRound struct {
	Holder  workload.Holder
	Attempt int32
	Quota   *QuotaDecision
	// Flavors are the flavors of its ClusterQueue's groups the pod is
	// compatible with, in the queue's order, each with what its nodes
	// could hold.
	Flavors []FlavorCapacity
}

// FlavorCapacity is what the nodes of one flavor could hold of a pod.
type FlavorCapacity struct {
	Flavor *quota.Flavor
	// Nodes is how many nodes carry the flavor's labels; NodeNames are
	// those nodes, sorted (shared: read-only).
	Nodes     int
	NodeNames []string
	// HoldsOne: one of them could hold the pod were it empty.
	HoldsOne bool
}

// AloneRound gathers what admitting pod's workload on quota alone reads.
// It returns nil when there is nothing to decide: the pod is not a queued
// plain pod awaiting admission; flavorNodes are then the sorted names of
// the nodes of the flavors its reservation is charged to (nil: it holds
// none; callers must not modify them).
func (s *State) AloneRound(pod *corev1.Pod) (round *AloneRound, flavorNodes []string) {
	// The write lock: nodesCarryingLocked fills its cache.
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.podLocked(pod)
	w := s.workloads[p.Member.Key]
	if w == nil || w.model == nil {
		return nil, nil
	}
	return s.aloneRoundLocked(p, w)
}

// aloneRoundLocked is AloneRound for p, a member of w.
func (s *State) aloneRoundLocked(p *Pod, w *Workload) (round *AloneRound, flavorNodes []string) {
	if r := s.reservations[w.key]; r != nil {
		if sr := r.Slices[0]; sr != nil && r.Attempt == p.Member.RestartAttempt {
			return nil, s.nodesCarryingLocked(sr.NodeLabels)
		}
		return nil, nil
	}
	if !s.awaitingAdmissionLocked(w) {
		return nil, nil
	}
	round = &AloneRound{Holder: workload.Holder{Key: w.key, UID: w.model.UID}, Attempt: w.model.RestartAttempt, Quota: s.quotaDecisionLocked(w)}
	if round.Quota.Problem != nil {
		return round, nil
	}
	need := round.Quota.Needs[0]
	for _, g := range round.Quota.ClusterQueue.Groups {
		for _, name := range g.Flavors {
			f := s.book.Flavor(name)
			if f == nil || (need.Compatible != nil && !need.Compatible(f)) {
				continue
			}
			nodes := s.nodesCarryingLocked(f.NodeLabels)
			fc := FlavorCapacity{Flavor: f, Nodes: len(nodes), NodeNames: nodes}
			for _, n := range nodes {
				if node := s.nodes.Node(n); node != nil && node.Allocatable.Count(need.Request) != 0 {
					fc.HoldsOne = true
					break
				}
			}
			round.Flavors = append(round.Flavors, fc)
		}
	}
	return round, nil
}

// QuotaFailure is why a workload's queue cannot admit it, as a planning
// failure: unresolvable when only a change to queue objects can help.
func QuotaFailure(p *quota.Problem) *placement.Failure {
	return &placement.Failure{Message: p.Message, Unresolvable: p.Config, Reason: p.Reason}
}

// Why a workload is not admitted, beside its queue's quota.Reason* values.
const (
	// ReasonUnplaceable: no node the workload may use could ever hold it.
	ReasonUnplaceable = "Unplaceable"
	// ReasonGangBlocked: only a change to the workload's objects can help:
	// malformed fields or labels, or pods already bound (one by one, as
	// plain pods) that split its gang.
	ReasonGangBlocked = "GangBlocked"
	// ReasonWaitingForDomains: quota would fit (or none applies), the
	// domains do not.
	ReasonWaitingForDomains = "WaitingForDomains"
	// ReasonWaitingForGang: a member waits, gated, for the rest of its
	// gang to exist or for its head's plan.
	ReasonWaitingForGang = "WaitingForGang"
)

// ReleaseAlone gives back what admission.AdmitAlone took when the scheduler's
// filters found no node for the pod: its quota must not wait for the
// permit timeout.
func (s *State) ReleaseAlone(pod *corev1.Pod, why string) Actions {
	s.mu.Lock()
	defer s.mu.Unlock()
	p := s.podLocked(pod)
	if !p.Gang || p.MemberErr != nil || p.Member.Key.Source != workload.SourcePod {
		return Actions{}
	}
	if r := s.reservations[p.Member.Key]; r == nil || len(r.Reserved) > 0 {
		return Actions{}
	}
	return s.releaseLocked(p.Member.Key, ReleaseMemberFail, why)
}

// FailureReason is the reason users read for a planning failure, on the
// workload's events and its Workload's conditions alike: the failure's
// own (quota, admission checks), else Unplaceable when only a change to
// the workload or the nodes can help, else WaitingForDomains.
func FailureReason(f *placement.Failure) string {
	switch {
	case f.Reason != "":
		return f.Reason
	case f.Unresolvable:
		return ReasonUnplaceable
	default:
		return ReasonWaitingForDomains
	}
}
