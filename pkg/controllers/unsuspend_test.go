package controllers

import (
	"context"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	batchv1listers "k8s.io/client-go/listers/batch/v1"
	clienttesting "k8s.io/client-go/testing"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	"k8s.io/utils/clock"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetlisters "sigs.k8s.io/jobset/client-go/listers/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const ourScheduler = "multislice-scheduler"

var unsuspendNow = time.Date(2025, 3, 1, 12, 0, 0, 0, time.UTC)

// servedEnv is a scheduler with the queue API served and one profile.
var servedEnv = unsuspendEnv{queueAPI: state.APIServed, ours: func(name string) bool { return name == ourScheduler }, scheduler: ourScheduler}

// servingLQ is servedEnv whose queue API holds LocalQueue ns/lq.
var servingLQ = func() unsuspendEnv {
	env := servedEnv
	env.localQueue = func(ns, name string) bool { return ns == "ns" && name == "lq" }
	return env
}()

// suspendedJob is a Job ns/train as Kueue's users write it: suspended, in
// LocalQueue lq, its pods for our scheduler; edits change it further.
func suspendedJob(edits ...func(*batchv1.Job)) *batchv1.Job {
	j := builders.Job("ns", "train").Queue("lq").Suspended(true).Parallelism(2).
		Scheduler(ourScheduler).PodLabel("app", "train").Obj()
	for _, e := range edits {
		e(j)
	}
	return j
}

func running(j *batchv1.Job) { j.Spec.Suspend = ptr.To(false) }

func suspendedJobSet(edits ...func(*jobsetv1alpha2.JobSet)) *jobsetv1alpha2.JobSet {
	rj := func(name string) jobsetv1alpha2.ReplicatedJob {
		return jobsetv1alpha2.ReplicatedJob{Name: name, Replicas: 1, Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{SchedulerName: ourScheduler}},
		}}}
	}
	js := &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "js", UID: "js-uid",
			Annotations: map[string]string{wellknown.QueueNameLabel: "lq"}},
		Spec: jobsetv1alpha2.JobSetSpec{Suspend: ptr.To(true), ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{rj("a"), rj("b")}},
	}
	for _, e := range edits {
		e(js)
	}
	return js
}

// checkedEnv serves LocalQueue ns/lq, whose ClusterQueue runs the
// provisioning check dws-prov.
var checkedEnv = func() unsuspendEnv {
	env := servedEnv
	env.queueCheck = func(namespace, queue string) *provisioning.Check {
		if namespace == "ns" && queue == "lq" {
			return &provisioning.Check{Name: "dws-prov", Class: wellknown.QueuedProvisioningClass}
		}
		return nil
	}
	return env
}()

