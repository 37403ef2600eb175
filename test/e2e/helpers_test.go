package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	multisliceinformers "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/informers/externalversions"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// namespace creates a namespace for one test, waits for the default service
// account that pods need, and deletes it when the test ends.
func namespace(t *testing.T) string {
	t.Helper()
	name := "e2e-" + strings.ToLower(strings.NewReplacer("/", "-", "_", "-").Replace(t.Name()))
	if len(name) > 63 {
		name = name[:63]
	}
	ctx := t.Context()
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = client.CoreV1().Namespaces().Delete(context.Background(), name, metav1.DeleteOptions{})
	})
	poll(t, "default service account of "+name, 30*time.Second, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().ServiceAccounts(name).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	return name
}

// v5eJobSet is the shape of manifests/examples/multislice-v5e: slices of
// 2 pods × 4 chips on v5e 2x4 pools, one pool per slice, scheduled by
// multislice-scheduler.
func v5eJobSet(ns, name string, slices int32) *jobsetv1alpha2.JobSet {
	return &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   ns,
			Name:        name,
			Annotations: map[string]string{jobsetv1alpha2.ExclusiveKey: wellknown.NodePoolLabel},
		},
		Spec: jobsetv1alpha2.JobSetSpec{
			FailurePolicy: &jobsetv1alpha2.FailurePolicy{MaxRestarts: 3},
			ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
				Name:     "slice",
				Replicas: slices,
				Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
					Parallelism:  ptr.To[int32](2),
					Completions:  ptr.To[int32](2),
					BackoffLimit: ptr.To[int32](0),
					Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
						SchedulerName: app.Name,
						NodeSelector: map[string]string{
							wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice",
							wellknown.TPUTopologyLabel:    "2x4",
						},
						Containers: []corev1.Container{{
							Name:    "jax-tpu",
							Image:   "python:3.8",
							Command: []string{"bash", "-c", "sleep 60"},
							Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
								wellknown.ResourceTPU: resource.MustParse("4"),
							}},
						}},
					}},
				}},
			}},
		},
	}
}

func createJobSet(t *testing.T, js *jobsetv1alpha2.JobSet) *jobsetv1alpha2.JobSet {
	t.Helper()
	created, err := jobsets.JobsetV1alpha2().JobSets(js.Namespace).Create(t.Context(), js, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create JobSet %s: %v", js.Name, err)
	}
	t.Cleanup(func() { deleteJobSet(t, created) })
	return created
}

// deleteJobSet deletes a JobSet and waits until its pods are gone, so the
// next test finds the node pools empty.
func deleteJobSet(t *testing.T, js *jobsetv1alpha2.JobSet) {
	ctx := context.Background()
	err := jobsets.JobsetV1alpha2().JobSets(js.Namespace).Delete(ctx, js.Name, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)})
	if err != nil && !apierrors.IsNotFound(err) {
		t.Errorf("delete JobSet %s: %v", js.Name, err)
		return
	}
	err = wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		return err == nil && len(pods) == 0, nil
	})
	if err != nil {
		t.Errorf("pods of JobSet %s not gone: %v", js.Name, err)
	}
}

