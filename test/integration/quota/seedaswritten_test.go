package quota_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
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
		source            workload.Source
	}{
		// Seed 003: suspended, for Kueue to start; it would wait forever.
		{"test/integration/quota/testdata/seed-003-job.yaml", "sample-job", "spec.template.spec.schedulerName", workload.SourceJob},
		// Seed 000: created running; its pods would wait for a default
		// scheduler, outside the queue's quota.
		{"test/integration/quota/testdata/seed-000-low-jax-trillium.yaml", "low-jax-trillium", "spec.replicatedJobs[0].template.spec.template.spec.schedulerName", workload.SourceJobSet},
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

		// Its Workload object says the same, where kubectl get wl
		// shows it.
		name := controllers.WorkloadName(workload.Key{Source: tc.source, Namespace: "default", Name: tc.name})
		var last string
		err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
			wl, err := e.q.Client.MultisliceV1alpha1().Workloads("default").Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				last = err.Error()
				return false, nil
			}
			c := apimeta.FindStatusCondition(wl.Status.Conditions, multislicev1alpha1.WorkloadQuotaReserved)
			if c == nil {
				last = "no QuotaReserved condition"
				return false, nil
			}
			last = fmt.Sprintf("QuotaReserved=%s %s: %s (queue %q)", c.Status, c.Reason, c.Message, wl.Spec.QueueName)
			return c.Status == metav1.ConditionFalse && c.Reason == "SchedulerNameMismatch" && strings.Contains(c.Message, tc.field+": multislice-scheduler") && wl.Spec.QueueName != "", nil
		})
		if err != nil {
			t.Errorf("%s: Workload object %s does not say SchedulerNameMismatch; last: %s", tc.name, name, last)
		}
	}
}

// What kubectl get shows of seed 000's and 003's queue objects: a
// ClusterQueue's usage of its quota, and whether it and an AdmissionCheck
// are active. Without the ProvisioningRequest API (not installed here),
// seed 003's check cannot run: it says so, and so does its ClusterQueue.
func TestSeedQueuesSayWhetherTheyAreActive(t *testing.T) {
	e := start(t, 1, "manifests/examples/queues/seed-000-tpu-v6e.yaml", "manifests/examples/queues/seed-003-dws.yaml")
	waitActive := func(what string, get func(context.Context) ([]metav1.Condition, string, error), status metav1.ConditionStatus, reason, mention string) {
		t.Helper()
		var last string
		err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
			conds, extra, err := get(ctx)
			if err != nil {
				return false, nil
			}
			c := apimeta.FindStatusCondition(conds, "Active")
			if c == nil {
				last = "no Active condition"
				return false, nil
			}
			last = fmt.Sprintf("Active=%s %s: %s (%s)", c.Status, c.Reason, c.Message, extra)
			return c.Status == status && (reason == "" || c.Reason == reason) && strings.Contains(last, mention), nil
		})
		if err != nil {
			t.Errorf("%s: want Active=%s %s mentioning %q; last: %s", what, status, reason, mention, last)
		}
		t.Logf("%s: %s", what, last)
	}
	cqs := e.q.Client.MultisliceV1alpha1().ClusterQueues()
	cq := func(name string) func(context.Context) ([]metav1.Condition, string, error) {
		return func(ctx context.Context) ([]metav1.Condition, string, error) {
			obj, err := cqs.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return nil, "", err
			}
			return obj.Status.Conditions, "usage " + obj.Status.Usage, nil
		}
	}
	waitActive("ClusterQueue tpu-training-cq", cq("tpu-training-cq"), metav1.ConditionTrue, "", "usage google.com/tpu: 0/32")
	waitActive("AdmissionCheck dws-prov", func(ctx context.Context) ([]metav1.Condition, string, error) {
		obj, err := e.q.Client.MultisliceV1alpha1().AdmissionChecks().Get(ctx, "dws-prov", metav1.GetOptions{})
		if err != nil {
			return nil, "", err
		}
		return obj.Status.Conditions, "", nil
	}, metav1.ConditionFalse, "", "ProvisioningRequest API")
	waitActive("ClusterQueue dws-cluster-queue", cq("dws-cluster-queue"), metav1.ConditionFalse, "AdmissionCheckInactive", "ProvisioningRequest API")
	// A ClusterQueue naming a flavor that does not exist admits nothing.
	obj, err := cqs.Get(t.Context(), "tpu-training-cq", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	obj.Spec.ResourceGroups[0].Flavors[0].Name = "missing-flavor"
	if _, err := cqs.Update(t.Context(), obj, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitActive("ClusterQueue tpu-training-cq naming a missing flavor", cq("tpu-training-cq"), metav1.ConditionFalse, "FlavorNotFound", "ResourceFlavor missing-flavor does not exist")
}

// A Job naming a LocalQueue that is created after it is told as soon as
// the LocalQueue exists.
func TestToldWhenTheLocalQueueArrivesLater(t *testing.T) {
	e := start(t, 1)
	ns := e.cp.CreateNamespace(t, "late-queue")
	job := suspendedQueuedJob(ns, "early")
	job.Spec.Template.Spec.SchedulerName = ""
	e.createJob(t, job)
	// No queue of ours is named yet: nothing to say.
	time.Sleep(3 * time.Second)
	events, err := e.cp.Client.EventsV1().Events(ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, ev := range events.Items {
		if ev.Reason == "SchedulerNameMismatch" {
			t.Fatalf("told before the LocalQueue existed: %s", ev.Note)
		}
	}
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	created := time.Now()
	ev := e.cp.WaitForWorkloadEventObject(t, ns, "early", "SchedulerNameMismatch")
	if took := time.Since(created); took > 10*time.Second {
		t.Errorf("told %s after its LocalQueue was created, want within seconds", took.Round(time.Second))
	}
	if !strings.Contains(ev.Note, "LocalQueue "+ns+"/lq") {
		t.Errorf("event %q does not name the LocalQueue", ev.Note)
	}
}
