package chaos

import (
	corev1 "k8s.io/api/core/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// QueueQuota is one ClusterQueue's quota of one resource of one flavor, as
// its spec gives it.
type QueueQuota struct {
	// Has: the queue lists the flavor with the resource. A queue that does
	// not may not use it at all.
	Has     bool
	Nominal int64
	// BorrowingLimit caps how far above Nominal the queue may go (nil: no
	// cap but what the cohort lends).
	BorrowingLimit *int64
	// LendingLimit caps how much of Nominal the cohort may use (nil: all
	// of it); the rest is the queue's alone.
	LendingLimit *int64
}

// guaranteed is the part of the nominal quota never lent.
func (q QueueQuota) guaranteed() int64 {
	if q.LendingLimit == nil {
		return 0
	}
	return max(0, q.Nominal-*q.LendingLimit)
}

// lendable is the part of the nominal quota the cohort may use.
func (q QueueQuota) lendable() int64 { return q.Nominal - q.guaranteed() }

// Allowance is how much of a resource of a flavor a ClusterQueue may use
// at an instant, given what the other queues of its cohort use.
type Allowance struct {
	Nominal int64
	// CohortLends is what the other members have unused of what they lend:
	// their lendable quota less what they draw from the cohort themselves,
	// never below 0 (a queue within its nominal quota is within quota,
	// whatever the others borrow: the borrower is over, not it).
	CohortLends int64
	// BorrowingLimit is the queue's own cap on borrowing, if any.
	BorrowingLimit *int64
	// Max is the most the queue may use: Nominal + CohortLends, capped at
	// Nominal + BorrowingLimit, and 0 for a queue without the flavor.
	Max int64
}

// Allowances computes, as "Accounting" in docs/concepts/queues-and-quota.md describes, each
// queue's allowance for one resource of one flavor at an instant. quotas
// (every ClusterQueue, Has false for those without the flavor: they lend
// nothing, and whatever they use comes from the cohort) and usage are
// keyed by ClusterQueue; cohorts maps each queue to its cohort ("" for
// none). Every member lends its nominal quota (or its lending limit) and
// may borrow up to its borrowing limit; a member draws from what the
// cohort lends whatever it uses beyond the part it never lends. So a queue
// may use its nominal quota plus what the others have unused of what they
// lend. When the cohort as a whole uses more than it has, the queues
// beyond their nominal quota are the ones over.
func Allowances(quotas map[string]QueueQuota, usage map[string]int64, cohorts map[string]string) map[string]Allowance {
	out := make(map[string]Allowance, len(quotas))
	for name, q := range quotas {
		a := Allowance{Nominal: q.Nominal, BorrowingLimit: q.BorrowingLimit}
		if !q.Has {
			out[name] = a
			continue
		}
		if cohort := cohorts[name]; cohort != "" {
			var lends int64
			for other, oq := range quotas {
				if other == name || cohorts[other] != cohort {
					continue
				}
				drawn := max(0, usage[other]-oq.guaranteed())
				lends += oq.lendable() - drawn
			}
			a.CohortLends = max(0, lends)
		}
		a.Max = q.Nominal + a.CohortLends
		if q.BorrowingLimit != nil {
			a.Max = min(a.Max, q.Nominal+*q.BorrowingLimit)
		}
		out[name] = a
	}
	return out
}

// QueueQuotaOf reads a ClusterQueue's quota of resource in flavor.
func QueueQuotaOf(cq *multislicev1alpha1.ClusterQueue, flavor string, resource corev1.ResourceName) QueueQuota {
	for _, rg := range cq.Spec.ResourceGroups {
		for _, f := range rg.Flavors {
			if f.Name != flavor {
				continue
			}
			for _, r := range f.Resources {
				if r.Name != resource {
					continue
				}
				q := QueueQuota{Has: true, Nominal: r.NominalQuota.Value()}
				if r.BorrowingLimit != nil {
					v := r.BorrowingLimit.Value()
					q.BorrowingLimit = &v
				}
				if r.LendingLimit != nil {
					v := r.LendingLimit.Value()
					q.LendingLimit = &v
				}
				return q
			}
		}
	}
	return QueueQuota{}
}

// FlavorOf is the first flavor of a ClusterQueue, in its order, whose node
// labels a node has: the flavor its pods there are charged to. It reports
// false when no flavor of the queue matches the node.
func FlavorOf(cq *multislicev1alpha1.ClusterQueue, flavors map[string]*multislicev1alpha1.ResourceFlavor, node *corev1.Node) (string, bool) {
	for _, rg := range cq.Spec.ResourceGroups {
		for _, f := range rg.Flavors {
			rf := flavors[f.Name]
			if rf == nil {
				continue
			}
			match := true
			for k, v := range rf.Spec.NodeLabels {
				if node.Labels[k] != v {
					match = false
					break
				}
			}
			if match {
				return f.Name, true
			}
		}
	}
	return "", false
}
