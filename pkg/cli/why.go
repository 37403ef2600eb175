package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	cloudv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/cloud/v1"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Where a workload stands, as `why` says it.
const (
	StatePending   = "Pending"
	StateReserved  = "QuotaReserved"
	StateAdmitted  = "Admitted"
	StateRunning   = "Running"
	StateFinished  = "Finished"
	StateSuspended = "Suspended"
)

// Explanation is everything the API says about why one workload runs
// where it does, or waits.
type Explanation struct {
	Workload WorkloadRef `json:"workload"`
	// Note says how the name asked about led to the workload (a pod of a
	// JobSet, a Workload object).
	Note           string    `json:"note,omitempty"`
	WorkloadObject string    `json:"workloadObject,omitempty"`
	Created        time.Time `json:"created,omitzero"`
	Priority       int32     `json:"priority"`
	PriorityClass  string    `json:"priorityClass,omitempty"`
	// State is Pending, QuotaReserved (waiting for admission checks),
	// Admitted, Running, Finished or Suspended; Reason and Message say
	// why it is not running.
	State   string `json:"state"`
	Reason  string `json:"reason,omitempty"`
	Message string `json:"message,omitempty"`
	Evicted string `json:"evicted,omitempty"`
	// Invalid is set when the scheduler cannot read the workload's
	// object (the same error it records as InvalidWorkload).
	Invalid    string                `json:"invalid,omitempty"`
	Queue      *QueueExplanation     `json:"queue,omitempty"`
	Slices     []SliceExplanation    `json:"slices,omitempty"`
	Domains    []DomainExplanation   `json:"domains,omitempty"`
	Topology   []TopologyExplanation `json:"topology,omitempty"`
	Checks     []CheckExplanation    `json:"admissionChecks,omitempty"`
	Consumes   *RequestExplanation   `json:"consumes,omitempty"`
	Preemption PreemptionExplanation `json:"preemption"`
	Pods       PodsExplanation       `json:"pods"`
	// Lifetimes are those of the nodes its bound pods are on that go
	// away by themselves (flex-start), with its pods on each.
	Lifetimes []PodsNodeLifetime `json:"nodeLifetimes,omitempty"`
	Events    []EventLine        `json:"events,omitempty"`
}

// PodsNodeLifetime is the lifetime of a node some of a workload's pods
// are on.
type PodsNodeLifetime struct {
	NodeLifetime
	Pool string `json:"pool,omitempty"`
	Pods int    `json:"pods"`
}

// SliceExplanation is one slice (pod set) of a workload.
type SliceExplanation struct {
	Name string `json:"name"`
	Pods int    `json:"pods"`
	// Request is what each pod asks for.
	Request string `json:"request,omitempty"`
	// DomainKey confines the slice to one domain of that node label
	// ("": unconfined); Selector is its pods' node selector.
	DomainKey string `json:"domainKey,omitempty"`
	Selector  string `json:"selector,omitempty"`
	// Flavor and Domain are where it was admitted or its pods run.
	Flavor string `json:"flavor,omitempty"`
	Domain string `json:"domain,omitempty"`
}

// PreemptionExplanation is what the scheduler recorded about preempting
// for the workload, or evicting it.
type PreemptionExplanation struct {
	// Policy is its ClusterQueue's (empty for a workload of no queue:
	// capacity preemption by priority only).
	Policy string `json:"policy,omitempty"`
	// Considered are the Preempting and NoPreemptionVictims events on it.
	Considered []EventLine `json:"considered,omitempty"`
	// Evictions are the Preempted (and other eviction) events on it.
	Evictions []EventLine `json:"evictions,omitempty"`
	// Summary says what that amounts to.
	Summary string `json:"summary"`
}

