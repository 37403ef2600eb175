package perf

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"text/template"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	toolscache "k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/kubernetes/test/utils/client-go/ktesting"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	jobsetinformers "sigs.k8s.io/jobset/client-go/informers/externalversions"
	jobsetlisters "sigs.k8s.io/jobset/client-go/listers/jobset/v1alpha2"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The JobSet and Job controllers, played by the harness.
//
// scheduler_perf runs neither, so a scenario's pods usually come from
// createPods ops, all at once. A queue-managed JobSet created suspended,
// as Kueue's users create them, has no pods until it is started, which the
// scheduler decides (controllers.Unsuspender): pods created by the
// workload's ops would skip that wait. So a drained
// scenario (drain_test.go) with the parameter jobSetController set to 1
// has the harness create them: from its first createNodes op on, it
// watches the JobSets of namespace queued and notes when it first sees
// each; once one is running (spec.suspend false), it creates the pods of
// its Jobs, once, as the two controllers would (startedJobSetPods), from
// the pod templates as they are after the scheduler started it. A JobSet's
// pods are created one after another, jobSetPodWorkers JobSets at a time.
// A pod that cannot be created fails the drain.
//
// The drain times such a workload from when its JobSet was first seen,
// not from its first pod: a JobSet held suspended is waiting too. The
// JobSets a scenario creates before its first createNodes op are all seen
// then, at the start of the run.
const (
	jobSetControllerParam = "jobSetController"
	// jobSetControllerNamespace is the namespace whose JobSets are watched.
	jobSetControllerNamespace = "queued"
	// jobSetPodWorkers is as many pods at a time as the harness's
	// createPods op creates.
	jobSetPodWorkers = 30
)

// jobSetController creates the pods of the JobSets of one run.
type jobSetController struct {
	client  kubernetes.Interface
	factory jobsetinformers.SharedInformerFactory
	lister  jobsetlisters.JobSetLister
	queue   workqueue.TypedInterface[string]
	workers sync.WaitGroup
	// fail reports an error to the drain. It is never called with mu held.
	fail func(error)

	mu sync.Mutex
	// seen is when each JobSet (namespace/name) was first seen; started
	// are those whose pods were created. A JobSet deleted leaves both.
	seen    map[string]time.Time
	started map[string]bool
	// seenCount, startedCount and pods count every JobSet seen, every one
	// started and the pods created, deleted or not.
	seenCount, startedCount, pods int
}

// startJobSetController watches the JobSets of jobSetControllerNamespace
// until ctx ends, and returns once the watch has synced.
func startJobSetController(tCtx ktesting.TContext, ctx context.Context, jobsets jobsetclient.Interface, fail func(error)) (*jobSetController, error) {
	c := &jobSetController{
		client: tCtx.Client(), fail: fail,
		queue: workqueue.NewTyped[string](),
		seen:  map[string]time.Time{}, started: map[string]bool{},
	}
	c.factory = jobsetinformers.NewSharedInformerFactoryWithOptions(jobsets, 0, jobsetinformers.WithNamespace(jobSetControllerNamespace))
	informer := c.factory.Jobset().V1alpha2().JobSets()
	c.lister = informer.Lister()
	if _, err := informer.Informer().AddEventHandler(toolscache.ResourceEventHandlerFuncs{
		AddFunc:    c.added,
		UpdateFunc: func(_, obj any) { c.changed(obj) },
		DeleteFunc: c.deleted,
	}); err != nil {
		return nil, err
	}
	c.factory.Start(ctx.Done())
	if !toolscache.WaitForCacheSync(tCtx.Done(), informer.Informer().HasSynced) {
		c.queue.ShutDown()
		c.factory.Shutdown()
		return nil, context.Cause(tCtx)
	}
	for range jobSetPodWorkers {
		c.workers.Go(func() {
			for {
				key, quit := c.queue.Get()
				if quit {
					return
				}
				c.sync(ctx, key)
				c.queue.Done(key)
			}
		})
	}
	return c, nil
}

func (c *jobSetController) stop() {
	c.queue.ShutDown()
	c.factory.Shutdown()
	c.workers.Wait()
}

// added notes when a JobSet was first seen.
func (c *jobSetController) added(obj any) {
	js, ok := obj.(*jobsetv1alpha2.JobSet)
	if !ok {
		return
	}
	now := time.Now()
	key := js.Namespace + "/" + js.Name
	c.mu.Lock()
	if _, seen := c.seen[key]; !seen {
		c.seen[key] = now
		c.seenCount++
	}
	c.mu.Unlock()
	c.changed(obj)
}

