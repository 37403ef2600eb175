package builders

import (
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// ClusterQueueBuilder builds a multislice.dev ClusterQueue with its status,
// as the scheduler would have written it.
type ClusterQueueBuilder struct {
	cq *multislicev1alpha1.ClusterQueue
}

// ClusterQueue starts a BestEffortFIFO ClusterQueue of every namespace,
// without quota, reported Active.
func ClusterQueue(name string) *ClusterQueueBuilder {
	return &ClusterQueueBuilder{cq: &multislicev1alpha1.ClusterQueue{
		ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(name + "-uid"), CreationTimestamp: metav1.NewTime(Epoch)},
		Spec: multislicev1alpha1.ClusterQueueSpec{
			NamespaceSelector: &metav1.LabelSelector{},
			QueueingStrategy:  multislicev1alpha1.BestEffortFIFO,
		},
		Status: multislicev1alpha1.ClusterQueueStatus{Conditions: []metav1.Condition{{
			Type: multislicev1alpha1.ClusterQueueActive, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonReady, Message: "Can admit new workloads",
		}}},
	}}
}

// Quota adds nominal quota of resource on flavor, in a resource group of
// its own unless the last group already lists the flavor or covers the
// resource.
func (b *ClusterQueueBuilder) Quota(flavor string, res corev1.ResourceName, nominal string) *ClusterQueueBuilder {
	rq := multislicev1alpha1.ResourceQuota{Name: res, NominalQuota: resource.MustParse(nominal)}
	groups := b.cq.Spec.ResourceGroups
	if n := len(groups); n > 0 {
		g := &groups[n-1]
		for i := range g.Flavors {
			if g.Flavors[i].Name == flavor {
				g.Flavors[i].Resources = append(g.Flavors[i].Resources, rq)
				if !slices.Contains(g.CoveredResources, res) {
					g.CoveredResources = append(g.CoveredResources, res)
				}
				return b
			}
		}
		if slices.Contains(g.CoveredResources, res) {
			g.Flavors = append(g.Flavors, multislicev1alpha1.FlavorQuotas{Name: flavor, Resources: []multislicev1alpha1.ResourceQuota{rq}})
			return b
		}
	}
	b.cq.Spec.ResourceGroups = append(groups, multislicev1alpha1.ResourceGroup{
		CoveredResources: []corev1.ResourceName{res},
		Flavors:          []multislicev1alpha1.FlavorQuotas{{Name: flavor, Resources: []multislicev1alpha1.ResourceQuota{rq}}},
	})
	return b
}

// Limits sets the borrowing and lending limits ("" for none) of the
// resource added last.
func (b *ClusterQueueBuilder) Limits(borrowing, lending string) *ClusterQueueBuilder {
	g := &b.cq.Spec.ResourceGroups[len(b.cq.Spec.ResourceGroups)-1]
	f := &g.Flavors[len(g.Flavors)-1]
	r := &f.Resources[len(f.Resources)-1]
	if borrowing != "" {
		r.BorrowingLimit = ptr.To(resource.MustParse(borrowing))
	}
	if lending != "" {
		r.LendingLimit = ptr.To(resource.MustParse(lending))
	}
	return b
}

// Cohort sets spec.cohort.
func (b *ClusterQueueBuilder) Cohort(name string) *ClusterQueueBuilder {
	b.cq.Spec.Cohort = name
	return b
}

// Strategy sets spec.queueingStrategy.
func (b *ClusterQueueBuilder) Strategy(s multislicev1alpha1.QueueingStrategy) *ClusterQueueBuilder {
	b.cq.Spec.QueueingStrategy = s
	return b
}

// WithinClusterQueue sets spec.preemption.withinClusterQueue.
func (b *ClusterQueueBuilder) WithinClusterQueue(p multislicev1alpha1.PreemptionPolicy) *ClusterQueueBuilder {
	if b.cq.Spec.Preemption == nil {
		b.cq.Spec.Preemption = &multislicev1alpha1.ClusterQueuePreemption{}
	}
	b.cq.Spec.Preemption.WithinClusterQueue = p
	return b
}

// AdmissionChecks sets spec.admissionChecks.
func (b *ClusterQueueBuilder) AdmissionChecks(names ...string) *ClusterQueueBuilder {
	b.cq.Spec.AdmissionChecks = names
	return b
}