func jobSetPods(ctx context.Context, js *jobsetv1alpha2.JobSet) ([]corev1.Pod, error) {
	list, err := client.CoreV1().Pods(js.Namespace).List(ctx, metav1.ListOptions{LabelSelector: jobsetv1alpha2.JobSetNameKey + "=" + js.Name})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// waitRunning waits until want pods of the JobSet are bound, Running and
// not being deleted, and returns them.
func waitRunning(t *testing.T, js *jobsetv1alpha2.JobSet, want int, timeout time.Duration) []corev1.Pod {
	t.Helper()
	var running []corev1.Pod
	var summary string
	poll(t, fmt.Sprintf("%d Running pods of JobSet %s", want, js.Name), timeout, func(ctx context.Context) (bool, error) {
		pods, err := jobSetPods(ctx, js)
		if err != nil {
			return false, nil
		}
		running = running[:0]
		var states []string
		for _, p := range pods {
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

func poolOfNode(t *testing.T, node string) string {
	t.Helper()
	n, err := client.CoreV1().Nodes().Get(t.Context(), node, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return n.Labels[wellknown.NodePoolLabel]
}

// poll fails the test if cond does not hold within timeout; details, if
// given, describes the last state seen.
func poll(t *testing.T, what string, timeout time.Duration, cond wait.ConditionWithContextFunc, details ...func() string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		select {
		case <-cluster.Failed():
			return false, cluster.Err()
		default:
		}
		return cond(ctx)
	})
	if err != nil {
		msg := fmt.Sprintf("waiting for %s: %v", what, err)
		for _, d := range details {
			msg += "\nlast seen: " + d()
		}
		t.Fatal(msg)
	}
}

// queueAPI is a client of the multislice.dev queue API (ResourceFlavor,
// ClusterQueue, LocalQueue, Workload). Custom resources speak JSON only.
func queueAPI(t *testing.T) multisliceclient.Interface {
	t.Helper()
	cfg := rest.CopyConfig(cluster.AdminConfig)
	cfg.ContentType = runtime.ContentTypeJSON
	cfg.AcceptContentTypes = runtime.ContentTypeJSON
	c, err := multisliceclient.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// applyQueueExample applies a manifest of manifests/examples/queues as
// written, and deletes its objects when the test ends (LocalQueues first,
// ResourceFlavors, then Topologies last), waiting until they are gone.
func applyQueueExample(t *testing.T, rel string) {
	t.Helper()
	applyQueueObjects(t, filepath.Join("queues", rel))
}

// applyQueueObjects is applyQueueExample for a file of manifests/examples
// (path relative to it).
func applyQueueObjects(t *testing.T, path string) {
	t.Helper()
	rel := path
	objs := exampleObjects(t, path)
	if err := cluster.Apply(t.Context(), objs, metav1.NamespaceDefault); err != nil {
		t.Fatalf("apply %s: %v", rel, err)
	}
	t.Cleanup(func() {
		ctx := context.Background()
		dyn, err := dynamic.NewForConfig(cluster.AdminConfig)
		if err != nil {
			t.Error(err)
			return
		}
		order := map[string]int{"LocalQueue": 0, "ClusterQueue": 1, "ResourceFlavor": 2, "Topology": 3}
		sorted := slices.SortedStableFunc(slices.Values(objs), func(a, b *unstructured.Unstructured) int {
			return order[a.GetKind()] - order[b.GetKind()]
		})
		for _, o := range sorted {
			// Namespace is empty for the cluster-scoped kinds.
			resource := strings.ToLower(o.GetKind()) + "s"
			if o.GetKind() == "Topology" {
				resource = "topologies"
			}
			ri := dyn.Resource(multislicev1alpha1.SchemeGroupVersion.WithResource(resource)).Namespace(o.GetNamespace())
			if err := ri.Delete(ctx, o.GetName(), metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("delete %s %s: %v", o.GetKind(), o.GetName(), err)
				continue
			}
			err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
				_, err := ri.Get(ctx, o.GetName(), metav1.GetOptions{})
				return apierrors.IsNotFound(err), nil
			})
			if err != nil {
				t.Errorf("%s %s not gone: %v", o.GetKind(), o.GetName(), err)
			}
		}
	})
}

// setNodePools makes the cluster's nodes those of a pool file of
// manifests/examples until the test ends, then those of the cluster's own
// pool file again.
func setNodePools(t *testing.T, rel string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "manifests", "examples", rel))
	if err != nil {
		t.Fatal(err)
	}
	original, err := os.ReadFile(poolsFile)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if _, err := cluster.SetNodePools(context.Background(), original, 90*time.Second); err != nil {
			t.Errorf("restoring the node pools of %s: %v", poolsFile, err)
		}
	})
	if _, err := cluster.SetNodePools(t.Context(), data, 90*time.Second); err != nil {
		t.Fatalf("node pools of %s: %v", rel, err)
	}
}

// workloadCondition returns a Workload's condition of type typ, or a
// zero condition with status Unknown when it has none.
func workloadCondition(wl *multislicev1alpha1.Workload, typ string) metav1.Condition {
	if c := apimeta.FindStatusCondition(wl.Status.Conditions, typ); c != nil {
		return *c
	}
	return metav1.Condition{Type: typ, Status: metav1.ConditionUnknown}
}

// describeWorkload sums up a Workload's status for failure messages.
func describeWorkload(wl *multislicev1alpha1.Workload) string {
	if wl == nil {
		return "no Workload object"
	}
	var parts []string
	for _, c := range wl.Status.Conditions {
		parts = append(parts, fmt.Sprintf("%s=%s (%s: %s)", c.Type, c.Status, c.Reason, c.Message))
	}
	if a := wl.Status.Admission; a != nil {
		for _, ps := range a.PodSetAssignments {
			parts = append(parts, fmt.Sprintf("admission %s/%s: count %d, domain %q, flavors %v, usage %v", a.ClusterQueue, ps.Name, ps.Count, ps.Domain, ps.Flavors, ps.ResourceUsage))
		}
	}
	return wl.Namespace + "/" + wl.Name + ": " + strings.Join(parts, "; ")
}

// waitWorkload waits until the Workload object ns/name satisfies cond, and
// returns it; it fails the test at once if it does not within timeout.
func waitWorkload(t *testing.T, ns, name, what string, timeout time.Duration, cond func(*multislicev1alpha1.Workload) bool) *multislicev1alpha1.Workload {
	t.Helper()
	wl, err := pollWorkload(t, ns, name, timeout, cond)
	if err != nil {
		t.Fatalf("waiting for Workload %s/%s %s: %v\nlast seen: %s", ns, name, what, err, describeWorkload(wl))
	}
	return wl
}

