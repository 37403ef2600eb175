package e2e

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The seeds' manifests as written (manifests/examples/seeds): JobSets that
// name a LocalQueue and no scheduler, applied as `kubectl apply -f` does.
// The admission webhook gives their pods multislice-scheduler, which
// admits them through the queue, one pool per slice, within its quota;
// those the quota cannot hold wait, and run once the others are gone.

// Seed 000's combined Kueue + Hotswap example: two JobSets of 2 v6e 4x4
// slices (32 chips each) in a ClusterQueue of 32 chips.
func TestSeed000AsWritten(t *testing.T) {
	objs := applySeed(t, "seeds/000-kueue-hotswap.yaml")
	sets := seedJobSets(t, objs)
	checkSchedulerGiven(t, sets, "default/default-queue")
	runningThenWaiting(t, "tpu-training-cq", 32, sets, 4*4)
}

// Seed 002: JobSets of 1, 2 and 3 v5e 2x4 slices (8 chips each) in a
// ClusterQueue of 24 chips, on the cluster's three v5e pools.
func TestSeed002AsWritten(t *testing.T) {
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	objs := applySeed(t, "seeds/002-jobsets-multislice.yaml")
	sets := seedJobSets(t, objs)
	if len(sets) != 3 {
		t.Fatalf("%d JobSets in the seed's file, want 3", len(sets))
	}
	checkSchedulerGiven(t, sets, "default/multislice-queue")
	runningThenWaiting(t, "cluster-queue", 24, sets, 2*4)
}

// applySeed applies a file of manifests/examples as written, in namespace
// default, and when the test ends deletes its JobSets (waiting for their
// pods) and its queue objects; PriorityClasses stay, as other examples
// define the same.
func applySeed(t *testing.T, rel string) []*unstructured.Unstructured {
	t.Helper()
	objs := exampleObjects(t, rel)
	t.Cleanup(func() {
		for _, o := range objs {
			if o.GetKind() == "JobSet" {
				deleteJobSet(t, &jobsetv1alpha2.JobSet{ObjectMeta: metav1.ObjectMeta{Namespace: metav1.NamespaceDefault, Name: o.GetName()}})
			}
		}
		dyn, err := dynamic.NewForConfig(cluster.AdminConfig)
		if err != nil {
			t.Error(err)
			return
		}
		for _, kind := range []string{"LocalQueue", "ClusterQueue", "ResourceFlavor"} {
			for _, o := range objs {
				if o.GetKind() != kind {
					continue
				}
				ri := dyn.Resource(multislicev1alpha1.SchemeGroupVersion.WithResource(strings.ToLower(kind) + "s")).Namespace(o.GetNamespace())
				if err := ri.Delete(context.Background(), o.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
					t.Errorf("delete %s %s: %v", kind, o.GetName(), err)
				}
			}
		}
	})
	if err := cluster.Apply(t.Context(), objs, metav1.NamespaceDefault); err != nil {
		t.Fatalf("apply %s: %v", rel, err)
	}
	return objs
}

