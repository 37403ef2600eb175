// Package queuemodel turns the multislice.dev queue objects into pkg/quota's
// model: the one conversion the scheduler (through pkg/feed) and
// `kubectl multislice why` both read queues with.
package queuemodel

import (
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
)

// Flavor converts a ResourceFlavor, with the levels of topo when it is the
// Topology the flavor names (nil: that Topology is not known).
func Flavor(rf *multislicev1alpha1.ResourceFlavor, topo *multislicev1alpha1.Topology) *quota.Flavor {
	f := &quota.Flavor{
		Name:        rf.Name,
		NodeLabels:  rf.Spec.NodeLabels,
		NodeTaints:  rf.Spec.NodeTaints,
		Tolerations: rf.Spec.Tolerations,
		Topology:    rf.Spec.TopologyName,
	}
	if topo != nil && f.Topology != "" && topo.Name == f.Topology {
		f.TopologyLevels = TopologyLevels(topo)
	}
	return f
}

// TopologyLevels are a Topology's levels' node labels, highest first.
func TopologyLevels(topo *multislicev1alpha1.Topology) []string {
	var levels []string
	for _, l := range topo.Spec.Levels {
		levels = append(levels, l.NodeLabel)
	}
	return levels
}

// LocalQueue converts a LocalQueue.
func LocalQueue(lq *multislicev1alpha1.LocalQueue) *quota.LocalQueue {
	return &quota.LocalQueue{Namespace: lq.Namespace, Name: lq.Name, ClusterQueue: lq.Spec.ClusterQueue}
}

