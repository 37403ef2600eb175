package computeclass

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
)

// Lifetime is when a node ends, and when its recycling starts.
type Lifetime struct {
	// Created is the node's creationTimestamp.
	Created time.Time
	// End is its end of life, Created + maxRunDurationSeconds: Compute
	// Engine stops the VM then. Zero when it has none.
	End time.Time
	// RecycleAt is when its replacement is requested, End −
	// leadTimeSeconds: a new node is created in its node pool (queued,
	// then provisioned), and once that one is ready this one is cordoned,
	// its pods staying, then removed. Zero when it is not recycled.
	RecycleAt time.Time
}

// PriorityLifetime is the lifetime of a node of priority p created at
// created: flex-start nodes end after maxRunDurationSeconds (7 days when
// not set) and, with node recycling, are recycled leadTimeSeconds before
// that (at once when the lead time is the whole run time or more); spot
// and on-demand nodes end only if the priority sets
// maxRunDurationSeconds, and are never recycled.
func PriorityLifetime(p *cloudv1.Priority, created time.Time) Lifetime {
	l := Lifetime{Created: created}
	run := MaxRunDuration(p)
	if run <= 0 {
		return l
	}
	l.End = created.Add(run)
	if lead, ok := LeadTime(p); ok {
		l.RecycleAt = l.End.Add(-min(lead, run))
	}
	return l
}

// NodeLifetime is the lifetime of a node of class (nil when the class is
// gone), by the priority it was created from (MatchPriority, returned;
// -1 for none). A flex-start node no priority accounts for still ends 7
// days after its creation, without recycling; other such nodes have no
// end.
func NodeLifetime(class *cloudv1.ComputeClass, node *corev1.Node) (Lifetime, int) {
	created := node.CreationTimestamp.Time
	if i := MatchPriority(class, node); i >= 0 {
		return PriorityLifetime(&class.Spec.Priorities[i], created), i
	}
	l := Lifetime{Created: created}
	if NodeCapacity(node) == FlexStart {
		l.End = created.Add(DefaultFlexStartMaxRunDuration)
	}
	return l, -1
}

// Phase is where a node is in its lifetime at some time.
type Phase string

// The phases of a lifetime.
const (
	// Running: before its recycling starts and before its end of life.
	Running Phase = "Running"
	// Recycling: its replacement has been requested; it ends soon, and
	// new work should go to its replacement.
	Recycling Phase = "Recycling"
	// Ended: its end of life has passed.
	Ended Phase = "Ended"
)

// PhaseAt is the phase of the lifetime at now.
func (l Lifetime) PhaseAt(now time.Time) Phase {
	switch {
	case !l.End.IsZero() && !now.Before(l.End):
		return Ended
	case !l.RecycleAt.IsZero() && !now.Before(l.RecycleAt):
		return Recycling
	default:
		return Running
	}
}

// Next is the first time after now at which the phase changes; zero when
// it never does again.
func (l Lifetime) Next(now time.Time) time.Time {
	for _, t := range []time.Time{l.RecycleAt, l.End} {
		if !t.IsZero() && now.Before(t) {
			return t
		}
	}
	return time.Time{}
}