// PodsExplanation sums up a workload's pods.
type PodsExplanation struct {
	// Total counts the pods that exist; Expected those its slices have
	// (0: unknown). An exclusive JobSet's Jobs create their other pods
	// only once their first is bound (JobSet's webhook).
	Total       int `json:"total"`
	Expected    int `json:"expected,omitempty"`
	Bound       int `json:"bound"`
	Running     int `json:"running"`
	Succeeded   int `json:"succeeded,omitempty"`
	Failed      int `json:"failed,omitempty"`
	Terminating int `json:"terminating,omitempty"`
	// Waiting groups the unbound pods by the reason their PodScheduled
	// condition gives.
	Waiting []PodsWaiting `json:"waiting,omitempty"`
	// Pools are the node pools its bound pods are on.
	Pools []string `json:"pools,omitempty"`
}

// PodsWaiting is some unbound pods that say the same.
type PodsWaiting struct {
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	Pods    int    `json:"pods"`
	Example string `json:"example"`
}

// Event reasons of the scheduler about preemption (pkg/plugins/
// multislicepreemption) and evictions (pkg/controllers).
const (
	eventPreempting          = "Preempting"
	eventNoPreemptionVictims = "NoPreemptionVictims"
	eventPreempted           = "Preempted"
)

// evictionEvents are the reasons of events that say a workload was ended
// or evicted.
var evictionEvents = []string{eventPreempted, "CapacityRevoked", "MaximumRunDurationExceeded"}

// configReasons are reasons only a change to objects mends: preemption
// cannot help.
var configReasons = []string{
	quota.ReasonLocalQueueNotFound, quota.ReasonClusterQueueNotFound, quota.ReasonNamespaceNotSelected,
	quota.ReasonFlavorNotFound, quota.ReasonResourceNotCovered, quota.ReasonNoCompatibleFlavor,
	quota.ReasonExceedsQuotaForever, "Unplaceable", "GangBlocked", "SchedulerNameMismatch", "InvalidWorkload",
}

// heldForWindow reports whether a suspended object naming queue waits for
// the scheduler to start it: created suspended for a queue, never started
// (the scheduler marks what it starts, and what it suspends for good).
func heldForWindow(meta metav1.ObjectMeta, queue string) bool {
	_, marked := meta.Annotations[wellknown.UnsuspendedAnnotation]
	return queue != "" && !marked
}

// heldMessage says why a queued object of kind is still suspended.
func heldMessage(kind string) string {
	return "the " + kind + " waits suspended for its queue: the scheduler starts the first queuedStartDepth (default 16) workloads " +
		"of each ClusterQueue not yet admitted, in queue order, and this one when it ranks among them (its Queued event names the ClusterQueue)"
}

// Why explains one workload.
func Why(c *Cluster, ref WorkloadRef) *Explanation {
	e := &Explanation{Workload: ref}
	pods := c.podsOf(ref)
	wl := c.workloadObject(ref)
	model, err := c.model(ref, pods)
	if err != nil {
		e.Invalid = err.Error()
	}
	e.Created = c.created(ref, wl, pods)
	e.Priority, e.PriorityClass = priorityOf(wl, pods, model)
	e.Slices, e.Domains = c.explainSlices(ref, wl, model, pods)
	e.Pods = c.explainPods(pods)
	e.Lifetimes = c.podsNodeLifetimes(pods)
	for _, s := range e.Slices {
		e.Pods.Expected += s.Pods
	}
	e.State, e.Reason, e.Message = state(c, ref, wl, pods, e.Pods)
	e.Topology = c.explainTopology(wl, model, pods, e.State == StatePending)
	if wl != nil {
		e.WorkloadObject = wl.Name
		if ev := condition(wl.Status.Conditions, multislicev1alpha1.WorkloadEvicted); ev != nil && ev.Status == metav1.ConditionTrue {
			e.Evicted = ev.Reason + ": " + ev.Message
		}
		e.Queue = c.explainQueue(wl, requestOf(wl, model), Pending(c, PendingFilter{}))
		e.Checks = c.explainChecks(wl)
	}
	if wl == nil && model != nil && model.QueueName != "" && e.State == StateSuspended {
		// Held suspended, it has no Workload object yet: its queue is the
		// one it names.
		named := &multislicev1alpha1.Workload{ObjectMeta: metav1.ObjectMeta{Namespace: ref.Namespace},
			Spec: multislicev1alpha1.WorkloadSpec{QueueName: model.QueueName}}
		e.Queue = c.explainQueue(named, requestOf(nil, model), Pending(c, PendingFilter{}))
	}
	e.Consumes = c.consumedRequest(ref, pods)
	e.Events = c.eventsAbout(c.objectsOf(ref, wl, pods))
	e.Preemption = explainPreemption(e)
	return e
}

