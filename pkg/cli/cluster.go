// Package cli is what `kubectl multislice` computes: node pools and who
// holds them, queue usage, the pending list in the scheduler's order and
// the explanation of one workload, from API objects already listed. It
// never talks to the apiserver nor reads the scheduler's memory: everything
// it says is what the API shows (the scheduler writes its reasons there),
// so it says the same on any replica and after any restart. The command
// (cmd/kubectl-multislice) lists the objects and prints what this returns.
package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	autoscalingv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/autoscaling/v1"
	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Cluster is what the command listed. Lists of APIs that are not served
// stay nil; ComputeClassesServed says whether ComputeClasses are.
type Cluster struct {
	// Now is when the objects were listed: ages and node lifetimes are
	// reckoned from it.
	Now time.Time

	Nodes  []*corev1.Node
	Pods   []*corev1.Pod
	Events []*corev1.Event

	JobSets   []*jobsetv1alpha2.JobSet
	Jobs      []*batchv1.Job
	PodGroups []*schedv1alpha1.PodGroup
	// InTreePodGroups and CompositePodGroups are Kubernetes' own
	// (scheduling.k8s.io), where served.
	InTreePodGroups    []*schedv1beta1.PodGroup
	CompositePodGroups []*schedv1alpha3.CompositePodGroup

	ClusterQueues        []*multislicev1alpha1.ClusterQueue
	LocalQueues          []*multislicev1alpha1.LocalQueue
	Workloads            []*multislicev1alpha1.Workload
	ResourceFlavors      []*multislicev1alpha1.ResourceFlavor
	Topologies           []*multislicev1alpha1.Topology
	AdmissionChecks      []*multislicev1alpha1.AdmissionCheck
	ProvisioningRequests []*autoscalingv1.ProvisioningRequest

	ComputeClasses       []*cloudv1.ComputeClass
	ComputeClassesServed bool
}

// Kinds of workloads, as the scheduler names its sources.
const (
	KindJobSet              = string(workload.SourceJobSet)
	KindJob                 = string(workload.SourceJob)
	KindPodGroup            = string(workload.SourcePodGroup)
	KindPod                 = string(workload.SourcePod)
	KindProvisioningRequest = string(workload.SourceProvisioningRequest)
	KindInTreePodGroup      = string(workload.SourceInTreePodGroup)
	KindCompositePodGroup   = string(workload.SourceCompositePodGroup)
	KindLeaderWorkerSet     = string(workload.SourceLeaderWorkerSet)
	// KindWorkload is the multislice.dev Workload object, which stands for
	// the workload of its owner.
	KindWorkload = "Workload"
)

// WorkloadRef names a workload by the object it comes from.
type WorkloadRef struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace"`
	Name      string `json:"name"`
}

func (r WorkloadRef) String() string { return r.Kind + " " + r.Namespace + "/" + r.Name }

// key is r as the scheduler's queue orders it.
func (r WorkloadRef) key() workload.Key {
	return workload.Key{Source: workload.Source(r.Kind), Namespace: r.Namespace, Name: r.Name}
}

// WorkloadOf says which workload a pod is part of: what the scheduler
// derives from its labels (JobSet, PodGroup, queued Job or pod, consumer
// of a ProvisioningRequest; a child PodGroup's composite), else the Job
// that created it, else the pod itself.
func (c *Cluster) WorkloadOf(pod *corev1.Pod) WorkloadRef {
	if m, ok := c.memberOf(pod); ok {
		return WorkloadRef{Kind: string(m.Key.Source), Namespace: m.Key.Namespace, Name: m.Key.Name}
	}
	if name := pod.Labels[wellknown.JobNameLabel]; name != "" {
		return WorkloadRef{Kind: KindJob, Namespace: pod.Namespace, Name: name}
	}
	if name := pod.Labels[wellknown.LegacyJobNameLabel]; name != "" {
		return WorkloadRef{Kind: KindJob, Namespace: pod.Namespace, Name: name}
	}
	return WorkloadRef{Kind: KindPod, Namespace: pod.Namespace, Name: pod.Name}
}

