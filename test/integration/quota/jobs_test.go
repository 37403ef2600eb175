package quota_test

import (
	"context"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Plain batch/v1 Jobs written for Kueue — created suspended, naming a
// LocalQueue — are started by the scheduler, which labels their pod
// template with the queue, and their pods are admitted whole through the
// queue's quota. A Job that does not fit waits, its pods unbound, until
// the first completes. No kube-controller-manager runs here: the test
// creates and completes the Jobs' pods as the Job controller would.
func TestQueuedJobsAdmittedThroughQuota(t *testing.T) {
	e := start(t, 2)
	ns := e.cp.CreateNamespace(t, "jobs")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	e.localQueue(t, ns, "lq", "cq")

	e.createJob(t, suspendedQueuedJob(ns, "first"))
	first := e.cp.WaitJobStarted(t, ns, "first", "lq")
	e.cp.WaitForWorkloadEventObject(t, ns, "first", "Unsuspended")
	firstPods := e.cp.CreateJobPods(t, first)
	pools := map[string]bool{}
	for _, p := range firstPods {
		bound := e.cp.WaitForPodBound(t, ns, p.Name)
		node, err := e.cp.Client.CoreV1().Nodes().Get(t.Context(), bound.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		pools[node.Labels[wellknown.NodePoolLabel]] = true
	}
	if len(pools) != 1 {
		t.Errorf("the Job's pods landed on pools %v, want one pool", pools)
	}
	wl := e.waitWorkloadNamed(t, ns, "job-first", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	if c := findCondition(wl, multislicev1alpha1.WorkloadQuotaReserved); c == nil || c.Status != metav1.ConditionTrue {
		t.Errorf("QuotaReserved = %+v, want True", c)
	}
	if len(wl.OwnerReferences) != 1 || wl.OwnerReferences[0].Kind != "Job" || wl.OwnerReferences[0].UID != first.UID {
		t.Errorf("Workload owners %+v, want the Job", wl.OwnerReferences)
	}
	if adm := wl.Status.Admission; adm == nil || adm.ClusterQueue != "cq" || len(adm.PodSetAssignments) != 1 || adm.PodSetAssignments[0].Count != 2 {
		t.Errorf("admission %+v, want 2 pods in cq", adm)
	}

	e.createJob(t, suspendedQueuedJob(ns, "second"))
	second := e.cp.WaitJobStarted(t, ns, "second", "lq")
	secondPods := e.cp.CreateJobPods(t, second)
	for _, p := range secondPods {
		e.cp.ExpectPodStaysUnbound(t, ns, p.Name, time.Second)
	}
	e.waitWorkloadNamed(t, ns, "job-second", "waiting for quota",
		condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, quota.ReasonQuotaExceeded))
	e.waitClusterQueue(t, "cq", 1, 1, 8)

	e.cp.CompleteJob(t, first, firstPods)
	for _, p := range secondPods {
		e.cp.WaitForPodBound(t, ns, p.Name)
	}
	e.waitWorkloadNamed(t, ns, "job-second", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	e.waitWorkloadNamed(t, ns, "job-first", "finished", condition(multislicev1alpha1.WorkloadFinished, metav1.ConditionTrue, multislicev1alpha1.ReasonSucceeded))
	e.waitClusterQueue(t, "cq", 0, 1, 8)
}

// A Job that names a LocalQueue but was created running cannot join it:
// its pods carry no queue name. The scheduler leaves it alone and tells
// the user how to fix it.
func TestJobCreatedRunningIsNotQueueManaged(t *testing.T) {
	e := start(t, 1)
	ns := e.cp.CreateNamespace(t, "jobs")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 8, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	job := suspendedQueuedJob(ns, "running")
	job.Spec.Suspend = ptr.To(false)
	e.createJob(t, job)
	ev := e.cp.WaitForWorkloadEventObject(t, ns, "running", "NotQueueManaged")
	if ev.Type != corev1.EventTypeWarning || !strings.Contains(ev.Note, "spec.suspend: true") {
		t.Errorf("event %s %q, want a warning saying how to queue the Job", ev.Type, ev.Note)
	}
	got, err := e.cp.Client.BatchV1().Jobs(ns).Get(t.Context(), "running", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, marked := got.Annotations[wellknown.UnsuspendedAnnotation]; marked || got.Spec.Template.Labels[wellknown.QueueNameLabel] != "" {
		t.Errorf("the running Job was changed: annotations %v, template labels %v", got.Annotations, got.Spec.Template.Labels)
	}
}

// A queued JobSet created suspended, as written for Kueue, is started too:
// marked, with an event, and its pods (created here in place of the JobSet
// and Job controllers) are admitted through the queue.
func TestSuspendedQueuedJobSetIsStarted(t *testing.T) {
	e := start(t, 2)
	ns := e.cp.CreateNamespace(t, "jobsets")
	e.v5eFlavor(t, "v5e")
	e.clusterQueue(t, "cq", "", multislicev1alpha1.BestEffortFIFO, tpuQuota{"v5e", 16, -1, -1})
	e.localQueue(t, ns, "lq", "cq")
	js := queued(ns, "train", "lq", 2)
	js.Spec.Suspend = ptr.To(true)
	created := e.jobsets.CreateObject(t, js)
	var started *jobsetv1alpha2.JobSet
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := jobsetclient.NewForConfigOrDie(e.cp.Config).JobsetV1alpha2().JobSets(ns).Get(ctx, "train", metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		started = got
		return got.Spec.Suspend != nil && !*got.Spec.Suspend, nil
	})
	if err != nil {
		t.Fatalf("JobSet never unsuspended; last: %+v", started)
	}
	if _, marked := started.Annotations[wellknown.UnsuspendedAnnotation]; !marked {
		t.Errorf("started JobSet has no %s annotation: %v", wellknown.UnsuspendedAnnotation, started.Annotations)
	}
	e.cp.WaitForWorkloadEventObject(t, ns, "train", "Unsuspended")
	for _, pod := range builders.PodsOf(created, 0) {
		e.jobsets.CreatePod(t, pod)
	}
	e.cp.WaitWhollyPlaced(t, ns, "train", 4)
	e.waitWorkload(t, ns, "train", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
}

// suspendedQueuedJob is an Indexed Job of 2 pods, each asking for a v5e
// host's 4 chips, confined to one node pool, as Kueue's users write it:
// suspended, in LocalQueue lq.
func suspendedQueuedJob(ns, name string) *batchv1.Job {
	chips := resource.MustParse("4")
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name,
			Labels:      map[string]string{wellknown.QueueNameLabel: "lq"},
			Annotations: map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel}},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To(int32(2)), Completions: ptr.To(int32(2)),
			CompletionMode: ptr.To(batchv1.IndexedCompletion),
			Suspend:        ptr.To(true),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
				SchedulerName: app.Name,
				RestartPolicy: corev1.RestartPolicyNever,
				NodeSelector:  map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"},
				Containers: []corev1.Container{{Name: "main", Image: "registry.k8s.io/pause:3.10",
					Resources: corev1.ResourceRequirements{
						Requests: corev1.ResourceList{wellknown.ResourceTPU: chips},
						Limits:   corev1.ResourceList{wellknown.ResourceTPU: chips},
					}}},
			}},
		},
	}
}

func (e *env) createJob(t *testing.T, job *batchv1.Job) {
	t.Helper()
	if _, err := e.cp.Client.BatchV1().Jobs(job.Namespace).Create(t.Context(), job, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create Job %s/%s: %v", job.Namespace, job.Name, err)
	}
}
