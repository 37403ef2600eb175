package admission

import (
	"fmt"
	"slices"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// decideGate is the gate's rule, on the copy State.Gate took: a gang pod
// waits until every member that can exist yet exists (all pods of the
// created startup groups; only the leaders under JobSet's staged exclusive
// placement), unless its workload already holds a reservation its slice is
// in, or already runs whole. behindHead: the members of a complete gang
// wait behind its head, which waits for its provisioning check, and asks
// its queue (Verdict.Queue set; decideAdmit takes the verdict). record
// is what the workload shows while it waits for its check (nil: nothing
// new).
func decideGate(c state.PodCycle, behindHead bool) (v state.Verdict, record *quota.Problem) {
	m := classify(&c)
	v = state.Verdict{Gang: m.gang, Member: m.member, Wait: m.wait, Unresolvable: m.unresolvable,
		Message: m.message, Ref: m.ref, QueueReason: m.queueReason, QueueNeedsAction: m.needsAction}
	if !v.Gang || v.Wait || v.Unresolvable {
		return v, nil
	}
	p, w := c.Pod, c.Workload
	unobserved := fmt.Sprintf("waiting for the scheduler to observe pod %s/%s", p.Namespace, p.Name)
	if behindHead && !c.Indexed {
		// Not indexed yet: the informer will deliver it and re-activate
		// it if it may go. Scheduling cycles read only pods the state
		// holds: a pod the gate lets through is one. While members are
		// missing it is not re-activated, so say what else the gang waits
		// for (this pod counted as there).
		v.Wait, v.Message = true, unobserved
		if msg := missingMessage(w, 1); !w.Complete && msg != "" {
			v.Message = msg
		}
		return v, nil
	}
	// A pod not indexed yet whose slice is not active belongs to a startup
	// group the complete gang does not include: it opens a new gang.
	f := workload.GateFacts{
		Reserved:    c.Reservation != nil,
		Complete:    w.Complete && (c.Indexed || slices.Contains(w.Active, v.Member.Slice)),
		PlacedWhole: w.PlacedWhole,
		HeadValid:   w.HeadValid,
		IsHead:      w.Head == p.UID,
	}
	if r := c.Reservation; r != nil && r.Attempt == w.Model.RestartAttempt {
		_, f.InReservedSlice = r.Slices[v.Member.Slice]
	}
	switch workload.TurnAt(f, behindHead) {
	case workload.TurnGo:
		return v, nil
	case workload.TurnBehindHead:
		// The gang plans through its head; the others wait, gated,
		// until the head's plan is committed.
		v.Wait, v.Message = true, fmt.Sprintf("waiting for %s to find room for %s", w.HeadName, w.Key)
		if w.Failure != nil {
			v.Message += ": " + w.Failure.Message
		}
		return v, nil
	case workload.TurnHead:
		if cw := c.Check; cw != nil {
			// A provisioning check holds the head until its capacity
			// exists; the Workload shows why while no quota is reserved.
			v.Wait, v.Message, v.QueueReason = true, cw.Message, cw.Reason
			v.QueueNeedsAction, v.QueueReasonTold = cw.NeedsAction, cw.Told
			return v, &quota.Problem{Reason: cw.Reason, Message: cw.Message, Config: cw.NeedsAction}
		}
		// The head goes only when its queue lets it: quota, queue order
		// and fair sharing are decided on this round, so a workload that
		// may not be admitted waits gated instead of planning.
		v.Queue = c.Queue
		return v, nil
	}
	if !c.Indexed {
		v.Wait, v.Message = true, unobserved
		return v, nil
	}
	v.Wait, v.Message = true, missingMessage(w, 0)
	return v, nil
}
