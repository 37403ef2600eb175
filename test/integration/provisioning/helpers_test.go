package provisioning_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
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
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

const (
	gpuModel  = "nvidia-l4"
	checkName = "dws-prov"
)

// env is a control plane with the workload, queue and ProvisioningRequest
// APIs, seed 003's queues (check retried after 1 s) and the scheduler.
type env struct {
	cp      *harness.ControlPlane
	client  multisliceclient.Interface
	jobsets *harness.JobSets
	ns      string
}

func start(t *testing.T) *env {
	t.Helper()
	e := startBare(t, "")
	e.createQueues(t)
	harness.StartScheduler(t, e.cp, harness.SchedulerConfig(t))
	return e
}

// startBare is the control plane with the APIs and no queue objects, the
// scheduler not started; ns "" makes a namespace of its own.
func startBare(t *testing.T, ns string) *env {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	cp.InstallProvisioningCRDs(t)
	e := &env{cp: cp, client: cp.Queues().Client, jobsets: cp.NewJobSets(t, harness.AllAtOnce), ns: ns}
	if ns == "" {
		e.ns = cp.CreateNamespace(t, "dws")
	}
	return e
}

// createQueues creates seed 003's queue objects, the check retried after
// 1 s, the LocalQueue in e.ns.
func (e *env) createQueues(t *testing.T) {
	t.Helper()
	ctx := t.Context()
	api := e.client.MultisliceV1alpha1()
	must := func(_ any, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	q := &harness.Queues{Client: e.client}
	q.CreateFlavor(t, "default-flavor", nil)
	must(api.AdmissionChecks().Create(ctx, &multislicev1alpha1.AdmissionCheck{ObjectMeta: metav1.ObjectMeta{Name: checkName},
		Spec: multislicev1alpha1.AdmissionCheckSpec{ControllerName: multislicev1alpha1.ProvisioningRequestControllerName,
			Parameters: &multislicev1alpha1.AdmissionCheckParametersReference{APIGroup: "kueue.x-k8s.io", Kind: "ProvisioningRequestConfig", Name: "dws-config"}}}, metav1.CreateOptions{}))
	must(api.ProvisioningRequestConfigs().Create(ctx, &multislicev1alpha1.ProvisioningRequestConfig{ObjectMeta: metav1.ObjectMeta{Name: "dws-config"},
		Spec: multislicev1alpha1.ProvisioningRequestConfigSpec{ProvisioningClassName: wellknown.QueuedProvisioningClass,
			ManagedResources: []corev1.ResourceName{wellknown.ResourceGPU},
			RetryStrategy: &multislicev1alpha1.ProvisioningRequestRetryStrategy{BackoffLimitCount: ptr.To[int32](2),
				BackoffBaseSeconds: ptr.To[int32](1), BackoffMaxSeconds: ptr.To[int32](2)}}}, metav1.CreateOptions{}))
	q.CreateClusterQueue(t, "dws-cluster-queue", multislicev1alpha1.ClusterQueueSpec{AdmissionChecks: []string{checkName},
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(
			harness.Quota{Flavor: "default-flavor", Resource: wellknown.ResourceGPU, Nominal: 16, Borrowing: -1, Lending: -1})}})
	q.CreateLocalQueue(t, e.ns, "dws-local-queue", "dws-cluster-queue")
}

// gpuJobSet is a JobSet of workers Jobs of one pod asking for one GPU, in
// the check's queue; edit changes it before it is returned.
func (e *env) gpuJobSet(name string, workers int32, annotations map[string]string) *jobsetv1alpha2.JobSet {
	b := builders.JobSet(e.ns, name).Unconfined().Annotation(wellknown.QueueNameLabel, "dws-local-queue").
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "1").NodeSelector(wellknown.GPUAcceleratorLabel, gpuModel)
		})
	for k, v := range annotations {
		b.Annotation(k, v)
	}
	return b.ReplicatedJob("worker", workers, 1).Obj()
}

// answer is what the tests' provisioner does with one request: fail it,
// or create one node of one GPU per listed zone and mark it Provisioned.
type answer struct {
	fail  string
	zones []string
	// pool names the node pool (default: one per zone, after the request).
	pool string
}

// provisioner stands in for the cluster autoscaler: it answers each new
// ProvisioningRequest with decide(request, how many it saw before).
type provisioner struct {
	e    *env
	mu   sync.Mutex
	seen []string
}

