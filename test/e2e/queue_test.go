package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The seed 002 queue objects (manifests/examples/queues/
// seed-002-multislice-v5e.yaml): flavor, ClusterQueue and LocalQueue.
const (
	seedFlavor       = "vlp-24"
	seedClusterQueue = "cluster-queue"
	seedLocalQueue   = "multislice-queue"
)

// Seed 002 with its queue objects applied as written, on six v5e 2x4 pools
// (manifests/examples/queueing-v5e/nodepools.yaml): twice the 24
// google.com/tpu of the ClusterQueue, so quota, not room, is what binds.
// JobSets of 3, 1 and 2 slices (manifests/examples/queueing-v5e) join the
// LocalQueue in that order and take the real JobSet → Job → pod path. The
// 3-slice JobSet is admitted and runs alone; the 1- and 2-slice ones wait,
// gated, for quota although three pools are free, and are admitted and run
// together once it completes. Their Workload objects and the queues' status
// say so at each step.
func TestQueueSeed002ThreeSlicesAloneThenOneAndTwoTogether(t *testing.T) {
	setNodePools(t, "queueing-v5e/nodepools.yaml")
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	// The seed's LocalQueue is in the default namespace.
	ns := metav1.NamespaceDefault
	waitLocalQueueActive(t, ns, seedLocalQueue)
	history := recordWorkloads(t, ns)

	three := exampleJobSet(t, "queueing-v5e/queued-3slice.yaml", ns)
	if q := three.Labels[wellknown.QueueNameLabel]; q != seedLocalQueue {
		t.Fatalf("the example's %s label is %q, want %q", wellknown.QueueNameLabel, q, seedLocalQueue)
	}
	if rt := three.Spec.ReplicatedJobs[0].Template.Spec.Template.Annotations[localcluster.RunTimeAnnotation]; rt != "30s" {
		t.Fatalf("the example's pods run for %q, want 30s", rt)
	}
	three = createJobSet(t, three)
	threePods := waitRunning(t, three, 6, 120*time.Second)
	checkOnePoolPerSlice(t, threePods, nil)
	wl3 := waitWorkload(t, ns, "jobset-queued-3slice", "admitted", 30*time.Second, admitted)
	checkAdmission(t, wl3, threePods)

	// The 1- and 2-slice JobSets run until deleted: their checks below do
	// not race their completion.
	one := exampleJobSet(t, "queueing-v5e/queued-1slice.yaml", ns)
	runUntilDeleted(one)
	one = createJobSet(t, one)
	two := exampleJobSet(t, "queueing-v5e/queued-2slice.yaml", ns)
	runUntilDeleted(two)
	two = createJobSet(t, two)

	for _, name := range []string{"jobset-queued-1slice", "jobset-queued-2slice"} {
		wl := waitWorkload(t, ns, name, "waiting for quota", 30*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded"))
		if msg := workloadCondition(wl, multislicev1alpha1.WorkloadQuotaReserved).Message; !strings.Contains(msg, seedClusterQueue) || !strings.Contains(msg, seedFlavor) {
			t.Errorf("%s: QuotaExceeded message %q names neither ClusterQueue %s nor flavor %s", name, msg, seedClusterQueue, seedFlavor)
		}
		if adm := workloadCondition(wl, multislicev1alpha1.WorkloadAdmitted); adm.Status != metav1.ConditionFalse {
			t.Errorf("%s: Admitted=%s while waiting for quota", name, adm.Status)
		}
		if wl.Spec.QueueName != seedLocalQueue {
			t.Errorf("%s: spec.queueName %q, want %q", name, wl.Spec.QueueName, seedLocalQueue)
		}
	}
	waitClusterQueue(t, seedClusterQueue, 2, 1, 24, 30*time.Second)
	waitLocalQueue(t, ns, seedLocalQueue, 2, 1, 30*time.Second)
	expectNoneBound(t, 3*time.Second, one, two)
	// Room is not what they wait for: three v5e pools are free.
	if free := freeV5ePools(t); len(free) < 3 {
		t.Errorf("free v5e pools %v, want at least 3 while the 1- and 2-slice JobSets wait", free)
	}
	for _, js := range []*jobsetv1alpha2.JobSet{one, two} {
		waitJobSetEvent(t, js, "QuotaExceeded", 30*time.Second)
	}

	poll(t, "JobSet queued-3slice to complete", 120*time.Second, func(ctx context.Context) (bool, error) {
		cur, err := jobsets.JobsetV1alpha2().JobSets(ns).Get(ctx, three.Name, metav1.GetOptions{})
		return err == nil && cur.Status.TerminalState == string(jobsetv1alpha2.JobSetCompleted), nil
	})
	onePods := waitRunning(t, one, 2, 120*time.Second)
	twoPods := waitRunning(t, two, 4, 120*time.Second)
	used := map[string]string{}
	checkOnePoolPerSlice(t, onePods, used)
	checkOnePoolPerSlice(t, twoPods, used)
	checkAdmission(t, waitWorkload(t, ns, "jobset-queued-1slice", "admitted", 30*time.Second, admitted), onePods)
	checkAdmission(t, waitWorkload(t, ns, "jobset-queued-2slice", "admitted", 30*time.Second, admitted), twoPods)
	waitClusterQueue(t, seedClusterQueue, 0, 2, 24, 30*time.Second)
	waitLocalQueue(t, ns, seedLocalQueue, 0, 2, 30*time.Second)

	// The completed JobSet's Workload says it finished and holds no
	// admission any more.
	if wl3, ok := expectWorkload(t, ns, "jobset-queued-3slice", "finished", 30*time.Second, func(wl *multislicev1alpha1.Workload) bool {
		return workloadCondition(wl, multislicev1alpha1.WorkloadFinished).Status == metav1.ConditionTrue
	}); ok {
		if c := workloadCondition(wl3, multislicev1alpha1.WorkloadFinished); c.Reason != multislicev1alpha1.ReasonSucceeded {
			t.Errorf("finished 3-slice Workload: Finished reason %q, want %q", c.Reason, multislicev1alpha1.ReasonSucceeded)
		}
		if wl3.Status.Admission != nil {
			t.Errorf("finished 3-slice Workload still holds an admission: %s", describeWorkload(wl3))
		}
	}
	// It stayed admitted until it finished: its pods completing did not
	// make it pending again.
	history.checkNoRelapse(t)
}

// A JobSet naming a LocalQueue that does not exist waits, gated, with
// reason LocalQueueNotFound on its Workload; once the LocalQueue is
// created, the JobSet is admitted through the seed's ClusterQueue and runs.
func TestQueueMissingLocalQueueWaitsUntilCreated(t *testing.T) {
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	ns := namespace(t)
	js := v5eJobSet(ns, "early", 1)
	js.Labels = map[string]string{wellknown.QueueNameLabel: "late-queue"}
	js = createJobSet(t, js)

	wl := waitWorkload(t, ns, "jobset-early", "waiting for its LocalQueue", 30*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, multislicev1alpha1.ReasonLocalQueueNotFound))
	if msg := workloadCondition(wl, multislicev1alpha1.WorkloadQuotaReserved).Message; !strings.Contains(msg, ns+"/late-queue") {
		t.Errorf("LocalQueueNotFound message %q does not name %s/late-queue", msg, ns)
	}
	if wl.Spec.QueueName != "late-queue" || wl.Status.Admission != nil {
		t.Errorf("waiting Workload: %s (queueName %q)", describeWorkload(wl), wl.Spec.QueueName)
	}
	if adm := workloadCondition(wl, multislicev1alpha1.WorkloadAdmitted); adm.Status != metav1.ConditionFalse {
		t.Errorf("Admitted=%s while its LocalQueue does not exist", adm.Status)
	}
	waitJobSetEvent(t, js, multislicev1alpha1.ReasonLocalQueueNotFound, 30*time.Second)
	expectNoneBound(t, 3*time.Second, js)

	createSeedLocalQueue(t, ns, "late-queue")
	pods := waitRunning(t, js, 2, 90*time.Second)
	checkOnePoolPerSlice(t, pods, nil)
	checkAdmission(t, waitWorkload(t, ns, "jobset-early", "admitted", 30*time.Second, admitted), pods)
	waitLocalQueue(t, ns, "late-queue", 0, 1, 30*time.Second)
}

// createSeedLocalQueue creates LocalQueue ns/name of seed 002's
// ClusterQueue.
func createSeedLocalQueue(t *testing.T, ns, name string) {
	t.Helper()
	lq := &multislicev1alpha1.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec:       multislicev1alpha1.LocalQueueSpec{ClusterQueue: seedClusterQueue},
	}
	if _, err := queueAPI(t).MultisliceV1alpha1().LocalQueues(ns).Create(t.Context(), lq, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// admitted: the Workload holds quota and is admitted.
func admitted(wl *multislicev1alpha1.Workload) bool {
	return workloadCondition(wl, multislicev1alpha1.WorkloadQuotaReserved).Status == metav1.ConditionTrue &&
		workloadCondition(wl, multislicev1alpha1.WorkloadAdmitted).Status == metav1.ConditionTrue &&
		wl.Status.Admission != nil
}

// waitingFor: the Workload's condition typ is False for reason, and it
// holds no admission.
func waitingFor(typ, reason string) func(*multislicev1alpha1.Workload) bool {
	return func(wl *multislicev1alpha1.Workload) bool {
		c := workloadCondition(wl, typ)
		return c.Status == metav1.ConditionFalse && c.Reason == reason && wl.Status.Admission == nil
	}
}

// checkAdmission checks an admitted JobSet Workload against the seed's
// queue objects and the JobSet's running pods: reserved in the seed's
// ClusterQueue, one pod set per Job, each charged 2 pods × 4 google.com/tpu
// of flavor vlp-24 in the domain (node pool) its pods run in.
func checkAdmission(t *testing.T, wl *multislicev1alpha1.Workload, pods []corev1.Pod) {
	t.Helper()
	adm := wl.Status.Admission
	if adm == nil {
		t.Fatalf("no admission: %s", describeWorkload(wl))
	}
	if adm.ClusterQueue != seedClusterQueue {
		t.Errorf("%s: reserved in ClusterQueue %q, want %q", wl.Name, adm.ClusterQueue, seedClusterQueue)
	}
	poolOfJob := map[string]string{}
	for _, p := range pods {
		poolOfJob[p.Labels[batchv1.JobNameLabel]] = poolOfNode(t, p.Spec.NodeName)
	}
	if len(wl.Spec.PodSets) != len(poolOfJob) || len(adm.PodSetAssignments) != len(poolOfJob) {
		t.Errorf("%s: %d pod sets, %d assignments, want one per Job %v: %s", wl.Name, len(wl.Spec.PodSets), len(adm.PodSetAssignments), poolOfJob, describeWorkload(wl))
	}
	// The template sets only limits; requests default to them, as they
	// do on the pods: 4 chips per pod, 8 per pod set.
	var badRequests, badUsage []string
	for _, ps := range wl.Spec.PodSets {
		if ps.TopologyKey != wellknown.NodePoolLabel {
			t.Errorf("%s: pod set %s has topologyKey %q, want %q", wl.Name, ps.Name, ps.TopologyKey, wellknown.NodePoolLabel)
		}
		if q := ps.Requests[wellknown.ResourceTPU]; q.Value() != 4 {
			badRequests = append(badRequests, fmt.Sprintf("%s: %v", ps.Name, ps.Requests))
		}
	}
	if len(badRequests) > 0 {
		t.Errorf("%s: spec.podSets[].requests lack 4 %s per pod: %s", wl.Name, wellknown.ResourceTPU, strings.Join(badRequests, "; "))
	}
	for _, a := range adm.PodSetAssignments {
		pool, ok := poolOfJob[a.Name]
		switch {
		case !ok:
			t.Errorf("%s: assignment of pod set %s, which is no Job of the running pods %v", wl.Name, a.Name, poolOfJob)
		case a.Domain != pool:
			t.Errorf("%s: pod set %s assigned domain %q, its pods run in pool %s", wl.Name, a.Name, a.Domain, pool)
		}
		if f := a.Flavors[wellknown.ResourceTPU]; f != seedFlavor {
			t.Errorf("%s: pod set %s has flavor %q for %s, want %q (flavors %v)", wl.Name, a.Name, f, wellknown.ResourceTPU, seedFlavor, a.Flavors)
		}
		if a.Count != 2 {
			t.Errorf("%s: pod set %s admitted for %d pods, want 2", wl.Name, a.Name, a.Count)
		}
		if q := a.ResourceUsage[wellknown.ResourceTPU]; q.Value() != 8 {
			badUsage = append(badUsage, fmt.Sprintf("%s: %v", a.Name, a.ResourceUsage))
		}
	}
	if len(badUsage) > 0 {
		t.Errorf("%s: status.admission.podSetAssignments[].resourceUsage lack 8 %s per pod set: %s", wl.Name, wellknown.ResourceTPU, strings.Join(badUsage, "; "))
	}
}

// waitLocalQueueActive waits until the scheduler reports the LocalQueue
// Active: it has seen the LocalQueue and its ClusterQueue.
func waitLocalQueueActive(t *testing.T, ns, name string) {
	t.Helper()
	api := queueAPI(t).MultisliceV1alpha1().LocalQueues(ns)
	poll(t, "LocalQueue "+ns+"/"+name+" Active", 30*time.Second, func(ctx context.Context) (bool, error) {
		lq, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		for _, c := range lq.Status.Conditions {
			if c.Type == multislicev1alpha1.LocalQueueActive && c.Status == metav1.ConditionTrue {
				return true, nil
			}
		}
		return false, nil
	})
}

// waitLocalQueue waits until a LocalQueue's status counts want pending and
// admitted workloads.
func waitLocalQueue(t *testing.T, ns, name string, pending, admitted int32, timeout time.Duration) {
	t.Helper()
	api := queueAPI(t).MultisliceV1alpha1().LocalQueues(ns)
	var last *multislicev1alpha1.LocalQueue
	poll(t, "LocalQueue "+ns+"/"+name+" counts", timeout, func(ctx context.Context) (bool, error) {
		lq, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = lq
		return lq.Status.PendingWorkloads == pending && lq.Status.AdmittedWorkloads == admitted, nil
	}, func() string {
		if last == nil {
			return "no LocalQueue"
		}
		return fmt.Sprintf("%d pending, %d admitted; want %d and %d", last.Status.PendingWorkloads, last.Status.AdmittedWorkloads, pending, admitted)
	})
}

// freeV5ePools lists the v5e 2x4 pools no pod runs on.
func freeV5ePools(t *testing.T) []string {
	t.Helper()
	nodes, err := client.CoreV1().Nodes().List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.TPUTopologyLabel + "=2x4"})
	if err != nil {
		t.Fatal(err)
	}
	busy := map[string]bool{}
	poolOf := map[string]string{}
	for _, n := range nodes.Items {
		pool := n.Labels[wellknown.NodePoolLabel]
		poolOf[n.Name] = pool
		if _, seen := busy[pool]; !seen {
			busy[pool] = false
		}
	}
	pods, err := client.CoreV1().Pods(metav1.NamespaceAll).List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		if pool, ok := poolOf[p.Spec.NodeName]; ok && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			busy[pool] = true
		}
	}
	var free []string
	for pool, b := range busy {
		if !b {
			free = append(free, pool)
		}
	}
	slices.Sort(free)
	return free
}

// waitJobSetEvent waits for an event of reason on the JobSet.
func waitJobSetEvent(t *testing.T, js *jobsetv1alpha2.JobSet, reason string, timeout time.Duration) {
	t.Helper()
	selector := fields.AndSelectors(
		fields.OneTermEqualSelector("involvedObject.kind", "JobSet"),
		fields.OneTermEqualSelector("involvedObject.name", js.Name),
		fields.OneTermEqualSelector("reason", reason)).String()
	poll(t, fmt.Sprintf("a %s event on JobSet %s", reason, js.Name), timeout, func(ctx context.Context) (bool, error) {
		events, err := client.CoreV1().Events(js.Namespace).List(ctx, metav1.ListOptions{FieldSelector: selector})
		return err == nil && len(events.Items) > 0, nil
	})
}