func TestDecideJob(t *testing.T) {
	unknown := servedEnv
	unknown.queueAPI = state.APIUnknown
	notServed := servedEnv
	notServed.queueAPI = state.APINotServed
	cases := map[string]struct {
		job         *batchv1.Job
		env         unsuspendEnv
		want        unsuspendVerdict
		wantWarning string
	}{
		"queued, suspended, ours: started": {
			job: suspendedJob(), env: servedEnv, want: unsuspendVerdict{unsuspend: true},
		},
		"queue named by annotation": {
			job: suspendedJob(func(j *batchv1.Job) {
				j.Labels = nil
				j.Annotations = map[string]string{wellknown.QueueNameLabel: "lq"}
			}),
			env: servedEnv, want: unsuspendVerdict{unsuspend: true},
		},
		"queue API not known yet: look again later": {
			job: suspendedJob(), env: unknown, want: unsuspendVerdict{recheck: true},
		},
		"queue API not served: another controller's, look again later": {
			job: suspendedJob(), env: notServed, want: unsuspendVerdict{recheck: true},
		},
		"names no queue": {
			job: suspendedJob(func(j *batchv1.Job) { j.Labels = nil }), env: servedEnv,
		},
		"another scheduler's pods, a LocalQueue not ours": {
			job: suspendedJob(func(j *batchv1.Job) { j.Spec.Template.Spec.SchedulerName = "default-scheduler" }), env: servedEnv,
		},
		// Seed 003's Job as written: no schedulerName, our LocalQueue.
		"our LocalQueue, no schedulerName: told to recreate it": {
			job: suspendedJob(func(j *batchv1.Job) { j.Spec.Template.Spec.SchedulerName = "" }), env: servingLQ,
			wantWarning: "the Job names LocalQueue ns/lq, which multislice-scheduler admits, but its pods are for scheduler default-scheduler (unset): " +
				"nothing admits, starts or places them here. spec.template.spec.schedulerName cannot change once the Job exists: " +
				"delete it and create it again with spec.template.spec.schedulerName: multislice-scheduler",
			want: unsuspendVerdict{reason: reasonOtherScheduler},
		},
		"our LocalQueue, ours: started": {
			job: suspendedJob(), env: servingLQ, want: unsuspendVerdict{unsuspend: true},
		},
		"started by us before": {
			job: suspendedJob(func(j *batchv1.Job) {
				j.Annotations = map[string]string{wellknown.UnsuspendedAnnotation: "2025-01-01T00:00:00Z"}
			}),
			env: servedEnv,
		},
		"started by someone before, suspended since": {
			job: suspendedJob(func(j *batchv1.Job) { j.Status.StartTime = ptr.To(metav1.NewTime(unsuspendNow)) }), env: servedEnv,
		},
		"managed by another controller": {
			job: suspendedJob(func(j *batchv1.Job) { j.Spec.ManagedBy = ptr.To("example.com/multikueue") }), env: servedEnv,
		},
		"managed by the Job controller, named": {
			job: suspendedJob(func(j *batchv1.Job) { j.Spec.ManagedBy = ptr.To(batchv1.JobControllerName) }), env: servedEnv,
			want: unsuspendVerdict{unsuspend: true},
		},
		"a JobSet's Job": {
			job: suspendedJob(func(j *batchv1.Job) { j.Labels[wellknown.JobSetNameLabel] = "js" }), env: servedEnv,
		},
		"being deleted": {
			job: suspendedJob(func(j *batchv1.Job) { j.DeletionTimestamp = ptr.To(metav1.NewTime(unsuspendNow)) }), env: servedEnv,
		},
		"already failed": {
			job: suspendedJob(func(j *batchv1.Job) {
				j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionTrue}}
			}),
			env: servedEnv,
		},
		"created running with plain pods: warned": {
			job: suspendedJob(running), env: servedEnv,
			wantWarning: "names LocalQueue lq but was created running",
			want:        unsuspendVerdict{reason: reasonNotQueueManaged},
		},
		"created running, template labelled: its pods are queued": {
			job: suspendedJob(running, func(j *batchv1.Job) { j.Spec.Template.Labels[wellknown.QueueNameLabel] = "lq" }), env: servedEnv,
		},
		"created running while queues are not served: nothing to say": {
			job: suspendedJob(running), env: notServed,
		},
		"created running, another scheduler's": {
			job: suspendedJob(running, func(j *batchv1.Job) { j.Spec.Template.Spec.SchedulerName = "default-scheduler" }), env: servedEnv,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := decideJob(tc.job, tc.env)
			if !strings.Contains(got.warning, tc.wantWarning) || (tc.wantWarning == "") != (got.warning == "") {
				t.Errorf("warning %q, want one saying %q", got.warning, tc.wantWarning)
			}
			got.warning = ""
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("verdict = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestDecideJobSet(t *testing.T) {
	unknown := servedEnv
	unknown.queueAPI = state.APIUnknown
	cases := map[string]struct {
		js   *jobsetv1alpha2.JobSet
		env  unsuspendEnv
		want unsuspendVerdict
	}{
		"queued, suspended, ours: started": {js: suspendedJobSet(), env: servedEnv, want: unsuspendVerdict{unsuspend: true}},
		"queue API not known yet":          {js: suspendedJobSet(), env: unknown, want: unsuspendVerdict{recheck: true}},
		"queued where a provisioning check runs: its pods name the first request": {
			js: suspendedJobSet(), env: checkedEnv,
			want: unsuspendVerdict{unsuspend: true, podAnnotations: map[string]string{
				wellknown.ConsumeProvisioningRequestAnnotation: "jobset-js-dws-prov-1",
				wellknown.ProvisioningClassNameAnnotation:      wellknown.QueuedProvisioningClass}},
		},
		"names no queue": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) { js.Annotations = nil }), env: servedEnv,
		},
		"not suspended": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) { js.Spec.Suspend = ptr.To(false) }), env: servedEnv,
		},
		"one replicated Job another scheduler's, a LocalQueue not ours": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
				js.Spec.ReplicatedJobs[1].Template.Spec.Template.Spec.SchedulerName = "default-scheduler"
			}),
			env: servedEnv,
		},
		"our LocalQueue, one replicated Job another scheduler's: told which field": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
				js.Spec.ReplicatedJobs[1].Template.Spec.Template.Spec.SchedulerName = "default-scheduler"
			}),
			env: servingLQ,
			want: unsuspendVerdict{reason: reasonOtherScheduler, warning: "the JobSet names LocalQueue ns/lq, which multislice-scheduler admits, " +
				"but its pods are for scheduler default-scheduler: nothing admits, starts or places them here. " +
				"spec.replicatedJobs[1].template.spec.template.spec.schedulerName cannot change once the JobSet exists: " +
				"delete it and create it again with spec.replicatedJobs[1].template.spec.template.spec.schedulerName: multislice-scheduler"},
		},
		// Seeds 000 and 002 create their JobSets running, without
		// schedulerName.
		"our LocalQueue, created running without schedulerName: warned": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
				js.Spec.Suspend = nil
				for i := range js.Spec.ReplicatedJobs {
					js.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.SchedulerName = ""
				}
			}),
			env: servingLQ,
			want: unsuspendVerdict{reason: reasonOtherScheduler, warning: "the JobSet names LocalQueue ns/lq, which multislice-scheduler admits, " +
				"but its pods are for scheduler default-scheduler (unset): nothing admits, starts or places them here. " +
				"spec.replicatedJobs[0].template.spec.template.spec.schedulerName cannot change once the JobSet exists: " +
				"delete it and create it again with spec.replicatedJobs[0].template.spec.template.spec.schedulerName: multislice-scheduler"},
		},
		"managed by another controller": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) { js.Spec.ManagedBy = ptr.To("example.com/multikueue") }), env: servedEnv,
		},
		"started by us before": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
				js.Annotations[wellknown.UnsuspendedAnnotation] = "2025-01-01T00:00:00Z"
			}),
			env: servedEnv,
		},
		"completed": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
				js.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
			}),
			env: servedEnv,
		},
		"being deleted": {
			js: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) { js.DeletionTimestamp = ptr.To(metav1.NewTime(unsuspendNow)) }), env: servedEnv,
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if got := decideJobSet(tc.js, tc.env); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("verdict = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestUnsuspendedJob(t *testing.T) {
	long := strings.Repeat("q", 70)
	cases := map[string]struct {
		job             *batchv1.Job
		wantLabels      map[string]string
		wantAnnotations map[string]string
	}{
		"the Job's queue becomes a template label": {
			job:        suspendedJob(),
			wantLabels: map[string]string{"app": "train", wellknown.QueueNameLabel: "lq"},
		},
		"a template without labels": {
			job:        suspendedJob(func(j *batchv1.Job) { j.Spec.Template.Labels = nil }),
			wantLabels: map[string]string{wellknown.QueueNameLabel: "lq"},
		},
		"a template naming a queue is kept": {
			job:        suspendedJob(func(j *batchv1.Job) { j.Spec.Template.Labels[wellknown.QueueNameLabel] = "mine" }),
			wantLabels: map[string]string{"app": "train", wellknown.QueueNameLabel: "mine"},
		},
		"a queue name too long for a label value goes in an annotation": {
			job: suspendedJob(func(j *batchv1.Job) {
				j.Labels = nil
				j.Annotations = map[string]string{wellknown.QueueNameLabel: long}
			}),
			wantLabels:      map[string]string{"app": "train"},
			wantAnnotations: map[string]string{wellknown.QueueNameLabel: long},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			before := tc.job.DeepCopy()
			got := unsuspendedJob(tc.job, unsuspendNow, nil)
			if diff := cmp.Diff(before, tc.job); diff != "" {
				t.Errorf("the Job given was modified:\n%s", diff)
			}
			if got.Spec.Suspend == nil || *got.Spec.Suspend {
				t.Error("still suspended")
			}
			if v := got.Annotations[wellknown.UnsuspendedAnnotation]; v != "2025-03-01T12:00:00Z" {
				t.Errorf("unsuspended annotation = %q", v)
			}
			if diff := cmp.Diff(tc.wantLabels, got.Spec.Template.Labels); diff != "" {
				t.Errorf("template labels (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.wantAnnotations, got.Spec.Template.Annotations); diff != "" {
				t.Errorf("template annotations (-want +got):\n%s", diff)
			}
			// The pods created from the template are members of the Job's workload.
			pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "train-0",
				Labels: map[string]string{wellknown.JobNameLabel: "train"}, Annotations: got.Spec.Template.Annotations}}
			for k, v := range got.Spec.Template.Labels {
				pod.Labels[k] = v
			}
			if m, ok, err := workload.MemberOf(pod); !ok || err != nil || m.Key.Source != workload.SourceJob {
				t.Errorf("a pod of the started Job is member %+v (ok %v, err %v), want the Job's", m, ok, err)
			}
		})
	}
}

