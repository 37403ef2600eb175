// Package quota is the scheduler's model of Kueue-shaped quotas: resource
// flavors, ClusterQueues with nominal quota per flavor and resource, cohorts
// that lend and borrow unused quota, LocalQueues that point namespaces at a
// ClusterQueue, and the ledger of what admitted workloads are charged. It
// answers "may this workload be admitted now, on which flavors" and "which
// pending workload of a queue goes next"; placement is decided elsewhere, on
// the same snapshot, so that quota and domains are granted together.
//
// Amounts are milli-units (workload.Resources). The package imports no API or
// framework types: the feed converts queue objects into this model.
package quota

import (
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Strategy orders admission within a ClusterQueue.
type Strategy string

const (
	// StrictFIFO: the queue's head blocks every workload behind it.
	StrictFIFO Strategy = "StrictFIFO"
	// BestEffortFIFO: a head that does not fit lets smaller workloads behind
	// it in, until it has waited for the starvation limit (see Order).
	BestEffortFIFO Strategy = "BestEffortFIFO"
)

// FlavorResource names one resource of one flavor.
type FlavorResource struct {
	Flavor   string
	Resource corev1.ResourceName
}

func (fr FlavorResource) String() string {
	return fmt.Sprintf("%s on flavor %s", fr.Resource, fr.Flavor)
}

// Usage is an amount per flavor and resource.
type Usage map[FlavorResource]int64

// Add adds o to u.
func (u Usage) Add(o Usage) {
	for fr, v := range o {
		u[fr] += v
	}
}

// Sub subtracts o from u, dropping what reaches zero.
func (u Usage) Sub(o Usage) {
	for fr, v := range o {
		if u[fr] -= v; u[fr] == 0 {
			delete(u, fr)
		}
	}
}

// Clone copies u.
func (u Usage) Clone() Usage {
	out := make(Usage, len(u))
	for fr, v := range u {
		out[fr] = v
	}
	return out
}

// Limit is a ClusterQueue's quota of one resource of one flavor.
type Limit struct {
	Nominal int64
	// Borrowing caps how much above Nominal the queue may use, borrowing
	// from its cohort; nil: no cap beyond what the cohort can lend.
	Borrowing *int64
	// Lending caps how much of Nominal the cohort may borrow while the queue
	// does not use it; nil: all of it. Nominal-Lending is guaranteed to the
	// queue: it is never lent.
	Lending *int64
}

// guaranteed is the part of Nominal never lent to the cohort.
func (l Limit) guaranteed() int64 {
	if l.Lending == nil {
		return 0
	}
	return max(0, l.Nominal-*l.Lending)
}

// Group is one resource group of a ClusterQueue: the resources it covers
// are charged together to one of its flavors, tried in order.
type Group struct {
	Covered []corev1.ResourceName
	Flavors []string
}

// Covers reports whether the group covers resource r.
func (g Group) Covers(r corev1.ResourceName) bool { return slices.Contains(g.Covered, r) }

// Preemption holds a ClusterQueue's preemption policies; they are kept
// with the queue for the preemption planner.
type Preemption struct {
	WithinClusterQueue  string
	ReclaimWithinCohort string
	BorrowWithinCohort  string
	// BorrowMaxPriority is the borrowWithinCohort priority threshold (nil: none).
	BorrowMaxPriority  *int32
	ReclaimOutOfCohort bool
	// ReclaimMoreThanNominal lets out-of-cohort reclaim go beyond the
	// queue's nominal quota.
	ReclaimMoreThanNominal bool
	// ForceFit is which workloads of other queues capacity preemption may
	// evict: LowerPriority ("" too), LowerPriorityWithinCohort or Never.
	ForceFit string
}

// ClusterQueue is a cluster-wide queue with quota.
type ClusterQueue struct {
	Name   string
	Cohort string
	Groups []Group
	Quotas map[FlavorResource]Limit
	// Strategy defaults to BestEffortFIFO.
	Strategy Strategy
	// Namespaces selects the namespaces whose LocalQueues may point here;
	// nil selects every namespace.
	Namespaces labels.Selector
	// FairWeight (milli-units, default 1000) scales the queue's share when
	// cohort members compete for borrowed quota: a queue of weight 2 may
	// borrow twice as much as one of weight 1 before it yields.
	FairWeight int64
	Preemption Preemption
	// AdmissionChecks are the checks a workload must pass (provisioning).
	AdmissionChecks []string
	// MaxRunDuration bounds how long its workloads run (0: no bound) when
	// neither they nor its provisioning check say otherwise.
	MaxRunDuration time.Duration
}

// group returns the group covering resource r (-1: none).
func (cq *ClusterQueue) group(r corev1.ResourceName) int {
	for i, g := range cq.Groups {
		if g.Covers(r) {
			return i
		}
	}
	return -1
}

// Flavor is a ResourceFlavor: which nodes its quota stands for.
type Flavor struct {
	Name        string
	NodeLabels  map[string]string
	NodeTaints  []corev1.Taint
	Tolerations []corev1.Toleration
	// Topology names the Topology the flavor's nodes are arranged by (""
	// for none); TopologyLevels are its levels' node labels, highest
	// first, or nil while no Topology of that name is known.
	Topology       string
	TopologyLevels []string
}

// Matches reports whether a node with these labels belongs to the flavor.
func (f *Flavor) Matches(nodeLabels map[string]string) bool {
	return AdmitsNode(f.NodeLabels, nodeLabels)
}

// AdmitsNode is the one rule for whether a flavor, by its node labels,
// admits a node, by its labels: the node carries every one of them. The
// planner, a queued pod's admission, Filter and a reservation's
// validation (on the flavor's labels a reservation copies) all decide
// with it.
func AdmitsNode(flavorLabels, nodeLabels map[string]string) bool {
	for k, v := range flavorLabels {
		// A label with an empty value also admits the nodes that do not
		// carry it: a flavor of the nodes without label k says k: "".
		if nodeLabels[k] != v {
			return false
		}
	}
	return true
}

// LocalQueue points a namespace's workloads at a ClusterQueue.
type LocalQueue struct {
	Namespace, Name string
	ClusterQueue    string
}

// Need is what one slice of a workload asks for: Count pods of Request.
// Compatible says whether the slice's pods could run on a flavor's nodes
// at all (their node selectors and affinity against its node labels); nil
// accepts every flavor. CompatibleKey identifies Compatible: two needs
// with equal Slice, Count, Request and CompatibleKey are assigned alike
// (see Shape).
type Need struct {
	Slice         int
	Count         int64
	Request       workload.Resources
	Compatible    func(f *Flavor) bool
	CompatibleKey string
}

// Shape is a key equal for needs that Assign treats alike: Assign depends
// only on the view and on what Shape covers, so a shape that did not fit
// a queue does not fit it after more is charged either.
func Shape(needs []Need) string {
	var b strings.Builder
	for _, n := range needs {
		fmt.Fprintf(&b, "%d*%d[%s]", n.Slice, n.Count, n.CompatibleKey)
		for _, r := range slices.Sorted(maps.Keys(n.Request)) {
			fmt.Fprintf(&b, "%s=%d,", r, n.Request[r])
		}
		b.WriteByte(';')
	}
	return b.String()
}

// total is the slice's request for resource r, all pods together.
func (n Need) total(r corev1.ResourceName) int64 { return n.Request[r] * n.Count }
