package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// `make demo SCENARIO=dws-no-queue`: seed 003's flow without Kueue, from
// the document's manifests. The user's v1beta1 ProvisioningRequest and
// the Job whose pods consume it are created together; the pods wait until
// the simulated provisioner has provisioned the request, then both run on
// its node pool and complete, and the nodes are reclaimed.
func TestDWSWithoutQueueDemo(t *testing.T) {
	s, err := demo.Load(filepath.Join(repoRoot, "manifests", "examples", "dws-no-queue", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	ns := s.Namespace
	t.Cleanup(func() { deleteNoQueueObjects(t, ns) })

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tl, err := timeline.Watch(ctx, cluster.AdminConfig, ns, out)
	if err != nil {
		t.Fatal(err)
	}
	// The pods' first words, while the request is pending, come from the
	// scheduler: recorded while the scenario runs.
	holdCtx, stopHold := context.WithCancel(ctx)
	held := make(chan string, 1)
	go func() { held <- firstHoldReason(holdCtx, ns, "dws-gpu-job") }()
	runErr := demo.Run(ctx, cluster, s, tl)
	// A hold never seen by the end of the scenario is a failure below,
	// not a wait without end.
	stopHold()
	t.Logf("timeline:\n%s", out.String())
	story := singleSpaced(out.String())
	if runErr != nil {
		t.Fatalf("scenario: %v", runErr)
	}
	if got := <-held; !strings.HasPrefix(got, "WaitingForProvisioning: waiting for ProvisioningRequest default/dws-gpu-request to be Provisioned") {
		t.Errorf("while the request was pending, the pods said %q", got)
	}
	inOrder(t, story,
		"provreq dws-gpu-request creating 1 node in ",
		"job dws-gpu-job all 2 pods running, on pool NODEPOOL_NAME in zone ",
		"job dws-gpu-job completed: 2 of 2 pods succeeded",
	)

	req, err := provisioningRequests(t).Get(t.Context(), "dws-gpu-request", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	provisioned := meta.FindStatusCondition(req.Status.Conditions, autoscalingv1.Provisioned)
	if provisioned == nil || provisioned.Status != metav1.ConditionTrue {
		t.Fatalf("request conditions %+v", req.Status.Conditions)
	}
	pods := jobPods(t, ns, "dws-gpu-job")
	if len(pods) != 2 {
		t.Fatalf("dws-gpu-job's pods: %s", describePods(pods))
	}
	for _, p := range pods {
		if !p.CreationTimestamp.Before(&provisioned.LastTransitionTime) {
			t.Errorf("pod %s was created at %s, not before the request was provisioned (%s)", p.Name, p.CreationTimestamp, provisioned.LastTransitionTime)
		}
		scheduled := podCondition(p, corev1.PodScheduled)
		if scheduled == nil || scheduled.Status != corev1.ConditionTrue || scheduled.LastTransitionTime.Before(&provisioned.LastTransitionTime) {
			t.Errorf("pod %s scheduled %+v, before the request was provisioned at %s", p.Name, scheduled, provisioned.LastTransitionTime)
		}
	}
	checkSchedulerEvent(t, ns, "dws-gpu-request", "Provisioned")
}

// firstHoldReason is the first PodScheduled=False reason and message a
// pod of job shows ("" if ctx ends first).
func firstHoldReason(ctx context.Context, ns, job string) string {
	var got string
	_ = wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobNameLabel + "=" + job})
		if err != nil {
			return false, nil
		}
		for _, p := range list.Items {
			if c := podCondition(p, corev1.PodScheduled); c != nil && c.Status == corev1.ConditionFalse {
				got = c.Reason + ": " + c.Message
				return true, nil
			}
		}
		return false, nil
	})
	return got
}

func podCondition(p corev1.Pod, typ corev1.PodConditionType) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if p.Status.Conditions[i].Type == typ {
			return &p.Status.Conditions[i]
		}
	}
	return nil
}

// checkSchedulerEvent checks that the scheduler recorded an event of
// reason on a ProvisioningRequest.
func checkSchedulerEvent(t *testing.T, ns, request, reason string) {
	t.Helper()
	waitRequestEvents(t, ns, request, func(seen map[string][]string) bool {
		return slices.ContainsFunc(seen[reason], func(c string) bool { return c != queuedProvisioner })
	}, "the scheduler's "+reason)
}

// deleteNoQueueObjects removes the scenario's Job, request and template,
// and waits until the pods and provisioned nodes are gone.
func deleteNoQueueObjects(t *testing.T, ns string) {
	ctx := context.Background()
	if err := client.BatchV1().Jobs(ns).Delete(ctx, "dws-gpu-job", metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete Job: %v", err)
	}
	if err := provisioningRequests(t).Delete(ctx, "dws-gpu-request", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete ProvisioningRequest: %v", err)
	}
	if err := client.CoreV1().PodTemplates(ns).Delete(ctx, "dws-gpu-template", metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete PodTemplate: %v", err)
	}
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobNameLabel + "=dws-gpu-job"})
		if err != nil || len(pods.Items) > 0 {
			return false, nil
		}
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: nodepools.ProvisionedLabel})
		return err == nil && len(nodes.Items) == 0, nil
	})
	if err != nil {
		t.Errorf("the scenario's pods and provisioned nodes not gone: %v", err)
	}
}