// model is the scheduler's model of the workload, from its object as
// listed (nil when it was not).
func (c *Cluster) model(ref WorkloadRef, pods []*corev1.Pod) (*workload.Workload, error) {
	switch ref.Kind {
	case KindJobSet:
		if js := find(c.JobSets, ref.Namespace, ref.Name); js != nil {
			return workload.FromJobSet(js, "")
		}
	case KindJob:
		if job := find(c.Jobs, ref.Namespace, ref.Name); job != nil {
			return workload.FromJob(job, "")
		}
	case KindPodGroup:
		if pg := find(c.PodGroups, ref.Namespace, ref.Name); pg != nil {
			var template *corev1.PodSpec
			if len(pods) > 0 {
				template = &pods[0].Spec
			}
			return workload.FromPodGroup(pg, template, "")
		}
	case KindPod:
		if pod := find(c.Pods, ref.Namespace, ref.Name); pod != nil {
			return workload.FromPod(pod), nil
		}
	case KindInTreePodGroup:
		if pg := find(c.InTreePodGroups, ref.Namespace, ref.Name); pg != nil {
			return workload.FromInTreePodGroup(pg, nil, "")
		}
	case KindCompositePodGroup:
		if cpg := find(c.CompositePodGroups, ref.Namespace, ref.Name); cpg != nil {
			return workload.FromCompositePodGroup(cpg, c.childrenOf(cpg.Namespace, cpg.Name), "")
		}
	case KindLeaderWorkerSet:
		// A group's object is its leader pod, as the scheduler reads it;
		// each pod asks what its own spec says, the leader's stands for
		// the group here.
		for _, p := range pods {
			if m, ok := c.memberOf(p); ok && m.Leader {
				w, err := workload.FromLWSLeader(p)
				if err == nil {
					w.Slices[0].Request = workload.PodRequests(&p.Spec)
				}
				return w, err
			}
		}
	}
	return nil, nil
}

// priorityOf is the workload's priority: its Workload object's, else its
// pods' highest.
func priorityOf(wl *multislicev1alpha1.Workload, pods []*corev1.Pod, model *workload.Workload) (int32, string) {
	var prio int32
	var class string
	if wl != nil {
		if wl.Spec.Priority != nil {
			prio = *wl.Spec.Priority
		}
		class = wl.Spec.PriorityClassName
	}
	for i, p := range pods {
		if wl == nil && (i == 0 || podPriority(p) > prio) {
			prio = podPriority(p)
		}
		if class == "" {
			class = p.Spec.PriorityClassName
		}
	}
	if class == "" && model != nil {
		for _, s := range model.Slices {
			if s.Template != nil && s.Template.PriorityClassName != "" {
				class = s.Template.PriorityClassName
				break
			}
		}
	}
	return prio, class
}

// requestOf is what the workload asks for in all: its Workload object's
// pod sets, else its model's slices.
func requestOf(wl *multislicev1alpha1.Workload, model *workload.Workload) workload.Resources {
	out := workload.Resources{}
	if wl != nil && len(wl.Spec.PodSets) > 0 {
		for _, ps := range wl.Spec.PodSets {
			out.AddScaled(workload.FromList(ps.Requests), int64(ps.Count))
		}
		return out
	}
	if model != nil {
		for _, s := range model.Slices {
			out.AddScaled(s.Request, int64(s.Pods))
		}
	}
	return out
}

// ownHolder is the holder the explained workload's pods count as: the
// object its model was read from, else what its pods say.
func ownHolder(ref WorkloadRef, model *workload.Workload, pods []*corev1.Pod) workload.Holder {
	if model != nil && model.UID != "" {
		return workload.Holder{Key: ref.key(), UID: model.UID}
	}
	for _, p := range pods {
		if h := holderOf(p, ref); h.UID != "" {
			return h
		}
	}
	return workload.Holder{Key: ref.key()}
}