func TestUnsuspendedJobSet(t *testing.T) {
	js := suspendedJobSet()
	got := unsuspendedJobSet(js, unsuspendNow, nil)
	if *js.Spec.Suspend != true {
		t.Error("the JobSet given was modified")
	}
	if *got.Spec.Suspend || got.Annotations[wellknown.UnsuspendedAnnotation] != "2025-03-01T12:00:00Z" || got.Annotations[wellknown.QueueNameLabel] != "lq" {
		t.Errorf("started JobSet: suspend %v, annotations %v", *got.Spec.Suspend, got.Annotations)
	}
	for _, rj := range got.Spec.ReplicatedJobs {
		if a := rj.Template.Spec.Template.Annotations; len(a) != 0 {
			t.Errorf("replicated Job %s: pod annotations %v without a provisioning check", rj.Name, a)
		}
	}
}

// A JobSet queued where a provisioning check runs starts with every
// replicated Job's pods naming the check's first request, unless a
// template names a request of its own.
func TestUnsuspendedJobSetNamesFirstRequest(t *testing.T) {
	js := suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
		js.Spec.ReplicatedJobs[1].Template.Spec.Template.Annotations = map[string]string{wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "mine"}
	})
	v := decideJobSet(js, checkedEnv)
	got := unsuspendedJobSet(js, unsuspendNow, v.podAnnotations)
	want := []map[string]string{
		{wellknown.ConsumeProvisioningRequestAnnotation: "jobset-js-dws-prov-1", wellknown.ProvisioningClassNameAnnotation: wellknown.QueuedProvisioningClass},
		{wellknown.DeprecatedConsumeProvisioningRequestAnnotation: "mine"},
	}
	for i, rj := range got.Spec.ReplicatedJobs {
		if diff := cmp.Diff(want[i], rj.Template.Spec.Template.Annotations); diff != "" {
			t.Errorf("replicated Job %s pod annotations (-want +got):\n%s", rj.Name, diff)
		}
	}
	if js.Spec.ReplicatedJobs[0].Template.Spec.Template.Annotations != nil {
		t.Error("the JobSet given was modified")
	}
}

