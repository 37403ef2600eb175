package computeclass

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
)

// RunWindow is the run a ComputeClass priority grants a node: when it
// was created, when it ends, and when its recycling starts. (The state
// holds the part it schedules by as a topology.NodeLifetime.)
type RunWindow struct {
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

// PriorityRunWindow is the run window of a node of priority p created at
// created: flex-start nodes end after maxRunDurationSeconds (7 days when
// not set) and, with node recycling, are recycled leadTimeSeconds before
// that (at once when the lead time is the whole run time or more); spot
// and on-demand nodes end only if the priority sets
// maxRunDurationSeconds, and are never recycled.
func PriorityRunWindow(p *cloudv1.Priority, created time.Time) RunWindow {
	l := RunWindow{Created: created}
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

// NodeRunWindow is the run window of a node of class (nil when the class is
// gone), by the priority it was created from (MatchPriority, returned;
// -1 for none). A flex-start node no priority accounts for still ends 7
// days after its creation, without recycling; other such nodes have no
// end.
func NodeRunWindow(class *cloudv1.ComputeClass, node *corev1.Node) (RunWindow, int) {
	created := node.CreationTimestamp.Time
	if i := MatchPriority(class, node); i >= 0 {
		return PriorityRunWindow(&class.Spec.Priorities[i], created), i
	}
	l := RunWindow{Created: created}
	if NodeCapacity(node) == FlexStart {
		l.End = created.Add(DefaultFlexStartMaxRunDuration)
	}
	return l, -1
}

// Phase is where a node is in its run window at some time.
type Phase string

// The phases of a run window.
const (
	// Running: before its recycling starts and before its end of life.
	Running Phase = "Running"
	// Recycling: its replacement has been requested; it ends soon, and
	// new work should go to its replacement.
	Recycling Phase = "Recycling"
	// Ended: its end of life has passed.
	Ended Phase = "Ended"
)

// PhaseAt is the phase of the run window at now.
func (l RunWindow) PhaseAt(now time.Time) Phase {
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
func (l RunWindow) Next(now time.Time) time.Time {
	for _, t := range []time.Time{l.RecycleAt, l.End} {
		if !t.IsZero() && now.Before(t) {
			return t
		}
	}
	return time.Time{}
}
