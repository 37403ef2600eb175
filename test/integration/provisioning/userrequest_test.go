package provisioning_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Seed 003 without a queue, from the document's manifests
// (manifests/examples/dws-no-queue): the user's v1beta1 request, its
// PodTemplate and a Job whose pods consume the request under the
// deprecated annotation keys. The pods wait, saying why, while the request
// is pending, and both bind on the pool provisioned for it once it is.
func TestSeed003WithoutQueue(t *testing.T) {
	e := startBare(t, "default")
	harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
	release := make(chan struct{})
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		<-release
		return answer{zones: []string{"us-central1-c", "us-central1-c"}, pool: "NODEPOOL_NAME"}
	})
	e.cp.CreateFromFile(t, "manifests/examples/dws-no-queue/provisioning-request.yaml")
	// The admission webhook gives the Job's pods our scheduler, as they
	// consume a ProvisioningRequest.
	harness.StartWebhook(t, e.cp)
	e.cp.CreateFromFile(t, "manifests/examples/dws-no-queue/job.yaml")
	req, err := e.client.AutoscalingV1().ProvisioningRequests("default").Get(t.Context(), "dws-gpu-request", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the v1beta1 request is not readable as v1: %v", err)
	}
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || len(req.Spec.PodSets) != 1 || req.Spec.PodSets[0].Count != 2 {
		t.Fatalf("request spec %+v", req.Spec)
	}
	job, err := e.cp.Client.BatchV1().Jobs("default").Get(t.Context(), "dws-gpu-job", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pods := e.cp.CreateJobPods(t, job)
	for _, p := range pods {
		e.waitPodSays(t, p.Name, state.ReasonWaitingForProvisioning, "waiting for ProvisioningRequest default/dws-gpu-request to be Provisioned")
	}

	close(release)
	for _, p := range pods {
		bound := e.cp.WaitForPodBound(t, "default", p.Name)
		if !strings.HasPrefix(bound.Spec.NodeName, "nodepool-name-node-") {
			t.Errorf("%s bound on %s, want a node of the provisioned pool", p.Name, bound.Spec.NodeName)
		}
	}
	e.cp.WaitForEvent(t, "default", "dws-gpu-request", "Provisioned", harness.WaitTimeout)
}

// The gang of a request is its pods in all, placed all or none and only on
// the capacity provisioned for it: with room for one of two pods there
// nothing binds, though a free pool of the same GPUs exists; the pods
// created after the request was provisioned bind once the pool has room
// for both.
func TestUserRequestIsConsumedAllOrNone(t *testing.T) {
	e := startBare(t, "")
	harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
	e.cp.CreateNodePool(t, builders.NodePool("decoy").Nodes(2).GPU(gpuModel, 1).Zone("us-central1-a"))
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		return answer{zones: []string{"us-central1-a"}, pool: "dws-provisioned"}
	})
	e.createRequest(t, "two", 2)
	e.waitRequest(t, "two", autoscalingv1.Provisioned)

	var names []string
	for i := range 2 {
		name := fmt.Sprintf("consumer-%d", i)
		names = append(names, name)
		e.cp.CreatePod(t, e.consumerPod(name, "two", i == 0))
	}
	for _, name := range names {
		e.cp.ExpectPodStaysUnbound(t, e.ns, name, 2*time.Second)
	}
	extra := builders.NodePool("dws-provisioned").GPU(gpuModel, 1).Zone("us-central1-a").Label(corev1.LabelHostname, "dws-provisioned-extra").Node(0)
	extra.Name = "dws-provisioned-extra"
	if _, err := e.cp.Client.CoreV1().Nodes().Create(t.Context(), extra, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.cp.CheckBoundInPool(t, e.ns, "dws-provisioned", names...)
}