// ClusterQueue converts a ClusterQueue. The apiserver validates the
// spec; what it cannot (a label selector that does not parse), and what a
// spec that escaped validation may hold (an older CRD) but the model cannot
// (quantities negative or too large to count, strategies and policies it
// does not know, a run duration a time.Duration does not hold), is an
// error naming the field, and the queue is then left out, so its workloads
// wait with ClusterQueueNotFound until it is fixed.
func ClusterQueue(cq *multislicev1alpha1.ClusterQueue) (*quota.ClusterQueue, error) {
	invalid := func(field, format string, args ...any) error {
		return fmt.Errorf("ClusterQueue %s: %s: %s", cq.Name, field, fmt.Sprintf(format, args...))
	}
	out := &quota.ClusterQueue{
		Name:            cq.Name,
		Cohort:          cq.Spec.CohortOf(),
		Strategy:        quota.Strategy(cq.Spec.QueueingStrategy),
		Quotas:          map[quota.FlavorResource]quota.Limit{},
		FairWeight:      1000,
		AdmissionChecks: cq.Spec.CheckNames(),
	}
	// Both spellings of a field (Kueue's v1beta1 and v1beta2) at once is
	// refused by the CRD; a spec that escaped it must not pick one.
	if cq.Spec.Cohort != "" && cq.Spec.CohortName != "" {
		return nil, invalid("spec.cohortName", "cohort (v1beta1's spelling) is set too: set one of them")
	}
	if st := cq.Spec.AdmissionChecksStrategy; st != nil {
		if len(cq.Spec.AdmissionChecks) > 0 {
			return nil, invalid("spec.admissionChecksStrategy", "admissionChecks (v1beta1's spelling) is set too: set one of them")
		}
		for i, r := range st.AdmissionChecks {
			if len(r.OnFlavors) > 0 {
				return nil, invalid(fmt.Sprintf("spec.admissionChecksStrategy.admissionChecks[%d].onFlavors", i),
					"checks limited to some flavors are not supported: every workload of the ClusterQueue passes check %s; leave onFlavors out", r.Name)
			}
		}
	}
	if d := cq.Spec.MaxRunDurationSeconds; d != nil {
		if limit := int64(math.MaxInt64 / time.Second); *d < 1 || *d > limit {
			return nil, invalid("spec.maxRunDurationSeconds", "must be from 1 to %d, got %d", limit, *d)
		}
		out.MaxRunDuration = time.Duration(*d) * time.Second
	}
	switch out.Strategy {
	case "":
		out.Strategy = quota.BestEffortFIFO
	case quota.StrictFIFO, quota.BestEffortFIFO:
	default:
		return nil, invalid("spec.queueingStrategy", "%q is neither %s nor %s", out.Strategy, quota.StrictFIFO, quota.BestEffortFIFO)
	}
	if sel := cq.Spec.NamespaceSelector; sel != nil {
		s, err := metav1.LabelSelectorAsSelector(sel)
		if err != nil {
			return nil, fmt.Errorf("ClusterQueue %s: spec.namespaceSelector: %w", cq.Name, err)
		}
		out.Namespaces = s
	}
	milli := func(field string, q *resource.Quantity) (int64, error) {
		switch {
		case q.Sign() < 0:
			return 0, invalid(field, "must not be negative, got %s", q.String())
		case q.Cmp(*maxQuota) > 0:
			return 0, invalid(field, "%s is more than can be counted (at most %s)", q.String(), maxQuota.String())
		}
		return q.MilliValue(), nil
	}
	for i, rg := range cq.Spec.ResourceGroups {
		g := quota.Group{Covered: slices.Clone(rg.CoveredResources)}
		for j, fq := range rg.Flavors {
			g.Flavors = append(g.Flavors, fq.Name)
			for k, rq := range fq.Resources {
				if len(rg.CoveredResources) == 0 && !slices.Contains(g.Covered, rq.Name) {
					// An omitted coveredResources means what the flavors list.
					g.Covered = append(g.Covered, rq.Name)
				}
				field := fmt.Sprintf("spec.resourceGroups[%d].flavors[%d].resources[%d].", i, j, k)
				var l quota.Limit
				var err error
				if l.Nominal, err = milli(field+"nominalQuota", &rq.NominalQuota); err != nil {
					return nil, err
				}
				if rq.BorrowingLimit != nil {
					v, err := milli(field+"borrowingLimit", rq.BorrowingLimit)
					if err != nil {
						return nil, err
					}
					l.Borrowing = &v
				}
				if rq.LendingLimit != nil {
					v, err := milli(field+"lendingLimit", rq.LendingLimit)
					if err != nil {
						return nil, err
					}
					l.Lending = &v
				}
				out.Quotas[quota.FlavorResource{Flavor: fq.Name, Resource: rq.Name}] = l
			}
		}
		out.Groups = append(out.Groups, g)
	}
	if fs := cq.Spec.FairSharing; fs != nil && fs.Weight != nil {
		w, err := milli("spec.fairSharing.weight", fs.Weight)
		if err != nil {
			return nil, err
		}
		out.FairWeight = w
	}
	if p := cq.Spec.Preemption; p != nil {
		// The CRD's enums; "" is the CRD's default (Never, and
		// LowerPriority for forceFit).
		type policy struct {
			field, value string
			allowed      []string
		}
		policies := []policy{
			{"withinClusterQueue", string(p.WithinClusterQueue), []string{"Never", "LowerPriority", "LowerOrNewerEqualPriority"}},
			{"reclaimWithinCohort", string(p.ReclaimWithinCohort), []string{"Never", "LowerPriority", "Any"}},
			{"forceFit", string(p.ForceFit), []string{"Never", "LowerPriorityWithinCohort", "LowerPriority"}},
		}
		if b := p.BorrowWithinCohort; b != nil {
			policies = append(policies, policy{"borrowWithinCohort.policy", string(b.Policy), []string{"Never", "LowerPriority"}})
		}
		for _, pol := range policies {
			if pol.value != "" && !slices.Contains(pol.allowed, pol.value) {
				return nil, invalid("spec.preemption."+pol.field, "%q is not one of %s", pol.value, strings.Join(pol.allowed, ", "))
			}
		}
		out.Preemption = quota.Preemption{
			WithinClusterQueue:  string(p.WithinClusterQueue),
			ReclaimWithinCohort: string(p.ReclaimWithinCohort),
			ForceFit:            string(p.ForceFit),
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

// maxQuota is the largest amount the quota model holds, as a quantity.
var maxQuota = resource.NewMilliQuantity(math.MaxInt64, resource.DecimalSI)
