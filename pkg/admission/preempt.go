package admission

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/preemption"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Preemption is a decision to evict whole workloads for the snapshot's
// workload: the victims, and where it goes once they are gone.
type Preemption struct {
	Victims []workload.Key
	// Plan is the preemptor's plan with the victims gone; its domains are
	// kept for it while they terminate.
	Plan *state.Reservation
	// Simulations counts the plans tried.
	Simulations int
	// Capacity is set for capacity preemption: the preemptor takes the
	// victims' domains, not their quota (see preemption.Situation).
	Capacity bool
}

// Preempt decides which workloads to evict, whole, so that sn.Self can be
// placed — by one comparator chain (package preemption): fewest victims,
// lowest priority, fewest pods, most recently started, key — among the workloads the
// ClusterQueue policies and priorities allow.
//
// It is capacity preemption when sn.Self is admitted already or its quota
// fits as things are (an admitted workload restarted after a pool failed
// asks for domains, not quota): priority alone chooses the victims, and
// they keep their quota in every simulation. Otherwise it is quota
// preemption, which the ClusterQueue policies govern. Every candidate set is
// simulated on the snapshot with the same Plan that admits workloads, so a
// preemption never frees room the preemptor then cannot use. The snapshot
// is left as it was. The failure says why no set helps.
func Preempt(sn *state.Snapshot) (*Preemption, *placement.Failure) {
	self := sn.Self
	if self == nil || self.Model == nil {
		return nil, &placement.Failure{Message: "the workload is not known yet", Unresolvable: true}
	}
	me := party(self, sn.ClusterQueueOf(self))
	sit := preemption.Situation{Capacity: quotaFits(sn)}
	if q := sn.Quota; q != nil && q.View != nil && !sit.Capacity {
		sit.Borrowing = func(cq *quota.ClusterQueue) bool { return len(q.View.Borrowed(cq)) > 0 }
		if q.ClusterQueue != nil {
			sit.PreemptorBorrows = q.View.Borrowing(q.ClusterQueue, q.View.Force(q.ClusterQueue, q.Needs).Usage)
		}
	}
	remove := sn.RemoveWorkload
	if sit.Capacity {
		remove = sn.Displace
	}
	// Room that pods being deleted will leave counts as free: a preemption
	// never evicts for what frees itself.
	if restore := countLeavingAsFree(sn); restore != nil {
		defer restore()
		if _, fail := Plan(sn); fail == nil {
			return nil, &placement.Failure{Message: "pods being deleted will leave room for it: nothing is preempted"}
		}
	}
	need, frees := shortfall(sn)
	var cands []preemption.Candidate
	refused := map[string]int{}
	for _, k := range slices.SortedFunc(maps.Keys(sn.Workloads), workload.Key.Compare) {
		v := sn.Workloads[k]
		if v == self || v.Key == self.Key || len(v.Pods) == 0 || v.Reserved || v.Evicting {
			// Only placed workloads are evicted: one being placed is let
			// finish (and may be a victim then); one another preemption
			// is evicting frees nothing for this one.
			continue
		}
		ok, why := preemption.Allowed(me, party(v, sn.ClusterQueueOf(v)), sit)
		if !ok {
			refused[why]++
			continue
		}
		cands = append(cands, preemption.Candidate{Key: k, Priority: v.Priority, Started: v.Started, Frees: frees[k], Pods: len(v.Pods)})
	}
	kind := "quota preemption"
	if sit.Capacity {
		kind = "capacity preemption"
	}
	if len(cands) == 0 {
		return nil, &placement.Failure{Message: fmt.Sprintf("%s: no workload may be preempted for it%s", kind, describeRefusals(refused))}
	}
	out := &Preemption{Capacity: sit.Capacity}
	fits := func(removed []workload.Key) bool {
		out.Simulations++
		_, fail := planWithout(sn, removed, remove)
		return fail == nil
	}
	victims, ok := preemption.Choose(cands, need, fits)
	if !ok {
		// Say why the others may not be evicted too: a ClusterQueue policy
		// that forbids it (withinClusterQueue: Never, say) is what the user
		// would change.
		msg := fmt.Sprintf("%s: evicting all %d workload(s) that may be preempted would not make room", kind, len(cands))
		if len(refused) > 0 {
			msg += "; the others may not be preempted" + describeRefusals(refused)
		}
		return nil, &placement.Failure{Message: msg}
	}
	// Where it goes: on domains that are free already when the victims'
	// quota is all it needs (nothing waits for their pods to leave, and
	// their domains stay for others), else on what their removal frees.
	var r *state.Reservation
	fail := &placement.Failure{}
	if !sit.Capacity && quotaOnly(sn, victims) {
		r, fail = planWithout(sn, victims, sn.Uncharge)
	}
	if fail != nil {
		r, fail = planWithout(sn, victims, remove)
	}
	if fail != nil {
		return nil, fail
	}
	out.Victims, out.Plan = victims, r
	return out, nil
}

