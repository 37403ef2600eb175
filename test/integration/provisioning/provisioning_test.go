package provisioning_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Quota first, then a ProvisioningRequest with the workload's pod sets and
// parameters; nothing binds until it is Provisioned, and then every pod
// binds on the new capacity, annotated with the request.
func TestProvisionedBeforePlaced(t *testing.T) {
	e := start(t)
	release := make(chan struct{})
	e.startProvisioner(t, func(req *autoscalingv1.ProvisioningRequest, _ int) answer {
		<-release
		return answer{zones: []string{"us-central1-a", "us-central1-a"}}
	})
	e.jobsets.Create(t, e.gpuJobSet("train", 2, map[string]string{wellknown.ProvReqAnnotationPrefix + wellknown.MaxRunDurationSecondsParameter: "600"}))
	wl := e.waitWorkload(t, "train", "waiting for its check", checkState("Pending"))
	if !condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionTrue, "")(wl) || !condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionFalse, "WaitingForAdmissionChecks")(wl) {
		t.Fatalf("conditions while provisioning: %+v", wl.Status.Conditions)
	}
	var req *autoscalingv1.ProvisioningRequest
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Get(ctx, "jobset-train-dws-prov-1", metav1.GetOptions{})
		req = got
		return err == nil, nil
	}); err != nil {
		t.Fatalf("request jobset-train-dws-prov-1 never created: %v", err)
	}
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || len(req.Spec.PodSets) != 2 ||
		req.Spec.Parameters[wellknown.MaxRunDurationSecondsParameter] != "600" || req.OwnerReferences[0].Kind != "Workload" {
		t.Fatalf("request spec %+v, owners %+v", req.Spec, req.OwnerReferences)
	}
	// The two slices of one replicated Job share one PodTemplate.
	if a, b := req.Spec.PodSets[0].PodTemplateRef.Name, req.Spec.PodSets[1].PodTemplateRef.Name; a != b {
		t.Errorf("the slices of one replicated Job refer to PodTemplates %s and %s, want one", a, b)
	}
	if _, err := e.cp.Client.CoreV1().PodTemplates(e.ns).Get(t.Context(), req.Spec.PodSets[0].PodTemplateRef.Name, metav1.GetOptions{}); err != nil {
		t.Errorf("the request's PodTemplate: %v", err)
	}
	e.cp.ExpectNoneBound(t, e.ns, "train", 2*time.Second)
	close(release)
	e.cp.WaitWhollyPlaced(t, e.ns, "train", 2)
	e.waitWorkload(t, "train", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	pods, err := e.cp.Client.CoreV1().Pods(e.ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=train"})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if p.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != req.Name || p.Annotations[wellknown.ProvisioningClassNameAnnotation] != wellknown.QueuedProvisioningClass {
			t.Errorf("pod %s annotations %v", p.Name, p.Annotations)
		}
	}
}

// A failed request releases the quota; after the backoff a new request
// (attempt 2) is made, and its capacity is used.
func TestFailedRequestIsRetried(t *testing.T) {
	e := start(t)
	p := e.startProvisioner(t, func(_ *autoscalingv1.ProvisioningRequest, n int) answer {
		if n == 0 {
			return answer{fail: "no capacity in any zone"}
		}
		return answer{zones: []string{"us-central1-b"}}
	})
	e.jobsets.Create(t, e.gpuJobSet("retry", 1, nil))
	e.waitWorkload(t, "retry", "retrying", checkState("Retry"))
	e.cp.WaitWhollyPlaced(t, e.ns, "retry", 1)
	if got := p.requests(); !slices.Equal(got, []string{"jobset-retry-dws-prov-1", "jobset-retry-dws-prov-2"}) {
		t.Fatalf("requests %v, want attempts 1 and 2", got)
	}
	e.cp.WaitForWorkloadEvent(t, e.ns, "retry", "ProvisioningRetry")
}

