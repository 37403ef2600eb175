package placement

import (
	"fmt"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// NodeFacts are what the index holds about one node for one pod: every
// input of the Filter rule (Allows), copied in one read of the state so
// that the rule reads values only. A zero field means there is nothing of
// that kind on the node. They are copied for every node of a Filter pass,
// so they are values all through: nothing in them is allocated for one
// node in the common case.
type NodeFacts struct {
	// Request is what the pod asks for.
	Request workload.Resources
	// Own is the pod's workload as a holder of domains; zero for a plain
	// pod, a pod whose workload API is not served, or a pod whose
	// membership is invalid: such pods are treated as pods of no
	// workload.
	Own workload.Holder
	// Reserved is the slice whose reservation covers the node's domain
	// when it is not the pod's own slice (zero Key: none).
	Reserved ReservedSlice
	// Claim is the claim that keeps the node for another workload (zero
	// By: none, or one that yields to the pod).
	Claim NodeClaim
	// Outstanding is the room other workloads' reservations planned on
	// the node and have not placed yet, by workload.
	Outstanding map[workload.Key]workload.Resources
	// Held are the domains the node lies in that confined slices run in,
	// with their holders.
	Held Few[HeldDomain]
	// Bounds are the pod's own reserved slice's bounds for its current
	// attempt (zero: its slice has no reservation, which bounds nothing);
	// Labels are the node's labels as the state has them.
	Bounds SliceBounds
	Labels map[string]string
	// Confined is set (Key not empty) when the pod's slice must stay in
	// one domain of a key: the whole domain the node lies in must be free
	// of other holders.
	Confined ConfinedDomain
}

// ReservedSlice names the slice a domain is reserved for.
type ReservedSlice struct {
	Key               workload.Key
	Slice             int
	DomainKey, Domain string
}

// ClaimKind is why a claim keeps nodes.
type ClaimKind int

const (
	// PreemptionClaim: the workload preempted what ran on the node.
	PreemptionClaim ClaimKind = iota
	// RestartClaim: the workload ran on the node and is restarting.
	RestartClaim
	// MigrationClaim: the workload's pods move here off recycled nodes.
	MigrationClaim
)

// NodeClaim is a claim on a node for another workload.
type NodeClaim struct {
	By   workload.Key
	Kind ClaimKind
}

// Claimant is a workload asking for a node a claim keeps: Gang false for
// a plain pod.
type Claimant struct {
	Key      workload.Key
	Gang     bool
	Priority int32
}

// ClaimKeeps is the one rule for whether a claim on a node, made for by
// (of priority byPriority; restart: a restart hold), keeps the node from
// c. A gang's own claim does not; a restart hold gives way to a gang of
// higher priority, which could have preempted the workload while it ran:
// a restart must not shield it.
func ClaimKeeps(by workload.Key, restart bool, byPriority int32, c Claimant) bool {
	if !c.Gang {
		return true
	}
	return by != c.Key && !(restart && c.Priority > byPriority)
}

// HeldDomain is a domain confined slices run in, and their holders.
type HeldDomain struct {
	Ref     topology.DomainRef
	Holders Few[workload.Holder]
}

// ConfinedDomain is the domain of the pod's slice's key that the node lies
// in (Labelled false: the node has no such label), and the holders of the
// confined slices placed on any node of it, each once.
type ConfinedDomain struct {
	Key      string
	Value    string
	Labelled bool
	Holders  Few[workload.Holder]
}

// Allows is the Filter rule: whether the pod may go on the node as far as
// reservations, claims and exclusive domains go, and why not. A node in a
// domain reserved for a slice takes only that slice's pods; a node a claim
// keeps takes only its claimant's; room other reservations planned on a
// node is left to them (free is what the node has left, asked only when
// that matters); a domain a confined slice runs in takes no other
// workload's pod; and a pod of a reserved or confined slice stays within
// its slice's bounds and in a domain no other workload holds.
func (f NodeFacts) Allows(free func() workload.Resources) (bool, string) {
	if r := f.Reserved; r.Key != (workload.Key{}) {
		return false, fmt.Sprintf("node is in %s=%s, reserved for slice %d of %s", r.DomainKey, r.Domain, r.Slice, r.Key)
	}
	if c := f.Claim; c.By != (workload.Key{}) {
		return false, c.describe()
	}
	if len(f.Outstanding) > 0 {
		var others workload.Resources
		var by workload.Key
		for k, o := range f.Outstanding {
			if others == nil {
				others = workload.Resources{}
			}
			for name, v := range o {
				others[name] += v
			}
			if by == (workload.Key{}) || k.Compare(by) < 0 {
				by = k
			}
		}
		if free().Sub(others).Count(f.Request) == 0 {
			return false, fmt.Sprintf("the room left on the node is reserved for %s", by)
		}
	}
	var own *workload.Holder
	if f.Own != (workload.Holder{}) {
		own = &f.Own
	}
	for i := range f.Held.Len() {
		// A domain a confined slice runs in is its own until its last
		// pod is gone: no other workload's pod, confined or not, joins it.
		d := f.Held.At(i)
		if h, ok := workload.FirstBlockingOf(d.Holders.All(), own); ok {
			return false, heldMessage(h, d.Ref, own)
		}
	}
	if why := f.Bounds.Excludes(f.Labels); why != "" {
		return false, why
	}
	if c := &f.Confined; c.Key != "" {
		if !c.Labelled {
			return false, fmt.Sprintf("node has no %s label: the pod's slice must stay in one such domain", wellknown.ShortLabel(c.Key))
		}
		// The whole domain, not the node alone: nodes move between
		// pools when relabelled.
		if h, ok := workload.FirstBlockingOf(c.Holders.All(), own); ok {
			return false, heldMessage(h, topology.DomainRef{Key: c.Key, Value: c.Value}, own)
		}
	}
	return true, ""
}

func (c NodeClaim) describe() string {
	switch c.Kind {
	case MigrationClaim:
		return fmt.Sprintf("node is kept for %s, whose pods move here off nodes being recycled", c.By)
	case RestartClaim:
		return fmt.Sprintf("node is kept for %s, which ran here and is restarting", c.By)
	}
	return fmt.Sprintf("node is kept for %s, which preempted the workload that ran here", c.By)
}

// heldMessage says that holder h keeps own (nil: a pod of no workload) out
// of domain ref. Built by concatenation: a Filter pass says it for every
// node a held domain refuses.
func heldMessage(h workload.Holder, ref topology.DomainRef, own *workload.Holder) string {
	if own != nil && h.Key == own.Key {
		return wellknown.ShortLabel(ref.Key) + "=" + ref.Value + " is held by pods of a deleted " + h.Key.String() + " of the same name (uid " + string(h.UID) + ")"
	}
	return "node is in " + wellknown.ShortLabel(ref.Key) + "=" + ref.Value + ", held by " + h.Key.String()
}
