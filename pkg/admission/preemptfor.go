package admission

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PreemptionStep is how far PreemptFor got.
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
)

// Victim is a workload to evict whole.
type Victim struct {
	Key workload.Key
	Ref corev1.ObjectReference
	// Pods are its pods to evict.
	Pods []state.PodRef
}

// PreemptionOutcome is what PreemptFor decided.
type PreemptionOutcome struct {
	Step PreemptionStep
	// Message says why the pod waits (Underway), or why nothing may be
	// preempted (NoVictims: Failure's).
	Message string
	Failure *placement.Failure
	// Decision and the snapshot it was made on (Preempting), and the
	// victims to evict, in Decision's order.
	Decision *Preemption
	Snapshot *state.Snapshot
	Victims  []Victim
	// Took is how long deciding took (NoVictims, Preempting).
	Took time.Duration
}

// PreemptFor decides, when a gang member's cycle failed, which whole
// workloads to evict for its workload, and claims their domains for it.
// Only the workload's waiting head, whose plan failed for want of domains
// or quota, preempts: members of a workload already placed or reserved
// fail for other reasons, which evicting workloads would not mend. planned
// is the snapshot the head's failed plan read in this cycle (nil: none),
// reused rather than taking another; requested sizes a new one.
func PreemptFor(st *state.State, pod *corev1.Pod, v state.Verdict, planned *state.Snapshot, requested state.Requested) PreemptionOutcome {
	key := v.Member.Key
	if v.Wait || v.Unresolvable || key.Source == workload.SourcePod || st.PlacedWhole(key) {
		return PreemptionOutcome{}
	}
	f := st.HeadFailure(pod)
	if f == nil || f.Unresolvable || (f.Reason != "" && f.Reason != quota.ReasonQuotaExceeded) {
		return PreemptionOutcome{}
	}
	if underway, left := st.PreemptionUnderway(key); underway {
		out := PreemptionOutcome{Step: Underway, Message: "the preempted workloads are gone; waiting for their room to show"}
		if len(left) > 0 {
			out.Message = fmt.Sprintf("waiting for preempted %s to terminate", JoinKeys(left))
		}
		return out
	}
	start := time.Now()
	var sn *state.Snapshot
	if planned != nil && planned.Self != nil && planned.Self.Key == key {
		sn = st.ForPreemption(planned)
	} else {
		sn = st.PreemptionSnapshot(key, requested)
	}
	decision, fail := Preempt(sn)
	took := time.Since(start)
	if fail != nil {
		st.PreemptionFailed(key)
		return PreemptionOutcome{Step: NoVictims, Message: fail.Message, Failure: fail, Took: took}
	}
	st.Claim(key, sn.Self.Priority, decision.Victims, decision.Plan)
	out := PreemptionOutcome{Step: Preempting, Decision: decision, Snapshot: sn, Took: took}
	for _, victim := range decision.Victims {
		out.Victims = append(out.Victims, Victim{Key: victim, Ref: st.Ref(victim), Pods: st.VictimPods(victim)})
	}
	return out
}

// JoinKeys renders workload keys as a list.
func JoinKeys(keys []workload.Key) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
}
