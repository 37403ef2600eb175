package quota_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// The seeds' workloads are written for GKE's default scheduler: they name a
// LocalQueue and no schedulerName. Applied as written, each one that names
// one of our LocalQueues is told within seconds, with a Warning on the Job
// or JobSet, what to change: its pods are another scheduler's, and the pod
// template's schedulerName cannot change once the object exists.
func TestSeedWorkloadsAsWrittenAreToldWhatToChange(t *testing.T) {
	e := start(t, 1, "manifests/examples/queues/seed-000-tpu-v6e.yaml", "manifests/examples/queues/seed-003-dws.yaml")
	for _, tc := range []struct {
		file, name, field string
	}{
		// Seed 003: suspended, for Kueue to start; it would wait forever.
		{"test/integration/quota/testdata/seed-003-job.yaml", "sample-job", "spec.template.spec.schedulerName"},
		// Seed 000: created running; its pods would wait for a default
		// scheduler, outside the queue's quota.
		{"test/integration/quota/testdata/seed-000-low-jax-trillium.yaml", "low-jax-trillium", "spec.replicatedJobs[0].template.spec.template.spec.schedulerName"},
	} {
		created := time.Now()
		e.cp.CreateFromFile(t, tc.file)
		ev := e.cp.WaitForWorkloadEventObject(t, "default", tc.name, "SchedulerNameMismatch")
		if took := time.Since(created); took > 10*time.Second {
			t.Errorf("%s: told after %s, want within seconds", tc.name, took.Round(time.Second))
		}
		if ev.Type != corev1.EventTypeWarning {
			t.Errorf("%s: event type %s, want %s: the user must act", tc.name, ev.Type, corev1.EventTypeWarning)
		}
		for _, want := range []string{"its pods are for scheduler default-scheduler", tc.field + ": multislice-scheduler", "delete it and create it again"} {
			if !strings.Contains(ev.Note, want) {
				t.Errorf("%s: event %q does not say %q", tc.name, ev.Note, want)
			}
		}
		t.Logf("%s %s: %s", ev.Type, ev.Reason, ev.Note)
	}
}