// changed queues a running JobSet whose pods were not created yet.
func (c *jobSetController) changed(obj any) {
	js, ok := obj.(*jobsetv1alpha2.JobSet)
	if !ok || !runningJobSet(js) {
		return
	}
	key := js.Namespace + "/" + js.Name
	c.mu.Lock()
	done := c.started[key]
	c.mu.Unlock()
	if !done {
		c.queue.Add(key)
	}
}

// deleted forgets a JobSet: the drain deletes it after its pods.
func (c *jobSetController) deleted(obj any) {
	if tomb, ok := obj.(toolscache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	js, ok := obj.(*jobsetv1alpha2.JobSet)
	if !ok {
		return
	}
	key := js.Namespace + "/" + js.Name
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.seen, key)
	delete(c.started, key)
}

// runningJobSet reports whether JobSet's controller would run js's Jobs:
// it is not suspended, not being deleted, and not another controller's.
func runningJobSet(js *jobsetv1alpha2.JobSet) bool {
	return !ptr.Deref(js.Spec.Suspend, false) && js.DeletionTimestamp == nil &&
		ptr.Deref(js.Spec.ManagedBy, jobsetv1alpha2.JobSetControllerName) == jobsetv1alpha2.JobSetControllerName
}

// sync creates the pods of the JobSet key if it runs and they were not
// created yet. The queue hands a key to one worker at a time.
func (c *jobSetController) sync(ctx context.Context, key string) {
	ns, name, _ := toolscache.SplitMetaNamespaceKey(key)
	js, err := c.lister.JobSets(ns).Get(name)
	if err != nil || !runningJobSet(js) {
		return
	}
	c.mu.Lock()
	done := c.started[key]
	c.mu.Unlock()
	if done {
		return
	}
	pods, err := startedJobSetPods(js)
	if err != nil {
		c.fail(fmt.Errorf("JobSet %s: %w", key, err))
		return
	}
	for _, pod := range pods {
		// Pods are named after their Job and index: one created by an
		// attempt whose answer was lost exists already.
		_, err := c.client.CoreV1().Pods(ns).Create(ctx, pod, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			if ctx.Err() == nil {
				c.fail(fmt.Errorf("creating pod %s/%s of JobSet %s: %w", ns, pod.Name, name, err))
			}
			return
		}
	}
	c.mu.Lock()
	c.started[key] = true
	c.startedCount++
	c.pods += len(pods)
	c.mu.Unlock()
}

// seenAt is when the JobSet namespace/name was first seen; false if it was
// not seen (or was deleted since).
func (c *jobSetController) seenAt(namespace, name string) (time.Time, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.seen[namespace+"/"+name]
	return t, ok
}

// summary says how many JobSets were seen and started, for the drain's
// log and a stalled drain's error.
func (c *jobSetController) summary() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return fmt.Sprintf("%d JobSets seen created in namespace %s, %d started and given their %d pods by the harness, %d waiting to be started",
		c.seenCount, jobSetControllerNamespace, c.startedCount, c.pods, max(len(c.seen)-len(c.started), 0))
}

// startedJobSetPods are the pods JobSet's and the Job controllers create
// for js once it runs: per replicated Job, replicas Indexed Jobs, each of
// min(parallelism, completions) pods (parallelism defaults to 1). A pod is
// its pod template, with the template's labels and annotations, plus the
// labels JobSet puts on its Jobs' pods (jobset.sigs.k8s.io/jobset-name,
// replicatedjob-name, job-index, job-global-index, restart-attempt and
// job-key; its webhook adds priority, the pod's) and the Job controller's
// completion index. It is named <job>-<index>-a<restart attempt>, where the
// Job controller adds a random suffix. It fails when a pod template says,
// by perf.multislice.dev/pods (drainPodsLabel), a pod count other than the
// JobSet's.
func startedJobSetPods(js *jobsetv1alpha2.JobSet) ([]*corev1.Pod, error) {
	attempt := strconv.Itoa(int(js.Status.Restarts))
	var pods []*corev1.Pod
	global := 0
	for _, rj := range js.Spec.ReplicatedJobs {
		tmpl := &rj.Template.Spec.Template
		perJob := ptr.Deref(rj.Template.Spec.Parallelism, 1)
		if c := rj.Template.Spec.Completions; c != nil && *c < perJob {
			perJob = *c
		}
		for ji := range int(rj.Replicas) {
			jobName := builders.JobName(js.Name, rj.Name, ji)
			labels := maps.Clone(tmpl.Labels)
			if labels == nil {
				labels = map[string]string{}
			}
			maps.Copy(labels, map[string]string{
				wellknown.JobSetNameLabel:           js.Name,
				jobsetv1alpha2.ReplicatedJobNameKey: rj.Name,
				jobsetv1alpha2.JobIndexKey:          strconv.Itoa(ji),
				wellknown.JobGlobalIndexLabel:       strconv.Itoa(global),
				wellknown.RestartAttemptLabel:       attempt,
				wellknown.JobKeyLabel:               builders.JobKey(js.Namespace, jobName),
				wellknown.JobSetPriorityLabel:       strconv.Itoa(int(ptr.Deref(tmpl.Spec.Priority, 0))),
			})
			global++
			for ci := range int(perJob) {
				pod := &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{
						Namespace:   js.Namespace,
						Name:        fmt.Sprintf("%s-%d-a%s", jobName, ci, attempt),
						Labels:      maps.Clone(labels),
						Annotations: maps.Clone(tmpl.Annotations),
					},
					Spec: *tmpl.Spec.DeepCopy(),
				}
				pod.Labels[wellknown.JobCompletionIndexLabel] = strconv.Itoa(ci)
				pods = append(pods, pod)
			}
		}
	}
	for _, pod := range pods {
		if v, ok := pod.Labels[drainPodsLabel]; ok && v != strconv.Itoa(len(pods)) {
			return nil, fmt.Errorf("its pod template says %s=%s, but it has %d pods", drainPodsLabel, v, len(pods))
		}
	}
	return pods, nil
}

