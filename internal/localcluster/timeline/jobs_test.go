package timeline

import (
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// queuedJob is seed 003's kind of Job: suspended, queued, one GPU per pod.
func queuedJob(name string, pods int32, pool string) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name,
			Labels:      map[string]string{wellknown.QueueNameLabel: "dws-local-queue"},
			Annotations: map[string]string{"provreq.kueue.x-k8s.io/maxRunDurationSeconds": "600"},
		},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To(pods), Completions: ptr.To(pods), Suspend: ptr.To(true),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				SchedulerName: "multislice-scheduler",
				NodeSelector:  map[string]string{wellknown.NodePoolLabel: pool},
				Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), wellknown.ResourceGPU: resource.MustParse("1")},
					Limits:   corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m"), wellknown.ResourceGPU: resource.MustParse("1")},
				}}},
			}},
		},
	}
}

func jobPod(job, name, node string, phase corev1.PodPhase, request string) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{wellknown.JobNameLabel: job}},
		Spec:       corev1.PodSpec{NodeName: node, SchedulerName: "multislice-scheduler"},
		Status:     corev1.PodStatus{Phase: phase},
	}
	if request != "" {
		p.Annotations = map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: request}
	}
	return p
}

func provisionedNode(name, pool, zone string, ready bool) *corev1.Node {
	n := readyNode(name, pool, ready, false)
	n.Labels[wellknown.ZoneLabel] = zone
	return n
}

// event is an event as the core/v1 API shows it, named so that its
// updates can be told from new events.
func event(name, kind, object, reason, message string) *corev1.Event {
	return &corev1.Event{
		ObjectMeta:     metav1.ObjectMeta{Namespace: "default", Name: name},
		InvolvedObject: corev1.ObjectReference{Kind: kind, Namespace: "default", Name: object},
		Reason:         reason, Message: message,
	}
}

// checkedWorkload is the Workload object of a Job whose ClusterQueue runs
// admission check dws-prov, with its quota reserved.
func checkedWorkload(job, state string) *multislicev1alpha1.Workload {
	return &multislicev1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "job-" + job, OwnerReferences: []metav1.OwnerReference{{
			APIVersion: "batch/v1", Kind: "Job", Name: job, Controller: ptr.To(true),
		}}},
		Spec: multislicev1alpha1.WorkloadSpec{QueueName: "dws-local-queue"},
		Status: multislicev1alpha1.WorkloadStatus{
			Conditions: []metav1.Condition{{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonQuotaReserved}},
			Admission: &multislicev1alpha1.Admission{ClusterQueue: "dws-cluster-queue", PodSetAssignments: []multislicev1alpha1.PodSetAssignment{{
				Name: job, Count: 1,
				Flavors: map[corev1.ResourceName]string{corev1.ResourceCPU: "default-flavor", wellknown.ResourceGPU: "default-flavor"},
				ResourceUsage: corev1.ResourceList{
					corev1.ResourceCPU:    resource.MustParse("100m"),
					wellknown.ResourceGPU: resource.MustParse("1"),
				},
			}}},
			AdmissionChecks: []multislicev1alpha1.AdmissionCheckState{{Name: "dws-prov", State: state}},
		},
	}
}

