package admission

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Notice is something to tell users: an event's or a held pod's reason
// and message; Warning when only the user can act on it.
type Notice struct {
	Reason, Message string
	Warning         bool
}

// PreEnqueueOutcome is what PreEnqueue decided for one pod. The glue maps
// it to a status, tells the notices and carries Later out once the
// scheduling queue's lock, which PreEnqueue runs under, is released.
type PreEnqueueOutcome struct {
	// Pass: the pod goes to the active queue; nothing more is said of it.
	Pass bool
	// Message is why the pod waits (Pass false).
	Message string
	// Ref names the pod's workload object.
	Ref corev1.ObjectReference
	// Event is told on Ref (Reason "": nothing); OnPod tells it on the
	// pod instead, naming Ref.
	Event Notice
	OnPod bool
	// Hold is what the held pod shows. HoldAll lists the pods shown it
	// instead (nil: the pod alone): a queue's verdict holds the whole gang.
	// HoldWeak yields to a reason the pod's whole workload was shown.
	Hold     Notice
	HoldAll  []state.PodRef
	HoldWeak bool
	// Later is what the state asks for, to carry out after PreEnqueue
	// returns: activating pods takes the queue's lock.
	Later state.Actions
	// ProvisioningReserved: the workload reserved its quota for its
	// provisioning check; its request may be created now.
	ProvisioningReserved bool
	// QueueRejection is the reason the pod's queue keeps it waiting ("":
	// it does not), for the metric. The pods that consume a
	// ProvisioningRequest their user made are in no queue: their wait for
	// it is no queue's rejection, and is not counted.
	QueueRejection string
}

// decidePreEnqueue is the gate's decision on its copy c alone: whether
// c's pod may enter the active queue (decideAdmit), and for a head that
// may, the quota it reserves for its queue's provisioning check, or for a
// queued plain pod (permitTimeout > 0), the reservation that admits it on
// quota alone. The decision returned carries the queue's verdict and the
// reservation; it leaves Pod unset, so that a charge Apply refuses
// records no failure: the pod's cycle says why. settle completes the
// outcome with what Apply did.
func decidePreEnqueue(c *state.PodCycle, permitTimeout time.Duration) (PreEnqueueOutcome, state.Decision) {
	v, d := decideAdmit(c)
	out := PreEnqueueOutcome{Ref: v.Ref, Message: v.Message}
	if !v.Gang {
		out.Pass = true
		return out, d
	}
	if !v.Wait && !v.Unresolvable {
		if c.CheckQuota == nil {
			out.Pass = true
			if v.Member.Key.Source == workload.SourcePod && permitTimeout > 0 && c.Alone != nil {
				// When the charge fails (the verdict let the pod through
				// to preempt, or a concurrent change took the quota) the
				// pod goes on, and its cycle says why.
				if res, _, fail := admitAlone(c.Alone); fail == nil {
					d.Reserve, d.PermitTimeout = res, permitTimeout
				}
			}
			return out, d
		}
		// A head whose queue provisions capacity first reserves its quota
		// here, and waits gated for the capacity: it never goes through a
		// scheduling cycle (nor is reported unschedulable, which would
		// send an autoscaler provisioning for it a second way) before it
		// can be placed.
		msg, problem, reserve := decideCheckQuota(c.CheckQuota)
		d.Key, d.CheckQuota = v.Member.Key, reserve
		reason := "QuotaReserved"
		if problem != nil {
			reason = problem.Reason
		} else {
			out.ProvisioningReserved = true
		}
		out.Message = msg
		out.Event = Notice{Reason: reason, Message: msg}
		out.Hold = out.Event
		return out, d
	}
	switch {
	case v.Unresolvable:
		out.Event = Notice{Reason: state.ReasonGangBlocked, Message: v.Message, Warning: true}
		out.OnPod = true
		out.Hold = out.Event
	case v.QueueReason != "":
		// Why its queue keeps it waiting: a Warning when only the user
		// can fix it (a LocalQueue missing, a workload larger than its
		// queue can ever hold), Normal when it waits its turn. The head
		// speaks for its gang: every member waits for the same.
		hold := Notice{Reason: v.QueueReason, Message: v.Message, Warning: v.QueueNeedsAction}
		if !v.QueueReasonTold {
			out.Event = hold
		}
		if v.Member.Key.Source != workload.SourceProvisioningRequest {
			out.QueueRejection = v.QueueReason
		}
		out.Hold = hold
		out.HoldAll = c.Pending
	default:
		out.Hold = Notice{Reason: state.ReasonWaitingForGang, Message: v.Message}
		out.HoldWeak = true
	}
	// The head of the fairer workload this one yields to may sit gated
	// while quota waits for it.
	out.Later.Activate = v.Wake
	return out, d
}

// settle completes out, decided with d, with what Apply did of d: a
// charge refused because the state moved under it.
func (out *PreEnqueueOutcome) settle(d state.Decision, a state.Applied) {
	switch {
	case d.CheckQuota != nil:
		if err := a.Refused; err != nil {
			out.Message = err.Error()
			out.Event = Notice{Reason: quota.ReasonQuotaExceeded, Message: out.Message}
			out.Hold, out.ProvisioningReserved = out.Event, false
		}
	case d.Reserve != nil:
		out.Later = a.Actions
	}
}
