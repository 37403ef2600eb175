package provisioning_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Provisioning meets topology: a ClusterQueue whose flavor names GKE's GPU
// Topology (block → subblock → host) and that runs queued provisioning
// (testdata/gpu-topology-dws.yaml). A Job whose pods require one subblock
// reserves quota, its ProvisioningRequest asks for all its pods, and the
// pods are placed by topology only on the capacity provisioned for them.

const (
	h100          = "nvidia-h100-80gb"
	dwsZone       = "us-central1-a"
	dwsPool       = "dws-h100"
	subblockLevel = wellknown.GCETopologySubblockLabel
)

// startTopology is the control plane with the queue objects of
// testdata/gpu-topology-dws.yaml in namespace default and the scheduler,
// its provisioning check active.
func startTopology(t *testing.T) *env {
	t.Helper()
	e := startBare(t, "default")
	e.cp.CreateFromFile(t, "test/integration/provisioning/testdata/gpu-topology-dws.yaml")
	harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		ac, err := e.client.MultisliceV1alpha1().AdmissionChecks().Get(ctx, checkName, metav1.GetOptions{})
		return err == nil && apimeta.IsStatusConditionTrue(ac.Status.Conditions, multislicev1alpha1.AdmissionCheckActive), nil
	}); err != nil {
		t.Fatalf("admission check %s never active: %v", checkName, err)
	}
	return e
}

// subblockJob is a suspended indexed Job in the check's queue of pods pods
// of 8 H100 GPUs each (a whole host), its pod template requiring one
// subblock, as Kueue's TAS samples write it.
func subblockJob(name string, pods int32) *batchv1.Job {
	gpus := resource.MustParse("8")
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Labels: map[string]string{wellknown.QueueNameLabel: "dws-local-queue"}},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To(pods), Completions: ptr.To(pods),
			CompletionMode: ptr.To(batchv1.IndexedCompletion),
			Suspend:        ptr.To(true),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{wellknown.RequiredTopologyAnnotation: subblockLevel}},
				Spec: corev1.PodSpec{
					SchedulerName: app.Name,
					RestartPolicy: corev1.RestartPolicyNever,
					Containers: []corev1.Container{{Name: "trainer", Image: "registry.k8s.io/pause:3.10",
						Resources: corev1.ResourceRequirements{
							Requests: corev1.ResourceList{wellknown.ResourceGPU: gpus},
							Limits:   corev1.ResourceList{wellknown.ResourceGPU: gpus},
						}}},
				},
			},
		},
	}
}

// startSubblockJob creates the Job, waits until the scheduler started it
// and creates its pods as the Job controller would.
func (e *env) startSubblockJob(t *testing.T, name string, pods int32) []*corev1.Pod {
	t.Helper()
	if _, err := e.cp.Client.BatchV1().Jobs("default").Create(t.Context(), subblockJob(name, pods), metav1.CreateOptions{}); err != nil {
		t.Fatalf("create Job %s: %v", name, err)
	}
	return e.cp.CreateJobPods(t, e.cp.WaitJobStarted(t, "default", name, "dws-local-queue"))
}

// h100Host is a host of 8 H100 GPUs in zone dwsZone, labelled with its
// block and subblock as GKE labels them; pool "" puts it in no pool.
func h100Host(name, block, subblock, pool string) *corev1.Node {
	b := builders.Node(name).GPU(h100, 8).Zone(dwsZone).Label(wellknown.GCETopologyBlockLabel, block).Label(subblockLevel, subblock)
	if pool != "" {
		b.Label(wellknown.NodePoolLabel, pool)
	}
	return b.Obj()
}

// waitRequestMade waits until ProvisioningRequest name exists, and returns
// it.
func (e *env) waitRequestMade(t *testing.T, name string) *autoscalingv1.ProvisioningRequest {
	t.Helper()
	var req *autoscalingv1.ProvisioningRequest
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Get(ctx, name, metav1.GetOptions{})
		req = got
		return err == nil, nil
	}); err != nil {
		t.Fatalf("ProvisioningRequest %s never created: %v", name, err)
	}
	return req
}

// checkWholePodSet checks that request req asks for the whole pod set:
// one pod set of pods pods, each asking for 8 GPUs.
func (e *env) checkWholePodSet(t *testing.T, req *autoscalingv1.ProvisioningRequest, pods int32) {
	t.Helper()
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || len(req.Spec.PodSets) != 1 || req.Spec.PodSets[0].Count != pods {
		t.Fatalf("request %s spec %+v, want one pod set of %d pods of class %s", req.Name, req.Spec, pods, wellknown.QueuedProvisioningClass)
	}
	tmpl, err := e.cp.Client.CoreV1().PodTemplates(e.ns).Get(t.Context(), req.Spec.PodSets[0].PodTemplateRef.Name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the request's PodTemplate: %v", err)
	}
	if c := tmpl.Template.Spec.Containers; len(c) != 1 || c[0].Resources.Requests.Name(wellknown.ResourceGPU, resource.DecimalSI).Value() != 8 {
		t.Errorf("the request's PodTemplate asks for %+v, want 8 %s per pod", c, wellknown.ResourceGPU)
	}
}

