package admission

import (
	"fmt"
	"strings"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PreemptionStep is how far a preemption got.
type PreemptionStep int

const (
	// NotTried: the pod does not preempt (not its workload's waiting
	// head, or its plan failed for a reason evicting would not mend).
	NotTried PreemptionStep = iota
	// Underway: an earlier preemption's victims are still going.
	Underway
	// NoVictims: no set of workloads may be evicted for it.
	NoVictims
	// Preempting: victims were chosen and claimed; evict them.
	Preempting
	// Raced: victims were chosen, but the state moved under the choice
	// (a victim gone, or taken by another preemption) and the claim was
	// refused: nothing is evicted, and the pod tries again.
	Raced
)

// Result is the step's value of the preemption metric's result label
// ("": the step is not counted).
func (s PreemptionStep) Result() string {
	switch s {
	case Underway:
		return "waiting"
	case NoVictims:
		return "no_victims"
	case Preempting:
		return "preempted"
	case Raced:
		return "raced"
	}
	return ""
}

// Victim is a workload to evict whole, with its pods.
type Victim = state.Victim

// PreemptionOutcome is what a preemption decided.
type PreemptionOutcome struct {
	Step PreemptionStep
	// Message says why the pod waits (Underway, Raced), or why nothing
	// may be preempted (NoVictims: Failure's).
	Message string
	Failure *placement.Failure
	// Decision and the snapshot it was made on (Preempting), and the
	// victims to evict, in Decision's order, once the claim is applied.
	Decision *Preemption
	Snapshot *state.Snapshot
	Victims  []Victim
	// Took is how long choosing victims took (NoVictims, Preempting).
	Took time.Duration
	// Apply is what the state is to write (nil: nothing): the claim, the
	// failure to find victims, or that the victims are gone.
	Apply *state.Decision
}

// PreemptFor decides, on a copy of what it reads (f, State.Preemption),
// whether a gang member whose cycle failed makes its workload preempt
// now. Only the workload's waiting head, whose plan failed for want of
// domains or quota, preempts: members of a workload already placed or
// reserved fail for other reasons, which evicting workloads would not
// mend. While an earlier preemption of the workload is under way, it
// waits (Underway) rather than evict more; one whose pods' preemptionPolicy
// is Never evicts no one (NoVictims). choose reports that victims are
// to be chosen (ChooseVictims).
func PreemptFor(v state.Verdict, f *state.PreemptionFacts) (out PreemptionOutcome, choose bool) {
	key := v.Member.Key
	if v.Wait || v.Unresolvable || key.Source == workload.SourcePod || f.PlacedWhole {
		return PreemptionOutcome{}, false
	}
	fail := f.HeadFailure
	if fail == nil || fail.Unresolvable || (fail.Reason != "" && fail.Reason != quota.ReasonQuotaExceeded) {
		return PreemptionOutcome{}, false
	}
	if f.NeverPreempts {
		// Recorded as no victims found, so that its queue does not send
		// it to a cycle to preempt until the state changes.
		return PreemptionOutcome{Step: NoVictims, Message: "its pods' preemptionPolicy is Never (set by their PriorityClass): it waits for room and evicts no one",
			Apply: &state.Decision{Key: key, Generation: f.Generation, NoVictims: true}}, false
	}
	if c := f.Claim; c.Underway(f.Now) {
		out := PreemptionOutcome{Step: Underway, Message: "the preempted workloads are gone; waiting for their room to show"}
		switch {
		case len(c.Left) > 0:
			out.Message = fmt.Sprintf("waiting for preempted %s to terminate", JoinKeys(c.Left))
		case c.Gone.IsZero():
			// Gone now: the scheduler's snapshot may show them a while.
			out.Apply = &state.Decision{Key: key, VictimsGone: f.Now}
		}
		return out, false
	}
	return PreemptionOutcome{}, true
}

// ChooseVictims decides, on sn alone (State.PreemptionSnapshot), which
// whole workloads to evict for key's workload, and the claim that keeps
// the domains its plan chose for it while they go.
func ChooseVictims(key workload.Key, sn *state.Snapshot) PreemptionOutcome {
	decision, fail := Preempt(sn)
	if fail != nil {
		return PreemptionOutcome{Step: NoVictims, Message: fail.Message, Failure: fail,
			Apply: &state.Decision{Key: key, Generation: sn.Generation, NoVictims: true}}
	}
	return PreemptionOutcome{Step: Preempting, Decision: decision, Snapshot: sn,
		Apply: &state.Decision{Key: key, Claim: &state.Claim{Priority: sn.Self.Priority, Victims: decision.Victims, Plan: decision.Plan}}}
}

// JoinKeys renders workload keys as a list.
func JoinKeys(keys []workload.Key) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}
