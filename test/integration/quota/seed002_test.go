package quota_test

import (
	"strings"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Seed 002 with quota as the binding constraint: six 2x4 pools but 24 chips
// of quota (the seed's queue manifests, as written). The 3-slice JobSet runs
// alone; the 1- and 2-slice ones wait, gated, with a reason on their
// Workload objects, and run together once it is gone.
func TestSeed002QuotaAdmitsThreeSlicesThenOneAndTwo(t *testing.T) {
	for _, mode := range []harness.PodCreation{harness.AllAtOnce, harness.Staged} {
		t.Run(mode.String(), func(t *testing.T) { seed002(t, mode) })
	}
}

func seed002(t *testing.T, mode harness.PodCreation) {
	e := start(t, 6, "manifests/examples/queues/seed-002-multislice-v5e.yaml")
	e.jobsets = e.cp.NewJobSets(t, mode)
	ns := "default"
	e.jobsets.Create(t, queued(ns, "three", "multislice-queue", 3))
	e.cp.WaitWhollyPlaced(t, ns, "three", 6)
	e.waitWorkload(t, ns, "three", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))

	e.jobsets.Create(t, queued(ns, "one", "multislice-queue", 1))
	e.jobsets.Create(t, queued(ns, "two", "multislice-queue", 2))
	e.cp.ExpectNoneBound(t, ns, "one", 3*time.Second)
	e.cp.ExpectNoneBound(t, ns, "two", 0)
	wl := e.waitWorkload(t, ns, "two", "waiting for quota", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
	if msg := apimeta.FindStatusCondition(wl.Status.Conditions, multislicev1alpha1.WorkloadQuotaReserved).Message; !strings.Contains(msg, "google.com/tpu: 8 for slice 0 (16 for the workload), 0 available (nominal 24, 24 in use)") {
		t.Errorf("QuotaReserved message %q does not say what is short", msg)
	}
	if note := e.cp.WaitForWorkloadEvent(t, ns, "one", quota.ReasonQuotaExceeded); !strings.Contains(note, "ClusterQueue cluster-queue") {
		t.Errorf("QuotaExceeded event %q does not name the queue", note)
	}
	e.waitClusterQueue(t, "cluster-queue", 2, 1, 24)
	// Where each waits, on its Workload object and its queues: one was
	// created first, and has the same priority.
	e.waitWorkload(t, ns, "one", "first in line", position(1, 1))
	e.waitWorkload(t, ns, "two", "second in line", position(2, 2))
	e.waitHead(t, ns, "multislice-queue", "jobset-one", "jobset-two")
	cq := map[string]string{"cluster_queue": "cluster-queue"}
	usage := map[string]string{"cluster_queue": "cluster-queue", "flavor": "vlp-24", "resource": "google.com/tpu"}
	if v := harness.MetricValue(t, "multislice_pending_workloads", cq); v != 2 {
		t.Errorf("multislice_pending_workloads = %v, want 2", v)
	}
	if v := harness.MetricValue(t, "multislice_quota_usage", usage); v != 24 {
		t.Errorf("multislice_quota_usage = %v, want 24", v)
	}
	if v := harness.MetricValue(t, "multislice_queue_rejections_total", map[string]string{"reason": quota.ReasonQuotaExceeded}); v < 2 {
		t.Errorf("multislice_queue_rejections_total{reason=QuotaExceeded} = %v, want at least 2", v)
	}

	e.jobsets.Delete(t, ns, "three")
	one := e.cp.WaitWhollyPlaced(t, ns, "one", 2)
	two := e.cp.WaitWhollyPlaced(t, ns, "two", 4)
	harness.CheckExclusive(t, one, two)
	wl = e.waitWorkload(t, ns, "two", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	adm := wl.Status.Admission
	if adm == nil || adm.ClusterQueue != "cluster-queue" || len(adm.PodSetAssignments) != 2 {
		t.Fatalf("admission %+v", adm)
	}
	for _, a := range adm.PodSetAssignments {
		if a.Flavors["google.com/tpu"] != "vlp-24" || !strings.HasPrefix(a.Domain, "pool-") || a.Count != 2 {
			t.Errorf("assignment %+v, want 2 pods on flavor vlp-24 in a pool", a)
		}
	}
	e.waitClusterQueue(t, "cluster-queue", 0, 2, 24)
	if wl.Status.PositionInClusterQueue != nil || wl.Status.PositionInLocalQueue != nil {
		t.Errorf("an admitted workload keeps positions %v, %v", wl.Status.PositionInClusterQueue, wl.Status.PositionInLocalQueue)
	}
	e.waitHead(t, ns, "multislice-queue")
	if v := harness.MetricValue(t, "multislice_admissions_total", cq); v < 3 {
		t.Errorf("multislice_admissions_total = %v, want at least 3", v)
	}
	if v := harness.MetricValue(t, "multislice_admission_wait_seconds", cq); v < 3 {
		t.Errorf("multislice_admission_wait_seconds has %v samples, want at least 3", v)
	}
}
