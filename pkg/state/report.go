package state

import (
	"fmt"
	"maps"
	"slices"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// QueueReport summarises the queues and their workloads, for the status of
// queue objects, Workload objects and metrics.
type QueueReport struct {
	ClusterQueues map[string]*ClusterQueueReport
	// AdmissionChecks are the provisioning checks this scheduler runs, by
	// name: why each cannot be used ("": it is active).
	AdmissionChecks map[string]string
	// LocalQueues by namespace/name.
	LocalQueues map[string]*LocalQueueReport
	// Workloads are the quota-managed workloads, sorted by key.
	Workloads []WorkloadReport
}

// ClusterQueueReport is one ClusterQueue's state.
type ClusterQueueReport struct {
	// Reserving counts the workloads holding quota; Admitted those of
	// them past their admission checks.
	Pending, Reserving, Admitted int
	Usage, Borrowed              quota.Usage
	// WeightedShare is the queue's weighted share of what its cohort lends
	// (thousandths; 0 when it borrows nothing).
	WeightedShare int64
	// Known is false for a queue that is gone but still charged.
	Known bool
	// Nominal is its nominal quota of each flavor and resource.
	Nominal quota.Usage
	// Inactive says why it cannot admit workloads (nil: it can): a
	// flavor it names does not exist, or its admission check cannot run.
	Inactive *quota.Problem
	// Head is its first PendingHeadLimit waiting workloads, in queue order.
	Head []workload.Key
}

// PendingHeadLimit bounds the waiting workloads a queue's report lists,
// and the positions reported, as Kueue bounds pendingWorkloadsStatus: the
// head of a long queue is what people look at, and positions further back
// change with every admission.
const PendingHeadLimit = 10

// LocalQueueReport is one LocalQueue's state.
type LocalQueueReport struct {
	Namespace, Name, ClusterQueue string
	Pending, Reserving, Admitted  int
	Usage                         quota.Usage
	// Head is its first PendingHeadLimit waiting workloads, in the order
	// of their ClusterQueue.
	Head []workload.Key
}

// WorkloadReport is one quota-managed workload's state.
type WorkloadReport struct {
	Key   workload.Key
	Ref   corev1.ObjectReference
	Model *workload.Workload
	// Queue is the LocalQueue it names; ClusterQueue the one it resolves
	// to ("" when it does not).
	Queue, ClusterQueue string
	Priority            int32
	// Charge is set once admitted; Domains maps its slices to the domains
	// they were given ("" for unconfined slices or unknown).
	Charge  *quota.Charge
	Domains map[int]string
	// Placed is true when every pod of its current gang is placed.
	Placed bool
	// Unplaced is why an admitted workload's pods are not placed: its last
	// plan's failure, since no reservation was made ("" when none is
	// known, or it is not admitted). An admission check may admit a
	// workload whose capacity then fits no domain it asks for (hosts
	// provisioned split over two subblocks).
	Unplaced string
	// Problem is why it last waited (nil when admitted or not known).
	Problem *quota.Problem
	// Position is its place among the workloads waiting in its
	// ClusterQueue and in its LocalQueue, when it waits within the first
	// PendingHeadLimit of either (nil otherwise).
	Position *QueuePosition
	// Ended is set when the current attempt ran and its pods are gone,
	// before its owner reports it finished.
	Ended bool
	// Requests is each slice's per-pod request: its template's, or for
	// slices without one (PodGroups) a member's.
	Requests []workload.Resources
	// Eviction is its last eviction by preemption (nil: none).
	Eviction *Eviction
	// Check is where it stands in its queue's provisioning check (nil:
	// none started).
	Check *CheckReport
	// RunExpired is when it was ended for exceeding its maximum run
	// duration (zero: it was not).
	RunExpired time.Time
}

// Eviction records that a workload was preempted.
type Eviction struct {
	By       workload.Key
	Priority int32
	At       time.Time
}

// problemBox holds the last reason a workload waited for its queue;
// PreEnqueue writes it under the read lock.
type problemBox = atomic.Pointer[quota.Problem]

// QueueReport returns the current report.
func (rp Reports) QueueReport() QueueReport {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	rep := QueueReport{ClusterQueues: map[string]*ClusterQueueReport{}, LocalQueues: map[string]*LocalQueueReport{}, AdmissionChecks: map[string]string{}}
	for name, c := range s.checks.byName {
		rep.AdmissionChecks[name] = c.Problem
	}
	view := s.book.View()
	cqOf := func(name string) *ClusterQueueReport {
		r := rep.ClusterQueues[name]
		if r == nil {
			r = &ClusterQueueReport{Usage: quota.Usage{}, Borrowed: quota.Usage{}}
			rep.ClusterQueues[name] = r
		}
		return r
	}
	for _, name := range s.book.ClusterQueues() {
		r := cqOf(name)
		r.Known = true
		cq := s.book.ClusterQueue(name)
		r.Nominal = quota.Usage{}
		for fr, lim := range cq.Quotas {
			r.Usage[fr] = view.Usage(name, fr)
			r.Nominal[fr] = lim.Nominal
		}
		r.Inactive = rp.inactiveLocked(cq)
		maps.Copy(r.Borrowed, view.Borrowed(cq))
		r.WeightedShare = view.Share(cq, nil)
	}
	for _, lq := range s.book.LocalQueues() {
		rep.LocalQueues[lq.Namespace+"/"+lq.Name] = &LocalQueueReport{Namespace: lq.Namespace, Name: lq.Name, ClusterQueue: lq.ClusterQueue, Usage: quota.Usage{}}
	}
	for _, key := range s.workloads.keys() {
		w := s.workloads.of(key)
		wr, ok := rp.reportedLocked(w)
		if !ok {
			continue
		}
		lq := rep.LocalQueues[key.Namespace+"/"+wr.Queue]
		switch {
		case wr.Charge != nil:
			checked := wr.Check == nil || wr.Check.State != checkRequesting.String()
			cq := cqOf(wr.ClusterQueue)
			cq.Reserving++
			if checked {
				cq.Admitted++
			}
			if lq != nil {
				lq.Reserving++
				if checked {
					lq.Admitted++
				}
				lq.Usage.Add(wr.Charge.Usage)
			}
		case w.model.Finished:
		case w.ran():
			// Its pods ended and its quota is back; its owner has not
			// reported it finished yet. Neither pending nor admitted.
			wr.Ended = true
		default:
			wr.Problem = w.queueProblem.Load()
			if wr.ClusterQueue != "" {
				cqOf(wr.ClusterQueue).Pending++
			}
			if lq != nil {
				lq.Pending++
			}
		}
		rep.Workloads = append(rep.Workloads, wr)
	}
	rp.reportPositionsLocked(&rep)
	return rep
}

// CheckWaitingReports reports, in key order, the workloads whose
// provisioning check waits for its request (State "Pending"), as
// QueueReport does but without their queue positions. The status writer
// creates their Workload objects from them when poked; a full QueueReport
// for each workload reserving quota would cost every workload's report
// every time.
func (rp Reports) CheckWaitingReports() []WorkloadReport {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []WorkloadReport
	for w := range s.workloads.all() {
		if t := w.check; t == nil || t.phase != checkRequesting {
			continue
		}
		if wr, ok := rp.reportedLocked(w); ok {
			out = append(out, wr)
		}
	}
	slices.SortFunc(out, func(a, b WorkloadReport) int { return compareKeys(a.Key, b.Key) })
	return out
}

// QueuePosition is a waiting workload's place in its queues (from 1; 0:
// beyond PendingHeadLimit).
type QueuePosition struct {
	ClusterQueue, LocalQueue int
}

// reportPositionsLocked fills in the heads of the queues and the
// positions of the workloads in them, reading each ClusterQueue's waiting
// workloads in the order they are admitted.
func (rp Reports) reportPositionsLocked(rep *QueueReport) {
	s := rp.s
	index := make(map[workload.Key]int, len(rep.Workloads))
	for i := range rep.Workloads {
		index[rep.Workloads[i].Key] = i
	}
	for name, q := range s.queued.byCQ {
		cq := rep.ClusterQueues[name]
		inLQ := map[string]int{}
		for i := range q.len() {
			w := q.at(i)
			lqKey := w.key.Namespace + "/" + s.queues.queueNameLocked(w)
			inLQ[lqKey]++
			pos := QueuePosition{}
			if i < PendingHeadLimit {
				pos.ClusterQueue = i + 1
				if cq != nil {
					cq.Head = append(cq.Head, w.key)
				}
			}
			if n := inLQ[lqKey]; n <= PendingHeadLimit {
				pos.LocalQueue = n
				if lq := rep.LocalQueues[lqKey]; lq != nil {
					lq.Head = append(lq.Head, w.key)
				}
			}
			if j, ok := index[w.key]; ok && pos != (QueuePosition{}) && rep.Workloads[j].Charge == nil {
				rep.Workloads[j].Position = &pos
			}
		}
	}
}

// reportedLocked is w's report, and whether the queue's reports hold it:
// a workload of a queue, observed and modelled, either charged or with
// pods of this scheduler (another scheduler's pods, or none yet, are not
// this scheduler's to admit or report).
func (rp Reports) reportedLocked(w *Workload) (WorkloadReport, bool) {
	s := rp.s
	queue := s.queues.queueNameLocked(w)
	if queue == "" || !w.observed || w.model == nil {
		return WorkloadReport{}, false
	}
	wr := rp.workloadReportLocked(w, queue)
	if wr.Charge == nil && !w.ours {
		return WorkloadReport{}, false
	}
	return wr, true
}

// workloadReportLocked is w's report, w naming LocalQueue queue.
func (rp Reports) workloadReportLocked(w *Workload, queue string) WorkloadReport {
	s := rp.s
	wr := WorkloadReport{Key: w.key, Ref: w.ref, Model: w.model, Queue: queue, Priority: w.priority, Charge: s.book.ChargeOf(w.key),
		Eviction: w.eviction, Check: rp.checkReportLocked(w), RunExpired: w.runExpired, Requests: sliceRequests(w)}
	if cq, p := s.book.Resolve(w.key.Namespace, queue); p == nil {
		wr.ClusterQueue = cq.Name
	}
	if wr.Charge != nil {
		wr.ClusterQueue = wr.Charge.ClusterQueue
		wr.Domains = rp.domainsLocked(w)
		wr.Placed = w.placedWhole()
		if !wr.Placed && w.failure != nil {
			wr.Unplaced = w.failure.Message
		}
	}
	return wr
}

// sliceRequests is each slice's per-pod request, from its template or
// else from one of its members.
func sliceRequests(w *Workload) []workload.Resources {
	out := make([]workload.Resources, len(w.model.Slices))
	for i, sl := range w.model.Slices {
		out[i] = sl.Request
	}
	for _, p := range w.members {
		if i := p.Member.Slice; i < len(out) && out[i] == nil && w.current(p) {
			out[i] = p.Request
		}
	}
	return out
}

// domainsLocked maps w's confined slices to their domains: the reserved
// one, or the one its placed pods are in.
func (rp Reports) domainsLocked(w *Workload) map[int]string {
	s := rp.s
	out := map[int]string{}
	if r := s.reservations.of(w.key); r != nil {
		for i, sr := range r.Slices {
			if sr.Domain != "" {
				out[i] = sr.Domain
			}
		}
	}
	for _, p := range w.members {
		i := p.Member.Slice
		if p.Node == "" || !p.Live() || !w.current(p) || out[i] != "" {
			continue
		}
		if key := w.model.Slices[i].DomainKey; key != "" {
			if v, ok := s.nodes.DomainOf(p.Node, key); ok {
				out[i] = v
			}
		}
	}
	return out
}

// ReasonAdmissionCheckInactive: a ClusterQueue's admission check cannot
// run, so it admits nothing.
const ReasonAdmissionCheckInactive = "AdmissionCheckInactive"

// inactiveLocked says why cq cannot admit workloads, nil when it can.
func (rp Reports) inactiveLocked(cq *quota.ClusterQueue) *quota.Problem {
	s := rp.s
	for _, g := range cq.Groups {
		for _, f := range g.Flavors {
			if s.book.Flavor(f) == nil {
				return &quota.Problem{Reason: quota.ReasonFlavorNotFound, Config: true,
					Message: fmt.Sprintf("ResourceFlavor %s does not exist", f)}
			}
		}
	}
	switch n := len(cq.AdmissionChecks); {
	case n > 1:
		return &quota.Problem{Reason: ReasonAdmissionCheckInactive, Config: true,
			Message: fmt.Sprintf("it lists %d admission checks; this scheduler runs one provisioning check per queue", n)}
	case n == 1:
		name := cq.AdmissionChecks[0]
		c := s.checks.get(name)
		if c == nil {
			return &quota.Problem{Reason: ReasonAdmissionCheckInactive, Config: true,
				Message: fmt.Sprintf("AdmissionCheck %s does not exist or is not a provisioning check (controllerName %s)", name, multislicev1alpha1.ProvisioningRequestControllerName)}
		}
		if c.Problem != "" {
			return &quota.Problem{Reason: ReasonAdmissionCheckInactive, Config: true, Message: c.Problem}
		}
	}
	return nil
}

// AwaitingAdmission reports, for each of keys in turn, whether that
// workload still waits to be admitted: the State has not seen it yet (its
// owner was just started and its pods are not all here), or it holds no
// quota, has not finished and has not run (or the State still sees it
// suspended). The unsuspender counts a
// ClusterQueue's started workloads that still wait with it (see
// controllers' start window); one lock is taken for them all.
func (rp Reports) AwaitingAdmission(keys []workload.Key) []bool {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]bool, len(keys))
	for i, key := range keys {
		w := s.workloads.of(key)
		if w == nil || !w.observed || w.model == nil {
			out[i] = true
			continue
		}
		// Still suspended here: the caller saw it started, the State has
		// not yet (a suspended model also counts as finished).
		out[i] = s.book.ChargeOf(key) == nil && (w.model.Suspended || !w.model.Finished && !w.ran())
	}
	return out
}
