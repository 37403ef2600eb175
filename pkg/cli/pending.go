package cli

import (
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// PendingOrder says how Pending orders workloads: the order of
// quota.Precedes, which the scheduler sorts each ClusterQueue's pending
// workloads by, and its queue sort for workloads of no queue.
const PendingOrder = "per ClusterQueue, higher priority first, then earlier creation, then kind, namespace and name, as the scheduler tries them; " +
	"workloads of no queue last, in the same order"

// Reasons Pending gives when the API says nothing more specific.
const (
	// ReasonSchedulingGated: a pod has scheduling gates and no
	// PodScheduled condition yet.
	ReasonSchedulingGated = "SchedulingGated"
	// ReasonNotTried: no scheduler has reported on the pods yet.
	ReasonNotTried = "NotTriedYet"
)

// PendingWorkload is a workload waiting to be admitted or placed.
type PendingWorkload struct {
	Workload WorkloadRef `json:"workload"`
	// WorkloadObject is the name of its multislice.dev Workload object
	// ("" for a workload of no queue).
	WorkloadObject string `json:"workloadObject,omitempty"`
	LocalQueue     string `json:"localQueue,omitempty"`
	// ClusterQueue is "" for a workload of no queue, or whose LocalQueue
	// does not exist.
	ClusterQueue string `json:"clusterQueue,omitempty"`
	// Position is its place among the pending workloads of its
	// ClusterQueue (1 is tried first), or among those of no queue.
	Position int       `json:"position"`
	Priority int32     `json:"priority"`
	Created  time.Time `json:"created,omitzero"`
	// Reason and Message are why it waits: its Workload object's
	// QuotaReserved=False condition, or its pods' PodScheduled=False.
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	// Evicted is set when it waits after being evicted.
	Evicted string `json:"evicted,omitempty"`
	// Pods counts its pods that exist; Bound those on a node.
	Pods  int `json:"pods"`
	Bound int `json:"bound"`
}

// PendingList is the pending workloads, queue by queue in order.
type PendingList struct {
	Order     string            `json:"order"`
	Workloads []PendingWorkload `json:"workloads"`
}

// PendingFilter selects what Pending lists; positions are counted over
// the whole ClusterQueue all the same.
type PendingFilter struct {
	// Namespace limits the list to one namespace ("": all).
	Namespace string
	// ClusterQueue limits it to one ClusterQueue ("": all).
	ClusterQueue string
}

// Pending lists the workloads that wait: those whose Workload object holds
// no quota (not finished, not suspended), and, for workloads of no queue,
// those with pods not bound to a node. Queues come in name order, workloads
// of no queue (and of LocalQueues that do not exist) last.
func Pending(c *Cluster, f PendingFilter) PendingList {
	all := pendingWorkloads(c)
	groups := map[string][]*PendingWorkload{}
	for i := range all {
		groups[all[i].ClusterQueue] = append(groups[all[i].ClusterQueue], &all[i])
	}
	out := PendingList{Order: PendingOrder, Workloads: []PendingWorkload{}}
	names := slices.Sorted(maps.Keys(groups))
	if len(names) > 0 && names[0] == "" {
		names = append(names[1:], "")
	}
	for _, cq := range names {
		list := groups[cq]
		slices.SortFunc(list, func(a, b *PendingWorkload) int {
			switch {
			case quota.Precedes(a.Priority, b.Priority, a.Created, b.Created, a.Workload.key(), b.Workload.key()):
				return -1
			case quota.Precedes(b.Priority, a.Priority, b.Created, a.Created, b.Workload.key(), a.Workload.key()):
				return 1
			}
			return 0
		})
		for i, w := range list {
			w.Position = i + 1
			if (f.Namespace == "" || w.Workload.Namespace == f.Namespace) && (f.ClusterQueue == "" || w.ClusterQueue == f.ClusterQueue) {
				out.Workloads = append(out.Workloads, *w)
			}
		}
	}
	return out
}

// pendingWorkloads finds every pending workload, unordered.
func pendingWorkloads(c *Cluster) []PendingWorkload {
	var out []PendingWorkload
	queued := map[WorkloadRef]bool{}
	for _, wl := range c.Workloads {
		ref, _, ok := ownerOf(wl)
		if !ok {
			continue
		}
		queued[ref] = true
		if w, ok := c.pendingQueued(ref, wl); ok {
			out = append(out, w)
		}
	}
	unbound := map[WorkloadRef]bool{}
	for _, p := range c.Pods {
		if p.Spec.NodeName == "" && live(p) && p.DeletionTimestamp == nil {
			if ref := c.WorkloadOf(p); !queued[ref] {
				unbound[ref] = true
			}
		}
	}
	for ref := range unbound {
		pods := c.podsOf(ref)
		w := PendingWorkload{Workload: ref, Created: c.created(ref, nil, pods), Pods: len(pods)}
		for _, p := range pods {
			w.Priority = max(w.Priority, podPriority(p))
			if bound(p) {
				w.Bound++
			}
		}
		w.Reason, w.Message = podsSay(pods)
		out = append(out, w)
	}
	return out
}

// pendingQueued is the pending entry of a workload with a Workload object
// (ok false when it is not pending).
func (c *Cluster) pendingQueued(ref WorkloadRef, wl *multislicev1alpha1.Workload) (PendingWorkload, bool) {
	conds := wl.Status.Conditions
	reserved := condition(conds, multislicev1alpha1.WorkloadQuotaReserved)
	if isTrue(conds, multislicev1alpha1.WorkloadFinished) || (reserved != nil && (reserved.Status == metav1.ConditionTrue || reserved.Reason == "Suspended")) {
		return PendingWorkload{}, false
	}
	pods := c.podsOf(ref)
	w := PendingWorkload{
		Workload: ref, WorkloadObject: wl.Name, LocalQueue: wl.Spec.QueueName,
		Created: c.created(ref, wl, pods), Pods: len(pods), Reason: multislicev1alpha1.ReasonPending,
	}
	if wl.Spec.Priority != nil {
		w.Priority = *wl.Spec.Priority
	}
	if lq := find(c.LocalQueues, wl.Namespace, wl.Spec.QueueName); lq != nil {
		w.ClusterQueue = lq.Spec.ClusterQueue
	}
	for _, p := range pods {
		if bound(p) {
			w.Bound++
		}
	}
	if reserved != nil {
		w.Reason, w.Message = reserved.Reason, reserved.Message
	}
	if w.Reason == multislicev1alpha1.ReasonPending {
		// The Workload object says only that it waits; its pods may say
		// what for.
		if reason, msg := podsSay(pods); reason != ReasonNotTried && reason != "" {
			w.Reason, w.Message = reason, msg
		}
	}
	if e := condition(conds, multislicev1alpha1.WorkloadEvicted); e != nil && e.Status == metav1.ConditionTrue {
		w.Evicted = e.Reason + ": " + e.Message
	}
	return w, true
}

// podsSay is why a workload's unbound pods wait: the reason most of them
// give in their PodScheduled=False condition (the first pod's message with
// it), else that they are gated or not tried yet.
func podsSay(pods []*corev1.Pod) (reason, message string) {
	count := map[string]int{}
	first := map[string]string{}
	var order []string
	gated := 0
	for _, p := range pods {
		if p.Spec.NodeName != "" || !live(p) {
			continue
		}
		if c := heldReason(p); c != nil {
			r := c.Reason
			if r == "" {
				r = corev1.PodReasonUnschedulable
			}
			if count[r] == 0 {
				order = append(order, r)
				first[r] = c.Message
			}
			count[r]++
		} else if len(p.Spec.SchedulingGates) > 0 {
			gated++
		}
	}
	if len(order) == 0 {
		if gated > 0 {
			return ReasonSchedulingGated, "its pods have scheduling gates and no scheduler has said why they wait yet"
		}
		return ReasonNotTried, "no scheduler has reported on its pods yet"
	}
	best := order[0]
	for _, r := range order[1:] {
		if count[r] > count[best] {
			best = r
		}
	}
	return best, strings.TrimSpace(first[best])
}