// With queued provisioning the whole workload lands in one zone: capacity
// split over two zones keeps it pending until one zone has all of it (here
// the request's pool in us-central1-b grows by a node), and a free pool of
// the same GPUs that was not provisioned for it is never used.
func TestZoneAtomic(t *testing.T) {
	e := start(t)
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		return answer{zones: []string{"us-central1-a", "us-central1-b"}}
	})
	e.cp.CreateNodePool(t, builders.NodePool("decoy").GPU(gpuModel, 1).Zone("us-central1-b"))
	e.jobsets.Create(t, e.gpuJobSet("atomic", 2, nil))
	e.waitWorkload(t, "atomic", "provisioned", checkState("Ready"))
	e.cp.ExpectNoneBound(t, e.ns, "atomic", 2*time.Second)
	// The request's us-central1-b pool, as the provisioner named it.
	late := builders.NodePool("jobset-atomic-dws-prov-1-1").GPU(gpuModel, 1).Zone("us-central1-b").Build()[0]
	late.Name = "jobset-atomic-dws-prov-1-1-late"
	if _, err := e.cp.Client.CoreV1().Nodes().Create(t.Context(), late, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	// Unconfined: both pods may share the pool.
	for _, pod := range []string{"atomic-worker-0-0-a0", "atomic-worker-1-0-a0"} {
		if bound := e.cp.WaitForPodBound(t, e.ns, pod); strings.HasPrefix(bound.Spec.NodeName, "decoy") {
			t.Errorf("%s bound to %s, in a pool not provisioned for it", pod, bound.Spec.NodeName)
		}
	}
	if zones := e.zonesOf(t, "atomic"); len(zones) != 1 || !zones["us-central1-b"] {
		t.Fatalf("placed in zones %v, want us-central1-b only", zones)
	}
}

// At maxRunDurationSeconds after it was placed, the workload is ended
// whole: its JobSet is suspended, and its Workload says why.
func TestMaximumRunDuration(t *testing.T) {
	e := start(t)
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		return answer{zones: []string{"us-central1-a"}}
	})
	e.jobsets.Create(t, e.gpuJobSet("short", 1, map[string]string{wellknown.ProvReqAnnotationPrefix + wellknown.MaxRunDurationSecondsParameter: "2"}))
	e.cp.WaitWhollyPlaced(t, e.ns, "short", 1)
	e.waitWorkload(t, "short", "ended at its maximum run duration", condition(multislicev1alpha1.WorkloadEvicted, metav1.ConditionTrue, "MaximumRunDurationExceeded"))
	jobsets := jobsetclient.NewForConfigOrDie(e.cp.Config).JobsetV1alpha2().JobSets(e.ns)
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		js, err := jobsets.Get(ctx, "short", metav1.GetOptions{})
		return err == nil && js.Spec.Suspend != nil && *js.Spec.Suspend, nil
	}); err != nil {
		t.Fatal("the JobSet was not suspended at its maximum run duration")
	}
	e.cp.WaitForWorkloadEvent(t, e.ns, "short", "MaximumRunDurationExceeded")
}

// With the config's podSetUpdates, the pods go to the pool the request
// reports, not to a free pool of the same GPUs that was there before.
func TestPodSetUpdatesSteerToTheProvisionedPool(t *testing.T) {
	e := start(t)
	cfg, err := e.client.MultisliceV1alpha1().ProvisioningRequestConfigs().Get(t.Context(), "dws-config", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Spec.PodSetUpdates = &multislicev1alpha1.ProvisioningRequestPodSetUpdates{NodeSelector: []multislicev1alpha1.ProvisioningRequestPodSetUpdatesNodeSelector{
		{Key: wellknown.NodePoolLabel, ValueFromProvisioningClassDetail: "nodePool"}}}
	if _, err := e.client.MultisliceV1alpha1().ProvisioningRequestConfigs().Update(t.Context(), cfg, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	e.cp.CreateNodePool(t, builders.NodePool("a-decoy").Nodes(2).GPU(gpuModel, 1).Zone("us-central1-a"))
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		return answer{zones: []string{"us-central1-a", "us-central1-a"}, pool: "dws-steered"}
	})
	e.jobsets.Create(t, e.gpuJobSet("steered", 2, nil))
	e.cp.CheckBoundInPool(t, e.ns, "dws-steered", "steered-worker-0-0-a0", "steered-worker-1-0-a0")
}

// Seed 003's config has no podSetUpdates: a workload without a node-pool
// selector still runs on the capacity provisioned for it (the pool its
// request reports), not on a free pool of the same GPUs in the same zone
// that was there before.
func TestProvisionedCapacityIsUsedWithoutPodSetUpdates(t *testing.T) {
	e := start(t)
	e.cp.CreateNodePool(t, builders.NodePool("a-decoy").Nodes(2).GPU(gpuModel, 1).Zone("us-central1-a"))
	e.startProvisioner(t, func(*autoscalingv1.ProvisioningRequest, int) answer {
		return answer{zones: []string{"us-central1-a", "us-central1-a"}, pool: "dws-provisioned"}
	})
	e.jobsets.Create(t, e.gpuJobSet("unpinned", 2, nil))
	e.cp.CheckBoundInPool(t, e.ns, "dws-provisioned", "unpinned-worker-0-0-a0", "unpinned-worker-1-0-a0")
}