// Usage reports total in use (borrowed of it) of resource on flavor in
// the status.
func (b *ClusterQueueBuilder) Usage(flavor string, res corev1.ResourceName, total, borrowed string) *ClusterQueueBuilder {
	ru := multislicev1alpha1.ResourceUsage{Name: res, Total: resource.MustParse(total), Borrowed: resource.MustParse(borrowed)}
	st := &b.cq.Status
	for i := range st.FlavorsUsage {
		if st.FlavorsUsage[i].Name == flavor {
			st.FlavorsUsage[i].Resources = append(st.FlavorsUsage[i].Resources, ru)
			return b
		}
	}
	st.FlavorsUsage = append(st.FlavorsUsage, multislicev1alpha1.FlavorUsage{Name: flavor, Resources: []multislicev1alpha1.ResourceUsage{ru}})
	return b
}

// Counts reports the status's pending, reserving and admitted workloads.
func (b *ClusterQueueBuilder) Counts(pending, reserving, admitted int32) *ClusterQueueBuilder {
	b.cq.Status.PendingWorkloads, b.cq.Status.ReservingWorkloads, b.cq.Status.AdmittedWorkloads = pending, reserving, admitted
	return b
}

// Inactive reports the queue Active=False for reason.
func (b *ClusterQueueBuilder) Inactive(reason, message string) *ClusterQueueBuilder {
	b.cq.Status.Conditions = []metav1.Condition{{Type: multislicev1alpha1.ClusterQueueActive, Status: metav1.ConditionFalse, Reason: reason, Message: message}}
	return b
}

// Obj returns the ClusterQueue.
func (b *ClusterQueueBuilder) Obj() *multislicev1alpha1.ClusterQueue { return b.cq.DeepCopy() }

// LocalQueue is a LocalQueue of namespace ns pointing at ClusterQueue cq.
func LocalQueue(ns, name, cq string) *multislicev1alpha1.LocalQueue {
	return &multislicev1alpha1.LocalQueue{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "-" + name + "-uid"), CreationTimestamp: metav1.NewTime(Epoch)},
		Spec:       multislicev1alpha1.LocalQueueSpec{ClusterQueue: cq},
	}
}

// ResourceFlavor is a flavor standing for the nodes with these labels
// (key, value pairs).
func ResourceFlavor(name string, nodeLabels ...string) *multislicev1alpha1.ResourceFlavor {
	rf := &multislicev1alpha1.ResourceFlavor{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(name + "-uid")}}
	if len(nodeLabels) > 0 {
		rf.Spec.NodeLabels = map[string]string{}
		for i := 0; i+1 < len(nodeLabels); i += 2 {
			rf.Spec.NodeLabels[nodeLabels[i]] = nodeLabels[i+1]
		}
	}
	return rf
}

// Topology is a Topology of these levels (node labels, highest first),
// which a ResourceFlavor names in spec.topologyName.
func Topology(name string, levels ...string) *multislicev1alpha1.Topology {
	t := &multislicev1alpha1.Topology{ObjectMeta: metav1.ObjectMeta{Name: name, UID: types.UID(name + "-uid")}}
	for _, l := range levels {
		t.Spec.Levels = append(t.Spec.Levels, multislicev1alpha1.TopologyLevel{NodeLabel: l})
	}
	return t
}

// WorkloadBuilder builds a multislice.dev Workload object as the scheduler
// writes it for a queued workload.
type WorkloadBuilder struct{ wl *multislicev1alpha1.Workload }

// Workload starts the Workload object of the workload kind ns/owner (kind
// JobSet, Job, PodGroup or Pod; its UID <owner>-uid, as Unit makes them),
// named as the scheduler names it (<kind>-<owner>, lower case), created at
// Epoch, submitted to LocalQueue queue, of priority 0 and no pod set.
func Workload(kind, ns, owner, queue string) *WorkloadBuilder {
	apiVersion := map[string]string{"JobSet": "jobset.x-k8s.io/v1alpha2", "Job": "batch/v1", "PodGroup": "scheduling.x-k8s.io/v1alpha1", "Pod": "v1"}[kind]
	name := strings.ToLower(kind) + "-" + owner
	return &WorkloadBuilder{wl: &multislicev1alpha1.Workload{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, UID: types.UID(name + "-wl-uid"), CreationTimestamp: metav1.NewTime(Epoch),
			OwnerReferences: []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: owner, UID: types.UID(owner + "-uid"), Controller: ptr.To(true)}},
		},
		Spec: multislicev1alpha1.WorkloadSpec{QueueName: queue, Priority: ptr.To[int32](0)},
	}}
}