// A queued Job started where a provisioning check runs: its pods name the
// first request, beside the queue.
func TestUnsuspendedJobNamesFirstRequest(t *testing.T) {
	job := suspendedJob()
	v := decideJob(job, checkedEnv)
	if !v.unsuspend {
		t.Fatalf("verdict %+v, want started", v)
	}
	got := unsuspendedJob(job, unsuspendNow, v.podAnnotations)
	want := map[string]string{wellknown.ConsumeProvisioningRequestAnnotation: "job-train-dws-prov-1", wellknown.ProvisioningClassNameAnnotation: wellknown.QueuedProvisioningClass}
	if diff := cmp.Diff(want, got.Spec.Template.Annotations); diff != "" {
		t.Errorf("pod annotations (-want +got):\n%s", diff)
	}
	if got.Spec.Template.Labels[wellknown.QueueNameLabel] != "lq" {
		t.Errorf("pod labels %v, want the queue named", got.Spec.Template.Labels)
	}
}

// unsuspendFixture is an Unsuspender over a fake clientset, with listers
// holding what the informers would.
type unsuspendFixture struct {
	u         *Unsuspender
	client    *fake.Clientset
	jobs      toolscache.Indexer
	jobSets   toolscache.Indexer
	updated   []*jobsetv1alpha2.JobSet
	updateErr error
	events    chan string
}

