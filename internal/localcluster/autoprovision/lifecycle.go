package autoprovision

import (
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
)

// NodeLife is what decides the next step of a node's life.
type NodeLife struct {
	Lifetime computeclass.RunWindow
	// Replacement: a replacement of the node exists (Ready or not) or is
	// queued.
	Replacement bool
	// ReplacementReady: the replacement can take pods.
	ReplacementReady bool
	// RecycledAt is when the node was cordoned because its replacement
	// was Ready; zero when it was not.
	RecycledAt time.Time
}

// Step is what to do to a node now.
type Step string

// The steps of a node's life.
const (
	// Keep: nothing to do now.
	Keep Step = ""
	// EndOfLife: its maxRunDurationSeconds have passed: remove it.
	EndOfLife Step = "EndOfLife"
	// RequestReplacement: its recycling has started and it has no
	// replacement yet: queue one in its node pool.
	RequestReplacement Step = "RequestReplacement"
	// Cordon: its replacement is Ready: cordon it, its pods keep running.
	Cordon Step = "Cordon"
	// Drained: it was cordoned the drain time ago: remove it.
	Drained Step = "Drained"
)

// DecideLife decides a node's next step at now. next is when the decision
// may change by time alone (zero: only a change of the objects can change
// it). The end of life goes first: a node is removed then whatever else
// is under way.
func DecideLife(l NodeLife, drain time.Duration, now time.Time) (step Step, next time.Time) {
	lt := l.Lifetime
	if lt.PhaseAt(now) == computeclass.Ended {
		return EndOfLife, time.Time{}
	}
	if !l.RecycledAt.IsZero() {
		gone := earliest(l.RecycledAt.Add(drain), lt.End)
		if !now.Before(gone) {
			return Drained, time.Time{}
		}
		return Keep, gone
	}
	if lt.PhaseAt(now) != computeclass.Recycling {
		return Keep, lt.Next(now)
	}
	switch {
	case !l.Replacement:
		return RequestReplacement, lt.End
	case l.ReplacementReady:
		return Cordon, lt.End
	default:
		return Keep, lt.End
	}
}
