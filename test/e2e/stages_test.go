package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// A JobSet shaped like Kubeflow Trainer's (manifests/examples/startup-order/
// trainer-dependson.yaml): the workers depend on the initializer's Job
// completing. The CPU initializer runs for 5 s and completes; only then does
// JobSet create the workers' Jobs, and multislice-scheduler runs their 4
// pods, each worker Job on a v5e pool of its own.
func TestTrainerDependsOnRunsWorkersAfterInitializer(t *testing.T) {
	ns := namespace(t)
	js := exampleJobSet(t, "startup-order/trainer-dependson.yaml", ns)
	if rt := replicatedJob(t, js, "initializer").Template.Spec.Template.Annotations[localcluster.RunTimeAnnotation]; rt != "5s" {
		t.Fatalf("the example's initializer runs for %q, want 5s", rt)
	}
	runUntilDeleted(js, "workers")
	js = createJobSet(t, js)

	var init corev1.Pod
	var summary string
	poll(t, "the initializer's pod to succeed", 90*time.Second, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		if err != nil {
			return false, nil
		}
		var states, workers []string
		init = corev1.Pod{}
		for _, p := range pods {
			states = append(states, fmt.Sprintf("%s=%s@%q", p.Name, p.Status.Phase, p.Spec.NodeName))
			switch p.Labels[jobsetv1alpha2.ReplicatedJobNameKey] {
			case "initializer":
				init = p
			case "workers":
				workers = append(workers, p.Name)
			}
		}
		summary = strings.Join(states, " ")
		if len(workers) > 0 && init.Status.Phase != corev1.PodSucceeded {
			return false, fmt.Errorf("worker pods %v exist while the initializer is %q: %s", workers, init.Status.Phase, summary)
		}
		return init.Status.Phase == corev1.PodSucceeded, nil
	}, func() string { return summary })
	if init.Spec.SchedulerName != app.Name || init.Spec.NodeName == "" {
		t.Errorf("initializer %s: schedulerName %q, node %q", init.Name, init.Spec.SchedulerName, init.Spec.NodeName)
	}

	workers := waitRunning(t, js, 4, 180*time.Second)
	for _, p := range workers {
		if rj := p.Labels[jobsetv1alpha2.ReplicatedJobNameKey]; rj != "workers" {
			t.Errorf("%s of replicated Job %q is Running, want only workers", p.Name, rj)
		}
	}
	checkOnePoolPerSlice(t, workers, nil)
	checkAccelerator(t, workers, "tpu-v5-lite-podslice")

	// JobSet created the workers' Jobs only after the initializer's completed.
	jobs := jobSetJobs(t, js)
	var completed *metav1.Time
	for _, j := range jobs {
		if j.Labels[jobsetv1alpha2.ReplicatedJobNameKey] == "initializer" {
			completed = j.Status.CompletionTime
		}
	}
	if completed == nil {
		t.Fatalf("the initializer's Job has no completion time")
	}
	for _, j := range jobs {
		if j.Labels[jobsetv1alpha2.ReplicatedJobNameKey] == "workers" && j.CreationTimestamp.Before(completed) {
			t.Errorf("Job %s created at %s, before the initializer completed at %s", j.Name, j.CreationTimestamp, completed)
		}
	}
}

