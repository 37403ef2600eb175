package provisioner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func TestConsumedRequest(t *testing.T) {
	tests := map[string]struct {
		annotations map[string]string
		want        string
	}{
		"none":       {nil, ""},
		"current":    {map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "r"}, "r"},
		"deprecated": {map[string]string{wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "old"}, "old"},
		"both, current wins": {map[string]string{
			wellknown.ConsumeProvisioningRequestAnnotation: "r", wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "old"}, "r"},
	}
	for name, tc := range tests {
		pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Annotations: tc.annotations}}
		if got := ConsumedRequest(pod); got != tc.want {
			t.Errorf("%s: ConsumedRequest = %q, want %q", name, got, tc.want)
		}
	}
}

func TestObservePods(t *testing.T) {
	pod := func(node string, phase corev1.PodPhase) *corev1.Pod {
		return &corev1.Pod{Spec: corev1.PodSpec{NodeName: node}, Status: corev1.PodStatus{Phase: phase}}
	}
	tests := map[string]struct {
		pods []*corev1.Pod
		want PodUse
	}{
		"none":                  {nil, PodUse{}},
		"pending":               {[]*corev1.Pod{pod("", corev1.PodPending)}, PodUse{Active: 1}},
		"running":               {[]*corev1.Pod{pod("n", corev1.PodRunning)}, PodUse{Bound: true, Active: 1}},
		"bound, phase not yet":  {[]*corev1.Pod{pod("n", "")}, PodUse{Bound: true, Active: 1}},
		"succeeded":             {[]*corev1.Pod{pod("n", corev1.PodSucceeded)}, PodUse{Bound: true}},
		"failed and replaced":   {[]*corev1.Pod{pod("n", corev1.PodFailed), pod("", corev1.PodPending)}, PodUse{Bound: true, Active: 1}},
		"failed before binding": {[]*corev1.Pod{pod("", corev1.PodFailed)}, PodUse{}},
	}
	for name, tc := range tests {
		if got := ObservePods(tc.pods); got != tc.want {
			t.Errorf("%s: ObservePods = %+v, want %+v", name, got, tc.want)
		}
	}
}

func TestUsageObserve(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	t1 := t0.Add(time.Minute)
	tests := map[string]struct {
		prev Usage
		pods PodUse
		want Usage
	}{
		"nothing yet":                   {Usage{}, PodUse{}, Usage{}},
		"pending pods do not consume":   {Usage{}, PodUse{Active: 2}, Usage{}},
		"bound and running":             {Usage{}, PodUse{Bound: true, Active: 1}, Usage{Consumed: true}},
		"all ended: idle from now":      {Usage{Consumed: true}, PodUse{Bound: true}, Usage{Consumed: true, IdleSince: t1}},
		"ended and deleted: still idle": {Usage{Consumed: true, IdleSince: t0}, PodUse{}, Usage{Consumed: true, IdleSince: t0}},
		"a replacement ends the idling": {Usage{Consumed: true, IdleSince: t0}, PodUse{Active: 1}, Usage{Consumed: true}},
		"first seen already terminated": {Usage{}, PodUse{Bound: true}, Usage{Consumed: true, IdleSince: t1}},
	}
	for name, tc := range tests {
		if got := tc.prev.Observe(tc.pods, t1); got != tc.want {
			t.Errorf("%s: Observe = %+v, want %+v", name, got, tc.want)
		}
	}
}

func TestDecideRemoval(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	at := func(d time.Duration) time.Time { return t0.Add(d) }
	base := Lifecycle{ProvisionedAt: t0, BookingTime: 10 * time.Minute}
	with := func(f func(*Lifecycle)) Lifecycle {
		l := base
		f(&l)
		return l
	}
	bookingExpired := Removal{Remove: true, Condition: autoscalingv1.BookingExpired, Reason: ReasonBookingExpired,
		Message: "no pod consumed the capacity within 10m0s of provisioning; the nodes are removed", Why: "no pod consumed it within 10m0s"}
	revoked := Removal{Remove: true, Condition: autoscalingv1.CapacityRevoked, Reason: ReasonMaxRunDurationExceeded,
		Message: "maxRunDurationSeconds (10m0s) passed since the nodes were provisioned; they are reclaimed", Why: "maxRunDurationSeconds (10m0s) passed"}

	tests := map[string]struct {
		l        Lifecycle
		now      time.Time
		want     Removal
		wantNext time.Time
	}{
		"unused, booking running":   {base, at(time.Minute), Removal{}, at(10 * time.Minute)},
		"unused, booking over":      {base, at(10 * time.Minute), bookingExpired, time.Time{}},
		"in use: no booking limit":  {with(func(l *Lifecycle) { l.Usage = Usage{Consumed: true} }), at(time.Hour), Removal{}, time.Time{}},
		"request deleted":           {with(func(l *Lifecycle) { l.Deleted = true; l.Usage = Usage{Consumed: true} }), at(time.Second), Removal{Remove: true, Why: "request deleted"}, time.Time{}},
		"pods ended: wait a little": {with(func(l *Lifecycle) { l.Usage = Usage{Consumed: true, IdleSince: at(time.Minute)} }), at(time.Minute + time.Second), Removal{}, at(time.Minute + UnneededTime)},
		"pods ended long enough": {with(func(l *Lifecycle) { l.Usage = Usage{Consumed: true, IdleSince: at(time.Minute)} }), at(time.Minute + UnneededTime),
			Removal{Remove: true, Why: "every pod that consumed it has ended"}, time.Time{}},
		"max run time ahead: the earlier deadline wakes": {with(func(l *Lifecycle) { l.MaxRunDuration = 5 * time.Minute }), at(time.Minute), Removal{}, at(5 * time.Minute)},
		"max run time over while running":                {with(func(l *Lifecycle) { l.MaxRunDuration = 10 * time.Minute; l.Usage = Usage{Consumed: true} }), at(10 * time.Minute), revoked, time.Time{}},
		"max run time goes before the booking":           {with(func(l *Lifecycle) { l.MaxRunDuration = 10 * time.Minute }), at(10 * time.Minute), revoked, time.Time{}},
		"running, max run ahead":                         {with(func(l *Lifecycle) { l.MaxRunDuration = time.Hour; l.Usage = Usage{Consumed: true} }), at(time.Minute), Removal{}, at(time.Hour)},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			got, next := DecideRemoval(tc.l, tc.now)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("removal (-want +got):\n%s", diff)
			}
			if !next.Equal(tc.wantNext) {
				t.Errorf("next = %v, want %v", next, tc.wantNext)
			}
		})
	}
}
