package faults_test

import (
	"context"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// The leader dies while a workload's capacity is being provisioned: its
// quota is reserved for the check and its ProvisioningRequest is pending,
// nothing of it is on a node. The new leader resumes the check from the
// API: the quota stays the first workload's (a second one waits for it),
// no second request is made, and once the request is provisioned the
// first workload is placed on its capacity.
func TestFailoverMidProvisioning(t *testing.T) {
	c := newCluster(t, "midprov", 0, 0)
	cp, q, ns, jobsets := c.cp, c.q, c.ns, c.jobsets
	cp.InstallProvisioningCRDs(t)
	createProvisioningQueue(t, q, ns)
	fp := cp.StartFaultProxy(t)
	replicas := startPair(t, cp, fp, schedulerConfig(t, nil))

	jobsets.Create(t, gpuJobSet(ns, "first"))
	request := harness.JobSetKey(ns, "first").ObjectName() + "-dws-prov-1"
	waitRequest(t, q, ns, request)
	q.WaitWorkloadOf(t, harness.JobSetKey(ns, "first"), "holding quota for its check",
		harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionTrue, ""))

	replicas.failover(t, cp)
	jobsets.Create(t, gpuJobSet(ns, "second"))
	q.WaitWorkloadOf(t, harness.JobSetKey(ns, "second"), "waiting for quota", quotaWaiting)
	time.Sleep(2 * time.Second)
	list, err := q.Client.AutoscalingV1().ProvisioningRequests(ns).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 1 || list.Items[0].Name != request {
		var names []string
		for _, r := range list.Items {
			names = append(names, r.Name)
		}
		t.Fatalf("requests %v, want only %s: the new leader resumes the check", names, request)
	}

	provision(t, cp, q, ns, request)
	waitBound(t, cp, ns, "first", 2)
	cp.ExpectNoneBound(t, ns, "second", time.Second)
}

// createProvisioningQueue creates seed 003's queue objects: a flavor, the
// provisioning check and its config, a ClusterQueue of 2 GPUs that runs
// the check, and LocalQueue lq in ns.
func createProvisioningQueue(t *testing.T, q *harness.Queues, ns string) {
	t.Helper()
	api := q.Client.MultisliceV1alpha1()
	q.CreateFlavor(t, "default-flavor", nil)
	if _, err := api.AdmissionChecks().Create(t.Context(), &multislicev1alpha1.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: "dws-prov"},
		Spec: multislicev1alpha1.AdmissionCheckSpec{ControllerName: multislicev1alpha1.ProvisioningRequestControllerName,
			Parameters: &multislicev1alpha1.AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "dws-config"}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := api.ProvisioningRequestConfigs().Create(t.Context(), &multislicev1alpha1.ProvisioningRequestConfig{ObjectMeta: metav1.ObjectMeta{Name: "dws-config"},
		Spec: multislicev1alpha1.ProvisioningRequestConfigSpec{ProvisioningClassName: wellknown.QueuedProvisioningClass,
			ManagedResources: []corev1.ResourceName{wellknown.ResourceGPU},
			RetryStrategy: &multislicev1alpha1.ProvisioningRequestRetryStrategy{BackoffLimitCount: ptr.To[int32](2),
				BackoffBaseSeconds: ptr.To[int32](1), BackoffMaxSeconds: ptr.To[int32](2)}}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	q.CreateClusterQueue(t, clusterQueue, multislicev1alpha1.ClusterQueueSpec{AdmissionChecks: []string{"dws-prov"},
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(
			harness.Quota{Flavor: "default-flavor", Resource: wellknown.ResourceGPU, Nominal: 2, Borrowing: -1, Lending: -1})}})
	q.CreateLocalQueue(t, ns, localQueue, clusterQueue)
}

// gpuJobSet is a JobSet of 2 workers of one GPU each, in LocalQueue lq.
func gpuJobSet(ns, name string) *jobsetv1alpha2.JobSet {
	return builders.JobSet(ns, name).Unconfined().Annotation(wellknown.QueueNameLabel, localQueue).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "1").NodeSelector(wellknown.GPUAcceleratorLabel, "nvidia-l4")
		}).ReplicatedJob("worker", 2, 1).Obj()
}

// waitRequest waits until ProvisioningRequest ns/name exists.
func waitRequest(t *testing.T, q *harness.Queues, ns, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		_, err := q.Client.AutoscalingV1().ProvisioningRequests(ns).Get(ctx, name, metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("ProvisioningRequest %s/%s never created", ns, name)
	}
}

// provision does what the autoscaler does for a request: two nodes of one
// GPU in one zone, then Provisioned=True.
func provision(t *testing.T, cp *harness.ControlPlane, q *harness.Queues, ns, name string) {
	t.Helper()
	cp.CreateNodePool(t, builders.NodePool("provisioned").Nodes(2).GPU("nvidia-l4", 1).Zone("us-central1-a"))
	req, err := q.Client.AutoscalingV1().ProvisioningRequests(ns).Get(t.Context(), name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	apimeta.SetStatusCondition(&req.Status.Conditions, metav1.Condition{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue,
		Reason: "Provisioned", Message: "capacity is ready", LastTransitionTime: metav1.Now()})
	if _, err := q.Client.AutoscalingV1().ProvisioningRequests(ns).UpdateStatus(t.Context(), req, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// waitBound waits until want pods of JobSet ns/name are bound (unconfined:
// anywhere).
func waitBound(t *testing.T, cp *harness.ControlPlane, ns, name string, want int) {
	t.Helper()
	var p harness.Placement
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := cp.PlacementOf(ctx, ns, name)
		p = got
		return err == nil && got.Bound == want, nil
	})
	if err != nil {
		t.Fatalf("JobSet %s/%s: %d of %d pods bound", ns, name, p.Bound, want)
	}
}
