package controllers

import (
	"context"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	kubefake "k8s.io/client-go/kubernetes/fake"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
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

// Events about different parts of a workload (the pods of two slices) are
// each recorded, at once, and stay apart in the API: the events API folds
// events of one object and reason that differ only in their message into
// one series, which shows only the first message.
func TestEventsAboutPartsOfAWorkloadStayApart(t *testing.T) {
	cs := kubefake.NewClientset()
	b := events.NewBroadcaster(&events.EventSinkImpl{Interface: cs.EventsV1()})
	b.StartRecordingToSink(t.Context().Done())
	defer b.Shutdown()
	sink := NewEventSink(b.NewRecorder(scheme.Scheme, "multislice-scheduler"), clock.RealClock{})
	ref := &corev1.ObjectReference{APIVersion: "jobset.x-k8s.io/v1alpha2", Kind: "JobSet", Namespace: "ns", Name: "js", UID: "uid"}
	for _, slice := range []string{"0", "1"} {
		pod := &corev1.ObjectReference{APIVersion: "v1", Kind: "Pod", Namespace: "ns", Name: "js-slice-" + slice + "-0", UID: types.UID("pod-" + slice)}
		sink.NormalAbout(ref, pod, ReasonMigrating, "slice "+slice+" moves")
	}
	var notes []string
	err := wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, 10*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := cs.EventsV1().Events("ns").List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err
		}
		notes = nil
		for _, e := range list.Items {
			notes = append(notes, e.Note)
		}
		return len(notes) >= 2, nil
	})
	slices.Sort(notes)
	if err != nil || !slices.Equal(notes, []string{"slice 0 moves", "slice 1 moves"}) {
		t.Errorf("events in the API: %q (%v), want one per slice", notes, err)
	}
}