func newUnsuspendFixture(t *testing.T, env unsuspendEnv, jobs ...*batchv1.Job) *unsuspendFixture {
	t.Helper()
	objs := make([]runtime.Object, 0, len(jobs))
	f := &unsuspendFixture{
		jobs:    toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{toolscache.NamespaceIndex: toolscache.MetaNamespaceIndexFunc}),
		jobSets: toolscache.NewIndexer(toolscache.MetaNamespaceKeyFunc, toolscache.Indexers{toolscache.NamespaceIndex: toolscache.MetaNamespaceIndexFunc}),
		events:  make(chan string, 10),
	}
	for _, j := range jobs {
		objs = append(objs, j)
		if err := f.jobs.Add(j); err != nil {
			t.Fatal(err)
		}
	}
	f.client = fake.NewClientset(objs...)
	sink := NewEventSink(&events.FakeRecorder{Events: f.events}, clock.RealClock{})
	f.u = newUnsuspender(sink, testingclock.NewFakeClock(unsuspendNow), func() unsuspendEnv { return env },
		f.client.BatchV1(), batchv1listers.NewJobLister(f.jobs))
	f.u.setJobSets(&jobSetAccess{
		lister: jobsetlisters.NewJobSetLister(f.jobSets),
		update: func(_ context.Context, js *jobsetv1alpha2.JobSet) (*jobsetv1alpha2.JobSet, error) {
			if f.updateErr != nil {
				return nil, f.updateErr
			}
			f.updated = append(f.updated, js)
			return js, nil
		},
	})
	t.Cleanup(f.u.queue.ShutDown)
	return f
}

// event returns the next recorded event, or "" if there is none.
func (f *unsuspendFixture) event() string {
	select {
	case e := <-f.events:
		return e
	default:
		return ""
	}
}