// explainSlices lists the workload's slices, with where they were
// admitted or run, and sizes up the domains they are confined to.
func (c *Cluster) explainSlices(ref WorkloadRef, wl *multislicev1alpha1.Workload, model *workload.Workload, pods []*corev1.Pod) ([]SliceExplanation, []DomainExplanation) {
	var shapes []workload.Slice
	if model != nil {
		shapes = slices.Clone(model.Slices)
	}
	if wl != nil {
		for i, ps := range wl.Spec.PodSets {
			j := slices.IndexFunc(shapes, func(s workload.Slice) bool { return s.Name == ps.Name })
			if j < 0 {
				shapes = append(shapes, workload.Slice{Index: i, Name: ps.Name, Pods: int(ps.Count), Request: workload.FromList(ps.Requests)})
				j = len(shapes) - 1
			}
			shapes[j].DomainKey = ps.TopologyKey
		}
	}
	nodes := map[string]*corev1.Node{}
	for _, n := range c.Nodes {
		nodes[n.Name] = n
	}
	out := make([]SliceExplanation, 0, len(shapes))
	for _, s := range shapes {
		se := SliceExplanation{Name: s.Name, Pods: s.Pods, Request: s.Request.String(), DomainKey: s.DomainKey}
		if s.Template != nil {
			se.Selector = selectorString(s.Template.NodeSelector)
		}
		if wl != nil && wl.Status.Admission != nil {
			for _, a := range wl.Status.Admission.PodSetAssignments {
				if a.Name == s.Name {
					se.Domain = a.Domain
					se.Flavor = strings.Join(slices.Sorted(maps.Values(a.Flavors)), ",")
				}
			}
		}
		if se.Domain == "" && s.DomainKey != "" {
			for _, p := range pods {
				if m, ok := c.memberOf(p); ok && m.Slice == s.Index && bound(p) && nodes[p.Spec.NodeName] != nil {
					se.Domain = nodes[p.Spec.NodeName].Labels[s.DomainKey]
					break
				}
			}
		}
		out = append(out, se)
	}
	return out, c.explainDomains(ownHolder(ref, model, pods), shapes)
}

// podsNodeLifetimes lists the lifetimes of the nodes pods are bound to,
// by node name, for the nodes that go away by themselves.
func (c *Cluster) podsNodeLifetimes(pods []*corev1.Pod) []PodsNodeLifetime {
	count := map[string]int{}
	for _, p := range pods {
		if bound(p) {
			count[p.Spec.NodeName]++
		}
	}
	classes := map[string]*cloudv1.ComputeClass{}
	for _, cc := range c.ComputeClasses {
		classes[cc.Name] = cc
	}
	var out []PodsNodeLifetime
	for _, n := range c.Nodes {
		if count[n.Name] == 0 {
			continue
		}
		if lt, ok := nodeLifetime(c, classes, n); ok {
			out = append(out, PodsNodeLifetime{NodeLifetime: lt, Pool: n.Labels[wellknown.NodePoolLabel], Pods: count[n.Name]})
		}
	}
	slices.SortFunc(out, func(a, b PodsNodeLifetime) int { return strings.Compare(a.Node, b.Node) })
	return out
}

// selectorString renders a node selector as k=v pairs, GKE's label
// prefix left out.
func selectorString(sel map[string]string) string {
	var parts []string
	for _, k := range slices.Sorted(maps.Keys(sel)) {
		parts = append(parts, wellknown.ShortLabel(k)+"="+sel[k])
	}
	return strings.Join(parts, ",")
}