func (e *env) startProvisioner(t *testing.T, decide func(req *autoscalingv1.ProvisioningRequest, n int) answer) *provisioner {
	t.Helper()
	p := &provisioner{e: e}
	done := map[string]bool{}
	go func() {
		_ = wait.PollUntilContextCancel(t.Context(), 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
			list, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, nil
			}
			for i := range list.Items {
				req := &list.Items[i]
				if done[req.Name] {
					continue
				}
				p.mu.Lock()
				n := len(p.seen)
				p.seen = append(p.seen, req.Name)
				p.mu.Unlock()
				a := decide(req, n)
				cond := metav1.Condition{Type: autoscalingv1.Provisioned, Status: metav1.ConditionTrue, Reason: "Provisioned", Message: "capacity is ready"}
				if a.fail != "" {
					cond = metav1.Condition{Type: autoscalingv1.Failed, Status: metav1.ConditionTrue, Reason: "OutOfCapacity", Message: a.fail}
				} else {
					var pools, zones []string
					for j, zone := range a.zones {
						name := fmt.Sprintf("%s-%d", req.Name, j)
						if a.pool != "" {
							name = a.pool
						}
						if !slices.Contains(pools, name) {
							pools = append(pools, name)
						}
						if !slices.Contains(zones, zone) {
							zones = append(zones, zone)
						}
						// As GKE's class does: where the capacity is (its
						// pools, comma-separated, as the local cluster's
						// provisioner reports more than one).
						req.Status.ProvisioningClassDetails = map[string]autoscalingv1.Detail{
							"nodePool": autoscalingv1.Detail(strings.Join(pools, ", ")), "zone": autoscalingv1.Detail(strings.Join(zones, ", "))}
						pool := builders.NodePool(name)
						if a.pool != "" {
							pool = builders.NodePool(a.pool).Label(corev1.LabelHostname, fmt.Sprintf("%s-%d", a.pool, j))
						}
						nodes := pool.GPU(gpuModel, 1).Zone(zone).Build()
						if a.pool != "" {
							nodes[0].Name = fmt.Sprintf("%s-node-%d", strings.ReplaceAll(strings.ToLower(a.pool), "_", "-"), j)
						}
						for _, node := range nodes {
							if _, err := e.cp.Client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{}); err != nil {
								t.Errorf("creating a provisioned node: %v", err)
							}
						}
					}
				}
				cond.LastTransitionTime = metav1.Now()
				apimeta.SetStatusCondition(&req.Status.Conditions, cond)
				if _, err := e.client.AutoscalingV1().ProvisioningRequests(e.ns).UpdateStatus(ctx, req, metav1.UpdateOptions{}); err != nil {
					return false, nil
				}
				done[req.Name] = true
			}
			return false, nil
		})
	}()
	return p
}

// requests lists the requests the provisioner answered, in order.
func (p *provisioner) requests() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.seen...)
}

// waitWorkload waits until the Workload object of JobSet name satisfies ok.
func (e *env) waitWorkload(t *testing.T, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return e.waitWorkloadNamed(t, harness.JobSetKey(e.ns, name).ObjectName(), what, ok)
}

// waitWorkloadNamed waits until Workload object name satisfies ok.
func (e *env) waitWorkloadNamed(t *testing.T, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return harness.WaitWorkload(t, e.client, e.ns, name, what, ok)
}

// checkState reports whether the Workload's admission check is in state.
func checkState(state string) func(*multislicev1alpha1.Workload) bool {
	return func(wl *multislicev1alpha1.Workload) bool {
		return len(wl.Status.AdmissionChecks) == 1 && wl.Status.AdmissionChecks[0].Name == checkName && wl.Status.AdmissionChecks[0].State == state
	}
}

var condition = harness.WorkloadCondition

// zonesOf lists the zone of the node each pod of the JobSet is bound to.
func (e *env) zonesOf(t *testing.T, name string) map[string]bool {
	t.Helper()
	pods, err := e.cp.Client.CoreV1().Pods(e.ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		t.Fatal(err)
	}
	zones := map[string]bool{}
	for _, p := range pods.Items {
		n, err := e.cp.Client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("pod %s on node %q: %v", p.Name, p.Spec.NodeName, err)
		}
		zones[n.Labels[wellknown.ZoneLabel]] = true
	}
	return zones
}
