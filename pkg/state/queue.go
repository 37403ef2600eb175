package state

import (
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
func (fd Feed) SetFlavor(f *quota.Flavor) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetFlavor(f) {
		return Actions{}
	}
	return fd.queuesChangedLocked()
}

// DeleteFlavor forgets a ResourceFlavor.
func (fd Feed) DeleteFlavor(name string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteFlavor(name)
	return fd.queuesChangedLocked()
}

// SetClusterQueue records a ClusterQueue. Like every Set of a queue
// object, it wakes waiting workloads only when the object's model changed:
// the status the scheduler writes comes back as updates, and waking every
// gated workload on each would run all of them through PreEnqueue again.
func (fd Feed) SetClusterQueue(cq *quota.ClusterQueue) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetClusterQueue(cq) {
		return Actions{}
	}
	return fd.queuesChangedLocked()
}

// DeleteClusterQueue forgets a ClusterQueue.
func (fd Feed) DeleteClusterQueue(name string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteClusterQueue(name)
	return fd.queuesChangedLocked()
}

// SetLocalQueue records a LocalQueue.
func (fd Feed) SetLocalQueue(lq *quota.LocalQueue) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetLocalQueue(lq) {
		return Actions{}
	}
	return fd.queuesChangedLocked()
}

// DeleteLocalQueue forgets a LocalQueue.
func (fd Feed) DeleteLocalQueue(namespace, name string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteLocalQueue(namespace, name)
	return fd.queuesChangedLocked()
}

// SetNamespace records a namespace's labels for namespace selectors.
func (fd Feed) SetNamespace(name string, labels map[string]string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.book.SetNamespace(name, labels) {
		return Actions{}
	}
	return fd.queuesChangedLocked()
}

// DeleteNamespace forgets a namespace.
func (fd Feed) DeleteNamespace(name string) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.book.DeleteNamespace(name)
	return fd.queuesChangedLocked()
}

// queuesChangedLocked: a queue object changed, which may admit waiting
// workloads (or make a failed plan worth retrying).
func (fd Feed) queuesChangedLocked() Actions {
	s := fd.s
	s.bumpLocked()
	var acts Actions
	fd.rechargeAllLocked(&acts)
	fd.reindexQueuedLocked()
	acts.Activate = s.wakeAllLocked()
	return acts
}

