package quota

import (
	"fmt"
	"maps"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/labels"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Reasons a workload cannot be admitted. They end up in Workload
// conditions and events, so users can act on them.
const (
	ReasonLocalQueueNotFound   = "LocalQueueNotFound"
	ReasonClusterQueueNotFound = "ClusterQueueNotFound"
	ReasonNamespaceNotSelected = "NamespaceNotSelected"
	ReasonFlavorNotFound       = "FlavorNotFound"
	ReasonResourceNotCovered   = "ResourceNotCovered"
	ReasonNoCompatibleFlavor   = "NoCompatibleFlavor"
	ReasonQuotaExceeded        = "QuotaExceeded"
	ReasonExceedsQuotaForever  = "ExceedsMaximumQuota"
	ReasonWaitingInQueue       = "WaitingInQueue"
	ReasonYieldingToFairShare  = "YieldingToFairShare"
	ReasonQueueAPIUnknown      = "QueueAPIUnknown"
)

// Problem says why a workload cannot be admitted now.
type Problem struct {
	Reason  string
	Message string
	// Config is true when only a change to queue objects (or the
	// workload) can help, not quota freed by other workloads.
	Config bool
}

func (p *Problem) Error() string { return p.Message }

// Charge is what an admitted workload is charged.
type Charge struct {
	ClusterQueue string
	Usage        Usage
	// Flavors maps, per slice, each charged resource to its flavor.
	Flavors map[int]map[corev1.ResourceName]string
	// Slices is, per slice, its part of Usage: what a Workload object's
	// admission records per pod set.
	Slices map[int]Usage
}

// FromSlices is the charge to ClusterQueue cq of slices, each with the
// usage and flavors given: a charge as a Workload object records it.
func FromSlices(cq string, slices map[int]Usage) *Charge {
	c := &Charge{ClusterQueue: cq, Usage: Usage{}, Flavors: map[int]map[corev1.ResourceName]string{}, Slices: slices}
	for i, u := range slices {
		chosen := map[corev1.ResourceName]string{}
		for fr, v := range u {
			c.Usage[fr] += v
			chosen[fr.Resource] = fr.Flavor
		}
		c.Flavors[i] = chosen
	}
	return c
}

// Book is the registry of queue objects and the ledger of charges. It is
// not safe for concurrent use: its owner (the scheduler's state) locks.
// Its maps of flavors, ClusterQueues and cohorts, and each queue's usage,
// are replaced, never modified: a View keeps the ones it was taken with,
// and plans read it after the lock is released.
type Book struct {
	flavors    map[string]*Flavor
	queues     map[string]*ClusterQueue
	locals     map[string]*LocalQueue // by namespace/name
	namespaces map[string]labels.Set
	// usage is, per ClusterQueue name, the sum of its workloads' charges.
	usage   map[string]Usage
	charges map[workload.Key]*Charge
	// cohorts lists each cohort's members, sorted by name, rebuilt when a
	// ClusterQueue changes.
	cohorts map[string][]*ClusterQueue
}

// NewBook returns an empty book.
func NewBook() *Book {
	return &Book{
		flavors:    map[string]*Flavor{},
		queues:     map[string]*ClusterQueue{},
		locals:     map[string]*LocalQueue{},
		namespaces: map[string]labels.Set{},
		usage:      map[string]Usage{},
		charges:    map[workload.Key]*Charge{},
	}
}

// SetFlavor adds or replaces a flavor.
// It reports whether anything changed: an informer delivers every status
// write and resync of the object, and only a change may admit anything.
func (b *Book) SetFlavor(f *Flavor) bool {
	if old := b.flavors[f.Name]; old != nil && reflect.DeepEqual(old, f) {
		return false
	}
	b.flavors = withEntry(b.flavors, f.Name, f)
	return true
}

// withEntry is m with k set to v, as a new map (see Book).
func withEntry[V any](m map[string]V, k string, v V) map[string]V {
	out := maps.Clone(m)
	if out == nil {
		out = map[string]V{}
	}
	out[k] = v
	return out
}

// withoutEntry is m without k, as a new map (see Book).
func withoutEntry[V any](m map[string]V, k string) map[string]V {
	out := maps.Clone(m)
	delete(out, k)
	return out
}

// DeleteFlavor removes a flavor.
func (b *Book) DeleteFlavor(name string) { b.flavors = withoutEntry(b.flavors, name) }

// Flavor returns a flavor by name.
func (b *Book) Flavor(name string) *Flavor { return b.flavors[name] }

// SetClusterQueue adds or replaces a ClusterQueue, and reports whether
// anything changed (see SetFlavor). Charges of its workloads are kept.
func (b *Book) SetClusterQueue(cq *ClusterQueue) bool {
	if cq.Strategy == "" {
		cq.Strategy = BestEffortFIFO
	}
	if cq.FairWeight < 0 {
		cq.FairWeight = 0
	}
	if old := b.queues[cq.Name]; old != nil && reflect.DeepEqual(old, cq) {
		return false
	}
	b.queues = withEntry(b.queues, cq.Name, cq)
	b.indexCohorts()
	return true
}

func (b *Book) indexCohorts() {
	cohorts := map[string][]*ClusterQueue{}
	for _, name := range b.ClusterQueues() {
		if q := b.queues[name]; q.Cohort != "" {
			cohorts[q.Cohort] = append(cohorts[q.Cohort], q)
		}
	}
	b.cohorts = cohorts
}

// DeleteClusterQueue removes a ClusterQueue; workloads admitted through it
// stay charged to its name until they end.
func (b *Book) DeleteClusterQueue(name string) {
	b.queues = withoutEntry(b.queues, name)
	b.indexCohorts()
}

// ClusterQueue returns a ClusterQueue by name.
func (b *Book) ClusterQueue(name string) *ClusterQueue { return b.queues[name] }

// ClusterQueues lists the ClusterQueues' names, sorted.
func (b *Book) ClusterQueues() []string { return slices.Sorted(maps.Keys(b.queues)) }

// SetLocalQueue adds or replaces a LocalQueue, and reports whether
// anything changed (see SetFlavor).
func (b *Book) SetLocalQueue(lq *LocalQueue) bool {
	key := lq.Namespace + "/" + lq.Name
	if old := b.locals[key]; old != nil && *old == *lq {
		return false
	}
	b.locals[key] = lq
	return true
}

// DeleteLocalQueue removes a LocalQueue.
func (b *Book) DeleteLocalQueue(namespace, name string) { delete(b.locals, namespace+"/"+name) }

// HasLocalQueue reports whether LocalQueue namespace/name exists.
func (b *Book) HasLocalQueue(namespace, name string) bool {
	_, ok := b.locals[namespace+"/"+name]
	return ok
}

// LocalQueues lists the LocalQueues, sorted by namespace and name.
func (b *Book) LocalQueues() []*LocalQueue {
	out := make([]*LocalQueue, 0, len(b.locals))
	for _, k := range slices.Sorted(maps.Keys(b.locals)) {
		out = append(out, b.locals[k])
	}
	return out
}

// SetNamespace records a namespace's labels, for namespace selectors, and
// reports whether they changed (see SetFlavor).
func (b *Book) SetNamespace(name string, l map[string]string) bool {
	if old, ok := b.namespaces[name]; ok && maps.Equal(old, labels.Set(l)) {
		return false
	}
	b.namespaces[name] = labels.Set(l)
	return true
}

// DeleteNamespace forgets a namespace.
func (b *Book) DeleteNamespace(name string) { delete(b.namespaces, name) }

// Cohort lists the ClusterQueues of cq's cohort (only cq when it has
// none), sorted by name.
func (b *Book) Cohort(cq *ClusterQueue) []*ClusterQueue { return cohortOf(b.cohorts, cq) }

func cohortOf(cohorts map[string][]*ClusterQueue, cq *ClusterQueue) []*ClusterQueue {
	if cq.Cohort == "" {
		return []*ClusterQueue{cq}
	}
	return cohorts[cq.Cohort]
}

// Resolve finds the ClusterQueue a workload of namespace ns naming
// LocalQueue queue is admitted through.
func (b *Book) Resolve(ns, queue string) (*ClusterQueue, *Problem) {
	lq := b.locals[ns+"/"+queue]
	if lq == nil {
		return nil, &Problem{Reason: ReasonLocalQueueNotFound, Config: true,
			Message: fmt.Sprintf("LocalQueue %s/%s does not exist", ns, queue)}
	}
	cq := b.queues[lq.ClusterQueue]
	if cq == nil {
		return nil, &Problem{Reason: ReasonClusterQueueNotFound, Config: true,
			Message: fmt.Sprintf("ClusterQueue %s (of LocalQueue %s/%s) does not exist", lq.ClusterQueue, ns, queue)}
	}
	if cq.Namespaces != nil && !cq.Namespaces.Matches(b.namespaces[ns]) {
		return nil, &Problem{Reason: ReasonNamespaceNotSelected, Config: true,
			Message: fmt.Sprintf("ClusterQueue %s does not select namespace %s (namespaceSelector %s)", cq.Name, ns, cq.Namespaces)}
	}
	for _, g := range cq.Groups {
		for _, f := range g.Flavors {
			if b.flavors[f] == nil {
				return nil, &Problem{Reason: ReasonFlavorNotFound, Config: true,
					Message: fmt.Sprintf("ResourceFlavor %s (of ClusterQueue %s) does not exist", f, cq.Name)}
			}
		}
	}
	return cq, nil
}

// Charge records that a workload is admitted with charge c, replacing an
// earlier charge of the same workload.
func (b *Book) Charge(key workload.Key, c *Charge) {
	b.Release(key)
	b.charges[key] = c
	// A new map, never the shared one: views hold the old (see View).
	u := b.usage[c.ClusterQueue].Clone()
	u.Add(c.Usage)
	b.usage[c.ClusterQueue] = u
}

// Release drops a workload's charge and returns it (nil when none).
func (b *Book) Release(key workload.Key) *Charge {
	c := b.charges[key]
	if c == nil {
		return nil
	}
	delete(b.charges, key)
	if old := b.usage[c.ClusterQueue]; old != nil {
		u := old.Clone()
		u.Sub(c.Usage)
		if len(u) == 0 {
			delete(b.usage, c.ClusterQueue)
		} else {
			b.usage[c.ClusterQueue] = u
		}
	}
	return c
}

// ChargeOf returns a workload's charge (nil when not admitted).
func (b *Book) ChargeOf(key workload.Key) *Charge { return b.charges[key] }

// Charged lists the workloads charged, in no order.
func (b *Book) Charged() []workload.Key {
	out := make([]workload.Key, 0, len(b.charges))
	for k := range b.charges {
		out = append(out, k)
	}
	return out
}

// Admitted counts, per ClusterQueue, the workloads charged to it.
func (b *Book) Admitted() map[string]int {
	out := map[string]int{}
	for _, c := range b.charges {
		out[c.ClusterQueue]++
	}
	return out
}

// View copies the usage, for one decision to read and simulate on. It
// shares each queue's usage with the book until it changes one: the book
// never modifies a usage in place either, so a view stays valid after
// the lock it was taken under is released.
func (b *Book) View() *View {
	return &View{flavors: b.flavors, queues: b.queues, cohorts: b.cohorts, usage: maps.Clone(b.usage)}
}

// View is the book's usage as one decision sees it.
type View struct {
	// flavors, queues and cohorts are the book's when the view was taken.
	flavors map[string]*Flavor
	queues  map[string]*ClusterQueue
	cohorts map[string][]*ClusterQueue
	usage   map[string]Usage
	// owned are the queues whose usage this view copied, and may modify.
	owned map[string]bool
}

// clone copies the view, for a simulation that must not change it.
func (v *View) clone() *View {
	return &View{flavors: v.flavors, queues: v.queues, cohorts: v.cohorts, usage: maps.Clone(v.usage)}
}

// own returns cq's usage for the view to modify, copied on first use.
func (v *View) own(cq string) Usage {
	if v.owned[cq] {
		return v.usage[cq]
	}
	if v.owned == nil {
		v.owned = map[string]bool{}
	}
	u := v.usage[cq].Clone()
	v.usage[cq], v.owned[cq] = u, true
	return u
}

// fits reports whether cq may use u more, flavor by flavor as charged.
func (v *View) fits(cq *ClusterQueue, u Usage) bool {
	for fr, x := range u {
		if x > v.Available(cq, fr) {
			return false
		}
	}
	return true
}

// Flavor returns a flavor by name, as the view was taken.
func (v *View) Flavor(name string) *Flavor { return v.flavors[name] }

// cohort lists the members of cq's cohort, as the view was taken.
func (v *View) cohort(cq *ClusterQueue) []*ClusterQueue { return cohortOf(v.cohorts, cq) }

// Usage returns cq's usage of fr.
func (v *View) Usage(cq string, fr FlavorResource) int64 { return v.usage[cq][fr] }

// Add charges c in the view.
func (v *View) Add(c *Charge) { v.own(c.ClusterQueue).Add(c.Usage) }

// Remove takes c out of the view (a simulated eviction).
func (v *View) Remove(c *Charge) {
	if v.usage[c.ClusterQueue] != nil {
		v.own(c.ClusterQueue).Sub(c.Usage)
	}
}

// Available is how much more of fr cq may use now: what is left of the part
// of its nominal quota it never lends, plus what its cohort has unused,
// capped by its borrowing limit.
//
// The cohort's pool is every member's lendable quota (nominal, or its
// lending limit); a member draws from the pool whatever it uses beyond its
// guaranteed part. Nominal quota lent out is not taken back here: that is
// reclaim, which preemption decides.
func (v *View) Available(cq *ClusterQueue, fr FlavorResource) int64 {
	lim, ok := cq.Quotas[fr]
	if !ok {
		return 0
	}
	used := v.usage[cq.Name][fr]
	if cq.Cohort == "" {
		return max(0, lim.Nominal-used)
	}
	var pool, drawn int64
	for _, m := range v.cohort(cq) {
		ml, ok := m.Quotas[fr]
		if !ok {
			drawn += v.usage[m.Name][fr]
			continue
		}
		g := ml.guaranteed()
		pool += ml.Nominal - g
		drawn += max(0, v.usage[m.Name][fr]-g)
	}
	avail := max(0, lim.guaranteed()-used) + max(0, pool-drawn)
	if lim.Borrowing != nil {
		avail = min(avail, lim.Nominal+*lim.Borrowing-used)
	}
	return max(0, avail)
}

// AnyAvailable reports whether cq may use more of any of its quotas.
func (v *View) AnyAvailable(cq *ClusterQueue) bool {
	for fr := range cq.Quotas {
		if v.Available(cq, fr) > 0 {
			return true
		}
	}
	return false
}

// Ceiling is the most of fr cq could ever use, with every other workload
// of its cohort gone: a request above it can never be admitted.
func (v *View) Ceiling(cq *ClusterQueue, fr FlavorResource) int64 {
	lim, ok := cq.Quotas[fr]
	if !ok {
		return 0
	}
	if cq.Cohort == "" {
		return lim.Nominal
	}
	total := lim.guaranteed()
	for _, m := range v.cohort(cq) {
		if ml, ok := m.Quotas[fr]; ok {
			total += ml.Nominal - ml.guaranteed()
		}
	}
	if lim.Borrowing != nil {
		total = min(total, lim.Nominal+*lim.Borrowing)
	}
	return total
}

// Borrowing reports whether charging extra to cq would take it above its
// nominal quota of any resource.
func (v *View) Borrowing(cq *ClusterQueue, extra Usage) bool {
	for fr, x := range extra {
		if v.usage[cq.Name][fr]+x > cq.Quotas[fr].Nominal {
			return true
		}
	}
	return false
}

// Borrowed is how much of each resource cq uses beyond its nominal quota.
func (v *View) Borrowed(cq *ClusterQueue) Usage {
	out := Usage{}
	for fr, used := range v.usage[cq.Name] {
		if b := used - cq.Quotas[fr].Nominal; b > 0 {
			out[fr] = b
		}
	}
	return out
}

// Share is cq's weighted dominant-resource share of its cohort, in
// thousandths: over every resource, what it borrows as a fraction of what
// the cohort can lend, divided by its weight. With extra it is the share
// cq would have after also being charged extra. Queues that borrow nothing
// have share 0; a queue of weight 0 borrowing anything yields to everyone.
func (v *View) Share(cq *ClusterQueue, extra Usage) int64 {
	if cq.Cohort == "" {
		return 0
	}
	borrowed := map[corev1.ResourceName]int64{}
	for fr, lim := range cq.Quotas {
		if b := v.usage[cq.Name][fr] + extra[fr] - lim.Nominal; b > 0 {
			borrowed[fr.Resource] += b
		}
	}
	if len(borrowed) == 0 {
		return 0
	}
	pool := map[corev1.ResourceName]int64{}
	for _, m := range v.cohort(cq) {
		for fr, ml := range m.Quotas {
			pool[fr.Resource] += ml.Nominal - ml.guaranteed()
		}
	}
	var dominant int64
	for r, b := range borrowed {
		ratio := int64(1) << 40 // nothing to lend: as large as it gets
		if p := pool[r]; p > 0 {
			ratio = b * 1000 / p
		}
		dominant = max(dominant, ratio)
	}
	w := cq.FairWeight
	if w == 0 {
		return int64(1) << 50
	}
	return dominant * 1000 / w
}

// FormatAmount renders a milli-unit amount of r for users.
func FormatAmount(r corev1.ResourceName, milli int64) string {
	q := Quantity(r, milli)
	return q.String()
}

// Quantity renders a milli-unit amount of r as a Quantity in whole units
// where it has no fraction (binary for memory and storage).
func Quantity(r corev1.ResourceName, milli int64) resource.Quantity {
	format := resource.DecimalSI
	if r == corev1.ResourceMemory || r == corev1.ResourceEphemeralStorage {
		format = resource.BinarySI
	}
	if milli%1000 == 0 {
		return *resource.NewQuantity(milli/1000, format)
	}
	return *resource.NewMilliQuantity(milli, format)
}