func (f *unsuspendFixture) storedJob(t *testing.T) *batchv1.Job {
	t.Helper()
	j, err := f.client.BatchV1().Jobs("ns").Get(t.Context(), "train", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func TestUnsuspenderStartsJob(t *testing.T) {
	f := newUnsuspendFixture(t, servedEnv, suspendedJob())
	f.u.JobChanged(suspendedJob())
	if n := f.u.queue.Len(); n != 1 {
		t.Fatalf("queue holds %d keys, want the Job's", n)
	}
	if !f.u.processNext(t.Context()) {
		t.Fatal("queue shut down")
	}
	j := f.storedJob(t)
	if *j.Spec.Suspend || j.Annotations[wellknown.UnsuspendedAnnotation] == "" || j.Spec.Template.Labels[wellknown.QueueNameLabel] != "lq" {
		t.Errorf("stored Job: suspend %v, annotations %v, template labels %v", *j.Spec.Suspend, j.Annotations, j.Spec.Template.Labels)
	}
	if e := f.event(); e != "Normal Unsuspended "+startedMessage(servedEnv, "ns", "lq") {
		t.Errorf("event %q", e)
	}
	// The informer delivers the started Job: nothing more to do.
	f.u.JobChanged(j)
	if n := f.u.queue.Len(); n != 0 {
		t.Errorf("a Job we started was queued again (%d keys)", n)
	}
}

// Starting a Job is not admitting it: the Unsuspended event says what its
// pods wait for, and when its LocalQueue's ClusterQueue is missing, that
// nothing admits them until it exists.
func TestUnsuspendedEventSaysWhatThePodsWaitFor(t *testing.T) {
	for name, tc := range map[string]struct {
		resolve       func(namespace, queue string) (string, *quota.Problem)
		want, notWant []string
	}{
		"queue of a ClusterQueue": {
			resolve: func(string, string) (string, *quota.Problem) { return "cluster-queue", nil },
			want:    []string{"started for LocalQueue ns/lq", "wait, gated, for quota in ClusterQueue cluster-queue"},
			notWant: []string{"admitted"},
		},
		"ClusterQueue missing": {
			resolve: func(string, string) (string, *quota.Problem) {
				return "", &quota.Problem{Reason: quota.ReasonClusterQueueNotFound, Config: true, Message: "ClusterQueue missing-cq (of LocalQueue ns/lq) does not exist"}
			},
			want:    []string{"started for LocalQueue ns/lq, which admits nothing", "ClusterQueue missing-cq (of LocalQueue ns/lq) does not exist (ClusterQueueNotFound)", "until that is fixed"},
			notWant: []string{"admitted", "wait, gated, for quota"},
		},
		"queue not known": {
			want:    []string{"started for LocalQueue ns/lq: its pods wait, gated, for the queue's quota"},
			notWant: []string{"admitted"},
		},
	} {
		t.Run(name, func(t *testing.T) {
			env := servedEnv
			env.resolveQueue = tc.resolve
			f := newUnsuspendFixture(t, env, suspendedJob())
			if _, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJob, namespace: "ns", name: "train"}); err != nil {
				t.Fatal(err)
			}
			e := f.event()
			if !strings.HasPrefix(e, "Normal Unsuspended ") {
				t.Fatalf("event %q, want a Normal Unsuspended event", e)
			}
			for _, w := range tc.want {
				if !strings.Contains(e, w) {
					t.Errorf("event %q does not say %q", e, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(e, w) {
					t.Errorf("event %q says %q", e, w)
				}
			}
		})
	}
}

// A conflicting update is retried, rate-limited, from the informer's
// newer copy.
func TestUnsuspenderRetriesConflicts(t *testing.T) {
	f := newUnsuspendFixture(t, servedEnv, suspendedJob())
	conflicts := 1
	f.client.PrependReactor("update", "jobs", func(clienttesting.Action) (bool, runtime.Object, error) {
		if conflicts == 0 {
			return false, nil, nil
		}
		conflicts--
		return true, nil, apierrors.NewConflict(schema.GroupResource{Group: "batch", Resource: "jobs"}, "train", errors.New("changed"))
	})
	key := unsuspendKey{kind: workload.SourceJob, namespace: "ns", name: "train"}
	f.u.queue.Add(key)
	f.u.processNext(t.Context())
	if got := f.u.queue.NumRequeues(key); got != 1 {
		t.Fatalf("requeues after a conflict = %d, want 1", got)
	}
	if *f.storedJob(t).Spec.Suspend != true {
		t.Fatal("the conflicting update went through")
	}
	if e := f.event(); e != "" {
		t.Errorf("event %q for an update that failed", e)
	}
	f.u.processNext(t.Context()) // the rate-limited retry
	if *f.storedJob(t).Spec.Suspend {
		t.Error("not started on retry")
	}
	if got := f.u.queue.NumRequeues(key); got != 0 {
		t.Errorf("requeues after success = %d, want 0 (forgotten)", got)
	}
}

func TestUnsuspenderWaitsForQueueAPI(t *testing.T) {
	env := servedEnv
	env.queueAPI = state.APIUnknown
	f := newUnsuspendFixture(t, env, suspendedJob())
	recheck, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJob, namespace: "ns", name: "train"})
	if err != nil || !recheck {
		t.Fatalf("sync = %v, %v; want a recheck", recheck, err)
	}
	if !*f.storedJob(t).Spec.Suspend {
		t.Error("started while the queue API is not known to be served")
	}
}