// The same job with startupPolicy InOrder (trainer-inorder.yaml): JobSet
// creates the workers' Jobs once the initializer's is ready, and the
// initializer keeps running next to the 4 workers, each worker Job on a v5e
// pool of its own.
func TestTrainerInOrderRunsInitializerAndWorkers(t *testing.T) {
	ns := namespace(t)
	js := exampleJobSet(t, "startup-order/trainer-inorder.yaml", ns)
	if js.Spec.StartupPolicy == nil || js.Spec.StartupPolicy.StartupPolicyOrder != jobsetv1alpha2.InOrder {
		t.Fatalf("the example's startupPolicy is %+v, want InOrder", js.Spec.StartupPolicy)
	}
	runUntilDeleted(js)
	js = createJobSet(t, js)

	pods := waitRunning(t, js, 5, 180*time.Second)
	var init *corev1.Pod
	var workers []corev1.Pod
	for i, p := range pods {
		switch p.Labels[jobsetv1alpha2.ReplicatedJobNameKey] {
		case "initializer":
			init = &pods[i]
		case "workers":
			workers = append(workers, p)
		}
		if p.Spec.SchedulerName != app.Name {
			t.Errorf("%s: schedulerName %q", p.Name, p.Spec.SchedulerName)
		}
	}
	if init == nil || len(workers) != 4 {
		t.Fatalf("Running: initializer %v, %d workers; want the initializer and 4 workers", init != nil, len(workers))
	}
	checkOnePoolPerSlice(t, workers, nil)
	checkAccelerator(t, workers, "tpu-v5-lite-podslice")

	// The workers' Jobs were created once the initializer's pod was ready.
	var ready *metav1.Time
	for _, c := range init.Status.Conditions {
		if c.Type == corev1.PodReady && c.Status == corev1.ConditionTrue {
			ready = &c.LastTransitionTime
		}
	}
	if ready == nil {
		t.Fatalf("initializer %s is not Ready", init.Name)
	}
	for _, j := range jobSetJobs(t, js) {
		if j.Labels[jobsetv1alpha2.ReplicatedJobNameKey] == "workers" && j.CreationTimestamp.Before(ready) {
			t.Errorf("Job %s created at %s, before the initializer was ready at %s", j.Name, j.CreationTimestamp, ready)
		}
	}
}

// A PodGroup confined to one node pool (manifests/examples/podgroup-v6e) and
// JobSets share the four v6e pools: the PodGroup's 4 pods take one pool, a
// 3-slice JobSet the other three, none shared. While any of the PodGroup's
// pods runs its pool stays its own; a 1-slice JobSet waits with no pod bound
// until they are all deleted, and runs in the pool they leave.
func TestPodGroupAndJobSetsShareV6ePools(t *testing.T) {
	ns := namespace(t)
	pg, pgPods := createExamplePodGroup(t, "podgroup-v6e/serving-podgroup.yaml", ns)
	if pg.Spec.MinMember != 4 || len(pgPods) != 4 || pg.Annotations[wellknown.PodGroupDomainKeyAnnotation] != wellknown.NodePoolLabel {
		t.Fatalf("the example's PodGroup: minMember %d, %d pods, annotations %v; want 4 pods confined to a node pool", pg.Spec.MinMember, len(pgPods), pg.Annotations)
	}
	serving := waitPodsRunning(t, ns, wellknown.PodGroupLabel+"="+pg.Name, 4, 90*time.Second)
	checkAccelerator(t, serving, "tpu-v6e-slice")
	servingPool := ""
	for _, p := range serving {
		pool := poolOfNode(t, p.Spec.NodeName)
		if servingPool != "" && pool != servingPool {
			t.Fatalf("PodGroup %s split across pools %s and %s", pg.Name, servingPool, pool)
		}
		servingPool = pool
	}
	used := map[string]string{servingPool: "PodGroup " + pg.Name}

	three := exampleJobSet(t, "podgroup-v6e/training-3slice.yaml", ns)
	runUntilDeleted(three)
	three = createJobSet(t, three)
	threePods := waitRunning(t, three, 12, 180*time.Second)
	checkAccelerator(t, threePods, "tpu-v6e-slice")
	checkOnePoolPerSlice(t, threePods, used)
	t.Logf("pools: %v", used)

	// The PodGroup holds its pool for as long as any of its pods runs: with
	// one of them gone, a 1-pod exclusive JobSet that would fit on the node
	// it left still waits.
	deletePods(t, pgPods[3:])
	probe := exampleJobSet(t, "podgroup-v6e/training-1slice.yaml", ns)
	probe.Name = "probe"
	probe.Spec.ReplicatedJobs[0].Template.Spec.Parallelism = ptr.To[int32](1)
	probe.Spec.ReplicatedJobs[0].Template.Spec.Completions = ptr.To[int32](1)
	runUntilDeleted(probe)
	probe = createJobSet(t, probe)
	expectNoneBound(t, 5*time.Second, probe)
	t.Logf("1-pod JobSet waiting: %s", pendingReasons(t, probe))
	deleteJobSet(t, probe)

	one := exampleJobSet(t, "podgroup-v6e/training-1slice.yaml", ns)
	runUntilDeleted(one)
	one = createJobSet(t, one)
	expectNoneBound(t, 5*time.Second, one)
	t.Logf("1-slice JobSet waiting: %s", pendingReasons(t, one))

	deletePods(t, pgPods[:3])
	onePods := waitRunning(t, one, 4, 180*time.Second)
	delete(used, servingPool)
	checkOnePoolPerSlice(t, onePods, used)
	for _, p := range onePods {
		if pool := poolOfNode(t, p.Spec.NodeName); pool != servingPool {
			t.Errorf("%s on pool %s, want %s, the one the PodGroup left", p.Name, pool, servingPool)
		}
	}
}

