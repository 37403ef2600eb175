package admission

import (
	"time"

	corev1 "k8s.io/api/core/v1"

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

// PreEnqueue decides whether pod may enter the active queue: a gang pod
// waits until every member that can exist yet exists and its head may
// plan, a queued workload until its queue admits it, a workload of a
// provisioning queue until its capacity exists (its head reserves the
// quota here, so that the request can be made). A queued plain pod is
// charged as it passes, for permitTimeout (0: in its cycle instead), so
// that pods beyond the quota wait gated rather than each spending a cycle.
func PreEnqueue(st *state.State, pod *corev1.Pod, permitTimeout time.Duration) PreEnqueueOutcome {
	v := Admit(st, pod)
	out := PreEnqueueOutcome{Ref: v.Ref, Message: v.Message}
	if !v.Gang {
		out.Pass = true
		return out
	}
	if !v.Wait && !v.Unresolvable {
		// A head whose queue provisions capacity first reserves its quota
		// here, and waits gated for the capacity: it never goes through a
		// scheduling cycle (nor is reported unschedulable, which would
		// send an autoscaler provisioning for it a second way) before it
		// can be placed.
		done, msg, problem := ReserveForCheck(st, pod)
		if !done {
			out.Pass = true
			if v.Member.Key.Source == workload.SourcePod && permitTimeout > 0 {
				// When the charge fails (the verdict let the pod through
				// to preempt, or a concurrent change took the quota) the
				// pod goes on, and its cycle says why.
				_, _, out.Later = AdmitAlone(st, pod, permitTimeout)
			}
			return out
		}
		reason := "QuotaReserved"
		if problem != nil {
			reason = problem.Reason
		} else {
			out.ProvisioningReserved = true
		}
		out.Message = msg
		out.Event = Notice{Reason: reason, Message: msg}
		out.Hold = out.Event
		return out
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
		out.HoldAll = st.PendingMembers(v.Member.Key)
	default:
		out.Hold = Notice{Reason: state.ReasonWaitingForGang, Message: v.Message}
		out.HoldWeak = true
	}
	// The head of the fairer workload this one yields to may sit gated
	// while quota waits for it.
	out.Later.Activate = v.Wake
	return out
}