// The pods of a started JobSet: per Job, its labels, index and pod
// template; the counts of parallelism and completions.
func TestStartedJobSetPods(t *testing.T) {
	template := func(labels, annotations map[string]string, priority *int32) corev1.PodTemplateSpec {
		return corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Labels: labels, Annotations: annotations},
			Spec: corev1.PodSpec{SchedulerName: "multislice-scheduler", Priority: priority, Containers: []corev1.Container{{
				Name: "worker", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}},
			}}},
		}
	}
	rj := func(name string, replicas int32, parallelism, completions *int32, tmpl corev1.PodTemplateSpec) jobsetv1alpha2.ReplicatedJob {
		return jobsetv1alpha2.ReplicatedJob{Name: name, Replicas: replicas, Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Parallelism: parallelism, Completions: completions, Template: tmpl,
		}}}
	}
	jobSet := func(restarts int32, rjs ...jobsetv1alpha2.ReplicatedJob) *jobsetv1alpha2.JobSet {
		return &jobsetv1alpha2.JobSet{
			ObjectMeta: metav1.ObjectMeta{Namespace: "queued", Name: "js"},
			Spec:       jobsetv1alpha2.JobSetSpec{ReplicatedJobs: rjs},
			Status:     jobsetv1alpha2.JobSetStatus{Restarts: restarts},
		}
	}
	perf := map[string]string{drainWorkloadLabel: "js", drainPodsLabel: "2", drainClassLabel: "small-required-rack", drainRuntimeLabel: "200"}
	topology := map[string]string{wellknown.RequiredTopologyAnnotation: "cloud.provider.com/topology-rack", "started-by": "scheduler"}
	for _, tc := range []struct {
		name string
		js   *jobsetv1alpha2.JobSet
		// want: per pod, its name and the labels JobSet and the Job
		// controller add (job-key and jobset-name are checked apart).
		want []string
		err  string
	}{
		{
			name: "one Job of two pods, as the TopologyQueue scenario's",
			js:   jobSet(0, rj("workers", 1, ptr.To[int32](2), ptr.To[int32](2), template(perf, topology, ptr.To[int32](50)))),
			want: []string{
				"js-workers-0-0-a0 attempt=0 completion=0 global=0 index=0 priority=50 rjob=workers",
				"js-workers-0-1-a0 attempt=0 completion=1 global=0 index=0 priority=50 rjob=workers",
			},
		},
		{
			name: "replicas and replicated Jobs: global indexes across them; completions bound parallelism, which defaults to 1",
			js: jobSet(0,
				rj("leader", 1, nil, nil, template(nil, nil, nil)),
				rj("workers", 2, ptr.To[int32](3), ptr.To[int32](2), template(map[string]string{"app": "x"}, topology, nil))),
			want: []string{
				"js-leader-0-0-a0 attempt=0 completion=0 global=0 index=0 priority=0 rjob=leader",
				"js-workers-0-0-a0 attempt=0 completion=0 global=1 index=0 priority=0 rjob=workers",
				"js-workers-0-1-a0 attempt=0 completion=1 global=1 index=0 priority=0 rjob=workers",
				"js-workers-1-0-a0 attempt=0 completion=0 global=2 index=1 priority=0 rjob=workers",
				"js-workers-1-1-a0 attempt=0 completion=1 global=2 index=1 priority=0 rjob=workers",
			},
		},
		{
			name: "a restarted JobSet's pods are of its attempt",
			js:   jobSet(2, rj("workers", 1, nil, nil, template(nil, nil, nil))),
			want: []string{"js-workers-0-0-a2 attempt=2 completion=0 global=0 index=0 priority=0 rjob=workers"},
		},
		{
			name: "a pod count other than the JobSet's",
			js:   jobSet(0, rj("workers", 1, ptr.To[int32](3), nil, template(perf, nil, nil))),
			err:  "its pod template says perf.multislice.dev/pods=2, but it has 3 pods",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pods, err := startedJobSetPods(tc.js)
			if tc.err != "" {
				if err == nil || err.Error() != tc.err {
					t.Fatalf("error %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			added := map[string]string{
				wellknown.RestartAttemptLabel: "attempt", wellknown.JobCompletionIndexLabel: "completion", wellknown.JobGlobalIndexLabel: "global",
				jobsetv1alpha2.JobIndexKey: "index", wellknown.JobSetPriorityLabel: "priority", jobsetv1alpha2.ReplicatedJobNameKey: "rjob",
			}
			var got []string
			for _, p := range pods {
				i := slices.IndexFunc(tc.js.Spec.ReplicatedJobs, func(rj jobsetv1alpha2.ReplicatedJob) bool {
					return rj.Name == p.Labels[jobsetv1alpha2.ReplicatedJobNameKey]
				})
				if i < 0 {
					t.Fatalf("pod %s: of no replicated Job", p.Name)
				}
				rj := &tc.js.Spec.ReplicatedJobs[i]
				tmpl := &rj.Template.Spec.Template
				if p.Namespace != "queued" || p.Labels[wellknown.JobSetNameLabel] != "js" {
					t.Errorf("pod %s: namespace %q, JobSet %q", p.Name, p.Namespace, p.Labels[wellknown.JobSetNameLabel])
				}
				ji, _ := strconv.Atoi(p.Labels[jobsetv1alpha2.JobIndexKey])
				if want := builders.JobKey("queued", builders.JobName("js", rj.Name, ji)); p.Labels[wellknown.JobKeyLabel] != want {
					t.Errorf("pod %s: job key %q, want %q", p.Name, p.Labels[wellknown.JobKeyLabel], want)
				}
				for k, v := range tmpl.Labels {
					if p.Labels[k] != v {
						t.Errorf("pod %s: label %s=%q, want the template's %q", p.Name, k, p.Labels[k], v)
					}
				}
				if !maps.Equal(p.Annotations, tmpl.Annotations) {
					t.Errorf("pod %s: annotations %v, want the template's %v", p.Name, p.Annotations, tmpl.Annotations)
				}
				if !equality.Semantic.DeepEqual(p.Spec, tmpl.Spec) {
					t.Errorf("pod %s: spec %+v, want the template's %+v", p.Name, p.Spec, tmpl.Spec)
				}
				var line []string
				for k, v := range p.Labels {
					switch _, fromTemplate := tmpl.Labels[k]; {
					case added[k] != "":
						line = append(line, added[k]+"="+v)
					case !fromTemplate && k != wellknown.JobSetNameLabel && k != wellknown.JobKeyLabel:
						t.Errorf("pod %s: label %s=%s, which neither JobSet nor its template put", p.Name, k, v)
					}
				}
				slices.Sort(line)
				got = append(got, strings.Join(append([]string{p.Name}, line...), " "))
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("pods:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
		})
	}
}

// The harness creates the pods of JobSets JobSet's controller would run.
func TestRunningJobSet(t *testing.T) {
	now := metav1.Now()
	for _, tc := range []struct {
		name      string
		suspend   *bool
		managedBy *string
		deleting  bool
		want      bool
	}{
		{name: "created suspended", suspend: ptr.To(true)},
		{name: "started", suspend: ptr.To(false), want: true},
		{name: "created running", want: true},
		{name: "being deleted", suspend: ptr.To(false), deleting: true},
		{name: "another controller's", suspend: ptr.To(false), managedBy: ptr.To("kueue.x-k8s.io/multikueue")},
		{name: "JobSet's controller's by name", suspend: ptr.To(false), managedBy: ptr.To(jobsetv1alpha2.JobSetControllerName), want: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			js := &jobsetv1alpha2.JobSet{Spec: jobsetv1alpha2.JobSetSpec{Suspend: tc.suspend, ManagedBy: tc.managedBy}}
			if tc.deleting {
				js.DeletionTimestamp = &now
			}
			if got := runningJobSet(js); got != tc.want {
				t.Errorf("runningJobSet = %v, want %v", got, tc.want)
			}
		})
	}
}

// The TopologyQueue scenario's JobSets are created suspended, and the pods
// the harness makes of them once started carry what the drain reads: the
// workload (the JobSet), its pod count, class and runtime, and the
// topology the class asks for.
func TestTopologyQueueJobSetPods(t *testing.T) {
	const rack = "cloud.provider.com/topology-rack"
	// number reads a template argument as the harness passes it: the
	// index as an int, parameters as YAML numbers.
	number := func(v any) int {
		switch n := v.(type) {
		case int:
			return n
		case float64:
			return int(n)
		}
		t.Fatalf("template argument %v (%T) is not a number", v, v)
		return 0
	}
	funcs := template.FuncMap{
		"Mod": func(a, b any) int { return number(a) % number(b) },
		"Int": number,
	}
	raw, err := os.ReadFile("templates/tasq-jobset.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tmpl := template.Must(template.New("tasq-jobset").Funcs(funcs).Parse(string(raw)))
	for _, tc := range []struct {
		class, mode, cpu             string
		podCount, sliceSize, runtime float64
		wantAnnotations              map[string]string
	}{
		{class: "large-required-rack", mode: "required", cpu: "2500m", podCount: 8, sliceSize: 4, runtime: 1000,
			wantAnnotations: map[string]string{wellknown.RequiredTopologyAnnotation: rack}},
		{class: "medium-preferred-rack", mode: "preferred", cpu: "1250m", podCount: 4, sliceSize: 2, runtime: 500,
			wantAnnotations: map[string]string{wellknown.PreferredTopologyAnnotation: rack}},
		{class: "small-sliced-rack", mode: "sliced", cpu: "500m", podCount: 2, sliceSize: 1, runtime: 200,
			wantAnnotations: map[string]string{wellknown.SliceRequiredTopologyAnnotation: rack, wellknown.SliceSizeAnnotation: "1"}},
	} {
		t.Run(tc.class, func(t *testing.T) {
			var out bytes.Buffer
			if err := tmpl.Execute(&out, map[string]any{
				"Index": 7, "class": tc.class, "queues": 30.0, "podCount": tc.podCount, "mode": tc.mode,
				"sliceSize": tc.sliceSize, "cpu": tc.cpu, "priority": 100.0, "runtimeMs": tc.runtime,
			}); err != nil {
				t.Fatal(err)
			}
			js := &jobsetv1alpha2.JobSet{}
			if err := yaml.UnmarshalStrict(out.Bytes(), js); err != nil {
				t.Fatalf("%v\n%s", err, out.String())
			}
			js.Namespace = jobSetControllerNamespace
			name := tc.class + "-7"
			if js.Name != name || js.Annotations[wellknown.QueueNameLabel] != "lq-7" || !ptr.Deref(js.Spec.Suspend, false) {
				t.Errorf("JobSet %s, queue %q, suspend %v: want %s queued in lq-7, created suspended",
					js.Name, js.Annotations[wellknown.QueueNameLabel], js.Spec.Suspend, name)
			}
			js.Spec.Suspend = ptr.To(false)
			pods, err := startedJobSetPods(js)
			if err != nil {
				t.Fatal(err)
			}
			if len(pods) != int(tc.podCount) {
				t.Fatalf("%d pods, want %v", len(pods), tc.podCount)
			}
			for _, p := range pods {
				want := map[string]string{
					drainWorkloadLabel: name, drainPodsLabel: strconv.Itoa(int(tc.podCount)), drainClassLabel: tc.class,
					drainRuntimeLabel: strconv.Itoa(int(tc.runtime)), wellknown.JobSetNameLabel: name,
				}
				for k, v := range want {
					if p.Labels[k] != v {
						t.Errorf("pod %s: label %s=%q, want %q", p.Name, k, p.Labels[k], v)
					}
				}
				if !maps.Equal(p.Annotations, tc.wantAnnotations) || !asksTopology(p) {
					t.Errorf("pod %s: annotations %v, want %v", p.Name, p.Annotations, tc.wantAnnotations)
				}
				if cpu := p.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU]; p.Spec.SchedulerName != "multislice-scheduler" ||
					ptr.Deref(p.Spec.Priority, 0) != 100 || cpu.String() != tc.cpu {
					t.Errorf("pod %s: scheduler %q, priority %v, CPU %s", p.Name, p.Spec.SchedulerName, p.Spec.Priority, cpu.String())
				}
			}
		})
	}
}