// live reports whether a pod still holds what it was given: not
// terminated (a terminating pod holds its node until it is gone).
func live(pod *corev1.Pod) bool {
	return pod.Status.Phase != corev1.PodSucceeded && pod.Status.Phase != corev1.PodFailed
}

// bound reports whether a live pod has a node.
func bound(pod *corev1.Pod) bool { return pod.Spec.NodeName != "" && live(pod) }

// podPriority is the pod's priority (0 when the apiserver set none).
func podPriority(pod *corev1.Pod) int32 {
	if pod.Spec.Priority != nil {
		return *pod.Spec.Priority
	}
	return 0
}

// boundSince is when a pod was bound: its PodScheduled=True transition,
// else its start, else its creation.
func boundSince(pod *corev1.Pod) time.Time {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionTrue && !c.LastTransitionTime.IsZero() {
			return c.LastTransitionTime.Time
		}
	}
	if pod.Status.StartTime != nil {
		return pod.Status.StartTime.Time
	}
	return pod.CreationTimestamp.Time
}

// heldReason is a pending pod's PodScheduled=False condition, which the
// scheduler writes for every pod it holds back (nil when there is none).
func heldReason(pod *corev1.Pod) *corev1.PodCondition {
	for i := range pod.Status.Conditions {
		c := &pod.Status.Conditions[i]
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse {
			return c
		}
	}
	return nil
}

// condition returns the condition of type typ (nil when absent).
func condition(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}

// isTrue reports whether the condition of type typ is True.
func isTrue(conds []metav1.Condition, typ string) bool {
	c := condition(conds, typ)
	return c != nil && c.Status == metav1.ConditionTrue
}

// ownerOf is the workload a Workload object stands for: its controller
// owner.
func ownerOf(wl *multislicev1alpha1.Workload) (WorkloadRef, types.UID, bool) {
	for _, o := range wl.OwnerReferences {
		if o.Controller != nil && *o.Controller {
			return WorkloadRef{Kind: o.Kind, Namespace: wl.Namespace, Name: o.Name}, o.UID, true
		}
	}
	if len(wl.OwnerReferences) > 0 {
		o := wl.OwnerReferences[0]
		return WorkloadRef{Kind: o.Kind, Namespace: wl.Namespace, Name: o.Name}, o.UID, true
	}
	return WorkloadRef{}, "", false
}

// workloadObject finds the Workload object of a workload: the one it owns,
// else the one of its name.
func (c *Cluster) workloadObject(ref WorkloadRef) *multislicev1alpha1.Workload {
	name := ref.key().ObjectName()
	var byName *multislicev1alpha1.Workload
	for _, wl := range c.Workloads {
		if wl.Namespace != ref.Namespace {
			continue
		}
		if o, _, ok := ownerOf(wl); ok && o == ref {
			return wl
		}
		if wl.Name == name {
			byName = wl
		}
	}
	return byName
}

