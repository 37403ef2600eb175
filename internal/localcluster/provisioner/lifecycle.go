package provisioner

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// UnneededTime is how long a request's nodes stay once every pod that
// consumed them has ended: a pod that fails is usually replaced by its Job
// (after the Job controller's 10 s back-off), and the replacement needs the
// nodes. The cluster autoscaler's scale-down-unneeded-time plays the same
// part (10 minutes by default); a demo cannot wait that long.
const UnneededTime = 30 * time.Second

// ConsumedRequest is the name of the ProvisioningRequest a pod consumes
// (in its namespace), from the annotation or its deprecated spelling; ""
// for none.
func ConsumedRequest(pod *corev1.Pod) string {
	if name := pod.Annotations[wellknown.ConsumeProvisioningRequestAnnotation]; name != "" {
		return name
	}
	return pod.Annotations[wellknown.DeprecatedConsumeProvisioningRequestAnnotation]
}

// PodUse is what the pods consuming a request tell about it.
type PodUse struct {
	// Bound: one of them is bound to a node, or ended after being bound.
	Bound bool
	// Active counts those that have not ended: pending, running or being
	// deleted.
	Active int
}

// ObservePods summarizes the pods consuming a request.
func ObservePods(pods []*corev1.Pod) PodUse {
	var u PodUse
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			u.Bound = true
		}
		if p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			u.Active++
		}
	}
	return u
}

// Usage is what the provisioner remembers of a provisioned request's pods
// between observations: pods that ended may be deleted, and a Job may
// replace a failed pod a little later.
type Usage struct {
	// Consumed: a pod of the request has been bound to a node.
	Consumed bool
	// IdleSince is when the last active pod was seen gone or ended after
	// the request was consumed; zero while one is active.
	IdleSince time.Time
}

// Observe advances u by an observation of the request's pods at now.
func (u Usage) Observe(pods PodUse, now time.Time) Usage {
	if pods.Bound {
		u.Consumed = true
	}
	switch {
	case !u.Consumed || pods.Active > 0:
		u.IdleSince = time.Time{}
	case u.IdleSince.IsZero():
		u.IdleSince = now
	}
	return u
}

// Lifecycle is what decides when a provisioned request's nodes go.
type Lifecycle struct {
	ProvisionedAt time.Time
	// MaxRunDuration is zero when the request sets none.
	MaxRunDuration time.Duration
	BookingTime    time.Duration
	Usage          Usage
	// Deleted: the request is gone or being deleted.
	Deleted bool
}

// Removal says whether to remove a request's nodes now, and which
// condition to set first.
type Removal struct {
	Remove bool
	// Condition, when not empty, is the type set True with Reason and
	// Message before the nodes are removed.
	Condition string
	Reason    string
	Message   string
	// Why is a short account for the log.
	Why string
}

// DecideRemoval decides on a provisioned request's nodes at now. When they
// stay, next is when the decision may change by time alone (zero: only a
// change of the objects can change it). The request's deletion goes first,
// then the end of its maximum run time, then its pods having ended, then
// the end of the booking.
func DecideRemoval(l Lifecycle, now time.Time) (r Removal, next time.Time) {
	if l.Deleted {
		return Removal{Remove: true, Why: "request deleted"}, time.Time{}
	}
	if l.MaxRunDuration > 0 {
		end := l.ProvisionedAt.Add(l.MaxRunDuration)
		if !now.Before(end) {
			return Removal{
				Remove:    true,
				Condition: autoscalingv1.CapacityRevoked,
				Reason:    ReasonMaxRunDurationExceeded,
				Message:   fmt.Sprintf("maxRunDurationSeconds (%s) passed since the nodes were provisioned; they are reclaimed", l.MaxRunDuration),
				Why:       fmt.Sprintf("maxRunDurationSeconds (%s) passed", l.MaxRunDuration),
			}, time.Time{}
		}
		next = end
	}
	if l.Usage.Consumed {
		if l.Usage.IdleSince.IsZero() {
			return Removal{}, next
		}
		end := l.Usage.IdleSince.Add(UnneededTime)
		if !now.Before(end) {
			return Removal{Remove: true, Why: "every pod that consumed it has ended"}, time.Time{}
		}
		return Removal{}, earliest(next, end)
	}
	end := l.ProvisionedAt.Add(l.BookingTime)
	if !now.Before(end) {
		return Removal{
			Remove:    true,
			Condition: autoscalingv1.BookingExpired,
			Reason:    ReasonBookingExpired,
			Message:   fmt.Sprintf("no pod consumed the capacity within %s of provisioning; the nodes are removed", l.BookingTime),
			Why:       fmt.Sprintf("no pod consumed it within %s", l.BookingTime),
		}, time.Time{}
	}
	return Removal{}, earliest(next, end)
}

// earliest is the earlier of two times, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	default:
		return b
	}
}
