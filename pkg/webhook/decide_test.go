package webhook

import (
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestDecide(t *testing.T) {
	for _, tc := range decisionCases() {
		t.Run(tc.name, func(t *testing.T) {
			d := &Decider{Scheduler: scheduler, Lookup: testLookup()}
			got, err := decideFor(t.Context(), d, tc.obj)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decision (-want +got):\n%s", diff)
			}
		})
	}
}

// An object that needs the API to be decided, when the API cannot be
// read, is not decided either way: the error fails the request, and the
// failure policy decides. Objects that need no lookup are decided.
func TestDecideWithoutTheAPI(t *testing.T) {
	broken := testLookup()
	broken.err = errors.New("connection refused")
	d := &Decider{Scheduler: scheduler, Lookup: broken}
	for _, tc := range []struct {
		name    string
		obj     any
		wantErr string
	}{
		{"queued Job", builders.Job(ns, "j").Queue(ourQueue).Obj(), "looking up LocalQueue team/ours: connection refused"},
		{"PodGroup member", builders.Pod(ns, "m").InPodGroup("pg-ours").Obj(), "looking up PodGroup.scheduling.x-k8s.io team/pg-ours: connection refused"},
		{"plain pod (its namespace is looked up)", builders.Pod(ns, "p").Obj(), "looking up namespace team: connection refused"},
		{"pod of another scheduler", builders.Pod(ns, "p").Scheduler("volcano").Obj(), ""},
		{"Job's pod", builders.Pod(ns, "p").Label(wellknown.JobNameLabel, "j").Obj(), ""},
		// Consuming a request needs no lookup once the queue is known
		// not to be set.
		{"consumer", builders.Pod(ns, "p").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "r").Obj(), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := decideFor(t.Context(), d, tc.obj)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Errorf("error %v, want none", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Errorf("error %v, want one containing %q", err, tc.wantErr)
			}
		})
	}
}

func TestUnset(t *testing.T) {
	for name, want := range map[string]bool{"": true, corev1.DefaultSchedulerName: true, scheduler: false, "volcano": false} {
		if got := unset(name); got != want {
			t.Errorf("unset(%q) = %v, want %v", name, got, want)
		}
	}
}