// object is a workload's own object, as listed (nil when it was not).
func (c *Cluster) object(ref WorkloadRef) metav1.Object {
	switch ref.Kind {
	case KindJobSet:
		if o := find(c.JobSets, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindJob:
		if o := find(c.Jobs, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindPodGroup:
		if o := find(c.PodGroups, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindPod:
		if o := find(c.Pods, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindProvisioningRequest:
		if o := find(c.ProvisioningRequests, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindInTreePodGroup:
		if o := find(c.InTreePodGroups, ref.Namespace, ref.Name); o != nil {
			return o
		}
	case KindCompositePodGroup:
		if o := find(c.CompositePodGroups, ref.Namespace, ref.Name); o != nil {
			return o
		}
	}
	return nil
}

// find returns the object ns/name of a list (nil when absent).
func find[T metav1.Object](list []T, ns, name string) T {
	for _, o := range list {
		if o.GetNamespace() == ns && o.GetName() == name {
			return o
		}
	}
	var zero T
	return zero
}

// podsOf lists the pods of a workload, in name order.
func (c *Cluster) podsOf(ref WorkloadRef) []*corev1.Pod {
	var out []*corev1.Pod
	for _, p := range c.Pods {
		if p.Namespace == ref.Namespace && c.WorkloadOf(p) == ref {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *corev1.Pod) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// created is when a workload was created, as the scheduler orders it: its
// object's creation, else its Workload object's, else its first pod's.
func (c *Cluster) created(ref WorkloadRef, wl *multislicev1alpha1.Workload, pods []*corev1.Pod) time.Time {
	if o := c.object(ref); o != nil {
		return o.GetCreationTimestamp().Time
	}
	if wl != nil {
		return wl.CreationTimestamp.Time
	}
	var first time.Time
	for _, p := range pods {
		if t := p.CreationTimestamp.Time; first.IsZero() || t.Before(first) {
			first = t
		}
	}
	return first
}

// EventLine is one event, as `why` shows it.
type EventLine struct {
	Time    time.Time `json:"time,omitzero"`
	Type    string    `json:"type"`
	Reason  string    `json:"reason"`
	Object  string    `json:"object"`
	Message string    `json:"message"`
	Count   int32     `json:"count,omitempty"`
}

// eventTime is when an event last happened.
func eventTime(e *corev1.Event) time.Time {
	t := e.CreationTimestamp.Time
	for _, c := range []time.Time{e.FirstTimestamp.Time, e.LastTimestamp.Time, e.EventTime.Time} {
		if c.After(t) {
			t = c
		}
	}
	if e.Series != nil && e.Series.LastObservedTime.After(t) {
		t = e.Series.LastObservedTime.Time
	}
	return t
}

// eventCount is how many times an event happened.
func eventCount(e *corev1.Event) int32 {
	if e.Series != nil && e.Series.Count > 0 {
		return e.Series.Count
	}
	return e.Count
}

// objectKey identifies an event's object: kind, namespace, name.
type objectKey struct{ kind, namespace, name string }

// eventsAbout lists the events on the given objects, oldest first; an
// event of an older object of the same name (another UID) is left out.
func (c *Cluster) eventsAbout(objs map[objectKey]types.UID) []EventLine {
	var out []EventLine
	for _, e := range c.Events {
		io := e.InvolvedObject
		uid, ok := objs[objectKey{io.Kind, io.Namespace, io.Name}]
		if !ok || (uid != "" && io.UID != "" && io.UID != uid) {
			continue
		}
		out = append(out, EventLine{
			Time: eventTime(e), Type: e.Type, Reason: e.Reason, Message: e.Message, Count: eventCount(e),
			Object: strings.ToLower(io.Kind) + "/" + io.Name,
		})
	}
	slices.SortStableFunc(out, func(a, b EventLine) int { return a.Time.Compare(b.Time) })
	return out
}

// When says when t is from now: "in 3m", "2m ago", "-" for none.
func When(now, t time.Time) string {
	switch {
	case t.IsZero():
		return "-"
	case t.After(now):
		return "in " + Age(t, now)
	default:
		return Age(now, t) + " ago"
	}
}

// Age renders how long ago t was, as kubectl does (2m, 3h, 5d); "-" for
// a zero time.
func Age(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	d := now.Sub(t)
	switch {
	case d < 0:
		return "0s"
	case d < 2*time.Minute:
		return fmt.Sprintf("%ds", int(d.Seconds()))
	case d < 10*time.Minute:
		s := int(d.Seconds()) % 60
		if s == 0 {
			return fmt.Sprintf("%dm", int(d.Minutes()))
		}
		return fmt.Sprintf("%dm%ds", int(d.Minutes()), s)
	case d < 3*time.Hour:
		return fmt.Sprintf("%dm", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh", int(d.Hours()))
	default:
		return fmt.Sprintf("%dd", int(d.Hours()/24))
	}
}