// expectWorkload is waitWorkload that lets the test go on: it reports
// whether cond held within timeout.
func expectWorkload(t *testing.T, ns, name, what string, timeout time.Duration, cond func(*multislicev1alpha1.Workload) bool) (*multislicev1alpha1.Workload, bool) {
	t.Helper()
	wl, err := pollWorkload(t, ns, name, timeout, cond)
	if err != nil {
		t.Errorf("waiting for Workload %s/%s %s: %v\nlast seen: %s", ns, name, what, err, describeWorkload(wl))
		return wl, false
	}
	return wl, true
}

// pollWorkload polls the Workload object ns/name until cond holds, and
// returns the last version seen.
func pollWorkload(t *testing.T, ns, name string, timeout time.Duration, cond func(*multislicev1alpha1.Workload) bool) (*multislicev1alpha1.Workload, error) {
	api := queueAPI(t).MultisliceV1alpha1().Workloads(ns)
	var last *multislicev1alpha1.Workload
	err := wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		select {
		case <-cluster.Failed():
			return false, cluster.Err()
		default:
		}
		wl, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = wl
		return cond(wl), nil
	})
	return last, err
}

// waitClusterQueue waits until a ClusterQueue's status counts want pending
// and admitted workloads and want tpus google.com/tpu in use, and returns it.
func waitClusterQueue(t *testing.T, name string, pending, admitted int32, tpus int64, timeout time.Duration) *multislicev1alpha1.ClusterQueue {
	t.Helper()
	api := queueAPI(t).MultisliceV1alpha1().ClusterQueues()
	var last *multislicev1alpha1.ClusterQueue
	poll(t, fmt.Sprintf("ClusterQueue %s: %d pending, %d admitted, %d google.com/tpu in use", name, pending, admitted, tpus), timeout, func(ctx context.Context) (bool, error) {
		cq, err := api.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, nil
		}
		last = cq
		return cq.Status.PendingWorkloads == pending && cq.Status.AdmittedWorkloads == admitted && builders.TPUInUse(cq.Status.FlavorsUsage) == tpus, nil
	}, func() string {
		if last == nil {
			return "no ClusterQueue"
		}
		return fmt.Sprintf("%d pending, %d admitted, usage %+v", last.Status.PendingWorkloads, last.Status.AdmittedWorkloads, last.Status.FlavorsUsage)
	})
	return last
}

// workloadHistory records every state the Workload objects of a namespace
// pass through, as an informer sees them.
type workloadHistory struct {
	mu     sync.Mutex
	states map[string][]*multislicev1alpha1.Workload // by name, in order
}

// recordWorkloads starts recording the Workload objects of ns until the
// test ends.
func recordWorkloads(t *testing.T, ns string) *workloadHistory {
	t.Helper()
	h := &workloadHistory{states: map[string][]*multislicev1alpha1.Workload{}}
	factory := multisliceinformers.NewSharedInformerFactoryWithOptions(queueAPI(t), 0, multisliceinformers.WithNamespace(ns))
	informer := factory.Multislice().V1alpha1().Workloads().Informer()
	record := func(obj any) {
		if wl, ok := obj.(*multislicev1alpha1.Workload); ok {
			h.mu.Lock()
			h.states[wl.Name] = append(h.states[wl.Name], wl.DeepCopy())
			h.mu.Unlock()
		}
	}
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    record,
		UpdateFunc: func(_, obj any) { record(obj) },
	}); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go informer.Run(stop)
	if !cache.WaitForCacheSync(t.Context().Done(), informer.HasSynced) {
		t.Fatal("Workload informer did not sync")
	}
	return h
}

// checkNoRelapse fails the test if a Workload, once its quota was
// reserved, was seen without it while not finished: an admitted workload
// keeps its reservation until it finishes (nothing in these tests evicts).
func (h *workloadHistory) checkNoRelapse(t *testing.T) {
	t.Helper()
	h.mu.Lock()
	defer h.mu.Unlock()
	for name, states := range h.states {
		reserved := false
		for i, wl := range states {
			switch {
			case workloadCondition(wl, multislicev1alpha1.WorkloadFinished).Status == metav1.ConditionTrue:
				reserved = false
			case workloadCondition(wl, multislicev1alpha1.WorkloadQuotaReserved).Status == metav1.ConditionTrue:
				reserved = true
			case reserved:
				t.Errorf("Workload %s lost its reservation before finishing (state %d of %d, resourceVersion %s): %s",
					name, i+1, len(states), wl.ResourceVersion, describeWorkload(wl))
				reserved = false
			}
		}
	}
}
