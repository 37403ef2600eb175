package feed

import (
	"fmt"
	"slices"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// flavorModel converts a ResourceFlavor.
func flavorModel(rf *multislicev1alpha1.ResourceFlavor) *quota.Flavor {
	return &quota.Flavor{
		Name:        rf.Name,
		NodeLabels:  rf.Spec.NodeLabels,
		NodeTaints:  rf.Spec.NodeTaints,
		Tolerations: rf.Spec.Tolerations,
	}
}

// localQueueModel converts a LocalQueue.
func localQueueModel(lq *multislicev1alpha1.LocalQueue) *quota.LocalQueue {
	return &quota.LocalQueue{Namespace: lq.Namespace, Name: lq.Name, ClusterQueue: lq.Spec.ClusterQueue}
}

// clusterQueueModel converts a ClusterQueue. The apiserver validates the
// spec; what it cannot (a label selector that does not parse) is an error
// naming the field, and the queue is then left out, so its workloads wait
// with ClusterQueueNotFound until it is fixed.
func clusterQueueModel(cq *multislicev1alpha1.ClusterQueue) (*quota.ClusterQueue, error) {
	out := &quota.ClusterQueue{
		Name:            cq.Name,
		Cohort:          cq.Spec.Cohort,
		Strategy:        quota.Strategy(cq.Spec.QueueingStrategy),
		Quotas:          map[quota.FlavorResource]quota.Limit{},
		FairWeight:      1000,
		AdmissionChecks: cq.Spec.AdmissionChecks,
	}
	if d := cq.Spec.MaxRunDurationSeconds; d != nil {
		out.MaxRunDuration = time.Duration(*d) * time.Second
	}
	if out.Strategy == "" {
		out.Strategy = quota.BestEffortFIFO
	}
	if sel := cq.Spec.NamespaceSelector; sel != nil {
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			return nil, fmt.Errorf("ClusterQueue %s: spec.namespaceSelector: %w", cq.Name, err)
		}
		out.Namespaces = s
	}
	for _, rg := range cq.Spec.ResourceGroups {
		g := quota.Group{Covered: slices.Clone(rg.CoveredResources)}
		for _, fq := range rg.Flavors {
			g.Flavors = append(g.Flavors, fq.Name)
			for _, rq := range fq.Resources {
				if len(rg.CoveredResources) == 0 && !slices.Contains(g.Covered, rq.Name) {
					// An omitted coveredResources means what the flavors list.
					g.Covered = append(g.Covered, rq.Name)
				}
				l := quota.Limit{Nominal: rq.NominalQuota.MilliValue()}
				if rq.BorrowingLimit != nil {
					v := rq.BorrowingLimit.MilliValue()
					l.Borrowing = &v
				}
				if rq.LendingLimit != nil {
					v := rq.LendingLimit.MilliValue()
					l.Lending = &v
				}
				out.Quotas[quota.FlavorResource{Flavor: fq.Name, Resource: rq.Name}] = l
			}
		}
		out.Groups = append(out.Groups, g)
	}
	if fs := cq.Spec.FairSharing; fs != nil && fs.Weight != nil {
		out.FairWeight = fs.Weight.MilliValue()
	}
	if p := cq.Spec.Preemption; p != nil {
		out.Preemption = quota.Preemption{
			WithinClusterQueue:  string(p.WithinClusterQueue),
			ReclaimWithinCohort: string(p.ReclaimWithinCohort),
		}
		if b := p.BorrowWithinCohort; b != nil {
			out.Preemption.BorrowWithinCohort = string(b.Policy)
			out.Preemption.BorrowMaxPriority = b.MaxPriorityThreshold
		}
		if r := p.ReclaimOutOfCohort; r != nil {
			out.Preemption.ReclaimOutOfCohort = r.Enable
			out.Preemption.ReclaimMoreThanNominal = r.Enable && r.ReclaimMoreThanNominalQuota
		}
	}
	return out, nil
}

// usageList renders a usage as the status' per-flavor list, in the order
// of flavors then resources, whole units.
func usageList(u, borrowed quota.Usage) []multislicev1alpha1.FlavorUsage {
	byFlavor := map[string][]corev1.ResourceName{}
	var flavors []string
	for fr := range u {
		if _, ok := byFlavor[fr.Flavor]; !ok {
			flavors = append(flavors, fr.Flavor)
		}
		byFlavor[fr.Flavor] = append(byFlavor[fr.Flavor], fr.Resource)
	}
	slices.Sort(flavors)
	out := make([]multislicev1alpha1.FlavorUsage, 0, len(flavors))
	for _, f := range flavors {
		rs := byFlavor[f]
		slices.Sort(rs)
		fu := multislicev1alpha1.FlavorUsage{Name: f}
		for _, r := range rs {
			fr := quota.FlavorResource{Flavor: f, Resource: r}
			fu.Resources = append(fu.Resources, multislicev1alpha1.ResourceUsage{
				Name: r, Total: quota.Quantity(r, u[fr]), Borrowed: quota.Quantity(r, borrowed[fr]),
			})
		}
		out = append(out, fu)
	}
	return out
}
