package faults_test

import (
	"context"
	"fmt"
	"maps"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

const (
	// flavor, clusterQueue and localQueue are the queue objects the
	// tests create: quota for the v5e 2x4 pools.
	flavor       = "v5e"
	clusterQueue = "cq"
	localQueue   = "lq"
)

// cluster is a control plane with the workload and queue APIs, v5e pools,
// a namespace, and a JobSet emulator creating JobSets' pods all at once.
type cluster struct {
	cp      *harness.ControlPlane
	q       *harness.Queues
	ns      string
	jobsets *harness.JobSets
}

// newCluster starts a cluster of pools v5e pools and a namespace named
// after prefix; with chips > 0, queue objects (createQueues) of that quota.
func newCluster(t *testing.T, prefix string, pools int, chips int64) *cluster {
	t.Helper()
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	v5ePools(t, cp, pools)
	c := &cluster{cp: cp, q: cp.Queues(), ns: cp.CreateNamespace(t, prefix), jobsets: cp.NewJobSets(t, harness.AllAtOnce)}
	if chips > 0 {
		createQueues(t, c.q, c.ns, chips)
	}
	return c
}

// reconcileEvery is how often the schedulers of the fault suite reconcile
// quota usage with the API: every test is also a test that it finds no
// drift (see TestMain).
const reconcileEvery = 1

// schedulerConfig is the shipped configuration with MultisliceGang's args
// set to args, and usage reconciled every reconcileEvery seconds.
func schedulerConfig(t *testing.T, args map[string]any) string {
	t.Helper()
	all := map[string]any{"quotaReconcileSeconds": reconcileEvery}
	maps.Copy(all, args)
	return harness.SchedulerConfigWithArgs(t, all)
}

// v5ePools creates n v5e 2x4 pools (2 hosts × 4 chips) named pool-1…n.
func v5ePools(t *testing.T, cp *harness.ControlPlane, n int) {
	t.Helper()
	for i := 1; i <= n; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU(builders.V5e, "2x4", 4).Zone("us-west4-a"))
	}
}

// createFlavor creates the v5e flavor.
func createFlavor(t *testing.T, q *harness.Queues) {
	t.Helper()
	q.CreateFlavor(t, flavor, map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"})
}

// createQueues creates the v5e flavor, ClusterQueue cq with chips of
// google.com/tpu and LocalQueue lq in ns.
func createQueues(t *testing.T, q *harness.Queues, ns string, chips int64) {
	t.Helper()
	createFlavor(t, q)
	q.CreateClusterQueue(t, clusterQueue, multislicev1alpha1.ClusterQueueSpec{
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(harness.TPUQuota(flavor, chips))}})
	q.CreateLocalQueue(t, ns, localQueue, clusterQueue)
}

// queued is a JobSet of slices × (2 pods × 4 chips) on v5e 2x4 pools in
// LocalQueue lq.
func queued(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	return builders.JobSet(ns, name).Exclusive(wellknown.NodePoolLabel).
		Annotation(wellknown.QueueNameLabel, localQueue).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().TPU("4").
				NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).
				NodeSelector(wellknown.TPUTopologyLabel, "2x4")
		}).
		ReplicatedJob("slice", slices, 2).Obj()
}

// boundChips sums the google.com/tpu requests of the namespace's bound,
// non-terminal pods: what the API says the queue uses.
func boundChips(ctx context.Context, cp *harness.ControlPlane, ns string) (int64, error) {
	pods, err := cp.Client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	var chips int64
	for _, p := range pods.Items {
		if p.Spec.NodeName == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		for _, c := range p.Spec.Containers {
			if q, ok := c.Resources.Requests[wellknown.ResourceTPU]; ok {
				chips += q.Value()
			}
		}
	}
	return chips, nil
}

// neverOver fails the test if, polled for d, the namespace's bound pods
// ever use more than limit chips.
func neverOver(t *testing.T, cp *harness.ControlPlane, ns string, limit int64, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for time.Now().Before(deadline) {
		chips, err := boundChips(t.Context(), cp, ns)
		if err == nil && chips > limit {
			t.Fatalf("%d chips bound in %s, over the quota of %d", chips, ns, limit)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// waitChips waits until the namespace's bound pods use exactly want chips.
func waitChips(t *testing.T, cp *harness.ControlPlane, ns string, want int64) {
	t.Helper()
	var got int64
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		c, err := boundChips(ctx, cp, ns)
		got = c
		return err == nil && c == want, nil
	})
	if err != nil {
		t.Fatalf("%d chips bound in %s, want %d", got, ns, want)
	}
}

// quotaWaiting reports whether a Workload waits for quota.
var quotaWaiting = harness.WorkloadCondition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, "QuotaExceeded")
