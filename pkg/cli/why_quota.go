package cli

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/queuemodel"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// QueueExplanation is where a queued workload stands in its queues.
type QueueExplanation struct {
	LocalQueue   string `json:"localQueue"`
	ClusterQueue string `json:"clusterQueue,omitempty"`
	Cohort       string `json:"cohort,omitempty"`
	Strategy     string `json:"strategy,omitempty"`
	// Problem says what is missing (LocalQueue, ClusterQueue, flavor).
	Problem string `json:"problem,omitempty"`
	// Position is its place among its ClusterQueue's Pending workloads
	// (0: it is not pending).
	Position int `json:"position,omitempty"`
	Pending  int `json:"pending,omitempty"`
	// Quota has a line per resource it requests and flavor that may
	// hold it (the flavor it is charged to, once admitted).
	Quota []QuotaLine `json:"quota,omitempty"`
	// Preemption is the ClusterQueue's preemption policy.
	Preemption string `json:"preemption,omitempty"`
}

// QuotaLine compares a workload's request of one resource with one flavor
// of its ClusterQueue.
type QuotaLine struct {
	// Flavor is "" for a resource no resource group covers.
	Flavor   string `json:"flavor,omitempty"`
	Resource string `json:"resource"`
	// Requested is the whole workload's request (once admitted, what it
	// is charged on this flavor); Charged says it is.
	Requested resource.Quantity `json:"requested"`
	Charged   bool              `json:"charged,omitempty"`
	Nominal   resource.Quantity `json:"nominal"`
	// BorrowingLimit is nil when the queue may borrow all its cohort
	// lends.
	BorrowingLimit *resource.Quantity `json:"borrowingLimit,omitempty"`
	// InUse and Borrowed are the ClusterQueue's status.
	InUse    resource.Quantity `json:"inUse"`
	Borrowed resource.Quantity `json:"borrowed"`
	// Available is what the queue may still take now (nominal left plus
	// what its cohort has unused, capped by its borrowing limit); Max the
	// most it could ever use, every other workload of its cohort gone.
	Available resource.Quantity `json:"available"`
	Max       resource.Quantity `json:"max"`
}

// Fits reports whether the request fits what is available now.
func (l QuotaLine) Fits() bool { return l.Requested.Cmp(l.Available) <= 0 }

// quotaBook is the queues' quota as the scheduler models it (the same
// conversion, queuemodel.ClusterQueue), charged with what each
// ClusterQueue's status says is in use. A ClusterQueue the scheduler
// leaves out (a spec it cannot model) is left out here too.
func quotaBook(c *Cluster) *quota.Book {
	b := quota.NewBook()
	for _, cq := range c.ClusterQueues {
		m, err := queuemodel.ClusterQueue(cq)
		if err != nil {
			continue
		}
		b.SetClusterQueue(m)
		used := quota.Usage{}
		for _, fu := range cq.Status.FlavorsUsage {
			for _, ru := range fu.Resources {
				if v := ru.Total.MilliValue(); v > 0 {
					used[quota.FlavorResource{Flavor: fu.Name, Resource: ru.Name}] = v
				}
			}
		}
		if len(used) > 0 {
			b.Charge(workload.Key{Source: "ClusterQueue", Name: cq.Name}, quota.FromSlices(cq.Name, map[int]quota.Usage{0: used}))
		}
	}
	return b
}