// seedJobSets reads back the JobSets of objs as created.
func seedJobSets(t *testing.T, objs []*unstructured.Unstructured) []*jobsetv1alpha2.JobSet {
	t.Helper()
	var sets []*jobsetv1alpha2.JobSet
	for _, o := range objs {
		if o.GetKind() != "JobSet" {
			continue
		}
		js, err := jobsets.JobsetV1alpha2().JobSets(metav1.NamespaceDefault).Get(t.Context(), o.GetName(), metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		sets = append(sets, js)
	}
	return sets
}

// checkSchedulerGiven checks that the webhook gave every JobSet's pods our
// scheduler, saying why: they name queue (namespace/name).
func checkSchedulerGiven(t *testing.T, sets []*jobsetv1alpha2.JobSet, queue string) {
	t.Helper()
	for _, js := range sets {
		for _, rj := range js.Spec.ReplicatedJobs {
			if got := rj.Template.Spec.Template.Spec.SchedulerName; got != wellknown.SchedulerName {
				t.Errorf("JobSet %s, replicated Job %s: schedulerName %q, want %q given by the webhook", js.Name, rj.Name, got, wellknown.SchedulerName)
			}
		}
		if why := js.Annotations[wellknown.SchedulerNameReasonAnnotation]; !strings.Contains(why, "names LocalQueue "+queue) {
			t.Errorf("JobSet %s: %s = %q", js.Name, wellknown.SchedulerNameReasonAnnotation, why)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// runningThenWaiting checks a queue of quota chips holding some of sets
// (each pod podChips chips): those it admits run, one pool per slice, on
// our scheduler, filling the quota; the others wait for quota without a
// pod bound. Once the running ones are deleted, the waiting ones run.
// Which run first depends on which gang is complete first: the test
// accepts any split the quota allows.
func runningThenWaiting(t *testing.T, clusterQueue string, quota int64, sets []*jobsetv1alpha2.JobSet, sliceChips int64) {
	t.Helper()
	chips := func(js *jobsetv1alpha2.JobSet) int64 { return int64(js.Spec.ReplicatedJobs[0].Replicas) * sliceChips }
	pods := func(js *jobsetv1alpha2.JobSet) int {
		return int(js.Spec.ReplicatedJobs[0].Replicas * *js.Spec.ReplicatedJobs[0].Template.Spec.Parallelism)
	}
	var running, waiting []*jobsetv1alpha2.JobSet
	poll(t, "the queue's quota to be taken and the rest to wait", 120*time.Second, func(ctx context.Context) (bool, error) {
		running, waiting = running[:0], waiting[:0]
		var used int64
		for _, js := range sets {
			wl, err := queueAPI(t).MultisliceV1alpha1().Workloads(js.Namespace).Get(ctx, "jobset-"+js.Name, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			switch {
			case admitted(wl):
				running = append(running, js)
				used += chips(js)
			case waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded")(wl):
				waiting = append(waiting, js)
			default:
				return false, nil
			}
		}
		return len(waiting) > 0 && len(running) > 0 && used <= quota && len(running)+len(waiting) == len(sets), nil
	}, func() string { return fmt.Sprintf("running %s, waiting %s", names(running), names(waiting)) })
	t.Logf("ClusterQueue %s runs %s; %s wait for quota", clusterQueue, names(running), names(waiting))

	used := map[string]string{}
	var inUse int64
	for _, js := range running {
		ps := waitRunning(t, js, pods(js), 120*time.Second)
		checkOnePoolPerSlice(t, ps, used)
		checkBoundByUs(t, ps)
		inUse += chips(js)
	}
	waitClusterQueue(t, clusterQueue, int32(len(waiting)), int32(len(running)), inUse, 30*time.Second)
	for _, js := range waiting {
		if c := workloadCondition(waitWorkload(t, js.Namespace, "jobset-"+js.Name, "waiting", 5*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded")),
			multislicev1alpha1.WorkloadQuotaReserved); !strings.Contains(c.Message, clusterQueue) {
			t.Errorf("JobSet %s waits saying %q, which names no ClusterQueue %s", js.Name, c.Message, clusterQueue)
		}
	}
	expectNoneBound(t, 3*time.Second, waiting...)

	for _, js := range running {
		deleteJobSet(t, js)
	}
	used = map[string]string{}
	for _, js := range waiting {
		ps := waitRunning(t, js, pods(js), 120*time.Second)
		checkOnePoolPerSlice(t, ps, used)
		checkBoundByUs(t, ps)
	}
}

func names(sets []*jobsetv1alpha2.JobSet) string {
	var out []string
	for _, js := range sets {
		out = append(out, js.Name)
	}
	slices.Sort(out)
	return "[" + strings.Join(out, " ") + "]"
}

// checkBoundByUs checks that multislice-scheduler bound each pod: the pod
// names it, and its Scheduled event is its.
func checkBoundByUs(t *testing.T, pods []corev1.Pod) {
	t.Helper()
	for _, p := range pods {
		if p.Spec.SchedulerName != wellknown.SchedulerName {
			t.Errorf("pod %s names scheduler %q", p.Name, p.Spec.SchedulerName)
			continue
		}
		events, err := client.EventsV1().Events(p.Namespace).List(t.Context(), metav1.ListOptions{FieldSelector: "regarding.name=" + p.Name + ",reason=Scheduled"})
		if err != nil {
			t.Fatal(err)
		}
		if len(events.Items) == 0 || events.Items[0].ReportingController != wellknown.SchedulerName {
			t.Errorf("pod %s: Scheduled events %d, want one reported by %s", p.Name, len(events.Items), wellknown.SchedulerName)
		}
	}
}

// With the webhook process killed, objects that do not opt in are created
// and scheduled as ever; one that names a queue is refused (the local
// cluster registers the webhook failing closed) with an error naming the
// webhook, and is accepted again once the webhook is back.
func TestWebhookDownBlocksNothingElse(t *testing.T) {
	ns := namespace(t)
	if err := cluster.Kill(localcluster.WebhookComponent); err != nil {
		t.Fatal(err)
	}
	restarted := false
	restart := func() {
		if !restarted {
			restarted = true
			if err := cluster.Restart(localcluster.WebhookComponent); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(restart)

	start := time.Now()
	plain, err := client.CoreV1().Pods(ns).Create(t.Context(), builders.Pod(ns, "plain").Obj(), metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("an ordinary pod was refused while the webhook is down: %v", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("creating an ordinary pod took %s while the webhook is down", d)
	}
	if plain.Spec.SchedulerName != corev1.DefaultSchedulerName {
		t.Errorf("ordinary pod's scheduler %q", plain.Spec.SchedulerName)
	}
	poll(t, "the ordinary pod to be scheduled and run", 60*time.Second, func(ctx context.Context) (bool, error) {
		p, err := client.CoreV1().Pods(ns).Get(ctx, plain.Name, metav1.GetOptions{})
		return err == nil && p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning, nil
	})

	queued := builders.Job(ns, "queued").Queue("any-queue").Obj()
	queued.ResourceVersion, queued.UID = "", ""
	_, err = client.BatchV1().Jobs(ns).Create(t.Context(), queued, metav1.CreateOptions{})
	if err == nil || !strings.Contains(err.Error(), "opt-in.webhook.multislice-scheduler.io") {
		t.Fatalf("a Job naming a queue while the webhook is down: %v, want it refused by the webhook's failure policy", err)
	}
	t.Logf("refused while the webhook is down: %v", err)

	restart()
	consumer := builders.Pod(ns, "consumer").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "req").Obj()
	var got *corev1.Pod
	err = wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		got, err = client.CoreV1().Pods(ns).Create(ctx, consumer, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("the webhook did not come back: %v", err)
	}
	if got.Spec.SchedulerName != wellknown.SchedulerName {
		t.Errorf("after the restart a consuming pod gets scheduler %q", got.Spec.SchedulerName)
	}
	if _, err := client.BatchV1().Jobs(ns).Create(t.Context(), queued, metav1.CreateOptions{}); err != nil {
		t.Errorf("the queued Job once the webhook is back: %v", err)
	}
}
