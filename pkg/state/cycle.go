package state

import (
	"maps"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PodCycle is everything one decision about one pod's scheduling cycle
// reads, copied from the state under one lock (State.Cycle). Decisions
// (package admission) read this value alone; what they decide is written
// back with State.Apply, which checks it against the live state first.
type PodCycle struct {
	// Now is when the copy was taken; Generation the state's generation
	// then (see bumpLocked).
	Now        time.Time
	Generation uint64
	// Pod is the state's record of the pod: shared, since a record is
	// replaced, never changed, once indexed. Nil while the state has not
	// observed the pod.
	Pod *Pod
	// API is what discovery said of the API of the pod's workload.
	API APIStatus
	// Workload is the facts of the pod's workload (nil: none is known).
	Workload *WorkloadFacts
	// Reservation is a copy of the workload's reservation (nil: none);
	// SliceNodes the nodes of the domain it reserved for the pod's slice
	// (shared: read-only; nil: none).
	Reservation *Reservation
	SliceNodes  []string
	// HeldNodes are, for a member of a workload that runs whole, the nodes
	// of its slice's domain, or for an unconfined slice of an atomic
	// workload those under the workload's value of its atomic key (nil:
	// none; see heldDomainNodesLocked).
	HeldNodes []string
	// Alone is, for a queued plain pod awaiting admission, what admitting
	// it on quota alone reads (nil otherwise; State.Gate when asked);
	// AloneNodes are the sorted
	// nodes of the flavors its reservation is charged to, once it holds
	// one (shared: read-only).
	Alone      *AloneRound
	AloneNodes []string
	// Indexed: Pod is the state's record; otherwise (State.Gate only) it
	// is derived from the pod as given, not indexed yet.
	Indexed bool
	// Check is, for State.Gate behind the head, why the workload's head
	// waits for its provisioning check or its request (nil: it need not).
	// Queue is what its queue's verdict reads when it is quota-managed
	// and awaits admission (nil otherwise).
	Check *CheckWait
	Queue *QueueRound
	// CheckQuota is, for State.Gate behind the head, what reserving the
	// workload's quota for its provisioning check reads (nil: it needs no
	// such step). Pending are the members its check or its queue's
	// verdict holds (State.Gate, with Check or Queue).
	CheckQuota *CheckRound
	Pending    []PodRef
	// Plan is what planning the pod's gang reads, copied when the gang
	// may plan: it is complete, holds no reservation but one past its
	// deadline, does not run whole, and no failure decided at this
	// generation stands for a member other than the head (nil otherwise).
	Plan *Snapshot
}

// WorkloadFacts is a copy of what the state knows of a workload: its model
// (shared: a model is replaced, never changed) and where its gang stands.
type WorkloadFacts struct {
	Key      workload.Key
	Ref      corev1.ObjectReference
	Observed bool
	// Err is why its object is malformed (nil: it is not).
	Err   error
	Model *workload.Workload
	// Complete: every member that can exist yet exists.
	Complete bool
	// Active lists the slices that make up the gang now; Staged is
	// JobSet's leaders-first placement.
	Active []int
	Staged bool
	// MissingSlices and MissingPods count, over the active slices, those
	// still lacking members that must exist before the gang is planned;
	// ActivePods counts the pods of the active slices.
	MissingSlices, MissingPods, ActivePods int
	// PlacedWhole: every active slice has all its pods placed.
	PlacedWhole bool
	// Head is the member the gang plans through ("": none); HeadName its
	// name; HeadValid that it is still an unplaced, live, current member.
	Head      types.UID
	HeadName  string
	HeadValid bool
	// Failure is why its last plan failed, at generation FailGen.
	Failure *placement.Failure
	FailGen uint64
}

// Cycle copies what deciding pod's scheduling cycle reads. requested is
// what the cycle's snapshot of nodes says the pods on a node request: it is
// read after the state's lock is released, never under it.
func (s *State) Cycle(pod *corev1.Pod, requested Requested) PodCycle {
	c := s.cycle(pod, false)
	if c.Plan != nil {
		c.Plan.subtractRequested(requested)
	}
	return c
}

// FullPlan is the whole snapshot for planning pod's gang when a plan on the
// one Cycle copied failed and left domains out (Snapshot.Partial): why it
// fails, and what preemption could free, are read from the domains other
// workloads hold (nil when the gang may not plan any more).
func (s *State) FullPlan(pod *corev1.Pod, requested Requested) *Snapshot {
	c := s.cycle(pod, true)
	if c.Plan != nil {
		c.Plan.subtractRequested(requested)
	}
	return c.Plan
}

func (s *State) cycle(pod *corev1.Pod, full bool) PodCycle {
	// The write lock: the domain index and the caches of nodes carrying
	// labels fill as they are read.
	s.mu.Lock()
	defer s.mu.Unlock()
	c := PodCycle{Now: s.opts.Clock.Now(), Generation: s.generation, Pod: s.pods.get(pod.UID)}
	p := c.Pod
	c.Indexed = p != nil
	if p == nil || !p.Gang || p.MemberErr != nil {
		return c
	}
	key := p.Member.Key
	w, r := s.copier.copyWorkloadLocked(&c)
	if w == nil || w.model == nil {
		return c
	}
	if key.Source == workload.SourcePod {
		c.Alone, c.AloneNodes = s.copier.aloneRoundLocked(p, w)
		return c
	}
	expired := r != nil && !r.Committed && c.Now.After(r.Deadline)
	switch {
	case r != nil && !expired:
		if sr := r.Slices[p.Member.Slice]; sr != nil && sr.Domain != "" {
			c.SliceNodes = s.nodes.NodesOf(topology.DomainRef{Key: sr.DomainKey, Value: sr.Domain})
		}
	case r == nil && w.placedWhole():
		c.HeldNodes = s.copier.heldDomainNodesLocked(p, w)
	case !w.complete || !w.current(p) || w.model.Finished:
	case w.failure != nil && w.failGen == s.generation && (w.waitingHead == nil || w.waitingHead.UID != p.UID) && !expired:
	default:
		c.Plan = s.copier.snapshotLocked(key, !full)
	}
	return c
}

// copyWorkloadLocked copies into c what the state holds of the workload
// of c's pod, a valid gang member: its API's status, its facts and its
// reservation; it returns the live workload and reservation (nil: none)
// for the caller to copy more from.
func (cp copier) copyWorkloadLocked(c *PodCycle) (*Workload, *Reservation) {
	s := cp.s
	key := c.Pod.Member.Key
	c.API = s.registry.apis[key.Source]
	w := s.workloads.of(key)
	if w == nil {
		return nil, nil
	}
	c.Workload = cp.factsLocked(w)
	r := s.reservations.of(key)
	if r != nil {
		c.Reservation = r.copy()
	}
	return w, r
}

// factsLocked copies what decisions read of w.
func (cp copier) factsLocked(w *Workload) *WorkloadFacts {
	f := &WorkloadFacts{Key: w.key, Ref: w.ref, Observed: w.observed, Err: w.err, Model: w.model,
		Complete: w.complete, Failure: w.failure, FailGen: w.failGen}
	if h := w.waitingHead; h != nil {
		f.Head, f.HeadName, f.HeadValid = h.UID, h.Name, cp.headValidLocked(w)
	}
	if w.model == nil {
		return f
	}
	f.Active, f.Staged = w.active(), w.staged()
	f.MissingSlices, f.MissingPods = w.missing()
	for _, i := range f.Active {
		f.ActivePods += w.model.Slices[i].Pods
	}
	f.PlacedWhole = w.placedWhole()
	return f
}

// copy is a copy of r a decision may read while the state goes on: its
// slices and the pods reserved under it are copied.
func (r *Reservation) copy() *Reservation {
	out := *r
	out.Slices = make(map[int]*SliceReservation, len(r.Slices))
	for i, sr := range r.Slices {
		c := *sr
		c.Slots = slices.Clone(sr.Slots)
		out.Slices[i] = &c
	}
	out.Reserved = maps.Clone(r.Reserved)
	return &out
}

// subtractRequested takes what the cycle's snapshot says pods on each node
// request from the node's free room: the state copies each node's
// allocatable less what other reservations plan there, and the framework's
// snapshot is read only once the state's lock is released.
func (sn *Snapshot) subtractRequested(requested Requested) {
	for name, n := range sn.Nodes {
		if req, ok := requested(name); ok && len(req) > 0 {
			n.Free = n.Free.Sub(req) // Free may be shared: replaced
		}
	}
}