// quotaFits reports whether sn.Self asks no one for quota: it is not
// waiting for admission (admitted already, or not quota-managed), or its
// queue can charge it as things are.
func quotaFits(sn *state.Snapshot) bool {
	q := sn.Quota
	if q == nil {
		return true
	}
	if q.Problem != nil || q.ClusterQueue == nil || q.View == nil {
		return false
	}
	_, problem := q.View.Assign(q.ClusterQueue, q.Needs, quota.Exclusions{})
	return problem == nil
}

// countLeavingAsFree adds to every node's free room what its pods being
// deleted request, and returns how to undo it (nil: nothing is leaving).
func countLeavingAsFree(sn *state.Snapshot) (restore func()) {
	saved := map[string]workload.Resources{}
	for name, n := range sn.Nodes {
		if len(n.Leaving) == 0 {
			continue
		}
		saved[name] = n.Free
		free := maps.Clone(n.Free)
		for r, q := range n.Leaving {
			if _, ok := free[r]; ok {
				free[r] += q
			}
		}
		n.Free = free
	}
	if len(saved) == 0 {
		return nil
	}
	return func() {
		for name, free := range saved {
			sn.Nodes[name].Free = free
		}
	}
}

// quotaOnly reports whether the preemption may be about quota alone: the
// preemptor is quota-managed and a victim holds a charge.
func quotaOnly(sn *state.Snapshot, victims []workload.Key) bool {
	if sn.Quota == nil || sn.Quota.View == nil {
		return false
	}
	for _, k := range victims {
		if v := sn.Workloads[k]; v != nil && v.Charge != nil {
			return true
		}
	}
	return false
}

// planWithout plans sn.Self with remove applied to each of keys, and undoes
// it.
func planWithout(sn *state.Snapshot, keys []workload.Key, remove func(workload.Key) func()) (*state.Reservation, *placement.Failure) {
	undo := make([]func(), 0, len(keys))
	for _, k := range keys {
		undo = append(undo, remove(k))
	}
	defer func() {
		for i := len(undo) - 1; i >= 0; i-- {
			undo[i]()
		}
	}()
	return Plan(sn)
}

func party(v *state.WorkloadView, cq *quota.ClusterQueue) preemption.Party {
	return preemption.Party{Key: v.Key, Priority: v.Priority, Created: v.Created, Started: v.Started, Queue: cq}
}

// shortfall bounds the search: need is at most how many more domains the
// preemptor's confined slices need than are free now (so a set freeing
// fewer cannot be enough), and frees[k] at least how many of those domains
// evicting k could free (the domains its pods hold).
func shortfall(sn *state.Snapshot) (need int, frees map[workload.Key]int) {
	self := sn.Self
	frees = map[workload.Key]int{}
	confined := map[string]int{}
	// A domain counts as free when no other workload holds it and it has
	// room for the smallest of the slices: counting too many free domains
	// only weakens the bound, counting too few would break it.
	smallest := map[string]*workload.Slice{}
	for _, i := range self.Active {
		sl := &self.Model.Slices[i]
		if k := sl.DomainKey; k != "" {
			confined[k]++
			if s := smallest[k]; s == nil || sl.Pods < s.Pods {
				smallest[k] = sl
			}
		}
	}
	for key, n := range confined {
		free := 0
		holders := map[workload.Key]map[string]bool{}
		for value, nodes := range sn.Domains[key] {
			busy := false
			for _, name := range nodes {
				nv := sn.Nodes[name]
				if nv == nil {
					continue
				}
				if nv.Reserved {
					busy = true
				}
				for h := range nv.Holders {
					if h.Key != self.Key {
						busy = true
						if holders[h.Key] == nil {
							holders[h.Key] = map[string]bool{}
						}
						holders[h.Key][value] = true
					}
				}
			}
			if !busy && roomFor(sn, nodes, smallest[key]) {
				free++
			}
		}
		need += max(0, n-free)
		for k, values := range holders {
			frees[k] += len(values)
		}
	}
	return need, frees
}

// roomFor reports whether the nodes could take the slice's pods, each
// sized by the slice's per-pod request (unknown: assumed to fit).
func roomFor(sn *state.Snapshot, nodes []string, sl *workload.Slice) bool {
	if sl == nil || len(sl.Request) == 0 {
		return true
	}
	fit := 0
	for _, name := range nodes {
		if n := sn.Nodes[name]; n != nil && n.Node.Usable {
			fit += int(n.Free.Count(sl.Request))
		}
		if fit >= sl.Pods {
			return true
		}
	}
	return false
}

func describeRefusals(refused map[string]int) string {
	if len(refused) == 0 {
		return ""
	}
	parts := make([]string, 0, len(refused))
	for _, why := range slices.Sorted(maps.Keys(refused)) {
		// A reason shared by several workloads names none of them (one
		// that names its workload is never shared): count them.
		if n := refused[why]; n > 1 {
			parts = append(parts, fmt.Sprintf("%s (%d workloads)", why, n))
		} else {
			parts = append(parts, why)
		}
	}
	if len(parts) > 3 {
		parts = append(parts[:3], fmt.Sprintf("%d other reasons", len(parts)-3))
	}
	return ": " + strings.Join(parts, "; ")
}
