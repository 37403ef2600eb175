package state

import (
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// CheckWait is why a workload's head waits for its provisioning check, or
// for the request it consumes, before it plans.
type CheckWait struct {
	Reason, Message string
	// NeedsAction: only the user can help. Told: the workload's own
	// events told the message already.
	NeedsAction, Told bool
}

// GateAsks is what the gate's copy gathers beyond the pod's facts.
type GateAsks struct {
	// BehindHead: the members of a complete gang wait behind its head
	// (PreEnqueue). For such a gang that holds no reservation and does
	// not run whole, the copy carries why a provisioning check holds its
	// head and, for a pod that is its head (or of a gang with no valid
	// head), what reserving quota for that check reads and what its
	// queue's verdict reads; with either, the members a verdict holds.
	BehindHead bool
	// Alone: the copy carries what admitting a queued plain pod on quota
	// alone reads (PodCycle.Alone).
	Alone bool
}

// Gate copies, under one lock, what the gate's decision about pod reads
// (package admission decides on it, and writes back with Apply): the pod
// as the state holds it (or derived from pod while not indexed yet), its
// workload's facts and reservation, and what asks asks for. The state
// answers what is there; whether the pod may go is decided on the copy.
func (s *State) Gate(pod *corev1.Pod, asks GateAsks) PodCycle {
	// The write lock: a workload's needs, which its queue's round and its
	// quota read, and the nodes carrying a flavor's labels are cached as
	// they are read.
	s.mu.Lock()
	defer s.mu.Unlock()
	c := PodCycle{Now: s.opts.Clock.Now(), Generation: s.generation, Pod: s.pods.get(pod.UID), Indexed: true}
	if c.Pod == nil {
		c.Pod, c.Indexed = s.derivePod(pod, nil), false
	}
	p := c.Pod
	if !p.Gang || p.MemberErr != nil {
		return c
	}
	w, r := s.copier.copyWorkloadLocked(&c)
	if w == nil || w.model == nil {
		return c
	}
	if asks.Alone && p.Member.Key.Source == workload.SourcePod {
		c.Alone, c.AloneNodes = s.copier.aloneRoundLocked(p, w)
	}
	if !asks.BehindHead || r != nil || !w.complete || w.placedWhole() {
		return c
	}
	if cw := s.copier.checkGateLocked(w); cw != nil {
		c.Check = &CheckWait{Reason: cw.reason, Message: cw.message, NeedsAction: cw.needsAction, Told: cw.told}
	}
	// The check's and the queue's rounds are gathered for the one pod
	// that asks: a member behind a valid head waits for the head instead.
	head := c.Workload.HeadValid && c.Workload.Head != p.UID
	if c.Check == nil && !head {
		c.CheckQuota = s.copier.checkRoundLocked(w)
		if s.queues.awaitingAdmissionLocked(w) {
			c.Queue = s.copier.queueRoundLocked(w)
		}
	}
	if c.Check != nil || c.Queue != nil {
		c.Pending = s.pendingLocked(w)
	}
	return c
}
