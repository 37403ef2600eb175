package e2e

import (
	"context"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/rest"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/provisioner"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
	autoscalingclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned/typed/autoscaling/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The Jobs of `make demo SCENARIO=dws-gpu` (manifests/examples/dws-gpu)
// and their ProvisioningRequests: the scheduler names a workload's request
// <Workload object>-<admission check>-<attempt>.
var dwsJobs = []struct{ job, request, pool string }{
	{"sample-job", "job-sample-job-dws-prov-1", "NODEPOOL_NAME"},
	{"gpu-train", "job-gpu-train-dws-prov-1", "gpu-train"},
	{"gpu-finetune", "job-gpu-finetune-dws-prov-1", "gpu-finetune"},
}

// `make demo SCENARIO=dws-gpu`: seed 003's queue objects and Job as
// written, then two 2-node GPU Jobs, through the real Job controller, the
// scheduler's provisioning admission check and the local cluster's
// simulated queued provisioner (us-central1-a holds 2 nodes,
// us-central1-b 1). The scenario's own steps wait for each request to be
// provisioned and each Job to run; the test checks the story the timeline
// tells, and what the cluster holds: each Job's pods on the node pool
// provisioned for it, in one zone, annotated to consume its request, its
// Workload's admission check Ready, and gpu-finetune's request waiting
// for capacity until gpu-train's nodes were reclaimed.
func TestDWSDemo(t *testing.T) {
	s, err := demo.Load(filepath.Join(repoRoot, "manifests", "examples", "dws-gpu", "demo.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	// The seed's objects name the default namespace.
	ns := s.Namespace
	if ns != metav1.NamespaceDefault {
		t.Fatalf("the scenario runs in namespace %q, want %q (seed 003's LocalQueue)", ns, metav1.NamespaceDefault)
	}
	// The scenario applies the seed's queue objects; this removes them
	// when the test ends, after the Jobs.
	applyQueueExample(t, "seed-003-dws.yaml")
	t.Cleanup(func() { deleteDWSJobs(t, ns) })

	out := &syncBuffer{}
	ctx, cancel := context.WithCancel(t.Context())
	defer cancel()
	tl, err := timeline.Watch(ctx, cluster.AdminConfig, ns, out)
	if err != nil {
		t.Fatal(err)
	}
	runErr := demo.Run(ctx, cluster, s, tl)
	t.Logf("timeline:\n%s", out.String())
	story := singleSpaced(out.String())
	if runErr != nil {
		t.Fatalf("scenario: %v", runErr)
	}

	// The seed's Job: started by the scheduler, its request provisioned,
	// its pod bound on the new pool, all in that order. (Lines that come
	// from different informers, e.g. a pool's nodes and the request's
	// events, may swap places: they are checked apart.)
	inOrder(t, story,
		"job sample-job created suspended: 1 pod × 1 nvidia.com/gpu, node pool NODEPOOL_NAME, LocalQueue dws-local-queue",
		"job sample-job unsuspended by multislice-scheduler",
		"job sample-job created ProvisioningRequest job-sample-job-dws-prov-1 (class queued-provisioning.gke.io, attempt 1)",
		"provreq job-sample-job-dws-prov-1 creating 1 node in ",
		"job sample-job pod sample-job-",
		"job sample-job all 1 pod running, on pool NODEPOOL_NAME in zone ",
	)
	// gpu-finetune's request waits for 2 nodes in one zone while gpu-train
	// holds us-central1-a, and gets them once gpu-train's are removed.
	waits := inOrder(t, story,
		"provreq job-gpu-train-dws-prov-1 creating 2 nodes in us-central1-a, node pool gpu-train",
		"job gpu-train all 2 pods running, on pool gpu-train in zone us-central1-a",
		"provreq job-gpu-finetune-dws-prov-1 waits: waiting for 2 nodes in one zone",
		"job gpu-train completed: 2 of 2 pods succeeded",
		"provreq job-gpu-train-dws-prov-1 removed 2 nodes (every pod that consumed it has ended)",
		"provreq job-gpu-finetune-dws-prov-1 creating 2 nodes in us-central1-a, node pool gpu-finetune",
		"job gpu-finetune all 2 pods running, on pool gpu-finetune in zone us-central1-a",
		"job gpu-finetune completed: 2 of 2 pods succeeded",
		"pool gpu-finetune removed",
	)
	if len(waits) == 9 {
		for _, line := range strings.Split(story[waits[2]:waits[4]], "\n") {
			if strings.Contains(line, "job gpu-finetune") && strings.Contains(line, " bound to ") {
				t.Errorf("a gpu-finetune pod was bound while its request waited: %s", line)
			}
		}
	}
	for _, line := range []string{
		"provreq job-sample-job-dws-prov-1 accepted: queued for capacity in one zone of us-central1-a, us-central1-b",
		"job sample-job quota reserved in ClusterQueue dws-cluster-queue: 100m cpu, 100Mi memory, 1 nvidia.com/gpu of flavor default-flavor; admission check dws-prov Pending",
		"pool NODEPOOL_NAME added: 1 node in us-central1-b, Ready",
		"provreq job-sample-job-dws-prov-1 provisioned: 1 node Ready in ",
		"job sample-job ProvisioningRequest job-sample-job-dws-prov-1 is provisioned; placing Job default/sample-job",
		", consuming ProvisioningRequest job-sample-job-dws-prov-1",
		"provreq job-gpu-train-dws-prov-1 provisioned: 2 nodes Ready in us-central1-a, node pool gpu-train",
		"pool gpu-train added: 2 nodes in us-central1-a, Ready",
		"pool gpu-finetune added: 2 nodes in us-central1-a, Ready",
	} {
		if !strings.Contains(story, line) {
			t.Errorf("the timeline does not tell %q", line)
		}
	}

	requests := provisioningRequests(t)
	for _, j := range dwsJobs {
		checkDWSJob(t, ns, j.job, j.request, j.pool, requests)
	}

	// The seed's pod still runs on its node.
	pods := jobPods(t, ns, "sample-job")
	if len(pods) != 1 || pods[0].Status.Phase != corev1.PodRunning {
		t.Fatalf("sample-job's pods: %s", describePods(pods))
	}
	node, err := client.CoreV1().Nodes().Get(t.Context(), pods[0].Spec.NodeName, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("sample-job's node: %v", err)
	}
	req, err := requests.Get(t.Context(), "job-sample-job-dws-prov-1", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got := node.Labels[nodepools.ProvisionedLabel]; got != string(req.UID) {
		t.Errorf("sample-job's node %s was provisioned for request UID %q, want job-sample-job-dws-prov-1's %s", node.Name, got, req.UID)
	}
	if got := node.Labels[wellknown.NodePoolLabel]; got != "NODEPOOL_NAME" {
		t.Errorf("sample-job's node %s is in pool %q, want NODEPOOL_NAME", node.Name, got)
	}

	// The provisioner told each step as an event on the request.
	checkRequestEvents(t, ns, "job-gpu-finetune-dws-prov-1",
		provisioner.EventAccepted, provisioner.EventWaitingForCapacity, provisioner.EventCreatingNodes,
		provisioner.EventProvisioned, provisioner.EventInUse, provisioner.EventUnneeded, provisioner.EventNodesRemoved)
}

// singleSpaced collapses the runs of spaces that align the timeline's
// columns.
func singleSpaced(story string) string {
	lines := strings.Split(story, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// inOrder fails the test unless each part occurs in story after the one
// before it, and returns where each was found.
func inOrder(t *testing.T, story string, parts ...string) []int {
	t.Helper()
	var at []int
	from := 0
	for _, p := range parts {
		i := strings.Index(story[from:], p)
		if i < 0 {
			if strings.Contains(story, p) {
				t.Errorf("the timeline tells %q, but not after %q", p, parts[len(at)-1])
			} else {
				t.Errorf("the timeline does not tell %q", p)
			}
			return at
		}
		at = append(at, from+i)
		from += i + len(p)
	}
	return at
}

// provisioningRequests is a client of the default namespace's
// ProvisioningRequests. Custom resources speak JSON only.
func provisioningRequests(t *testing.T) autoscalingclient.ProvisioningRequestInterface {
	t.Helper()
	cfg := rest.CopyConfig(cluster.AdminConfig)
	cfg.ContentType = runtime.ContentTypeJSON
	cfg.AcceptContentTypes = runtime.ContentTypeJSON
	c, err := versioned.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c.AutoscalingV1().ProvisioningRequests(metav1.NamespaceDefault)
}

// checkDWSJob checks a Job of the scenario after it ran: its Workload
// passed admission check dws-prov; its request is Provisioned in one zone
// with the Job's pool; every pod consumed the request and ran on one of
// the request's nodes.
func checkDWSJob(t *testing.T, ns, job, request, pool string, requests autoscalingclient.ProvisioningRequestInterface) {
	t.Helper()
	wl, ok := expectWorkload(t, ns, "job-"+job, "past admission check dws-prov", 30*time.Second, func(wl *multislicev1alpha1.Workload) bool {
		return len(wl.Status.AdmissionChecks) == 1 && wl.Status.AdmissionChecks[0].State == "Ready"
	})
	if ok && wl.Status.AdmissionChecks[0].Name != "dws-prov" {
		t.Errorf("%s: admission check %q, want dws-prov", job, wl.Status.AdmissionChecks[0].Name)
	}

	req, err := requests.Get(t.Context(), request, metav1.GetOptions{})
	if err != nil {
		t.Errorf("%s: ProvisioningRequest %s: %v", job, request, err)
		return
	}
	if req.Spec.ProvisioningClassName != wellknown.QueuedProvisioningClass || req.Spec.Parameters[wellknown.MaxRunDurationSecondsParameter] != "600" {
		t.Errorf("%s: request class %q, parameters %v", job, req.Spec.ProvisioningClassName, req.Spec.Parameters)
	}
	if !meta.IsStatusConditionTrue(req.Status.Conditions, autoscalingv1.Provisioned) {
		t.Errorf("%s: request %s not Provisioned: %+v", job, request, req.Status.Conditions)
	}
	details := req.Status.ProvisioningClassDetails
	zone := string(details["zone"])
	if zone == "" || string(details["nodePool"]) != pool {
		t.Errorf("%s: request %s provisioned zone %q, node pool %q; want one zone and pool %s", job, request, zone, details["nodePool"], pool)
	}
	nodes := strings.Split(string(details["nodes"]), ",")

	pods := jobPods(t, ns, job)
	if len(pods) == 0 {
		t.Errorf("%s has no pods", job)
	}
	for _, p := range pods {
		if p.Annotations[wellknown.ConsumeProvisioningRequestAnnotation] != request ||
			p.Annotations[wellknown.ProvisioningClassNameAnnotation] != wellknown.QueuedProvisioningClass {
			t.Errorf("%s: pod %s annotations %v, want it to consume %s of class %s", job, p.Name, p.Annotations, request, wellknown.QueuedProvisioningClass)
		}
		// Every pod on a node of the request: all of them in its zone.
		if !slices.Contains(nodes, p.Spec.NodeName) {
			t.Errorf("%s: pod %s ran on %q, not on a node of %s in %s (%v)", job, p.Name, p.Spec.NodeName, request, zone, nodes)
		}
	}
}

func jobPods(t *testing.T, ns, job string) []corev1.Pod {
	t.Helper()
	list, err := client.CoreV1().Pods(ns).List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobNameLabel + "=" + job})
	if err != nil {
		t.Fatal(err)
	}
	return list.Items
}

func describePods(pods []corev1.Pod) string {
	var parts []string
	for _, p := range pods {
		parts = append(parts, p.Name+"="+string(p.Status.Phase)+"@"+p.Spec.NodeName)
	}
	return "[" + strings.Join(parts, " ") + "]"
}

// queuedProvisioner is the reporting controller of the simulated queued
// provisioner's events.
const queuedProvisioner = "localcluster-queued-provisioner"

// checkRequestEvents checks that the provisioner recorded events of these
// reasons on a request, through the cluster's events API.
func checkRequestEvents(t *testing.T, ns, request string, reasons ...string) {
	t.Helper()
	waitRequestEvents(t, ns, request, func(seen map[string][]string) bool {
		for _, r := range reasons {
			if !slices.Contains(seen[r], queuedProvisioner) {
				return false
			}
		}
		return true
	}, "the provisioner's "+strings.Join(reasons, ", "))
}

// waitRequestEvents waits until the events recorded on a
// ProvisioningRequest (reporting controllers by reason) satisfy ok.
func waitRequestEvents(t *testing.T, ns, request string, ok func(seen map[string][]string) bool, want string) {
	t.Helper()
	var seen map[string][]string
	err := wait.PollUntilContextTimeout(t.Context(), 250*time.Millisecond, 30*time.Second, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Events(ns).List(ctx, metav1.ListOptions{FieldSelector: fields.Set{
			"involvedObject.kind": "ProvisioningRequest", "involvedObject.name": request,
		}.AsSelector().String()})
		if err != nil {
			return false, nil
		}
		seen = map[string][]string{}
		for _, e := range list.Items {
			seen[e.Reason] = append(seen[e.Reason], e.ReportingController)
		}
		return ok(seen), nil
	})
	if err != nil {
		t.Errorf("events of ProvisioningRequest %s: %v, want %s", request, seen, want)
	}
}

// deleteDWSJobs deletes the scenario's Jobs and waits until their pods
// and the nodes provisioned for them are gone: with the Jobs go their
// Workload objects, with those their requests, and the provisioner
// removes the nodes of a deleted request.
func deleteDWSJobs(t *testing.T, ns string) {
	ctx := context.Background()
	for _, j := range dwsJobs {
		err := client.BatchV1().Jobs(ns).Delete(ctx, j.job, metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationForeground)})
		if err != nil && !apierrors.IsNotFound(err) {
			t.Errorf("delete Job %s: %v", j.job, err)
		}
	}
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 90*time.Second, true, func(ctx context.Context) (bool, error) {
		for _, j := range dwsJobs {
			pods, err := client.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobNameLabel + "=" + j.job})
			if err != nil || len(pods.Items) > 0 {
				return false, nil
			}
		}
		nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: nodepools.ProvisionedLabel})
		return err == nil && len(nodes.Items) == 0, nil
	})
	if err != nil {
		t.Errorf("the scenario's pods and provisioned nodes not gone: %v", err)
	}
}
