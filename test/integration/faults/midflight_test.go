package faults_test

import (
	"context"
	"fmt"
	"net/http"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/util/retry"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	spclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// Changes that land while a decision is being carried out: its binds or
// evictions are in flight, held or failed at the fault proxy, while a node
// is relabelled, a JobSet resized, a deletion refused.

// unqueued is a JobSet of slices × 2 pods × 4 chips on v5e pools, in no
// queue.
func unqueued(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	js := queued(ns, name, slices)
	delete(js.Annotations, wellknown.QueueNameLabel)
	return js
}

// A slice is reserved on pool P; one member binds, the other's bind fails
// while the node it was reserved on is relabelled into pool Q, where
// another JobSet runs. The retried member must not follow the node: that
// would split the slice over P and Q and put two workloads in Q. Once the
// node is back in P, the slice completes there.
func TestNodeRelabelledUnderAReservationIsNotUsed(t *testing.T) {
	c := newCluster(t, "relabel", 2, 0)
	cp, ns, jobsets := c.cp, c.ns, c.jobsets
	fp := startBehindProxy(t, cp)

	other := jobsets.Create(t, unqueued(ns, "other", 1))
	q := cp.WaitWhollyPlaced(t, ns, other.Name, 2).Pools()[0]

	js := jobsets.CreateObject(t, unqueued(ns, "gang", 1))
	pods := builders.PodsOf(js, 0)
	held := pods[1].Name
	// Forbidden: the binder does not retry it on the spot; the pod goes
	// back to the queue and is scheduled again.
	fp.SetRules(harness.FaultRule{Name: "bind", Match: namedBinds(held), Hold: true, Fail: 1, Code: http.StatusForbidden})
	for _, p := range pods {
		jobsets.CreatePod(t, p)
	}
	first := cp.WaitForPodBound(t, ns, pods[0].Name)
	fp.WaitHeld(t, "bind", 1)
	p := poolOf(t, cp, first.Spec.NodeName)
	var moved string
	for _, n := range cp.NodePoolNodes(t, p) {
		if n.Name != first.Spec.NodeName {
			moved = n.Name
		}
	}
	relabel(t, cp, moved, q)
	fp.Release("bind") // the held bind fails
	waitFor(t, "the held bind to fail", func() bool { return fp.Counts()["bind"].Failed > 0 })
	fp.SetRules() // its retries go through

	cp.ExpectPodStaysUnbound(t, ns, held, 5*time.Second)
	relabel(t, cp, moved, p)
	second := cp.WaitForPodBound(t, ns, held)
	if second.Spec.NodeName != moved {
		t.Errorf("the slice completed on %s, want %s (the one node of %s with room)", second.Spec.NodeName, moved, p)
	}
	harness.CheckExclusive(t, cp.WaitWhollyPlaced(t, ns, "gang", 2), cp.WaitWhollyPlaced(t, ns, other.Name, 2))
}

// A 2-slice JobSet that passed Permit (its binds held in flight) is scaled
// down to 1 slice. The scheduler must go on scheduling: the old shape's
// reservation ends, nothing indexes its slices by the new numbers.
func TestJobSetScaledDownWhileItsBindsAreInFlight(t *testing.T) {
	c := newCluster(t, "scaled", 3, 0)
	cp, ns, jobsets := c.cp, c.ns, c.jobsets
	fp := startBehindProxy(t, cp)

	fp.SetRules(harness.FaultRule{Name: "binds", Match: harness.Binds(), Hold: true})
	jobsets.Create(t, unqueued(ns, "elastic", 2))
	fp.WaitHeld(t, "binds", 4)
	client := jobsetclient.NewForConfigOrDie(cp.Config)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		js, err := client.JobsetV1alpha2().JobSets(ns).Get(t.Context(), "elastic", metav1.GetOptions{})
		if err != nil {
			return err
		}
		js.Spec.ReplicatedJobs[0].Replicas = 1
		_, err = client.JobsetV1alpha2().JobSets(ns).Update(t.Context(), js, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(time.Second) // the scheduler sees the new shape with binds still held
	fp.Release("binds")
	fp.SetRules()

	// Still scheduling: another JobSet is placed on the free pool.
	jobsets.Create(t, unqueued(ns, "after", 1))
	cp.WaitWhollyPlaced(t, ns, "after", 2)
}

// A PodGroup is evicted whole for a higher-priority JobSet, and the
// apiserver refuses the deletion of one victim pod once. The eviction is
// retried until every pod of the victim is gone, and the preemptor runs.
func TestFailedVictimDeletionIsRetried(t *testing.T) {
	c := newCluster(t, "victim", 1, 0)
	cp, ns, jobsets := c.cp, c.ns, c.jobsets
	cp.CreateFromFile(t, "manifests/examples/priorityclasses.yaml")
	fp := startBehindProxy(t, cp)
	kubelet := cp.StartKubelet(t, 0)

	_, err := spclient.NewForConfigOrDie(cp.Config).SchedulingV1alpha1().PodGroups(ns).Create(t.Context(), &schedv1alpha1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "serving", Annotations: map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel}},
		Spec:       schedv1alpha1.PodGroupSpec{MinMember: 2},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 2 {
		cp.CreatePod(t, builders.Pod(ns, fmt.Sprintf("serving-%d", i)).Scheduler(app.Name).TPU("4").
			PriorityClass("low-priority-job").Label(wellknown.PodGroupLabel, "serving").Obj())
	}
	for i := range 2 {
		cp.WaitForPodBound(t, ns, fmt.Sprintf("serving-%d", i))
	}

	fp.SetRules(harness.FaultRule{Name: "delete", Match: namedDeletes("serving-0"), Fail: 1})
	js := unqueued(ns, "training", 1)
	js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.PriorityClassName = "high-priority-job"
	jobsets.Create(t, js)
	waitFor(t, "a deletion of serving-0 to fail", func() bool { return fp.Counts()["delete"].Failed > 0 })
	fp.SetRules()

	kubelet.WaitTerminated(t, "the victim PodGroup was left half running", func(p *corev1.Pod) bool {
		return p.Namespace == ns && p.Labels[wellknown.PodGroupLabel] == "serving"
	}, 2, nil)
	cp.WaitWhollyPlaced(t, ns, "training", 2)
}

// startBehindProxy starts the scheduler, with the shipped configuration,
// talking to the apiserver through a fault proxy it returns.
func startBehindProxy(t *testing.T, cp *harness.ControlPlane) *harness.FaultProxy {
	t.Helper()
	fp := cp.StartFaultProxy(t)
	harness.StartSchedulerWithKubeconfig(t, fp.Kubeconfig(t, "scheduler"), schedulerConfig(t, nil))
	return fp
}

// namedDeletes matches the deletions of the named pods.
func namedDeletes(names ...string) harness.RequestMatcher {
	want := map[string]bool{}
	for _, n := range names {
		want[n] = true
	}
	deletes := harness.PodDeletes()
	return func(info *request.RequestInfo) bool { return deletes(info) && want[info.Name] }
}

// poolOf is the node pool node is in.
func poolOf(t *testing.T, cp *harness.ControlPlane, node string) string {
	t.Helper()
	n, err := cp.Client.CoreV1().Nodes().Get(t.Context(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n.Labels[wellknown.NodePoolLabel]
}

// relabel moves node into pool.
func relabel(t *testing.T, cp *harness.ControlPlane, node, pool string) {
	t.Helper()
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		n, err := cp.Client.CoreV1().Nodes().Get(t.Context(), node, metav1.GetOptions{})
		if err != nil {
			return err
		}
		n.Labels[wellknown.NodePoolLabel] = pool
		_, err = cp.Client.CoreV1().Nodes().Update(t.Context(), n, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("relabel node %s into %s: %v", node, pool, err)
	}
}

// waitFor polls cond until it holds, failing the test after WaitTimeout.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 50*time.Millisecond, harness.WaitTimeout, true, func(context.Context) (bool, error) {
		return cond(), nil
	})
	if err != nil {
		t.Fatalf("never saw %s", what)
	}
}
