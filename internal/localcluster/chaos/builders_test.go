package chaos

import (
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

const (
	testNS    = "chaos"
	testSched = "multislice-scheduler"
)

// t0 is the tests' clock origin.
var t0 = time.Date(2026, 11, 26, 10, 0, 0, 0, time.UTC)

// at is t0 plus seconds.
func at(seconds int) time.Time { return t0.Add(time.Duration(seconds) * time.Second) }

// podBuilder builds a pod of the scheduler under test, 4 TPU chips,
// created at t0, pending until placed.
type podBuilder struct{ p *corev1.Pod }

func pod(name string) *podBuilder {
	return &podBuilder{p: &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, UID: types.UID("uid-" + name), Labels: map[string]string{},
			CreationTimestamp: metav1.NewTime(t0)},
		Spec: corev1.PodSpec{SchedulerName: testSched, Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodPending},
	}}
}

// ofJobSet makes it a pod of JobSet js (its uid is "uid-"+js), attempt and
// slice (the child Job's global index).
func (b *podBuilder) ofJobSet(js string, attempt, slice int) *podBuilder {
	b.p.Labels[wellknown.JobSetNameLabel] = js
	b.p.Labels[wellknown.JobSetUIDLabel] = "uid-" + js
	b.p.Labels[wellknown.RestartAttemptLabel] = strconv.Itoa(attempt)
	b.p.Labels[wellknown.JobGlobalIndexLabel] = strconv.Itoa(slice)
	return b
}

func (b *podBuilder) ofPodGroup(pg string) *podBuilder {
	b.p.Labels[wellknown.PodGroupLabel] = pg
	return b
}

func (b *podBuilder) ofJob(job string) *podBuilder {
	b.p.Labels[wellknown.JobNameLabel] = job
	b.p.Labels[wellknown.JobControllerUIDLabel] = "uid-" + job
	return b
}

func (b *podBuilder) queue(q string) *podBuilder {
	b.p.Labels[wellknown.QueueNameLabel] = q
	return b
}

// on binds it to a node; it runs.
func (b *podBuilder) on(node string) *podBuilder {
	b.p.Spec.NodeName = node
	b.p.Status.Phase = corev1.PodRunning
	return b
}

func (b *podBuilder) succeeded() *podBuilder { b.p.Status.Phase = corev1.PodSucceeded; return b }

func (b *podBuilder) deleting() *podBuilder {
	b.p.DeletionTimestamp = ptr.To(metav1.NewTime(t0))
	return b
}

func (b *podBuilder) created(t time.Time) *podBuilder {
	b.p.CreationTimestamp = metav1.NewTime(t)
	return b
}

// unschedulable gives it kube-scheduler's PodScheduled=False condition.
func (b *podBuilder) unschedulable(msg string) *podBuilder {
	b.p.Status.Conditions = append(b.p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: "Unschedulable", Message: msg})
	return b
}

func (b *podBuilder) obj() *corev1.Pod { return b.p }

// node is a node of a TPU pool with the labels of flavor a.
func node(name, pool string, a Accelerator) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
		wellknown.NodePoolLabel: pool, wellknown.TPUAcceleratorLabel: a.Accelerator, wellknown.TPUTopologyLabel: a.Topology,
	}}}
}

// jobSetBuilder builds a JobSet of identical slices, uid "uid-"+name.
type jobSetBuilder struct{ js *jobsetv1alpha2.JobSet }

func jobSet(name string, slices, podsPerSlice int32) *jobSetBuilder {
	return &jobSetBuilder{js: &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, UID: types.UID("uid-" + name), Labels: map[string]string{},
			Annotations: map[string]string{}, CreationTimestamp: metav1.NewTime(t0)},
		Spec: jobsetv1alpha2.JobSetSpec{ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
			Name: "slice", Replicas: slices,
			Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{Parallelism: ptr.To(podsPerSlice), Completions: ptr.To(podsPerSlice)}},
		}}},
	}}
}

func (b *jobSetBuilder) exclusive() *jobSetBuilder {
	b.js.Annotations[wellknown.ExclusiveTopologyAnnotation] = wellknown.NodePoolLabel
	return b
}

func (b *jobSetBuilder) queue(q string) *jobSetBuilder {
	b.js.Labels[wellknown.QueueNameLabel] = q
	return b
}

func (b *jobSetBuilder) restarts(n int32) *jobSetBuilder { b.js.Status.Restarts = n; return b }

func (b *jobSetBuilder) completed() *jobSetBuilder {
	b.js.Status.TerminalState = string(jobsetv1alpha2.JobSetCompleted)
	return b
}

func (b *jobSetBuilder) suspended() *jobSetBuilder { b.js.Spec.Suspend = ptr.To(true); return b }

func (b *jobSetBuilder) unsuspended() *jobSetBuilder {
	b.js.Annotations[wellknown.UnsuspendedAnnotation] = t0.Format(time.RFC3339)
	return b
}

func (b *jobSetBuilder) obj() *jobsetv1alpha2.JobSet { return b.js }

// podGroup is a PodGroup of minMember pods confined to node pools.
func podGroup(name string, minMember int32, queue string) *schedv1alpha1.PodGroup {
	pg := &schedv1alpha1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, UID: types.UID("uid-" + name),
			Annotations: map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel}},
		Spec: schedv1alpha1.PodGroupSpec{MinMember: minMember},
	}
	if queue != "" {
		pg.Labels = map[string]string{wellknown.QueueNameLabel: queue}
	}
	return pg
}