// queueNameLocked returns the LocalQueue w is admitted through ("": w is
// not quota-managed).
func (qs queues) queueNameLocked(w *Workload) string {
	s := qs.s
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
func (qs queues) awaitingAdmissionLocked(w *Workload) bool {
	s := qs.s
	return qs.queueNameLocked(w) != "" && s.book.ChargeOf(w.key) == nil && s.reservations.of(w.key) == nil
}

// needsLocked is what admitting w charges: every pod of every slice, each
// sized from its own spec where it exists and from its slice's first pod
// or template otherwise. The result is cached until the model or the
// members change: callers must not modify it.
func (qs queues) needsLocked(w *Workload) []quota.Need {
	if c := &w.needs; c.model != w.model || c.gen != w.membersGen || c.needs == nil {
		*c = needsCache{model: w.model, gen: w.membersGen, needs: qs.computeNeedsLocked(w)}
		c.shape = quota.Shape(c.needs)
	}
	return w.needs.needs
}

// shapeLocked is quota.Shape of w's needs.
func (cp copier) shapeLocked(w *Workload) string {
	s := cp.s
	s.queues.needsLocked(w)
	return w.needs.shape
}

func (qs queues) computeNeedsLocked(w *Workload) []quota.Need {
	model := w.model
	out := make([]quota.Need, 0, len(model.Slices))
	for i, members := range w.currentMembersBySlice() {
		sl := model.Slices[i]
		// The whole slice is charged: what its placed and waiting
		// members ask for, and its pods not created yet (workload.StillNeeds).
		n := workload.StillNeeds(sl.Pods, members, func(p *Pod) bool { return p.Node != "" }, func(p *Pod) bool { return p.Member.Leader })
		total := workload.Resources{}
		for _, j := range n.Placed {
			total.AddScaled(members[j].Request, 1)
		}
		for _, j := range n.Waiting {
			total.AddScaled(members[j].Request, 1)
		}
		spec := sl.Template
		switch {
		case n.Rest <= 0:
		case n.StandIn >= 0:
			total.AddScaled(members[n.StandIn].Request, int64(n.Rest))
			spec = members[n.StandIn].Spec
		case sl.Request != nil:
			total.AddScaled(sl.Request, int64(n.Rest))
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
	// NoVictims: a search for victims of its own found none since the
	// state last changed; Preempting: a preemption of its own is under way
	// (its victims' quota wakes it when they are gone). Whether it may
	// reclaim quota by preemption is decided on these and its
	// ClusterQueue's policies (admission.mayPreemptForQuota).
	NoVictims, Preempting bool
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
func (cp copier) queueRoundLocked(w *Workload) *QueueRound {
	s := cp.s
	r := &QueueRound{Key: w.key}
	if r.Problem = s.queues.queueAPIProblemLocked(); r.Problem != nil {
		return r
	}
	cq, p := s.book.Resolve(w.key.Namespace, s.queues.queueNameLocked(w))
	if p != nil {
		r.Problem = p
		return r
	}
	r.View, r.Now, r.Starvation = s.book.View(), s.opts.Clock.Now(), s.opts.QuotaStarvation
	r.NoVictims = w.noVictimsGen == s.generation+1
	if c := s.claims.of(w.key); c != nil && !c.restart {
		r.Preempting = true
	}
	r.Candidates = []QueueCandidate{cp.queueCandidateLocked(w, cq)}
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
			if o == nil || (o != w && !cp.before(o, w)) {
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
		r.Candidates = append(r.Candidates, cp.queueCandidateLocked(o, q))
	}
	for _, q := range cohort {
		h := heads[q.Name]
		if h == nil || (q.Name == cq.Name && !cp.before(h, w)) {
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

func (cp copier) queueCandidateLocked(w *Workload, cq *quota.ClusterQueue) QueueCandidate {
	s := cp.s
	c := QueueCandidate{Place: queuePlace(w, cq), ClusterQueue: cq, Needs: s.queues.needsLocked(w)}
	if w.waitingHead != nil && s.reservations.of(w.key) == nil {
		head := *w.waitingHead
		c.Head = &head
	}
	return c
}

// recordQueueVerdict records its queue's verdict on w (problem nil: it
// may plan), shown on its Workload while no quota is reserved, unless a
// blocked member's reason stands (MemberUnschedulable); waiting for quota
// starts its starvation clock at now.
func (x *queueIndex) recordQueueVerdict(w *Workload, problem *quota.Problem, now time.Time) {
	if w.blockedBy == nil {
		x.setProblem(w, problem)
	}
	if problem != nil && problem.Reason == quota.ReasonQuotaExceeded {
		w.markWaitingForQuota(now)
	}
}

// queuePlace is w's place in cq's order, as a candidate with no charge.
func queuePlace(w *Workload, cq *quota.ClusterQueue) quota.Candidate {
	return quota.Candidate{Key: w.key, ClusterQueue: cq.Name, Priority: w.priority, Created: w.model.Created, WaitingSince: w.waitingForQuotaSince()}
}

// before is the queue order between two pending workloads.
func (cp copier) before(a, b *Workload) bool {
	return quota.Precedes(a.priority, b.priority, a.model.Created, b.model.Created, a.key, b.key)
}

// queueAPIProblemLocked: until discovery answers whether the queue API is
// served, quota-managed workloads wait.
func (qs queues) queueAPIProblemLocked() *quota.Problem {
	s := qs.s
	if s.registry.api(QueueAPI) == APIUnknown {
		return &quota.Problem{Reason: quota.ReasonQueueAPIUnknown, Config: true,
			Message: "waiting to learn whether the multislice.dev queue API is served"}
	}
	return nil
}

// AloneRound is what admitting a queued plain pod's workload on quota
// alone reads (PodCycle.Alone): no plan, the scheduler's own filters
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

// aloneRoundLocked gathers what admitting p's workload w on quota alone
// reads. It returns nil when there is nothing to decide: p is not a queued
// plain pod awaiting admission; flavorNodes are then the sorted names of
// the nodes of the flavors its reservation is charged to (nil: it holds
// none; callers must not modify them).
func (cp copier) aloneRoundLocked(p *Pod, w *Workload) (round *AloneRound, flavorNodes []string) {
	s := cp.s
	if r := s.reservations.of(w.key); r != nil {
		if sr := r.Slices[0]; sr != nil && r.Attempt == p.Member.RestartAttempt {
			return nil, cp.nodesCarryingLocked(sr.NodeLabels)
		}
		return nil, nil
	}
	if !s.queues.awaitingAdmissionLocked(w) {
		return nil, nil
	}
	round = &AloneRound{Holder: workload.Holder{Key: w.key, UID: w.model.UID}, Attempt: w.model.RestartAttempt, Quota: cp.quotaDecisionLocked(w)}
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
			nodes := cp.nodesCarryingLocked(f.NodeLabels)
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
