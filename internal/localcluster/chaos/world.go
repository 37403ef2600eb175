package chaos

import (
	"fmt"
	"strconv"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// World is what the API shows, as the checker sees it: the objects its
// informers delivered, in the order they delivered them, plus what it
// remembers of objects since deleted (a workload's queue, its shape, and
// which gang attempts lost pods). It knows nothing of the scheduler's
// internals. Methods that change it are called from the informers'
// handlers; the invariants (invariants.go) only read it.
type World struct {
	// SchedulerName is the scheduler under test; pods of other schedulers
	// are not recorded.
	SchedulerName string

	Nodes         map[string]*corev1.Node
	Pods          map[types.UID]*corev1.Pod
	JobSets       map[types.UID]*jobsetv1alpha2.JobSet
	PodGroups     map[string]*schedv1alpha1.PodGroup // by namespace/name
	Jobs          map[types.UID]*batchv1.Job
	Flavors       map[string]*multislicev1alpha1.ResourceFlavor
	ClusterQueues map[string]*multislicev1alpha1.ClusterQueue
	LocalQueues   map[string]*multislicev1alpha1.LocalQueue // by namespace/name
	Workloads     map[string]*multislicev1alpha1.Workload   // by namespace/name
	// Events are the scheduler's events, by the UID of the object they are
	// about, then by the event's own UID (an event is updated as it
	// recurs).
	Events map[types.UID]map[types.UID]EventNote

	// Owners is what was seen of each workload's owner (JobSet, PodGroup,
	// Job), kept after the owner is deleted: its pods may outlive it.
	Owners map[WorkloadID]Owner
	// Disrupted holds the gang attempts (GangKey) some pod of which failed
	// or was deleted before it succeeded: such an attempt is ending, and
	// restarting it is its controller's business, not the scheduler's.
	Disrupted map[string]time.Time
	// BoundAt is when each pod was first seen bound: which of two pods
	// sharing a pool came second.
	BoundAt map[types.UID]time.Time
}

// NewWorld returns an empty world of one scheduler's pods.
func NewWorld(schedulerName string) *World {
	return &World{
		SchedulerName: schedulerName,
		Nodes:         map[string]*corev1.Node{},
		Pods:          map[types.UID]*corev1.Pod{},
		JobSets:       map[types.UID]*jobsetv1alpha2.JobSet{},
		PodGroups:     map[string]*schedv1alpha1.PodGroup{},
		Jobs:          map[types.UID]*batchv1.Job{},
		Flavors:       map[string]*multislicev1alpha1.ResourceFlavor{},
		ClusterQueues: map[string]*multislicev1alpha1.ClusterQueue{},
		LocalQueues:   map[string]*multislicev1alpha1.LocalQueue{},
		Workloads:     map[string]*multislicev1alpha1.Workload{},
		Events:        map[types.UID]map[types.UID]EventNote{},
		Owners:        map[WorkloadID]Owner{},
		Disrupted:     map[string]time.Time{},
		BoundAt:       map[types.UID]time.Time{},
	}
}

// WorkloadID names a workload as docs/concepts/workloads-and-gangs.md defines it: a JobSet (by UID:
// one recreated under the same name is another workload), a PodGroup, a
// batch Job, or a pod of its own.
type WorkloadID struct {
	Kind      string // JobSet, PodGroup, Job or Pod
	Namespace string
	Name      string
	UID       types.UID // empty for PodGroups, which their pods name only by name
}

func (id WorkloadID) String() string {
	return id.Kind + " " + id.Namespace + "/" + id.Name
}

// Owner is what the checker needs of a workload's owner object.
type Owner struct {
	// Queue is the LocalQueue it names ("" when not quota-managed).
	Queue string
	// DomainKey is the node label each of its slices is confined to, with
	// no other workload ("" when unconfined).
	DomainKey string
	// Gang: its pods are placed all or none. Pods is how many pods a whole
	// attempt has.
	Gang bool
	Pods int
}

// EventNote is one event of the scheduler about an object.
type EventNote struct {
	Reason, Message string
	// At is when it last happened; First when it was first recorded, with
	// Message. The events API folds a later event of the same reason about
	// the same object into the first one's series (Count, At) and keeps
	// the first message.
	At, First time.Time
	Count     int32
}

// Member is what a pod is of its workload.
type Member struct {
	Workload WorkloadID
	// Attempt is a JobSet pod's restart attempt (0 for other sources).
	Attempt int
	// Slice names the pod's slice within its workload and attempt.
	Slice string
}

// GangKey names one attempt of a workload: pods of one key are placed
// together.
func (m Member) GangKey() string {
	if m.Workload.Kind == "JobSet" {
		return fmt.Sprintf("%s#%d", m.Workload, m.Attempt)
	}
	return m.Workload.String()
}

// MemberOf says which workload, attempt and slice a pod belongs to, from
// the labels its controllers put on it.
func MemberOf(pod *corev1.Pod) Member {
	l := pod.Labels
	switch {
	case l[wellknown.JobSetUIDLabel] != "":
		attempt, _ := strconv.Atoi(l[wellknown.RestartAttemptLabel])
		slice := l[wellknown.JobGlobalIndexLabel]
		if slice == "" {
			slice = l[wellknown.JobNameLabel]
		}
		return Member{
			Workload: WorkloadID{Kind: "JobSet", Namespace: pod.Namespace, Name: l[wellknown.JobSetNameLabel], UID: types.UID(l[wellknown.JobSetUIDLabel])},
			Attempt:  attempt, Slice: slice,
		}
	case l[wellknown.PodGroupLabel] != "":
		return Member{Workload: WorkloadID{Kind: "PodGroup", Namespace: pod.Namespace, Name: l[wellknown.PodGroupLabel]}, Slice: "0"}
	case l[wellknown.JobControllerUIDLabel] != "":
		return Member{Workload: WorkloadID{Kind: "Job", Namespace: pod.Namespace, Name: l[wellknown.JobNameLabel], UID: types.UID(l[wellknown.JobControllerUIDLabel])}, Slice: "0"}
	}
	return Member{Workload: WorkloadID{Kind: "Pod", Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}, Slice: "0"}
}

// OwnerOf returns what is known of a workload's owner. A pod of its own is
// its own owner: its queue is its own label.
func (w *World) OwnerOf(id WorkloadID, pod *corev1.Pod) (Owner, bool) {
	if o, ok := w.Owners[id]; ok {
		return o, true
	}
	if id.Kind == "Pod" && pod != nil {
		return Owner{Queue: wellknown.QueueName(pod.Labels, pod.Annotations)}, true
	}
	return Owner{}, false
}

// SetJobSet records a JobSet and its shape.
func (w *World) SetJobSet(js *jobsetv1alpha2.JobSet) {
	w.JobSets[js.UID] = js
	w.Owners[JobSetID(js)] = JobSetOwner(js)
}

// JobSetID is a JobSet's workload.
func JobSetID(js *jobsetv1alpha2.JobSet) WorkloadID {
	return WorkloadID{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID}
}

// JobSetOwner is a JobSet's queue, confinement and size: one slice per
// child Job, of parallelism pods.
func JobSetOwner(js *jobsetv1alpha2.JobSet) Owner {
	o := Owner{Queue: wellknown.QueueName(js.Labels, js.Annotations), DomainKey: js.Annotations[wellknown.ExclusiveTopologyAnnotation], Gang: true}
	for _, rj := range js.Spec.ReplicatedJobs {
		if o.DomainKey == "" {
			o.DomainKey = rj.Template.Annotations[wellknown.ExclusiveTopologyAnnotation]
		}
		o.Pods += int(rj.Replicas) * int(parallelism(&rj.Template.Spec))
	}
	return o
}

// SetPodGroup records a PodGroup: one slice of minMember pods.
func (w *World) SetPodGroup(pg *schedv1alpha1.PodGroup) {
	w.PodGroups[pg.Namespace+"/"+pg.Name] = pg
	w.Owners[WorkloadID{Kind: "PodGroup", Namespace: pg.Namespace, Name: pg.Name}] = Owner{
		Queue: wellknown.QueueName(pg.Labels, pg.Annotations), DomainKey: pg.Annotations[wellknown.PodGroupDomainKeyAnnotation],
		Gang: true, Pods: int(pg.Spec.MinMember),
	}
}

// SetJob records a batch Job outside any JobSet. Its pods are a gang only
// when it is queued: then they carry its queue name and are members.
func (w *World) SetJob(job *batchv1.Job) {
	if job.Labels[wellknown.JobSetNameLabel] != "" {
		return
	}
	w.Jobs[job.UID] = job
	queue := wellknown.QueueName(job.Labels, job.Annotations)
	w.Owners[WorkloadID{Kind: "Job", Namespace: job.Namespace, Name: job.Name, UID: job.UID}] = Owner{
		Queue: queue, DomainKey: job.Annotations[wellknown.DomainKeyAnnotation], Gang: queue != "", Pods: int(parallelism(&job.Spec)),
	}
}

func parallelism(spec *batchv1.JobSpec) int32 {
	p := int32(1)
	if spec.Parallelism != nil {
		p = *spec.Parallelism
	}
	if spec.Completions != nil && *spec.Completions < p {
		p = *spec.Completions
	}
	return p
}

// SetPod records a pod of the scheduler under test, and notes its gang
// attempt as disrupted once the pod fails or is being deleted.
func (w *World) SetPod(pod *corev1.Pod, now time.Time) {
	if pod.Spec.SchedulerName != w.SchedulerName {
		return
	}
	w.Pods[pod.UID] = pod
	if _, ok := w.BoundAt[pod.UID]; !ok && Bound(pod) {
		w.BoundAt[pod.UID] = now
	}
	if pod.DeletionTimestamp != nil || pod.Status.Phase == corev1.PodFailed {
		w.disrupt(pod, now)
	}
}

// DeletePod forgets a pod; one that had not succeeded disrupts its gang
// attempt.
func (w *World) DeletePod(pod *corev1.Pod, now time.Time) {
	if _, ok := w.Pods[pod.UID]; !ok {
		return
	}
	delete(w.Pods, pod.UID)
	delete(w.BoundAt, pod.UID)
	if pod.Status.Phase != corev1.PodSucceeded {
		w.disrupt(pod, now)
	}
}

func (w *World) disrupt(pod *corev1.Pod, now time.Time) {
	key := MemberOf(pod).GangKey()
	if _, ok := w.Disrupted[key]; !ok {
		w.Disrupted[key] = now
	}
}

// AddEvent records an event if the scheduler under test reported it.
func (w *World) AddEvent(e *corev1.Event) {
	if e.ReportingController != w.SchedulerName && e.Source.Component != w.SchedulerName {
		return
	}
	notes := w.Events[e.InvolvedObject.UID]
	if notes == nil {
		notes = map[types.UID]EventNote{}
		w.Events[e.InvolvedObject.UID] = notes
	}
	first := e.EventTime.Time
	if first.IsZero() {
		first = e.FirstTimestamp.Time
	}
	if first.IsZero() {
		first = e.CreationTimestamp.Time
	}
	count := int32(1)
	if e.Series != nil {
		count = e.Series.Count
	} else if e.Count > 1 {
		count = e.Count
	}
	notes[e.UID] = EventNote{Reason: e.Reason, Message: e.Message, At: EventTime(e), First: first, Count: count}
}

// EventTime is when an event last happened, whichever API wrote it.
func EventTime(e *corev1.Event) time.Time {
	t := e.CreationTimestamp.Time
	for _, c := range []time.Time{e.EventTime.Time, e.LastTimestamp.Time} {
		if c.After(t) {
			t = c
		}
	}
	if e.Series != nil && e.Series.LastObservedTime.After(t) {
		t = e.Series.LastObservedTime.Time
	}
	return t
}

// Live pods run or are about to: not succeeded, failed or being deleted.
func Live(pod *corev1.Pod) bool {
	return pod.DeletionTimestamp == nil && pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed
}

// Bound pods have a node.
func Bound(pod *corev1.Pod) bool { return pod.Spec.NodeName != "" }
