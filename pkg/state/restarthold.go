package state

import (
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A restart hold keeps, for a while, what a running workload had while its
// owner restarts it (a JobSet deleting and recreating its Jobs, with
// BlockingRecreate or not): its quota and the nodes of its healthy domains.
// Between the old pods going and the new ones being placed, nothing of the
// workload is on a node, and without the hold a waiting workload would take
// its quota and its pools in the gap — the downtime hotswap is meant to
// avoid. The hold is a claim with no victims (claims.go): NodeAllowed, plans and
// the snapshot keep its nodes for the workload alone, and the workload
// keeps its charge (holdsQuotaLocked). It ends when the workload's new
// attempt commits a reservation, its owner finishes or is deleted, or
// after Options.RestartHold (then a RestartHoldExpired event).
//
// Domains with a failed node are not held: the workload needs others, and
// regains them as any admitted workload regains capacity (capacity
// preemption). The hold does not shield the workload from priority: a
// gang of higher priority plans into its nodes as it could have preempted
// the workload while it ran, and its reservation takes them
// (claimIndex.takeRestartNodes). A workload being evicted is not held either: what it had
// is its preemptor's. The hold lives in the leader's memory only; a
// scheduler that takes over mid-restart sees no pod on a node and the
// workload goes back through its queue (never over quota, since its
// charge is then gone from the API's view too).

// ReasonRestartHoldExpired: a restarting workload did not come back in
// time; what was kept for it is released.
const ReasonRestartHoldExpired = "RestartHoldExpired"

// holdRestartLocked starts w's restart hold when its owner moved from the
// attempt old described to a new one, and that attempt ran.
func (fd Feed) holdRestartLocked(w *Workload, old *workload.Workload) {
	s := fd.s
	m := w.model
	if s.opts.RestartHold <= 0 || old == nil || m == nil || m.Finished || old.UID != m.UID ||
		m.RestartAttempt <= old.RestartAttempt || w.ranAttempt != old.RestartAttempt+1 {
		return
	}
	if s.claims.isEvicting(w.key) || (w.eviction != nil && !w.eviction.At.Before(w.placedAt)) {
		// Evicted since it was placed: what it had is its preemptor's.
		return
	}
	if c := s.claims.of(w.key); c != nil && c.migration {
		// A slice was moving off recycled nodes when its owner restarted
		// the whole workload: the whole workload's nodes are kept now.
		s.claims.drop(w.key)
	}
	if s.claims.of(w.key) != nil || s.book.ChargeOf(w.key) == nil && s.queues.queueNameLocked(w) != "" {
		return
	}
	nodes := fd.healthyNodesLocked(w, old.RestartAttempt)
	if len(nodes) == 0 {
		return
	}
	c := &claim{nodes: sets.New[string](), at: s.opts.Clock.Now(), restart: true, keepsCharge: s.book.ChargeOf(w.key) != nil}
	own := workload.Holder{Key: w.key, UID: w.model.UID}
	for n := range nodes {
		if fd.takenByOtherLocked(n, own) {
			continue
		}
		if _, taken := s.claims.keptFor(n); !taken {
			c.nodes.Insert(n)
		}
	}
	s.claims.put(w.key, c)
	s.bumpLocked()
}

// healthyNodesLocked lists the nodes w's attempt ran on that may take it
// again: for a confined slice every node of its domain, if none of them
// failed; for an unconfined one the node itself, if usable. A node going
// away on schedule (its lifetime's end, recycling: its replacement joins
// the same domain) has not failed. The domains come from the attempt's
// pods and, for pods already gone with a recycled node, from where the
// attempt was placed (ranDomains).
func (fd Feed) healthyNodesLocked(w *Workload, attempt int32) sets.Set[string] {
	s := fd.s
	out := sets.New[string]()
	seen := map[topology.DomainRef]bool{}
	now := s.opts.Clock.Now()
	keep := func(d topology.DomainRef) {
		if seen[d] {
			return
		}
		seen[d] = true
		s.nodes.Track(d.Key)
		members := s.nodes.NodesOf(d)
		var usable []string
		for _, name := range members {
			n := s.nodes.Node(name)
			switch {
			case n == nil:
				return
			case n.Usable:
				usable = append(usable, name)
			case !n.Lifetime.Ending(now):
				return
			}
		}
		out.Insert(usable...)
	}
	if w.ranAttempt == attempt+1 {
		for _, d := range w.ranDomains {
			keep(d)
		}
	}
	for _, p := range w.members {
		if p.Node == "" || p.Member.RestartAttempt != attempt || !(p.Live() || p.Deleting) {
			continue
		}
		key := w.domainKeyOf(p.Member.Slice)
		if key == "" {
			if n := s.nodes.Node(p.Node); n != nil && n.Usable {
				out.Insert(p.Node)
			}
			continue
		}
		value, ok := s.nodes.DomainOf(p.Node, key)
		if !ok {
			continue
		}
		keep(topology.DomainRef{Key: key, Value: value})
	}
	return out
}

// takenByOtherLocked reports whether node is reserved for a workload
// other than own's, or runs pods of a holder that blocks own.
func (fd Feed) takenByOtherLocked(node string, own workload.Holder) bool {
	s := fd.s
	if ref, ok := s.reservations.room.nodeReserved[node]; ok && ref.key != own.Key {
		return true
	}
	_, held := s.domainHolders.blockingOn(node, &own)
	return held
}
