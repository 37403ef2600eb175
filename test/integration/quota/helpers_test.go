package quota_test

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// env is a control plane with the workload and queue APIs, v5e 2x4 pools
// and the scheduler running.
type env struct {
	cp      *harness.ControlPlane
	q       *harness.Queues
	jobsets *harness.JobSets
}

func start(t *testing.T, pools int, manifests ...string) *env {
	t.Helper()
	e, _ := startWith(t, harness.SchedulerConfig(t), pools, manifests...)
	return e
}

// startWith is start with the scheduler configured by the file config; it
// returns the running scheduler too.
func startWith(t *testing.T, config string, pools int, manifests ...string) (*env, *harness.Scheduler) {
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
	sched := harness.StartScheduler(t, cp, config)
	return &env{cp: cp, q: cp.Queues(), jobsets: cp.NewJobSets(t, harness.AllAtOnce)}, sched
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
	return e.q.WaitWorkloadOf(t, harness.JobSetKey(ns, jobset), what, ok)
}

// waitPodWorkload waits until a queued plain pod's Workload object waits
// for reason.
func (e *env) waitPodWorkload(t *testing.T, ns, pod, reason string) {
	t.Helper()
	e.q.WaitWorkloadOf(t, workload.Key{Source: workload.SourcePod, Namespace: ns, Name: pod}, "waiting with "+reason, condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, reason))
}

func (e *env) waitWorkloadNamed(t *testing.T, ns, name, what string, ok func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	return e.q.WaitWorkload(t, ns, name, what, ok)
}

// condition reports whether the Workload has condition typ with status and
// (when not empty) reason.
var condition = harness.WorkloadCondition

// waitClusterQueue waits until the ClusterQueue's status has pending and
// admitted workloads and uses chips of google.com/tpu.
func (e *env) waitClusterQueue(t *testing.T, name string, pending, admitted int32, chips int64) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	return e.q.WaitClusterQueue(t, name, pending, admitted, chips)
}

// v5eFlavor creates the flavor of the v5e 2x4 pools.
func (e *env) v5eFlavor(t *testing.T, name string) {
	t.Helper()
	e.q.CreateFlavor(t, name, map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"})
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
	var qs []harness.Quota
	for _, q := range quotas {
		qs = append(qs, harness.Quota{Flavor: q.flavor, Resource: wellknown.ResourceTPU, Nominal: q.nominal, Borrowing: q.borrowing, Lending: q.lending})
	}
	e.q.CreateClusterQueue(t, name, multislicev1alpha1.ClusterQueueSpec{Cohort: cohort, QueueingStrategy: strategy,
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(qs...)}})
}

// localQueue creates LocalQueue ns/name pointing at cq.
func (e *env) localQueue(t *testing.T, ns, name, cq string) {
	t.Helper()
	e.q.CreateLocalQueue(t, ns, name, cq)
}

func findCondition(wl *multislicev1alpha1.Workload, typ string) *metav1.Condition {
	return apimeta.FindStatusCondition(wl.Status.Conditions, typ)
}

func resourceChips(n int64) resource.Quantity { return *resource.NewQuantity(n, resource.DecimalSI) }

// position reports whether the Workload waits at place cq in its
// ClusterQueue and lq in its LocalQueue.
func position(cq, lq int32) func(*multislicev1alpha1.Workload) bool {
	return func(wl *multislicev1alpha1.Workload) bool {
		p, q := wl.Status.PositionInClusterQueue, wl.Status.PositionInLocalQueue
		return p != nil && *p == cq && q != nil && *q == lq
	}
}

// waitHead waits until LocalQueue ns/lq and its ClusterQueue list exactly
// these Workload objects, in this order, as their waiting head (none: no
// head at all).
func (e *env) waitHead(t *testing.T, ns, lq string, workloads ...string) {
	t.Helper()
	names := func(s *multislicev1alpha1.PendingWorkloadsStatus) []string {
		if s == nil {
			return nil
		}
		var out []string
		for _, w := range s.Head {
			out = append(out, w.Name)
		}
		return out
	}
	var got, gotCQ []string
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		l, err := e.q.Client.MultisliceV1alpha1().LocalQueues(ns).Get(ctx, lq, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		cq, err := e.q.Client.MultisliceV1alpha1().ClusterQueues().Get(ctx, l.Spec.ClusterQueue, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		got, gotCQ = names(l.Status.PendingWorkloadsStatus), names(cq.Status.PendingWorkloadsStatus)
		return slices.Equal(got, workloads) && slices.Equal(gotCQ, workloads), nil
	})
	if err != nil {
		t.Fatalf("LocalQueue %s/%s head %v, its ClusterQueue's %v; want %v", ns, lq, got, gotCQ, workloads)
	}
}
