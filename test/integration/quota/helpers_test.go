package quota_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// env is a control plane with the workload and queue APIs, v5e 2x4 pools
// and the scheduler running.
type env struct {
	cp      *harness.ControlPlane
	queues  multisliceclient.Interface
	jobsets *harness.JobSets
}

func start(t *testing.T, pools int, manifests ...string) *env {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	for i := 1; i <= pools; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU(builders.V5e, "2x4", 4).Zone("us-west4-a"))
	}
	for _, m := range manifests {
		cp.CreateFromFile(t, m)
	}
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	return &env{cp: cp, queues: multisliceclient.NewForConfigOrDie(cp.Config), jobsets: cp.NewJobSets(t, harness.AllAtOnce)}
}

// queued is a JobSet of slices × (2 pods × 4 chips) on v5e 2x4 pools in
// LocalQueue queue. Its pods ask for TPU chips only, like the seed's: the
// seed's ClusterQueue covers no other resource.
func queued(ns, name, queue string, slices int32) *jobsetv1alpha2.JobSet {
	return builders.JobSet(ns, name).Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.QueueNameLabel, queue).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().TPU("4").
				NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		}).
		ReplicatedJob("slice", slices, 2).Obj()
}

// waitWorkload waits until the JobSet's Workload object satisfies ok, and
// returns it.
func (e *env) waitWorkload(t *testing.T, ns, jobset, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return e.waitWorkloadNamed(t, ns, "jobset-"+jobset, what, ok)
}

// waitPodWorkload waits until a queued plain pod's Workload object waits
// for reason.
func (e *env) waitPodWorkload(t *testing.T, ns, pod, reason string) {
	t.Helper()
	e.waitWorkloadNamed(t, ns, "pod-"+pod, "waiting with "+reason, condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, reason))
}

func (e *env) waitWorkloadNamed(t *testing.T, ns, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return harness.WaitWorkload(t, e.queues, ns, name, what, ok)
}

// condition reports whether the Workload has condition typ with status and
// (when not empty) reason.
var condition = harness.WorkloadCondition

// waitClusterQueue waits until the ClusterQueue's status has pending and
// admitted workloads and uses chips of google.com/tpu.
func (e *env) waitClusterQueue(t *testing.T, name string, pending, admitted int32, chips int64) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	var cq *multislicev1alpha1.ClusterQueue
	err := wait.PollUntilContextTimeout(t.Context(), 200*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		got, err := e.queues.MultisliceV1alpha1().ClusterQueues().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		cq = got
		st := got.Status
		return st.PendingWorkloads == pending && st.AdmittedWorkloads == admitted && tpuTotal(st.FlavorsUsage) == chips, nil
	})
	if err != nil {
		t.Fatalf("ClusterQueue %s status never had %d pending, %d admitted, %d chips in use; last: %+v", name, pending, admitted, chips, cq.Status)
	}
	return cq
}

func tpuTotal(usage []multislicev1alpha1.FlavorUsage) int64 {
	var n int64
	for _, f := range usage {
		for _, r := range f.Resources {
			if r.Name == wellknown.ResourceTPU {
				n += r.Total.Value()
			}
		}
	}
	return n
}

// v5eFlavor creates the flavor of the v5e 2x4 pools.
func (e *env) v5eFlavor(t *testing.T, name string) {
	t.Helper()
	rf := &multislicev1alpha1.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: multislicev1alpha1.ResourceFlavorSpec{NodeLabels: map[string]string{
			wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}}}
	if _, err := e.queues.MultisliceV1alpha1().ResourceFlavors().Create(t.Context(), rf, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// tpuQuota is a google.com/tpu quota of a flavor; borrowing and lending
// limits below 0 are unset.
type tpuQuota struct {
	flavor                      string
	nominal, borrowing, lending int64
}

// clusterQueue creates a ClusterQueue over the given TPU quotas.
func (e *env) clusterQueue(t *testing.T, name, cohort string, strategy multislicev1alpha1.QueueingStrategy, quotas ...tpuQuota) {
	t.Helper()
	group := multislicev1alpha1.ResourceGroup{CoveredResources: []corev1.ResourceName{wellknown.ResourceTPU}}
	for _, q := range quotas {
		rq := multislicev1alpha1.ResourceQuota{Name: wellknown.ResourceTPU, NominalQuota: *resource.NewQuantity(q.nominal, resource.DecimalSI)}
		if q.borrowing >= 0 {
			rq.BorrowingLimit = resource.NewQuantity(q.borrowing, resource.DecimalSI)
		}
		if q.lending >= 0 {
			rq.LendingLimit = resource.NewQuantity(q.lending, resource.DecimalSI)
		}
		group.Flavors = append(group.Flavors, multislicev1alpha1.FlavorQuotas{Name: q.flavor, Resources: []multislicev1alpha1.ResourceQuota{rq}})
	}
	cq := &multislicev1alpha1.ClusterQueue{ObjectMeta: metav1.ObjectMeta{Name: name}, Spec: multislicev1alpha1.ClusterQueueSpec{
		Cohort: cohort, QueueingStrategy: strategy, ResourceGroups: []multislicev1alpha1.ResourceGroup{group}}}
	if _, err := e.queues.MultisliceV1alpha1().ClusterQueues().Create(t.Context(), cq, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// localQueue creates LocalQueue ns/name pointing at cq.
func (e *env) localQueue(t *testing.T, ns, name, cq string) {
	t.Helper()
	lq := &multislicev1alpha1.LocalQueue{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Spec: multislicev1alpha1.LocalQueueSpec{ClusterQueue: cq}}
	if _, err := e.queues.MultisliceV1alpha1().LocalQueues(ns).Create(t.Context(), lq, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

func findCondition(wl *multislicev1alpha1.Workload, typ string) *metav1.Condition {
	return apimeta.FindStatusCondition(wl.Status.Conditions, typ)
}

func resourceChips(n int64) resource.Quantity { return *resource.NewQuantity(n, resource.DecimalSI) }