// provision answers request name as the autoscaler would: it creates
// hosts (in pool dwsPool) and marks the request Provisioned, reporting the
// pool and zone.
func (e *env) provision(t *testing.T, name string, hosts ...*corev1.Node) {
	t.Helper()
	e.addHosts(t, hosts...)
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		req, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		req.Status.ProvisioningClassDetails = map[string]autoscalingv1.Detail{
			provisioning.NodePoolDetail: dwsPool, "zone": dwsZone}
		apimeta.SetStatusCondition(&req.Status.Conditions, metav1.Condition{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue,
			Reason: "Provisioned", Message: "capacity is ready", LastTransitionTime: metav1.Now()})
		_, err = e.client.AutoscalingV1().ProvisioningRequests(e.ns).UpdateStatus(ctx, req, metav1.UpdateOptions{})
		return err == nil, nil
	}); err != nil {
		t.Fatalf("marking %s Provisioned: %v", name, err)
	}
}

// addHosts creates hosts, as the autoscaler brings nodes up.
func (e *env) addHosts(t *testing.T, hosts ...*corev1.Node) {
	t.Helper()
	for _, n := range hosts {
		e.cp.CreateNode(t, n)
	}
}

// expectPodsUnbound fails if any of pods gets a node within d.
func (e *env) expectPodsUnbound(t *testing.T, pods []*corev1.Pod, d time.Duration) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		for _, p := range pods {
			got, err := e.cp.Client.CoreV1().Pods(p.Namespace).Get(t.Context(), p.Name, metav1.GetOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.Spec.NodeName != "" {
				t.Fatalf("pod %s was bound to %s, want none of the Job's pods bound", p.Name, got.Spec.NodeName)
			}
		}
	}
}

// waitPodsSay waits until one of pods (the one planning for the workload)
// has PodScheduled=False with a message containing says, and none still
// says it waits for provisioning: the capacity came, and the others wait
// for the one planning.
func (e *env) waitPodsSay(t *testing.T, pods []*corev1.Pod, says string) {
	t.Helper()
	var last []string
	if err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		last = last[:0]
		said, stale := false, false
		for _, p := range pods {
			got, err := e.cp.Client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			for _, c := range got.Status.Conditions {
				if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
					said = said || strings.Contains(c.Message, says)
					stale = stale || c.Reason == state.ReasonWaitingForProvisioning
					last = append(last, fmt.Sprintf("%s: %s %q", p.Name, c.Reason, c.Message))
				}
			}
		}
		return said && !stale, nil
	}); err != nil {
		t.Fatalf("no pod's PodScheduled=False said %q, or one still waits for provisioning; last: %v", says, last)
	}
}

// checkConsume checks that every pod names request req as the one it
// consumes: the autoscaler lets only such pods use its capacity.
func (e *env) checkConsume(t *testing.T, pods []*corev1.Pod, req string) {
	t.Helper()
	for _, p := range pods {
		got, err := e.cp.Client.CoreV1().Pods(p.Namespace).Get(t.Context(), p.Name, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != req {
			t.Errorf("pod %s annotations %v do not name request %s", p.Name, got.Annotations, req)
		}
	}
}

// placedSubblocks waits until every pod is bound, and returns the
// subblock of each pod's node and the nodes used.
func (e *env) placedSubblocks(t *testing.T, pods []*corev1.Pod) (subblocks map[string]int, nodes []string) {
	t.Helper()
	subblocks = map[string]int{}
	for _, p := range pods {
		bound := e.cp.WaitForPodBound(t, p.Namespace, p.Name)
		n, err := e.cp.Client.CoreV1().Nodes().Get(t.Context(), bound.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("pod %s on node %q: %v", p.Name, bound.Spec.NodeName, err)
		}
		subblocks[n.Labels[subblockLevel]]++
		nodes = append(nodes, n.Name)
	}
	slices.Sort(nodes)
	return subblocks, nodes
}

// Quota first, then a request for the whole pod set while no node exists
// for it; a free subblock of the same GPUs that was not provisioned for it
// is never used. The provisioner brings up one subblock's worth of hosts
// and a stray host in another subblock: every pod lands in the whole
// subblock, one pod per host, and the Workload is admitted.
func TestTopologyProvisionedSubblock(t *testing.T) {
	e := startTopology(t)
	// A whole free subblock of H100 hosts, not provisioned for the Job.
	for h := range 4 {
		e.cp.CreateNode(t, h100Host(fmt.Sprintf("b1-s0-h%d", h), "b1", "b1-s0", ""))
	}
	pods := e.startSubblockJob(t, "train", 4)
	req := e.waitRequestMade(t, "job-train-dws-prov-1")
	e.checkWholePodSet(t, req, 4)
	wl := e.waitWorkloadNamed(t, "job-train", "waiting for its check", checkState("Pending"))
	if !condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionTrue, "")(wl) || !condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionFalse, "")(wl) {
		t.Fatalf("conditions while provisioning: %+v", wl.Status.Conditions)
	}
	e.expectPodsUnbound(t, pods, 2*time.Second)

	var hosts []*corev1.Node
	for h := range 4 {
		hosts = append(hosts, h100Host(fmt.Sprintf("b0-s0-h%d", h), "b0", "b0-s0", dwsPool))
	}
	// The stray host: provisioned, but in another subblock.
	hosts = append(hosts, h100Host("b0-s1-h0", "b0", "b0-s1", dwsPool))
	e.provision(t, req.Name, hosts...)

	subblocks, nodes := e.placedSubblocks(t, pods)
	if len(subblocks) != 1 || subblocks["b0-s0"] != 4 {
		t.Errorf("pods landed in subblocks %v, want all 4 in b0-s0", subblocks)
	}
	if want := []string{"b0-s0-h0", "b0-s0-h1", "b0-s0-h2", "b0-s0-h3"}; !slices.Equal(nodes, want) {
		t.Errorf("pods on nodes %v, want one on each host of b0-s0 %v", nodes, want)
	}
	wl = e.waitWorkloadNamed(t, "job-train", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	if !checkState("Ready")(wl) {
		t.Errorf("admission checks %+v, want %s Ready", wl.Status.AdmissionChecks, checkName)
	}
	e.checkConsume(t, pods, req.Name)
}