// exampleObjects decodes a manifest of manifests/examples.
func exampleObjects(t *testing.T, rel string) []*unstructured.Unstructured {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "manifests", "examples", rel))
	if err != nil {
		t.Fatal(err)
	}
	objs, err := localcluster.DecodeYAML(data)
	if err != nil {
		t.Fatalf("%s: %v", rel, err)
	}
	return objs
}

func fromUnstructured(t *testing.T, rel string, u *unstructured.Unstructured, into any) {
	t.Helper()
	if err := runtime.DefaultUnstructuredConverter.FromUnstructuredWithValidation(u.Object, into, true); err != nil {
		t.Fatalf("%s: %s %s: %v", rel, u.GetKind(), u.GetName(), err)
	}
}

// exampleJobSet reads the one JobSet of an example manifest, for namespace ns.
func exampleJobSet(t *testing.T, rel, ns string) *jobsetv1alpha2.JobSet {
	t.Helper()
	objs := exampleObjects(t, rel)
	if len(objs) != 1 || objs[0].GetKind() != "JobSet" {
		t.Fatalf("%s: want one JobSet, got %d objects", rel, len(objs))
	}
	js := &jobsetv1alpha2.JobSet{}
	fromUnstructured(t, rel, objs[0], js)
	js.Namespace = ns
	return js
}

func replicatedJob(t *testing.T, js *jobsetv1alpha2.JobSet, name string) *jobsetv1alpha2.ReplicatedJob {
	t.Helper()
	for i := range js.Spec.ReplicatedJobs {
		if js.Spec.ReplicatedJobs[i].Name == name {
			return &js.Spec.ReplicatedJobs[i]
		}
	}
	t.Fatalf("JobSet %s has no replicated Job %q", js.Name, name)
	return nil
}

// runUntilDeleted drops the local cluster's run-time annotation from the
// pods of the named replicated Jobs (all if none are named): they run until
// deleted, so the test's checks do not race their completion.
func runUntilDeleted(js *jobsetv1alpha2.JobSet, names ...string) {
	for i := range js.Spec.ReplicatedJobs {
		rj := &js.Spec.ReplicatedJobs[i]
		if len(names) == 0 || slices.Contains(names, rj.Name) {
			delete(rj.Template.Spec.Template.Annotations, localcluster.RunTimeAnnotation)
		}
	}
}

// createExamplePodGroup creates the PodGroup and the pods of an example
// manifest, in its order, in namespace ns; the pods are deleted when the
// test ends.
func createExamplePodGroup(t *testing.T, rel, ns string) (*schedv1alpha1.PodGroup, []*corev1.Pod) {
	t.Helper()
	pgs, err := schedclient.NewForConfig(cluster.AdminConfig)
	if err != nil {
		t.Fatal(err)
	}
	var pg *schedv1alpha1.PodGroup
	var pods []*corev1.Pod
	for _, o := range exampleObjects(t, rel) {
		switch o.GetKind() {
		case "PodGroup":
			in := &schedv1alpha1.PodGroup{}
			fromUnstructured(t, rel, o, in)
			in.Namespace = ns
			if pg, err = pgs.SchedulingV1alpha1().PodGroups(ns).Create(t.Context(), in, metav1.CreateOptions{}); err != nil {
				t.Fatalf("create PodGroup %s: %v", in.Name, err)
			}
		case "Pod":
			pods = append(pods, createExamplePod(t, rel, ns, o))
		default:
			t.Fatalf("%s: unexpected %s %s", rel, o.GetKind(), o.GetName())
		}
	}
	if pg == nil {
		t.Fatalf("%s: no PodGroup", rel)
	}
	return pg, pods
}