func TestUnsuspenderWarnsJobCreatedRunning(t *testing.T) {
	job := suspendedJob(running)
	f := newUnsuspendFixture(t, servedEnv, job)
	for range 2 {
		if _, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJob, namespace: "ns", name: "train"}); err != nil {
			t.Fatal(err)
		}
	}
	if e := f.event(); !strings.HasPrefix(e, "Warning NotQueueManaged ") || !strings.Contains(e, "spec.suspend: true") {
		t.Errorf("event %q, want a NotQueueManaged warning saying how to fix it", e)
	}
	if e := f.event(); e != "" {
		t.Errorf("warned twice: %q", e)
	}
	if len(f.client.Actions()) != 0 {
		t.Errorf("a running Job was written: %v", f.client.Actions())
	}
}

func TestUnsuspenderStartsJobSet(t *testing.T) {
	f := newUnsuspendFixture(t, servedEnv)
	js := suspendedJobSet()
	if err := f.jobSets.Add(js); err != nil {
		t.Fatal(err)
	}
	f.u.JobSetChanged(js)
	f.u.processNext(t.Context())
	if len(f.updated) != 1 || *f.updated[0].Spec.Suspend || f.updated[0].Annotations[wellknown.UnsuspendedAnnotation] == "" {
		t.Fatalf("updates %+v, want the JobSet started", f.updated)
	}
	if e := f.event(); e != "Normal Unsuspended "+startedMessage(servedEnv, "ns", "lq") {
		t.Errorf("event %q", e)
	}
	f.u.JobSetChanged(f.updated[0])
	if n := f.u.queue.Len(); n != 0 {
		t.Errorf("a JobSet we started was queued again (%d keys)", n)
	}

	// A JobSet deleted meanwhile is nothing to do.
	gone := suspendedJobSet(func(js *jobsetv1alpha2.JobSet) { js.Name = "gone" })
	if err := f.jobSets.Add(gone); err != nil {
		t.Fatal(err)
	}
	f.updateErr = apierrors.NewNotFound(schema.GroupResource{Group: "jobset.x-k8s.io", Resource: "jobsets"}, "gone")
	if _, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJobSet, namespace: "ns", name: "gone"}); err != nil {
		t.Errorf("sync of a JobSet deleted meanwhile: %v", err)
	}
}