// A request that fails, whose booking expires, or that is deleted before
// its pods are placed leaves them waiting, each with a Warning on the
// request saying so.
func TestUserRequestEndsWithAWarning(t *testing.T) {
	for _, tc := range []struct {
		name, reason, says string
		end                func(e *env, t *testing.T, req string)
	}{{
		name: "failed", reason: "ProvisioningRequestFailed", says: "Failed (out of GPUs)",
		end: func(e *env, t *testing.T, req string) { e.setCondition(t, req, autoscalingv1.Failed, "out of GPUs") },
	}, {
		name: "booking expired", reason: "ProvisioningRequestBookingExpired", says: "BookingExpired (not used in time)",
		end: func(e *env, t *testing.T, req string) {
			e.setCondition(t, req, autoscalingv1.BookingExpired, "not used in time")
		},
	}, {
		name: "deleted", reason: state.ReasonProvisioningRequestGone,
		end: func(e *env, t *testing.T, req string) {
			if err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Delete(t.Context(), req, metav1.DeleteOptions{}); err != nil {
				t.Fatal(err)
			}
		},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			e := startBare(t, "")
			harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
			e.createRequest(t, "wanted", 1)
			e.cp.CreatePod(t, e.consumerPod("consumer", "wanted", false))
			e.waitPodSays(t, "consumer", state.ReasonWaitingForProvisioning, "to be Provisioned")
			tc.end(e, t, "wanted")
			e.cp.WaitForEvent(t, e.ns, "wanted", tc.reason, harness.WaitTimeout)
			says := tc.says
			if tc.name == "deleted" {
				says = fmt.Sprintf("ProvisioningRequest %s/wanted does not exist", e.ns)
			}
			e.waitPodSays(t, "consumer", tc.reason, says)
			e.cp.ExpectPodStaysUnbound(t, e.ns, "consumer", time.Second)
		})
	}
}

// consumerPod is a plain pod of one GPU consuming request req, under the
// deprecated annotation keys when deprecated is set.
func (e *env) consumerPod(name, req string, deprecated bool) *corev1.Pod {
	consume, class := wellknown.ConsumeProvisioningRequestAnnotation, wellknown.ProvisioningClassNameAnnotation
	if deprecated {
		consume, class = wellknown.DeprecatedConsumeProvisioningRequestAnnotation, wellknown.DeprecatedProvisioningClassNameAnnotation
	}
	return builders.Pod(e.ns, name).Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "1").
		Annotation(consume, req).Annotation(class, wellknown.QueuedProvisioningClass).Obj()
}

// createRequest makes a request of count one-GPU pods, as its user would.
func (e *env) createRequest(t *testing.T, name string, count int32) {
	t.Helper()
	tmpl := &corev1.PodTemplate{ObjectMeta: metav1.ObjectMeta{Namespace: e.ns, Name: name + "-template"},
		Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "x",
			Resources: corev1.ResourceRequirements{
				Requests: corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("1")},
				Limits:   corev1.ResourceList{wellknown.ResourceGPU: resource.MustParse("1")}}}}}}}
	if _, err := e.cp.Client.CoreV1().PodTemplates(e.ns).Create(t.Context(), tmpl, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	req := &autoscalingv1.ProvisioningRequest{ObjectMeta: metav1.ObjectMeta{Namespace: e.ns, Name: name},
		Spec: autoscalingv1.ProvisioningRequestSpec{ProvisioningClassName: wellknown.QueuedProvisioningClass,
			PodSets: []autoscalingv1.PodSet{{PodTemplateRef: autoscalingv1.Reference{Name: tmpl.Name}, Count: count}}}}
	if _, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Create(t.Context(), req, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// setCondition sets condition typ of request name to True, as a
// provisioner would.
func (e *env) setCondition(t *testing.T, name, typ, message string) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		req, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		apimeta.SetStatusCondition(&req.Status.Conditions, metav1.Condition{Type: typ, Status: metav1.ConditionTrue, Reason: typ, Message: message, LastTransitionTime: metav1.Now()})
		_, err = e.client.AutoscalingV1().ProvisioningRequests(e.ns).UpdateStatus(ctx, req, metav1.UpdateOptions{})
		return err == nil, nil
	}); err != nil {
		t.Fatalf("setting %s on %s: %v", typ, name, err)
	}
}

// waitRequest waits until request name has condition typ True.
func (e *env) waitRequest(t *testing.T, name, typ string) {
	t.Helper()
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		req, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Get(ctx, name, metav1.GetOptions{})
		return err == nil && apimeta.IsStatusConditionTrue(req.Status.Conditions, typ), nil
	}); err != nil {
		t.Fatalf("request %s never %s: %v", name, typ, err)
	}
}

// waitPodSays waits until pod name's PodScheduled=False condition has
// reason and a message containing says.
func (e *env) waitPodSays(t *testing.T, name, reason, says string) {
	t.Helper()
	var last corev1.PodCondition
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pod, err := e.cp.Client.CoreV1().Pods(e.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		for _, c := range pod.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
				last = c
				return c.Reason == reason && strings.Contains(c.Message, says), nil
			}
		}
		return false, nil
	}); err != nil {
		t.Fatalf("pod %s never said %s %q; last: %s %q", name, reason, says, last.Reason, last.Message)
	}
}
