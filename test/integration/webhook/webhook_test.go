// Package webhook_test registers multislice-webhook, served in the test
// process on loopback TLS, with a real kube-apiserver, exactly as
// webhook.Configuration builds it (the local cluster's registration; the
// chart renders the same; harness.StartWebhook), and creates objects
// through the apiserver: the
// apiserver evaluates the match conditions, calls the webhook and applies
// its patches. Then the webhook is stopped: objects that do not opt in are
// still created at once, objects that do are refused (failurePolicy Fail)
// or created as written (Ignore).
package webhook_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	admissionregistrationv1 "k8s.io/api/admissionregistration/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/webhook"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

func TestMain(m *testing.M) { harness.Main(m) }

const (
	scheduler = "multislice-scheduler"
	ourQueue  = "ours"
)

var lwsResource = schema.GroupVersionResource{Group: wellknown.LWSGroup, Version: wellknown.LWSVersion, Resource: wellknown.LWSResource}

func TestWebhookOnARealAPIServer(t *testing.T) {
	cp := harness.StartControlPlane(t, harness.InTreeWorkloads())
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	crds := apiextensionsclient.NewForConfigOrDie(cp.Config)
	if _, err := crds.ApiextensionsV1().CustomResourceDefinitions().Create(t.Context(),
		builders.PermissiveCRD(wellknown.LWSGroup, wellknown.LWSVersion, "LeaderWorkerSet", wellknown.LWSResource), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ns := cp.CreateNamespace(t, "team")
	opted := cp.CreateNamespace(t, "opted")
	nsAPI := cp.Client.CoreV1().Namespaces()
	optedNS, err := nsAPI.Get(t.Context(), opted, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	optedNS.Labels[wellknown.DefaultSchedulerNamespaceLabel] = "true"
	if _, err := nsAPI.Update(t.Context(), optedNS, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	cp.Queues().CreateLocalQueue(t, ns, ourQueue, "cq")

	w := harness.StartWebhook(t, cp)
	ctx := t.Context()
	jobsets := jobsetclient.NewForConfigOrDie(cp.Config).JobsetV1alpha2().JobSets(ns)
	dyn := dynamic.NewForConfigOrDie(cp.Config)

	t.Run("seed objects as written get the scheduler", func(t *testing.T) {
		// Seed 000's JobSet: the queue by annotation, no schedulerName.
		js := builders.JobSet(ns, "low-jax-trillium").Exclusive(wellknown.NodePoolLabel).Annotation(wellknown.QueueNameLabel, ourQueue).
			Pod(func(p *builders.PodBuilder) { p.TPU("4") }).ReplicatedJob("slice", 2, 4).Obj()
		created, err := jobsets.Create(ctx, js, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := created.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.SchedulerName; got != scheduler {
			t.Errorf("JobSet pods' scheduler %q", got)
		}
		if !strings.Contains(created.Annotations[wellknown.SchedulerNameReasonAnnotation], "names LocalQueue "+ns+"/"+ourQueue) {
			t.Errorf("JobSet annotations %v", created.Annotations)
		}
		// Seed 003's Job: the queue by label, suspended.
		job, err := cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "sample-job").Queue(ourQueue).Suspended(true)), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := job.Spec.Template.Spec.SchedulerName; got != scheduler {
			t.Errorf("Job pods' scheduler %q", got)
		}
		// Seed 003 without a queue: a Job whose pods consume a request.
		consumer, err := cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "dws-gpu-job").
			PodAnnotation(wellknown.DeprecatedConsumeProvisioningRequestAnnotation, "dws-gpu-request")), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := consumer.Spec.Template.Spec.SchedulerName; got != scheduler {
			t.Errorf("consuming Job pods' scheduler %q", got)
		}
	})

	t.Run("PodGroup members, LeaderWorkerSets and bare pods", func(t *testing.T) {
		pg := builders.PodGroup(ns, "serving", 2).Obj()
		pg.Labels = map[string]string{wellknown.QueueNameLabel: ourQueue}
		pg.APIVersion, pg.Kind = schedv1alpha1.SchemeGroupVersion.String(), "PodGroup"
		createUnstructured(t, dyn, schema.GroupVersionResource{Group: "scheduling.x-k8s.io", Version: "v1alpha1", Resource: "podgroups"}, ns, pg)
		gang := builders.InTreePodGroup(ns, "gang", 2).Obj()
		gang.Labels = map[string]string{wellknown.QueueNameLabel: ourQueue}
		if _, err := cp.Client.SchedulingV1beta1().PodGroups(ns).Create(ctx, gang, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		lws := map[string]any{
			"apiVersion": wellknown.LWSGroup + "/" + wellknown.LWSVersion, "kind": "LeaderWorkerSet",
			"metadata": map[string]any{"name": "serve", "labels": map[string]any{wellknown.QueueNameLabel: ourQueue}},
			"spec": map[string]any{"replicas": 2, "leaderWorkerTemplate": map[string]any{"size": 4,
				"workerTemplate": map[string]any{"spec": map[string]any{"containers": []any{map[string]any{"name": "c", "image": "img"}}}}}},
		}
		created, err := dyn.Resource(lwsResource).Namespace(ns).Create(ctx, &unstructured.Unstructured{Object: lws}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		worker, _, _ := unstructured.NestedMap(created.Object, "spec", "leaderWorkerTemplate", "workerTemplate")
		if n, _, _ := unstructured.NestedString(worker, "spec", "schedulerName"); n != scheduler {
			t.Errorf("LeaderWorkerSet workers' scheduler %q", n)
		}
		if q, _, _ := unstructured.NestedString(worker, "metadata", "labels", wellknown.QueueNameLabel); q != ourQueue {
			t.Errorf("LeaderWorkerSet workers' queue %q", q)
		}

		for _, tc := range []struct {
			pod  *corev1.Pod
			want string
		}{
			{builders.Pod(ns, "member").InPodGroup("serving").Obj(), scheduler},
			{builders.Pod(ns, "gang-member").InSchedulingGroup("gang").Obj(), scheduler},
			{builders.Pod(ns, "notebook").Label(wellknown.QueueNameLabel, ourQueue).Obj(), scheduler},
			{builders.Pod(ns, "consumer").Annotation(wellknown.ConsumeProvisioningRequestAnnotation, "req").Obj(), scheduler},
			{builders.Pod(opted, "web").Obj(), scheduler},
			{builders.Pod(ns, "plain").Obj(), corev1.DefaultSchedulerName},
			{builders.Pod(ns, "kueues").Label(wellknown.QueueNameLabel, "kueue-queue").Obj(), corev1.DefaultSchedulerName},
			{builders.Pod(ns, "volcanos").Label(wellknown.QueueNameLabel, ourQueue).Scheduler("volcano").Obj(), "volcano"},
			{builders.Pod(ns, "job-pod").Label(wellknown.JobNameLabel, "j").Label(wellknown.QueueNameLabel, ourQueue).Obj(), corev1.DefaultSchedulerName},
			{builders.Pod(ns, "stray-member").InPodGroup("no-such-group").Obj(), corev1.DefaultSchedulerName},
		} {
			created, err := cp.Client.CoreV1().Pods(tc.pod.Namespace).Create(ctx, tc.pod, metav1.CreateOptions{})
			if err != nil {
				t.Fatalf("pod %s: %v", tc.pod.Name, err)
			}
			if created.Spec.SchedulerName != tc.want {
				t.Errorf("pod %s/%s: scheduler %q, want %q", tc.pod.Namespace, tc.pod.Name, created.Spec.SchedulerName, tc.want)
			}
		}
	})

	t.Run("a LocalQueue created a moment before the object that names it", func(t *testing.T) {
		cp.Queues().CreateLocalQueue(t, ns, "fresh", "cq")
		job, err := cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "fresh-job").Queue("fresh")), metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if got := job.Spec.Template.Spec.SchedulerName; got != scheduler {
			t.Errorf("Job of a LocalQueue just created: scheduler %q", got)
		}
	})

	t.Run("with the webhook down", func(t *testing.T) {
		w.Stop()
		// Unrelated objects are created at once, webhook or not.
		start := time.Now()
		if _, err := cp.Client.CoreV1().Pods(ns).Create(ctx, builders.Pod(ns, "plain-while-down").Obj(), metav1.CreateOptions{}); err != nil {
			t.Fatalf("a plain pod was refused while the webhook is down: %v", err)
		}
		if _, err := cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "plain-job-while-down")), metav1.CreateOptions{}); err != nil {
			t.Fatalf("a plain Job was refused while the webhook is down: %v", err)
		}
		ours := builders.JobSet(ns, "ours-already").Label(wellknown.QueueNameLabel, ourQueue).
			Pod(func(p *builders.PodBuilder) { p.Scheduler(scheduler) }).ReplicatedJob("slice", 1, 1).Obj()
		if _, err := jobsets.Create(ctx, ours, metav1.CreateOptions{}); err != nil {
			t.Fatalf("a queued JobSet naming our scheduler already was refused: %v", err)
		}
		if d := time.Since(start); d > 3*time.Second {
			t.Errorf("creating objects that do not opt in took %s while the webhook is down", d)
		}

		// Failing closed: an object that opts in is refused, saying why.
		_, err := cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "queued-while-down").Queue(ourQueue)), metav1.CreateOptions{})
		if err == nil || !strings.Contains(err.Error(), webhook.OptInWebhook) {
			t.Fatalf("a queued Job while the webhook is down (Fail): %v, want an error naming %s", err, webhook.OptInWebhook)
		}
		// Failing open: it is created as written.
		w.Register(t, cp, admissionregistrationv1.Ignore)
		var job *batchv1.Job
		err = wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
			job, err = cp.Client.BatchV1().Jobs(ns).Create(ctx, newJob(builders.Job(ns, "queued-ignored").Queue(ourQueue)), metav1.CreateOptions{})
			return err == nil, nil
		})
		if err != nil {
			t.Fatalf("a queued Job while the webhook is down (Ignore) is still refused: %v", err)
		}
		if got := job.Spec.Template.Spec.SchedulerName; got != corev1.DefaultSchedulerName {
			t.Errorf("queued Job created while the webhook is down (Ignore): scheduler %q, want it as written", got)
		}
	})
}

// createUnstructured creates obj, of resource gvr, through the dynamic
// client.
func createUnstructured(t *testing.T, dyn dynamic.Interface, gvr schema.GroupVersionResource, ns string, obj any) {
	t.Helper()
	data, err := json.Marshal(obj)
	if err != nil {
		t.Fatal(err)
	}
	var u unstructured.Unstructured
	if err := json.Unmarshal(data, &u.Object); err != nil {
		t.Fatal(err)
	}
	if _, err := dyn.Resource(gvr).Namespace(ns).Create(t.Context(), &u, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s %s: %v", gvr.Resource, u.GetName(), err)
	}
}

// newJob is a Job of b as a user writes it, for the apiserver to create.
func newJob(b *builders.JobBuilder) *batchv1.Job {
	job := b.Obj()
	job.ResourceVersion, job.UID = "", ""
	return job
}