// A Job or JobSet naming one of our LocalQueues with pods for another
// scheduler gets, beside its Warning event, a Workload object that says
// what to change: QuotaReserved False, reason SchedulerNameMismatch.
func TestUnsuspenderTellsTheWorkloadObjectOfAMismatch(t *testing.T) {
	defaultScheduler := func(j *batchv1.Job) { j.Spec.Template.Spec.SchedulerName = "" }
	cases := map[string]struct {
		job    *batchv1.Job
		jobSet *jobsetv1alpha2.JobSet
		key    workload.Key
	}{
		"Job": {job: suspendedJob(defaultScheduler), key: workload.Key{Source: workload.SourceJob, Namespace: "ns", Name: "train"}},
		"JobSet": {jobSet: suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
			js.Name = "train"
			for i := range js.Spec.ReplicatedJobs {
				js.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.SchedulerName = "default-scheduler"
			}
		}), key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			var jobs []*batchv1.Job
			if tc.job != nil {
				jobs = append(jobs, tc.job)
			}
			f := newUnsuspendFixture(t, servingLQ, jobs...)
			if tc.jobSet != nil {
				if err := f.jobSets.Add(tc.jobSet); err != nil {
					t.Fatal(err)
				}
			}
			var written []*state.WorkloadReport
			f.u.workloads = func(_ context.Context, r *state.WorkloadReport) error {
				written = append(written, r)
				return nil
			}
			if _, err := f.u.sync(t.Context(), unsuspendKey{kind: tc.key.Source, namespace: "ns", name: "train"}); err != nil {
				t.Fatal(err)
			}
			if e := f.event(); !strings.HasPrefix(e, "Warning "+reasonOtherScheduler) {
				t.Errorf("event %q, want a %s warning", e, reasonOtherScheduler)
			}
			if len(written) != 1 {
				t.Fatalf("%d Workload objects written, want 1", len(written))
			}
			r := written[0]
			wl := desiredWorkload(r, WorkloadName(r.Key))
			c := apimeta.FindStatusCondition(wl.Status.Conditions, multislicev1alpha1.WorkloadQuotaReserved)
			if r.Key != tc.key || r.Queue != "lq" || c == nil || c.Status != metav1.ConditionFalse || c.Reason != reasonOtherScheduler ||
				!strings.Contains(c.Message, "create it again with") {
				t.Errorf("Workload object of %v in queue %q: QuotaReserved %+v", r.Key, r.Queue, c)
			}
			if len(wl.Spec.PodSets) == 0 || wl.OwnerReferences[0].Name != "train" {
				t.Errorf("Workload object spec %+v, owners %v", wl.Spec, wl.OwnerReferences)
			}
		})
	}
}

// Jobs and JobSets seen before the queue API is known to be served are
// decided again once it is: a Job and a JobSet for another scheduler that
// name our LocalQueue are told what to change, a queued Job is started; a
// Job naming no queue is not looked at.
func TestUnsuspenderDecidesAgainWhenTheQueueAPIIsServed(t *testing.T) {
	otherScheduler := suspendedJob(func(j *batchv1.Job) { j.Name = "other"; j.Spec.Template.Spec.SchedulerName = "" })
	unqueued := suspendedJob(func(j *batchv1.Job) { j.Name = "unqueued"; j.Labels = nil })
	f := newUnsuspendFixture(t, servingLQ, suspendedJob(), otherScheduler, unqueued)
	js := suspendedJobSet(func(js *jobsetv1alpha2.JobSet) {
		for i := range js.Spec.ReplicatedJobs {
			js.Spec.ReplicatedJobs[i].Template.Spec.Template.Spec.SchedulerName = "default-scheduler"
		}
	})
	if err := f.jobSets.Add(js); err != nil {
		t.Fatal(err)
	}
	f.u.workloads = func(context.Context, *state.WorkloadReport) error { return nil }
	env := servingLQ
	env.queueAPI = state.APIUnknown
	f.u.env = func() unsuspendEnv { return env }

	// Seen while the queue API is unknown: nothing is told or started.
	for _, name := range []string{"train", "other"} {
		if _, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJob, namespace: "ns", name: name}); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.u.sync(t.Context(), unsuspendKey{kind: workload.SourceJobSet, namespace: "ns", name: "js"}); err != nil {
		t.Fatal(err)
	}
	if e := f.event(); e != "" {
		t.Fatalf("event %q while the queue API is unknown", e)
	}

	env.queueAPI = state.APIServed
	f.u.QueueAll()
	if n := f.u.queue.Len(); n != 3 {
		t.Fatalf("queue holds %d keys once the queue API is served, want 3 (the Jobs and the JobSet naming a queue)", n)
	}
	var got []string
	for range 3 {
		f.u.processNext(t.Context())
		if e := f.event(); e != "" {
			got = append(got, strings.SplitN(e, " ", 3)[1])
		}
	}
	slices.Sort(got)
	if want := []string{reasonOtherScheduler, reasonOtherScheduler, reasonUnsuspended}; !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if *f.storedJob(t).Spec.Suspend {
		t.Error("the queued Job was not started")
	}
}