// createExamplePod creates the pod o of example rel in namespace ns, and
// deletes it when the test ends.
func createExamplePod(t *testing.T, rel, ns string, o *unstructured.Unstructured) *corev1.Pod {
	t.Helper()
	in := &corev1.Pod{}
	fromUnstructured(t, rel, o, in)
	in.Namespace = ns
	p, err := client.CoreV1().Pods(ns).Create(t.Context(), in, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create pod %s: %v", in.Name, err)
	}
	t.Cleanup(func() { deletePods(t, []*corev1.Pod{p}) })
	return p
}

// deletePods deletes pods and waits until they are gone.
func deletePods(t *testing.T, pods []*corev1.Pod) {
	ctx := context.Background()
	for _, p := range pods {
		if err := client.CoreV1().Pods(p.Namespace).Delete(ctx, p.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete pod %s: %v", p.Name, err)
		}
	}
	for _, p := range pods {
		err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
			_, err := client.CoreV1().Pods(p.Namespace).Get(ctx, p.Name, metav1.GetOptions{})
			return apierrors.IsNotFound(err), nil
		})
		if err != nil {
			t.Errorf("pod %s not gone: %v", p.Name, err)
		}
	}
}

// waitPodsRunning waits until want pods matching selector are bound,
// Running and not being deleted, and returns them.
func waitPodsRunning(t *testing.T, ns, selector string, want int, timeout time.Duration) []corev1.Pod {
	t.Helper()
	var running []corev1.Pod
	var summary string
	poll(t, fmt.Sprintf("%d Running pods %s", want, selector), timeout, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: selector})
		if err != nil {
			return false, nil
		}
		running = running[:0]
		var states []string
		for _, p := range list.Items {
			states = append(states, fmt.Sprintf("%s=%s@%q", p.Name, p.Status.Phase, p.Spec.NodeName))
			if p.Spec.NodeName != "" && p.Status.Phase == corev1.PodRunning && p.DeletionTimestamp == nil {
				running = append(running, p)
			}
		}
		summary = strings.Join(states, " ")
		return len(running) == want, nil
	}, func() string { return summary })
	return running
}

// expectNoneBound fails the test if a pod of the JobSets is bound within d.
func expectNoneBound(t *testing.T, d time.Duration, sets ...*jobsetv1alpha2.JobSet) {
	t.Helper()
	for deadline := time.Now().Add(d); time.Now().Before(deadline); time.Sleep(250 * time.Millisecond) {
		for _, js := range sets {
			pods, err := jobSetPods(t.Context(), js)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range pods {
				if p.Spec.NodeName != "" {
					t.Fatalf("%s bound to %s (pool %s), want it pending", p.Name, p.Spec.NodeName, poolOfNode(t, p.Spec.NodeName))
				}
			}
		}
	}
}

// pendingReasons describes why the JobSet's pods are not scheduled, from
// their PodScheduled conditions.
func pendingReasons(t *testing.T, js *jobsetv1alpha2.JobSet) string {
	t.Helper()
	pods, err := jobSetPods(t.Context(), js)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range pods {
		for _, c := range p.Status.Conditions {
			if c.Type == corev1.PodScheduled && c.Status != corev1.ConditionTrue {
				out = append(out, fmt.Sprintf("%s: %s: %s", p.Name, c.Reason, c.Message))
			}
		}
	}
	if len(out) == 0 {
		return fmt.Sprintf("%d pod(s), none with a PodScheduled condition yet", len(pods))
	}
	return strings.Join(out, "; ")
}

func jobSetJobs(t *testing.T, js *jobsetv1alpha2.JobSet) []batchv1.Job {
	t.Helper()
	list, err := client.BatchV1().Jobs(js.Namespace).List(t.Context(), metav1.ListOptions{LabelSelector: jobsetv1alpha2.JobSetNameKey + "=" + js.Name})
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}

// checkAccelerator checks every pod runs on a node of the TPU accelerator.
func checkAccelerator(t *testing.T, pods []corev1.Pod, accelerator string) {
	t.Helper()
	for _, p := range pods {
		n, err := client.CoreV1().Nodes().Get(t.Context(), p.Spec.NodeName, metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := n.Labels[wellknown.TPUAcceleratorLabel]; got != accelerator {
			t.Errorf("%s on node %s of accelerator %q, want %q", p.Name, n.Name, got, accelerator)
		}
	}
}
