package controllers

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/client-go/tools/events"
	testingclock "k8s.io/utils/clock/testing"
)

// An object gets the first event of each reason; the same message is
// never repeated, and a new message of the same reason waits out
// RestatePeriod since the last one recorded.
func TestEventSinkRestatesAReasonAtMostOncePerPeriod(t *testing.T) {
	type step struct {
		after  time.Duration
		reason string
		msg    string
	}
	cases := map[string]struct {
		steps []step
		want  []string
	}{
		"the same message": {
			steps: []step{{0, "QuotaExceeded", "20 in use"}, {time.Hour, "QuotaExceeded", "20 in use"}},
			want:  []string{"Normal QuotaExceeded 20 in use"},
		},
		"a new message within the period": {
			steps: []step{{0, "QuotaExceeded", "20 in use"}, {RestatePeriod - time.Second, "QuotaExceeded", "24 in use"}},
			want:  []string{"Normal QuotaExceeded 20 in use"},
		},
		"a new message after the period": {
			steps: []step{{0, "QuotaExceeded", "20 in use"}, {RestatePeriod, "QuotaExceeded", "24 in use"}},
			want:  []string{"Normal QuotaExceeded 20 in use", "Normal QuotaExceeded 24 in use"},
		},
		"another reason at once": {
			steps: []step{{0, "QuotaExceeded", "20 in use"}, {time.Second, "WaitingForDomains", "0 free"}},
			want:  []string{"Normal QuotaExceeded 20 in use", "Normal WaitingForDomains 0 free"},
		},
		"the period runs from the last event recorded": {
			steps: []step{
				{0, "QuotaExceeded", "a"},
				{RestatePeriod / 2, "QuotaExceeded", "b"}, // not recorded
				{RestatePeriod / 2, "QuotaExceeded", "c"},
				{RestatePeriod / 2, "QuotaExceeded", "d"}, // not recorded
			},
			want: []string{"Normal QuotaExceeded a", "Normal QuotaExceeded c"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rec := events.NewFakeRecorder(10)
			clk := testingclock.NewFakeClock(time.Unix(0, 0))
			sink := NewEventSink(rec, clk)
			ref := &corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: "js", UID: "uid"}
			for _, s := range tc.steps {
				clk.Step(s.after)
				sink.Normal(ref, s.reason, s.msg)
			}
			close(rec.Events)
			var got []string
			for e := range rec.Events {
				got = append(got, e)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