// job is a batch Job of pods pods, uid "uid-"+name.
func job(name string, pods int32, queue string) *batchv1.Job {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: testNS, UID: types.UID("uid-" + name), CreationTimestamp: metav1.NewTime(t0)},
		Spec:       batchv1.JobSpec{Parallelism: ptr.To(pods), Completions: ptr.To(pods)},
	}
	if queue != "" {
		j.Labels = map[string]string{wellknown.QueueNameLabel: queue}
	}
	return j
}

// cqBuilder builds a ClusterQueue of google.com/tpu quotas.
type cqBuilder struct {
	cq *multislicev1alpha1.ClusterQueue
}

func clusterQueue(name, cohort string) *cqBuilder {
	return &cqBuilder{cq: &multislicev1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       multislicev1alpha1.ClusterQueueSpec{Cohort: cohort, ResourceGroups: []multislicev1alpha1.ResourceGroup{{}}},
	}}
}

// quota adds a flavor with a nominal quota; borrowing and lending limits
// are set when not negative.
func (b *cqBuilder) quota(flavor string, nominal, borrowing, lending int64) *cqBuilder {
	r := multislicev1alpha1.ResourceQuota{Name: wellknown.ResourceTPU, NominalQuota: *resource.NewQuantity(nominal, resource.DecimalSI)}
	if borrowing >= 0 {
		r.BorrowingLimit = resource.NewQuantity(borrowing, resource.DecimalSI)
	}
	if lending >= 0 {
		r.LendingLimit = resource.NewQuantity(lending, resource.DecimalSI)
	}
	rg := &b.cq.Spec.ResourceGroups[0]
	rg.Flavors = append(rg.Flavors, multislicev1alpha1.FlavorQuotas{Name: flavor, Resources: []multislicev1alpha1.ResourceQuota{r}})
	return b
}

func (b *cqBuilder) obj() *multislicev1alpha1.ClusterQueue { return b.cq }

// worldBuilder assembles a World.
type worldBuilder struct{ w *World }

// world starts a world of the fleet's shapes: pools v5e-0, v5e-1 (2 nodes
// each) and v6e-0 (4 nodes), with the soak's flavors.
func world() *worldBuilder {
	w := NewWorld(testSched)
	for _, n := range []*corev1.Node{
		node("v5e-0-a", "v5e-0", V5e), node("v5e-0-b", "v5e-0", V5e),
		node("v5e-1-a", "v5e-1", V5e), node("v5e-1-b", "v5e-1", V5e),
		node("v6e-0-a", "v6e-0", V6e), node("v6e-0-b", "v6e-0", V6e), node("v6e-0-c", "v6e-0", V6e), node("v6e-0-d", "v6e-0", V6e),
	} {
		w.Nodes[n.Name] = n
	}
	flavors, _, _ := QueueObjects(testNS)
	for _, f := range flavors {
		w.Flavors[f.Name] = f
	}
	return &worldBuilder{w: w}
}

func (b *worldBuilder) pods(pods ...*podBuilder) *worldBuilder {
	for _, p := range pods {
		b.w.SetPod(p.obj(), t0)
	}
	return b
}

// boundAt records pods as the informer delivers them seconds after t0:
// which pod came first matters to exclusivity.
func (b *worldBuilder) boundAt(seconds int, pods ...*podBuilder) *worldBuilder {
	for _, p := range pods {
		b.w.SetPod(p.obj(), at(seconds))
	}
	return b
}

func (b *worldBuilder) jobSets(jss ...*jobSetBuilder) *worldBuilder {
	for _, js := range jss {
		b.w.SetJobSet(js.obj())
	}
	return b
}

func (b *worldBuilder) podGroups(pgs ...*schedv1alpha1.PodGroup) *worldBuilder {
	for _, pg := range pgs {
		b.w.SetPodGroup(pg)
	}
	return b
}

func (b *worldBuilder) jobs(jobs ...*batchv1.Job) *worldBuilder {
	for _, j := range jobs {
		b.w.SetJob(j)
	}
	return b
}

// queues adds ClusterQueues and, for each, a LocalQueue of the same name.
func (b *worldBuilder) queues(cqs ...*cqBuilder) *worldBuilder {
	for _, c := range cqs {
		cq := c.obj()
		b.w.ClusterQueues[cq.Name] = cq
		b.w.LocalQueues[testNS+"/"+cq.Name] = &multislicev1alpha1.LocalQueue{
			ObjectMeta: metav1.ObjectMeta{Namespace: testNS, Name: cq.Name},
			Spec:       multislicev1alpha1.LocalQueueSpec{ClusterQueue: cq.Name},
		}
	}
	return b
}

// workload adds the scheduler's Workload object of owner (kind/name,
// owned by uid "uid-"+name) with one condition.
func (b *worldBuilder) workload(kind, name string, cond metav1.Condition) *worldBuilder {
	wl := &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{
		Namespace: testNS, Name: kind + "-" + name,
		OwnerReferences: []metav1.OwnerReference{{Name: name, UID: types.UID("uid-" + name)}},
	}}
	wl.Status.Conditions = []metav1.Condition{cond}
	b.w.Workloads[testNS+"/"+wl.Name] = wl
	return b
}

// event adds an event of the scheduler about the object of uid "uid-"+name.
func (b *worldBuilder) event(name, reason string, when time.Time) *worldBuilder {
	b.w.AddEvent(&corev1.Event{
		ObjectMeta:          metav1.ObjectMeta{UID: types.UID("ev-" + name + reason + when.String()), CreationTimestamp: metav1.NewTime(when)},
		InvolvedObject:      corev1.ObjectReference{UID: types.UID("uid-" + name)},
		Reason:              reason,
		Message:             "because",
		ReportingController: testSched,
		EventTime:           metav1.NewMicroTime(when),
	})
	return b
}

func (b *worldBuilder) obj() *World { return b.w }
