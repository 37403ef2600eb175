package provisioning_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Seed 003 as written (manifests/examples): its queues, check and config,
// and its suspended GPU Job. The scheduler starts the Job; its pod waits,
// gated, while the ProvisioningRequest is pending, and binds only on the
// node provisioned for it, in the pool its nodeSelector names.
func TestSeed003(t *testing.T) {
	e := startBare(t, "default")
	e.cp.CreateFromFile(t, "manifests/examples/queues/seed-003-dws.yaml")
	harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
	release := make(chan struct{})
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		<-release
		return answer{zones: []string{"us-central1-c"}, pool: "NODEPOOL_NAME"}
	})
	// Once the scheduler runs the check, a Job it starts in the queue
	// names the check's first request on its pod template: its pod is
	// created naming it, and needs no patch.
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		ac, err := e.client.MultisliceV1alpha1().AdmissionChecks().Get(ctx, "dws-prov", metav1.GetOptions{})
		return err == nil && apimeta.IsStatusConditionTrue(ac.Status.Conditions, multislicev1alpha1.AdmissionCheckActive), nil
	}); err != nil {
		t.Fatalf("admission check dws-prov never active: %v", err)
	}
	// As written: the admission webhook gives its pods our scheduler.
	harness.StartWebhook(t, e.cp)
	e.cp.CreateFromFile(t, "manifests/examples/dws-gpu/job.yaml")
	job := e.cp.WaitJobStarted(t, "default", "sample-job", "dws-local-queue")
	if a := job.Spec.Template.Annotations; a[wellknown.ConsumeProvisioningRequestAnnotation] != "job-sample-job-dws-prov-1" ||
		a[wellknown.ProvisioningClassNameAnnotation] != wellknown.QueuedProvisioningClass {
		t.Errorf("the started Job's pod template annotations %v do not name request job-sample-job-dws-prov-1 of class %s", a, wellknown.QueuedProvisioningClass)
	}
	pods := e.cp.CreateJobPods(t, job)

	var req *autoscalingv1.ProvisioningRequest
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := e.client.AutoscalingV1().ProvisioningRequests("default").Get(ctx, "job-sample-job-dws-prov-1", metav1.GetOptions{})
		req = got
		return err == nil, nil
	}); err != nil {
		t.Fatalf("no ProvisioningRequest for the Job: %v", err)
	}
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || req.Spec.Parameters[wellknown.MaxRunDurationSecondsParameter] != "600" ||
		len(req.Spec.PodSets) != 1 || req.Spec.PodSets[0].Count != 1 {
		t.Fatalf("request %+v", req.Spec)
	}
	e.waitWorkloadNamed(t, "job-sample-job", "waiting for its check", checkState("Pending"))
	e.cp.ExpectPodStaysUnbound(t, "default", pods[0].Name, 2*time.Second)
	// kubectl describe pod says why it waits, in the request's latest
	// word: nothing patches the pod, so the scheduler holds it again each
	// time that word changes.
	e.cp.WaitForPodConditionSaying(t, "default", pods[0].Name, corev1.PodScheduled, corev1.ConditionFalse, "job-sample-job-dws-prov-1: not yet accepted by a provisioner")

	close(release)
	bound := e.cp.WaitForPodBound(t, "default", pods[0].Name)
	if bound.Spec.NodeName != "nodepool-name-node-0" {
		t.Errorf("bound on %s, want the provisioned node nodepool-name-node-0", bound.Spec.NodeName)
	}
	if bound.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != req.Name {
		t.Errorf("pod annotations %v do not name %s", bound.Annotations, req.Name)
	}
	wl := e.waitWorkloadNamed(t, "job-sample-job", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	if !checkState("Ready")(wl) {
		t.Errorf("admission checks %+v, want dws-prov Ready", wl.Status.AdmissionChecks)
	}
}
