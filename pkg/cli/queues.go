package cli

import (
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// Queue is one ClusterQueue: its counts from its status, and its quota
// and usage per flavor.
type Queue struct {
	Name     string `json:"name"`
	Cohort   string `json:"cohort,omitempty"`
	Strategy string `json:"strategy"`
	// Active is the status's Active condition; Inactive says why not.
	Active   bool   `json:"active"`
	Inactive string `json:"inactive,omitempty"`
	// Pending, Reserving and Admitted count workloads as the scheduler
	// reports them in the ClusterQueue's status.
	Pending   int32 `json:"pending"`
	Reserving int32 `json:"reserving"`
	Admitted  int32 `json:"admitted"`
	// LocalQueues point at it (namespace/name).
	LocalQueues []string `json:"localQueues,omitempty"`
	Flavors     []Flavor `json:"flavors"`
}

// Flavor is a ClusterQueue's quota of one flavor.
type Flavor struct {
	Name string `json:"name"`
	// Workloads counts the workloads holding quota of this flavor, from
	// their Workload objects' admission.
	Workloads int              `json:"workloads"`
	Resources []FlavorResource `json:"resources"`
}

// FlavorResource is the quota and usage of one resource of a flavor.
type FlavorResource struct {
	Name           string             `json:"name"`
	Nominal        resource.Quantity  `json:"nominal"`
	BorrowingLimit *resource.Quantity `json:"borrowingLimit,omitempty"`
	LendingLimit   *resource.Quantity `json:"lendingLimit,omitempty"`
	// InUse and Borrowed are the status's flavorsUsage.
	InUse    resource.Quantity `json:"inUse"`
	Borrowed resource.Quantity `json:"borrowed"`
}

// Queues lists the ClusterQueues by name, each flavor and resource in the
// order of its resource groups.
func Queues(c *Cluster) []Queue {
	cqs := slices.Clone(c.ClusterQueues)
	slices.SortFunc(cqs, func(a, b *multislicev1alpha1.ClusterQueue) int { return strings.Compare(a.Name, b.Name) })
	out := make([]Queue, 0, len(cqs))
	for _, cq := range cqs {
		q := Queue{
			Name: cq.Name, Cohort: cq.Spec.CohortOf(), Strategy: strategyOf(cq),
			Pending: cq.Status.PendingWorkloads, Reserving: cq.Status.ReservingWorkloads, Admitted: cq.Status.AdmittedWorkloads,
		}
		if a := condition(cq.Status.Conditions, multislicev1alpha1.ClusterQueueActive); a != nil {
			q.Active = a.Status == metav1.ConditionTrue
			if !q.Active {
				q.Inactive = a.Reason + ": " + a.Message
			}
		} else {
			q.Inactive = "no Active condition: the scheduler has not reported on it"
		}
		for _, lq := range c.LocalQueues {
			if lq.Spec.ClusterQueue == cq.Name {
				q.LocalQueues = append(q.LocalQueues, lq.Namespace+"/"+lq.Name)
			}
		}
		slices.Sort(q.LocalQueues)
		holding := flavorHolders(c, cq.Name)
		for _, rg := range cq.Spec.ResourceGroups {
			for _, fq := range rg.Flavors {
				f := Flavor{Name: fq.Name, Workloads: holding[fq.Name]}
				for _, rq := range fq.Resources {
					r := FlavorResource{Name: string(rq.Name), Nominal: rq.NominalQuota, BorrowingLimit: rq.BorrowingLimit, LendingLimit: rq.LendingLimit}
					r.InUse, r.Borrowed = flavorUsage(cq, fq.Name, string(rq.Name))
					f.Resources = append(f.Resources, r)
				}
				q.Flavors = append(q.Flavors, f)
			}
		}
		out = append(out, q)
	}
	return out
}

// strategyOf is the ClusterQueue's queueing strategy (BestEffortFIFO when
// not set).
func strategyOf(cq *multislicev1alpha1.ClusterQueue) string {
	if s := cq.Spec.QueueingStrategy; s != "" {
		return string(s)
	}
	return string(multislicev1alpha1.BestEffortFIFO)
}

// flavorUsage reads a flavor's resource usage from the ClusterQueue's
// status.
func flavorUsage(cq *multislicev1alpha1.ClusterQueue, flavor, res string) (total, borrowed resource.Quantity) {
	for _, fu := range cq.Status.FlavorsUsage {
		if fu.Name != flavor {
			continue
		}
		for _, ru := range fu.Resources {
			if string(ru.Name) == res {
				return ru.Total, ru.Borrowed
			}
		}
	}
	return resource.Quantity{}, resource.Quantity{}
}

// flavorHolders counts, per flavor, the unfinished workloads whose
// Workload objects record quota of it reserved in ClusterQueue cq.
func flavorHolders(c *Cluster, cq string) map[string]int {
	out := map[string]int{}
	for _, wl := range c.Workloads {
		a := wl.Status.Admission
		if a == nil || a.ClusterQueue != cq || isTrue(wl.Status.Conditions, multislicev1alpha1.WorkloadFinished) {
			continue
		}
		seen := map[string]bool{}
		for _, ps := range a.PodSetAssignments {
			for _, f := range ps.Flavors {
				if !seen[f] {
					seen[f] = true
					out[f]++
				}
			}
		}
	}
	return out
}