// Priority sets spec.priority.
func (b *WorkloadBuilder) Priority(p int32) *WorkloadBuilder { b.wl.Spec.Priority = &p; return b }

// Created sets metadata.creationTimestamp.
func (b *WorkloadBuilder) Created(t time.Time) *WorkloadBuilder {
	b.wl.CreationTimestamp = metav1.NewTime(t)
	return b
}

// PodSet adds a pod set of count pods each requesting perPod of res,
// confined by topologyKey ("": unconfined).
func (b *WorkloadBuilder) PodSet(name string, count int32, res corev1.ResourceName, perPod, topologyKey string) *WorkloadBuilder {
	b.wl.Spec.PodSets = append(b.wl.Spec.PodSets, multislicev1alpha1.PodSet{
		Name: name, Count: count, Requests: corev1.ResourceList{res: resource.MustParse(perPod)}, TopologyKey: topologyKey,
	})
	return b
}

// Waiting sets QuotaReserved=False (reason, message) and Admitted=False,
// as for a workload that waits.
func (b *WorkloadBuilder) Waiting(reason, message string) *WorkloadBuilder {
	b.wl.Status.Admission = nil
	b.wl.Status.Conditions = []metav1.Condition{
		{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: reason, Message: message},
		{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionFalse, Reason: multislicev1alpha1.ReasonPending, Message: "waiting for quota and domains"},
	}
	return b
}

// Admitted records quota reserved in ClusterQueue cq, every pod set
// charged on flavor in the domain given for it (in pod set order), and
// the conditions QuotaReserved=True and Admitted=True.
func (b *WorkloadBuilder) Admitted(cq, flavor string, domains ...string) *WorkloadBuilder {
	adm := &multislicev1alpha1.Admission{ClusterQueue: cq}
	for i, ps := range b.wl.Spec.PodSets {
		a := multislicev1alpha1.PodSetAssignment{Name: ps.Name, Count: ps.Count, Flavors: map[corev1.ResourceName]string{}, ResourceUsage: corev1.ResourceList{}}
		for res, q := range ps.Requests {
			a.Flavors[res] = flavor
			a.ResourceUsage[res] = *resource.NewQuantity(q.Value()*int64(ps.Count), resource.DecimalSI)
		}
		if i < len(domains) {
			a.Domain = domains[i]
		}
		adm.PodSetAssignments = append(adm.PodSetAssignments, a)
	}
	b.wl.Status.Admission = adm
	b.wl.Status.Conditions = []metav1.Condition{
		{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonQuotaReserved, Message: "Quota reserved in ClusterQueue " + cq},
		{Type: multislicev1alpha1.WorkloadAdmitted, Status: metav1.ConditionTrue, Reason: multislicev1alpha1.ReasonAdmitted, Message: "The workload is admitted"},
	}
	return b
}

// Condition sets a status condition.
func (b *WorkloadBuilder) Condition(typ string, status metav1.ConditionStatus, reason, message string) *WorkloadBuilder {
	for i := range b.wl.Status.Conditions {
		if b.wl.Status.Conditions[i].Type == typ {
			b.wl.Status.Conditions[i] = metav1.Condition{Type: typ, Status: status, Reason: reason, Message: message}
			return b
		}
	}
	b.wl.Status.Conditions = append(b.wl.Status.Conditions, metav1.Condition{Type: typ, Status: status, Reason: reason, Message: message})
	return b
}

// Check records the state of admission check name.
func (b *WorkloadBuilder) Check(name, state, message string, since time.Time) *WorkloadBuilder {
	b.wl.Status.AdmissionChecks = append(b.wl.Status.AdmissionChecks, multislicev1alpha1.AdmissionCheckState{
		Name: name, State: state, Message: message, LastTransitionTime: metav1.NewTime(since),
	})
	return b
}

// Obj returns the Workload object.
func (b *WorkloadBuilder) Obj() *multislicev1alpha1.Workload { return b.wl.DeepCopy() }
