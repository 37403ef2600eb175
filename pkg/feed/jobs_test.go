package feed

import (
	"context"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The Job informer derives a workload for each Job that names a LocalQueue
// and no JobSet owns, and forgets it when the Job stops being one.
func TestJobChanged(t *testing.T) {
	key := workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: "train"}
	started := queuedJob(running, func(j *batchv1.Job) { j.Spec.Template.Labels[wellknown.QueueNameLabel] = "lq" })
	cases := map[string]struct {
		old, job    *batchv1.Job
		known       bool
		wantFinish  bool
		wantWarning string
	}{
		"a queued Job": {
			job: started, known: true,
		},
		"a suspended queued Job: known, holding nothing": {
			job: queuedJob(), known: true, wantFinish: true,
		},
		"a Job of no queue": {
			job: queuedJob(running, func(j *batchv1.Job) { j.Labels = nil }),
		},
		"a JobSet's Job": {
			job: queuedJob(running, func(j *batchv1.Job) { j.Labels[wellknown.JobSetNameLabel] = "js" }),
		},
		"a Job whose queue label was removed is forgotten": {
			old: started,
			job: queuedJob(running, func(j *batchv1.Job) { j.Labels = nil }),
		},
		"a malformed queued Job: known, and the user told": {
			job:         queuedJob(func(j *batchv1.Job) { j.Spec.Parallelism = ptr.To(int32(-1)) }),
			known:       true,
			wantWarning: "Warning InvalidWorkload Job ns/train: spec.parallelism",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			st := state.New(state.Options{})
			recorded := make(chan string, 4)
			sink := controllers.NewEventSink(&events.FakeRecorder{Events: recorded}, clock.RealClock{})
			rt := New(Config{State: st, Warn: sink.Warn, Act: func(_ context.Context, acts state.Actions) {
				// As the actuator does: what the state asks users be told.
				for _, e := range acts.Events {
					if e.Warning {
						sink.Warn(&e.Ref, e.Reason, e.Message)
					} else {
						sink.Normal(&e.Ref, e.Reason, e.Message)
					}
				}
			}})
			if tc.old != nil {
				rt.jobChanged(t.Context(), nil, tc.old)
				if _, known := st.Created(key); !known {
					t.Fatal("the queued Job was not recorded")
				}
			}
			rt.jobChanged(t.Context(), tc.old, tc.job)
			_, known := st.Created(key)
			if tc.wantWarning != "" {
				// A malformed object is recorded without a model.
				known = st.Reports().Ref(key).UID == tc.job.UID
			}
			if known != tc.known {
				t.Fatalf("workload known = %v, want %v", known, tc.known)
			}
			if tc.known && tc.wantWarning == "" {
				if ref := st.Reports().Ref(key); ref.Kind != "Job" || ref.APIVersion != "batch/v1" || ref.UID != tc.job.UID {
					t.Errorf("ref = %+v", ref)
				}
			}
			select {
			case e := <-recorded:
				if tc.wantWarning == "" || !strings.HasPrefix(e, tc.wantWarning) {
					t.Errorf("event %q, want %q", e, tc.wantWarning)
				}
			default:
				if tc.wantWarning != "" {
					t.Errorf("no event, want %q", tc.wantWarning)
				}
			}
		})
	}
}

func TestDeriveJob(t *testing.T) {
	d := deriveJob(queuedJob(running, func(j *batchv1.Job) {
		j.Annotations = map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}
	}), "")
	if d.err != nil {
		t.Fatal(d.err)
	}
	if d.key != (workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: "train"}) || d.w.Slices[0].Pods != 2 || d.w.Slices[0].DomainKey != wellknown.NodePoolLabel || d.w.QueueName != "lq" {
		t.Errorf("derived %+v: %+v", d.key, d.w.Slices)
	}
	if d.ref.Kind != "Job" || d.ref.Name != "train" || d.ref.UID != "train-uid" {
		t.Errorf("ref = %+v", d.ref)
	}
}

// queuedJob is a Job ns/train as Kueue's users write it: suspended, in
// LocalQueue lq, its pods for our scheduler; edits change it further.
func queuedJob(edits ...func(*batchv1.Job)) *batchv1.Job {
	j := builders.Job("ns", "train").Queue("lq").Suspended(true).Parallelism(2).Scheduler("multislice-scheduler").Obj()
	for _, e := range edits {
		e(j)
	}
	return j
}

func running(j *batchv1.Job) { j.Spec.Suspend = ptr.To(false) }