// explainPods counts the workload's pods and groups the unbound ones by
// what they say.
func (c *Cluster) explainPods(pods []*corev1.Pod) PodsExplanation {
	poolOf := map[string]string{}
	for _, n := range c.Nodes {
		poolOf[n.Name] = n.Labels[wellknown.NodePoolLabel]
	}
	out := PodsExplanation{Total: len(pods)}
	by := map[string]*PodsWaiting{}
	var order []string
	for _, p := range pods {
		switch {
		case p.Status.Phase == corev1.PodSucceeded:
			out.Succeeded++
			continue
		case p.Status.Phase == corev1.PodFailed:
			out.Failed++
			continue
		}
		if p.DeletionTimestamp != nil {
			out.Terminating++
		}
		if p.Spec.NodeName != "" {
			out.Bound++
			if p.Status.Phase == corev1.PodRunning {
				out.Running++
			}
			if pool := poolOf[p.Spec.NodeName]; pool != "" && !slices.Contains(out.Pools, pool) {
				out.Pools = append(out.Pools, pool)
			}
			continue
		}
		reason, msg := ReasonNotTried, "no scheduler has reported on it yet"
		if cond := heldReason(p); cond != nil {
			reason, msg = cond.Reason, cond.Message
		} else if len(p.Spec.SchedulingGates) > 0 {
			reason, msg = ReasonSchedulingGated, "scheduling gates: "+gateNames(p)
		}
		k := reason + "\x00" + msg
		if by[k] == nil {
			by[k] = &PodsWaiting{Reason: reason, Message: msg, Example: p.Name}
			order = append(order, k)
		}
		by[k].Pods++
	}
	for _, k := range order {
		out.Waiting = append(out.Waiting, *by[k])
	}
	slices.Sort(out.Pools)
	return out
}

func gateNames(p *corev1.Pod) string {
	var names []string
	for _, g := range p.Spec.SchedulingGates {
		names = append(names, g.Name)
	}
	return strings.Join(names, ", ")
}

// state says where the workload stands and why.
func state(c *Cluster, ref WorkloadRef, wl *multislicev1alpha1.Workload, pods []*corev1.Pod, pe PodsExplanation) (string, string, string) {
	allRunning := pe.Total > 0 && pe.Running == pe.Total-pe.Succeeded-pe.Failed && pe.Running > 0
	if wl != nil {
		conds := wl.Status.Conditions
		reserved := condition(conds, multislicev1alpha1.WorkloadQuotaReserved)
		admitted := condition(conds, multislicev1alpha1.WorkloadAdmitted)
		switch {
		case isTrue(conds, multislicev1alpha1.WorkloadFinished):
			f := condition(conds, multislicev1alpha1.WorkloadFinished)
			return StateFinished, f.Reason, f.Message
		case reserved != nil && reserved.Status == metav1.ConditionTrue && admitted != nil && admitted.Status != metav1.ConditionTrue:
			return StateReserved, admitted.Reason, admitted.Message
		case reserved != nil && reserved.Status == metav1.ConditionTrue:
			if allRunning {
				return StateRunning, "", admittedMessage(admitted)
			}
			return StateAdmitted, "", admittedMessage(admitted)
		case reserved != nil && reserved.Reason == "Suspended":
			return StateSuspended, reserved.Reason, reserved.Message
		}
		w, _ := c.pendingQueued(ref, wl)
		return StatePending, w.Reason, w.Message
	}
	if js := find(c.JobSets, ref.Namespace, ref.Name); ref.Kind == KindJobSet && js != nil && js.Spec.Suspend != nil && *js.Spec.Suspend {
		if heldForWindow(js.ObjectMeta, wellknown.QueueName(js.Labels, js.Annotations)) {
			return StateSuspended, "Queued", heldMessage("JobSet")
		}
		return StateSuspended, "Suspended", "the JobSet is suspended (spec.suspend)"
	}
	if job := find(c.Jobs, ref.Namespace, ref.Name); ref.Kind == KindJob && job != nil && job.Spec.Suspend != nil && *job.Spec.Suspend {
		if heldForWindow(job.ObjectMeta, workload.JobQueueName(job)) && job.Status.StartTime == nil {
			return StateSuspended, "Queued", heldMessage("Job")
		}
		return StateSuspended, "Suspended", "the Job is suspended (spec.suspend)"
	}
	switch {
	case pe.Total == 0:
		return StatePending, "NoPods", "none of its pods exist"
	case pe.Succeeded+pe.Failed == pe.Total:
		return StateFinished, "", fmt.Sprintf("%d pods succeeded, %d failed", pe.Succeeded, pe.Failed)
	case allRunning:
		return StateRunning, "", ""
	case pe.Bound == pe.Total-pe.Succeeded-pe.Failed:
		return StateAdmitted, "", "all its pods are bound"
	}
	reason, msg := podsSay(pods)
	return StatePending, reason, msg
}