// Capacity provisioned over two subblocks, neither holding the whole pod
// set: no pod is bound, not even the half a subblock would take; the Job
// and its waiting pod say the pod set needs one subblock and the most one
// takes. When the booking expires unused, the quota is given back and a
// new request made for the whole pod set; capacity provisioned in one
// subblock then takes every pod, none on the split hosts left over in the
// same pool, and the pods name the new request.
func TestTopologyProvisionedSplitOverSubblocks(t *testing.T) {
	e := startTopology(t)
	pods := e.startSubblockJob(t, "split", 4)
	first := e.waitRequestMade(t, "job-split-dws-prov-1")
	e.checkWholePodSet(t, first, 4)
	e.provision(t, first.Name,
		h100Host("b0-s0-h0", "b0", "b0-s0", dwsPool), h100Host("b0-s0-h1", "b0", "b0-s0", dwsPool),
		h100Host("b0-s1-h0", "b0", "b0-s1", dwsPool), h100Host("b0-s1-h1", "b0", "b0-s1", dwsPool))
	e.waitWorkloadNamed(t, "job-split", "provisioned", checkState("Ready"))

	says := "needs 4 pods in one " + subblockLevel + "; the largest free one takes 2"
	if note := e.cp.WaitForWorkloadEvent(t, "default", "split", "Unplaceable"); !strings.Contains(note, says) {
		t.Errorf("the Job's Unplaceable event says %q, want it to say it %s", note, says)
	}
	e.waitPodsSay(t, pods, says)
	// Admitted (the check passed) but placed nowhere: the Workload says
	// why, not that its slices are placed.
	e.waitWorkloadNamed(t, "job-split", "admitted, saying its pods fit nowhere yet", func(wl *multislicev1alpha1.Workload) bool {
		c := apimeta.FindStatusCondition(wl.Status.Conditions, multislicev1alpha1.WorkloadAdmitted)
		return c != nil && c.Status == metav1.ConditionTrue && strings.Contains(c.Message, "fit nowhere yet") && strings.Contains(c.Message, says)
	})
	e.expectPodsUnbound(t, pods, 3*time.Second)

	// The autoscaler takes back capacity not used in time.
	e.setCondition(t, first.Name, autoscalingv1.BookingExpired, "the capacity was not used in time")
	second := e.waitRequestMade(t, "job-split-dws-prov-2")
	e.cp.WaitForWorkloadEvent(t, "default", "split", "ProvisioningRetry")
	e.checkWholePodSet(t, second, 4)
	var hosts []*corev1.Node
	for h := range 4 {
		hosts = append(hosts, h100Host(fmt.Sprintf("b1-s0-h%d", h), "b1", "b1-s0", dwsPool))
	}
	e.provision(t, second.Name, hosts...)
	if subblocks, nodes := e.placedSubblocks(t, pods); len(subblocks) != 1 || subblocks["b1-s0"] != 4 {
		t.Errorf("pods landed in subblocks %v (nodes %v), want all 4 in b1-s0, the one subblock that holds them", subblocks, nodes)
	}
	wl := e.waitWorkloadNamed(t, "job-split", "admitted", condition(multislicev1alpha1.WorkloadAdmitted, metav1.ConditionTrue, ""))
	if !checkState("Ready")(wl) {
		t.Errorf("admission checks %+v, want %s Ready", wl.Status.AdmissionChecks, checkName)
	}
	e.checkConsume(t, pods, second.Name)
}