// explainQueue is where a workload with a Workload object stands in its
// queues; request is what it asks for in all (milli-units).
func (c *Cluster) explainQueue(wl *multislicev1alpha1.Workload, request workload.Resources, pending PendingList) *QueueExplanation {
	q := &QueueExplanation{LocalQueue: wl.Namespace + "/" + wl.Spec.QueueName}
	lq := find(c.LocalQueues, wl.Namespace, wl.Spec.QueueName)
	if lq == nil {
		q.Problem = fmt.Sprintf("LocalQueue %s does not exist", q.LocalQueue)
		return q
	}
	q.ClusterQueue = lq.Spec.ClusterQueue
	cq := find(c.ClusterQueues, "", lq.Spec.ClusterQueue)
	if cq == nil {
		q.Problem = fmt.Sprintf("ClusterQueue %s does not exist", lq.Spec.ClusterQueue)
		return q
	}
	q.Cohort, q.Strategy, q.Preemption = cq.Spec.CohortOf(), strategyOf(cq), preemptionPolicy(cq)
	for _, w := range pending.Workloads {
		if w.ClusterQueue == cq.Name {
			q.Pending++
			if w.WorkloadObject == wl.Name && w.Workload.Namespace == wl.Namespace {
				q.Position = w.Position
			}
		}
	}
	for _, rg := range cq.Spec.ResourceGroups {
		for _, fq := range rg.Flavors {
			if find(c.ResourceFlavors, "", fq.Name) == nil && q.Problem == "" {
				q.Problem = fmt.Sprintf("ResourceFlavor %s does not exist", fq.Name)
			}
		}
	}
	if _, err := queuemodel.ClusterQueue(cq); err != nil {
		// The scheduler leaves such a queue out: its workloads wait with
		// ClusterQueueNotFound until the spec is fixed.
		q.Problem = err.Error()
		return q
	}
	book := quotaBook(c)
	view, model := book.View(), book.ClusterQueue(cq.Name)
	charged := chargedUsage(wl)
	for _, res := range slices.Sorted(maps.Keys(request)) {
		if res == corev1.ResourcePods || request[res] == 0 {
			continue
		}
		covered := false
		for _, rg := range cq.Spec.ResourceGroups {
			for _, fq := range rg.Flavors {
				for _, rq := range fq.Resources {
					if rq.Name != res {
						continue
					}
					covered = true
					fr := quota.FlavorResource{Flavor: fq.Name, Resource: res}
					amount, isCharged := request[res], false
					if charged != nil {
						if amount, isCharged = charged[fr]; !isCharged {
							continue
						}
					}
					line := QuotaLine{
						Flavor: fq.Name, Resource: string(res), Requested: quota.Quantity(res, amount), Charged: isCharged,
						Nominal: rq.NominalQuota, BorrowingLimit: rq.BorrowingLimit,
					}
					line.InUse, line.Borrowed = flavorUsage(cq, fq.Name, string(res))
					line.Available = quota.Quantity(res, view.Available(model, fr))
					line.Max = quota.Quantity(res, view.Ceiling(model, fr))
					q.Quota = append(q.Quota, line)
				}
			}
		}
		if !covered {
			q.Quota = append(q.Quota, QuotaLine{Resource: string(res), Requested: quota.Quantity(res, request[res])})
		}
	}
	return q
}

// chargedUsage is what a Workload object records it is charged, per
// flavor and resource (nil when it holds no quota).
func chargedUsage(wl *multislicev1alpha1.Workload) quota.Usage {
	a := wl.Status.Admission
	if a == nil {
		return nil
	}
	out := quota.Usage{}
	for _, ps := range a.PodSetAssignments {
		for res, q := range ps.ResourceUsage {
			if f := ps.Flavors[res]; f != "" {
				out[quota.FlavorResource{Flavor: f, Resource: res}] += q.MilliValue()
			}
		}
	}
	return out
}

// preemptionPolicy renders a ClusterQueue's preemption policies.
func preemptionPolicy(cq *multislicev1alpha1.ClusterQueue) string {
	p := cq.Spec.Preemption
	never := string(multislicev1alpha1.PreemptionPolicyNever)
	orNever := func(v multislicev1alpha1.PreemptionPolicy) string {
		if v == "" {
			return never
		}
		return string(v)
	}
	if p == nil {
		return "withinClusterQueue: Never, reclaimWithinCohort: Never"
	}
	parts := []string{"withinClusterQueue: " + orNever(p.WithinClusterQueue), "reclaimWithinCohort: " + orNever(p.ReclaimWithinCohort)}
	if b := p.BorrowWithinCohort; b != nil && b.Policy != "" && b.Policy != multislicev1alpha1.BorrowWithinCohortPolicyNever {
		s := "borrowWithinCohort: " + string(b.Policy)
		if b.MaxPriorityThreshold != nil {
			s += fmt.Sprintf(" (up to priority %d)", *b.MaxPriorityThreshold)
		}
		parts = append(parts, s)
	}
	if r := p.ReclaimOutOfCohort; r != nil && r.Enable {
		parts = append(parts, "reclaimOutOfCohort: enabled")
	}
	// forceFit is said only when it narrows capacity preemption (its
	// default, LowerPriority, is priority's rule alone).
	if f := p.ForceFit; f != "" && f != multislicev1alpha1.PreemptionPolicyLowerPriority {
		parts = append(parts, "forceFit: "+string(f))
	}
	return strings.Join(parts, ", ")
}