func admittedMessage(c *metav1.Condition) string {
	if c == nil {
		return ""
	}
	return c.Message
}

// objectsOf lists the objects whose events concern the workload: its
// object, its Workload object, its pods, the Jobs of a JobSet and the
// ProvisioningRequests made for it.
func (c *Cluster) objectsOf(ref WorkloadRef, wl *multislicev1alpha1.Workload, pods []*corev1.Pod) map[objectKey]types.UID {
	out := map[objectKey]types.UID{}
	var uid types.UID
	if o := c.object(ref); o != nil {
		uid = o.GetUID()
	}
	out[objectKey{ref.Kind, ref.Namespace, ref.Name}] = uid
	for _, p := range pods {
		out[objectKey{KindPod, p.Namespace, p.Name}] = p.UID
	}
	if ref.Kind == KindJobSet {
		for _, j := range c.Jobs {
			if j.Namespace == ref.Namespace && j.Labels[wellknown.JobSetNameLabel] == ref.Name {
				out[objectKey{KindJob, j.Namespace, j.Name}] = j.UID
			}
		}
	}
	if wl != nil {
		out[objectKey{KindWorkload, wl.Namespace, wl.Name}] = wl.UID
		for _, pr := range c.ProvisioningRequests {
			if pr.Namespace == wl.Namespace && ownedByUID(pr.OwnerReferences, wl.UID) {
				out[objectKey{KindProvisioningRequest, pr.Namespace, pr.Name}] = pr.UID
			}
		}
	}
	return out
}

func ownedByUID(refs []metav1.OwnerReference, uid types.UID) bool {
	return slices.ContainsFunc(refs, func(o metav1.OwnerReference) bool { return o.UID == uid })
}

// explainPreemption picks the preemption events out of e's and says what
// they amount to.
func explainPreemption(e *Explanation) PreemptionExplanation {
	p := PreemptionExplanation{}
	if e.Queue != nil {
		p.Policy = e.Queue.Preemption
	}
	for _, ev := range e.Events {
		switch {
		case ev.Reason == eventPreempting || ev.Reason == eventNoPreemptionVictims:
			p.Considered = append(p.Considered, ev)
		case slices.Contains(evictionEvents, ev.Reason):
			p.Evictions = append(p.Evictions, ev)
		}
	}
	waiting := e.State == StatePending || e.State == StateReserved
	switch {
	case len(p.Considered) > 0 && waiting:
		last := p.Considered[len(p.Considered)-1]
		if last.Reason == eventPreempting {
			p.Summary = "preempting for it: " + last.Message
		} else {
			p.Summary = "considered, and nothing may be preempted for it: " + strings.TrimPrefix(last.Message, "cannot preempt: ")
		}
	case !waiting:
		p.Summary = "not needed: it is " + strings.ToLower(e.State)
	case slices.Contains(configReasons, e.Reason):
		p.Summary = fmt.Sprintf("not considered: it waits for %s, which only a change to its objects or the queues mends, not evicting others", e.Reason)
	case e.Reason == quota.ReasonWaitingInQueue || e.Reason == quota.ReasonYieldingToFairShare:
		p.Summary = fmt.Sprintf("not considered: it waits its turn (%s); the scheduler preempts only for a queue's head that does not fit", e.Reason)
	case e.State == StateReserved:
		p.Summary = "not considered: it holds its quota and waits for its admission checks"
	case e.Workload.Kind == KindPod:
		p.Summary = "not considered for whole workloads: a single pod preempts pod by pod, if its profile allows"
	default:
		p.Summary = "none recorded: the scheduler preempts for a workload's head once its plan fails for want of domains or quota, and then records Preempting or NoPreemptionVictims on it"
	}
	return p
}