// Seed 003 on the timeline: the Job created suspended and started, its
// quota reserved, its request's way through the provisioner, the new pool
// in one zone, its pod bound there, and its end.
func TestQueuedJobStory(t *testing.T) {
	tl, out, clk := newTest()
	tl.Node(readyNode("cpu-0", "default-pool", true, false))

	job := queuedJob("sample-job", 1, "NODEPOOL_NAME")
	tl.Job(job)
	tl.Job(job) // once
	pending := jobPod("sample-job", "sample-job-x7k2p", "", corev1.PodPending, "")
	job = job.DeepCopy()
	job.Spec.Suspend = ptr.To(false)
	job.Annotations[wellknown.UnsuspendedAnnotation] = "2026-01-01T00:00:00Z"
	tl.Job(job)
	tl.Pod(pending)
	tl.Workload(checkedWorkload("sample-job", "Pending"))
	tl.Workload(checkedWorkload("sample-job", "Pending")) // once
	tl.Event(event("e1", "Job", "sample-job", "QuotaReserved", "told by the Workload object"))
	tl.Event(event("e2", "Job", "sample-job", "ProvisioningRequested", "created ProvisioningRequest job-sample-job-dws-prov-1 (class queued-provisioning.gke.io, attempt 1)"))
	tl.Event(event("e3", "ProvisioningRequest", "job-sample-job-dws-prov-1", "Accepted", "accepted: queued for capacity in one zone of us-central1-a, us-central1-b; provisioned in 5s at the earliest"))

	clk.t = clk.t.Add(5 * time.Second)
	created := event("e4", "ProvisioningRequest", "job-sample-job-dws-prov-1", "CreatingNodes", "creating 1 node in us-central1-b, node pool NODEPOOL_NAME: n-0")
	tl.Event(created)
	created.Count = 2
	tl.Event(created) // an update of the same event
	tl.Node(provisionedNode("n-0", "NODEPOOL_NAME", "us-central1-b", false))
	tl.Node(provisionedNode("n-0", "NODEPOOL_NAME", "us-central1-b", true))
	tl.Event(event("e5", "ProvisioningRequest", "job-sample-job-dws-prov-1", "Provisioned", "provisioned: 1 node Ready in us-central1-b, node pool NODEPOOL_NAME; reclaimed after 10m0s"))
	tl.Event(event("e6", "Job", "sample-job", "Provisioned", "ProvisioningRequest job-sample-job-dws-prov-1 is provisioned; placing Job default/sample-job"))
	tl.Workload(checkedWorkload("sample-job", "Ready"))
	tl.Pod(jobPod("sample-job", "sample-job-x7k2p", "n-0", corev1.PodPending, "job-sample-job-dws-prov-1"))
	tl.Pod(jobPod("sample-job", "sample-job-x7k2p", "n-0", corev1.PodRunning, "job-sample-job-dws-prov-1"))

	clk.t = clk.t.Add(60 * time.Second)
	tl.Pod(jobPod("sample-job", "sample-job-x7k2p", "n-0", corev1.PodSucceeded, "job-sample-job-dws-prov-1"))
	job = job.DeepCopy()
	job.Status.Succeeded = 1
	job.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
	tl.Job(job)
	tl.Job(job) // once
	tl.NodeDeleted(provisionedNode("n-0", "NODEPOOL_NAME", "us-central1-b", true))

	want := []string{
		"0.0s job sample-job created suspended: 1 pod × 1 nvidia.com/gpu, node pool NODEPOOL_NAME, LocalQueue dws-local-queue, maxRunDurationSeconds 600, scheduler multislice-scheduler",
		"0.0s job sample-job unsuspended by multislice-scheduler: the Job controller creates its pods, which wait for quota and placement",
		"0.0s job sample-job quota reserved in ClusterQueue dws-cluster-queue: 100m cpu, 1 nvidia.com/gpu of flavor default-flavor; admission check dws-prov Pending",
		"0.0s job sample-job created ProvisioningRequest job-sample-job-dws-prov-1 (class queued-provisioning.gke.io, attempt 1)",
		"0.0s provreq job-sample-job-dws-prov-1 accepted: queued for capacity in one zone of us-central1-a, us-central1-b; provisioned in 5s at the earliest",
		"5.0s provreq job-sample-job-dws-prov-1 creating 1 node in us-central1-b, node pool NODEPOOL_NAME: n-0",
		"5.0s pool NODEPOOL_NAME added: 1 node in us-central1-b, Ready",
		"5.0s provreq job-sample-job-dws-prov-1 provisioned: 1 node Ready in us-central1-b, node pool NODEPOOL_NAME; reclaimed after 10m0s",
		"5.0s job sample-job ProvisioningRequest job-sample-job-dws-prov-1 is provisioned; placing Job default/sample-job",
		"5.0s job sample-job pod sample-job-x7k2p bound to n-0 (pool NODEPOOL_NAME, zone us-central1-b) by multislice-scheduler, consuming ProvisioningRequest job-sample-job-dws-prov-1",
		"5.0s job sample-job all 1 pod running, on pool NODEPOOL_NAME in zone us-central1-b",
		"65.0s job sample-job completed: 1 of 1 pods succeeded",
		"65.0s pool NODEPOOL_NAME removed",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A Job's pods in two zones show both; a Job that is suspended after it
// ran (ended at its maximum run duration) says so, and is reported
// running again when it restarts.
func TestQueuedJobZonesAndSuspension(t *testing.T) {
	tl, out, _ := newTest()
	tl.Node(provisionedNode("a-0", "train", "us-central1-a", true))
	tl.Node(provisionedNode("b-0", "train", "us-central1-b", true))
	job := queuedJob("train", 2, "train")
	job.Spec.Suspend = ptr.To(false)
	tl.Job(job)
	tl.Pod(jobPod("train", "train-1", "a-0", corev1.PodRunning, ""))
	tl.Pod(jobPod("train", "train-2", "b-0", corev1.PodRunning, ""))
	tl.Event(event("e1", "Job", "train", "MaximumRunDurationExceeded", "Job default/train ran for its maximum of 10m0s since it was placed at 2026-01-01T00:00:00Z; it is ended whole"))
	suspended := job.DeepCopy()
	suspended.Spec.Suspend = ptr.To(true)
	tl.Job(suspended)
	tl.PodDeleted(jobPod("train", "train-1", "a-0", corev1.PodRunning, ""))
	tl.PodDeleted(jobPod("train", "train-2", "b-0", corev1.PodRunning, ""))
	tl.Job(job)
	tl.Pod(jobPod("train", "train-3", "a-0", corev1.PodRunning, ""))
	tl.Pod(jobPod("train", "train-4", "a-0", corev1.PodRunning, ""))

	want := []string{
		"0.0s job train created: 2 pods × 1 nvidia.com/gpu, node pool train, LocalQueue dws-local-queue, maxRunDurationSeconds 600, scheduler multislice-scheduler",
		"0.0s job train pod train-1 bound to a-0 (pool train, zone us-central1-a) by multislice-scheduler",
		"0.0s job train pod train-2 bound to b-0 (pool train, zone us-central1-b) by multislice-scheduler",
		"0.0s job train all 2 pods running, on pool train in zones us-central1-a, us-central1-b",
		"0.0s job train Job default/train ran for its maximum of 10m0s since it was placed at 2026-01-01T00:00:00Z; it is ended whole",
		"0.0s job train suspended: the Job controller removes its pods",
		"0.0s job train unsuspended: the Job controller creates its pods, which wait for quota and placement",
		"0.0s job train pod train-3 bound to a-0 (pool train, zone us-central1-a) by multislice-scheduler",
		"0.0s job train pod train-4 bound to a-0 (pool train, zone us-central1-a) by multislice-scheduler",
		"0.0s job train all 2 pods running, on pool train in zone us-central1-a",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A request that fails is told once per request by the scheduler, though
// it restates the outcome as why the workload waits; the JobSet's child
// Jobs stay with their JobSet's lines.
func TestProvisioningRetriesOncePerRequest(t *testing.T) {
	tl, out, _ := newTest()
	child := queuedJob("train-slice-0", 1, "p")
	child.Labels[jobsetv1alpha2.JobSetNameKey] = "train"
	tl.Job(child)
	failed := "ProvisioningRequest jobset-train-dws-prov-1: Failed (needs 3 nodes in one zone); retry 1 of 3"
	tl.Event(event("e1", "ProvisioningRequest", "jobset-train-dws-prov-1", "Failed", "failed (ExceedsZoneCapacity): needs 3 nodes in one zone"))
	tl.Event(event("e2", "JobSet", "train", "ProvisioningRetry", failed+" in 1m0s"))
	tl.Event(event("e3", "JobSet", "train", "ProvisioningRetry", failed+"; retrying at 2026-01-01T00:01:00Z"))
	tl.Event(event("e4", "JobSet", "train", "ProvisioningRetry", "ProvisioningRequest jobset-train-dws-prov-2: Failed (needs 3 nodes in one zone); retry 2 of 3 in 2m0s"))
	tl.Event(event("e5", "JobSet", "train", "ProvisioningRejected", "ProvisioningRequest jobset-train-dws-prov-4: Failed (needs 3 nodes in one zone); no retries left (3 allowed)"))

	want := []string{
		"0.0s provreq jobset-train-dws-prov-1 failed (ExceedsZoneCapacity): needs 3 nodes in one zone",
		"0.0s train " + failed + " in 1m0s",
		"0.0s train ProvisioningRequest jobset-train-dws-prov-2: Failed (needs 3 nodes in one zone); retry 2 of 3 in 2m0s",
		"0.0s train ProvisioningRequest jobset-train-dws-prov-4: Failed (needs 3 nodes in one zone); no retries left (3 allowed)",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestRequestNamed(t *testing.T) {
	for msg, want := range map[string]string{
		"created ProvisioningRequest job-a-dws-prov-1 (class queued-provisioning.gke.io, attempt 1)": "job-a-dws-prov-1",
		"ProvisioningRequest job-a-dws-prov-2: Failed (x); retry 1 of 3":                             "job-a-dws-prov-2",
		"ProvisioningRequest job-a-dws-prov-3 is provisioned; placing Job default/a":                 "job-a-dws-prov-3",
		"Job default/a ran for its maximum of 10m0s":                                                 "Job default/a ran for its maximum of 10m0s",
	} {
		if got := requestNamed(msg); got != want {
			t.Errorf("requestNamed(%q) = %q, want %q", msg, got, want)
		}
	}
}
