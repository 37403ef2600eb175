// Package preemption chooses which whole workloads to evict so that a
// higher-priority workload can be placed. It is framework-free: the caller
// says which workloads may be evicted and simulates, on a snapshot, whether
// the preemptor would fit with a given set of them gone.
package preemption

import (
	"slices"
	"sort"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Candidate is a workload that may be evicted for the preemptor.
type Candidate struct {
	Key      workload.Key
	Priority int32
	// Started is when it was placed: evicting the most recently started
	// loses the least work.
	Started time.Time
	// Frees is how many of the domains the preemptor is missing evicting it
	// could give: an upper bound used to skip sets that cannot be enough.
	Frees int
	// Pods is how many pods it runs: of two workloads of one priority,
	// evicting the smaller disturbs less (and, on a shared topology
	// domain, the one beside the preemptor is often the smaller).
	Pods int
}

// Fits reports whether the preemptor would be placed with the given
// workloads gone. It is called with candidate keys only.
type Fits func(removed []workload.Key) bool

// better orders candidates from the one to evict first: lowest priority,
// then fewest pods, then most recently started, then by key, so that equal
// inputs always give the same victims.
func better(a, b *Candidate) bool {
	if a.Priority != b.Priority {
		return a.Priority < b.Priority
	}
	if a.Pods != b.Pods {
		return a.Pods < b.Pods
	}
	if !a.Started.Equal(b.Started) {
		return a.Started.After(b.Started)
	}
	return a.Key.Compare(b.Key) < 0
}

// Choose returns the victims to evict so that the preemptor fits, by one
// comparator chain: fewest workloads, then lowest priority, then fewest
// pods, then least work lost, then key. need is how many domains the preemptor is missing (0 when
// unknown: Frees is then not used to prune). It returns false when even
// evicting every candidate would not be enough.
//
// The search is bounded: it simulates single victims first (the common
// case: one lower-priority workload in the way), then builds sets greedily
// in preference order with the smallest size the Frees bounds allow, and
// finally gives back every victim the preemptor turns out not to need.
func Choose(cands []Candidate, need int, fits Fits) ([]workload.Key, bool) {
	order := make([]*Candidate, len(cands))
	for i := range cands {
		order[i] = &cands[i]
	}
	sort.Slice(order, func(i, j int) bool { return better(order[i], order[j]) })
	all := keys(order)
	if len(all) == 0 {
		return nil, false
	}
	// Whether evicting everything would do is checked first when need is
	// unknown (every single candidate would otherwise be simulated before
	// finding out); with a known need the singletons that could reach it,
	// and the smallest set that could, are tried before that check, which
	// costs a plan with every candidate removed.
	checked := false
	if need <= 0 {
		checked = true
		need = 0
		if !fits(all) {
			return nil, false
		}
	}
	// Single victims, in preference order: the first that suffices is the
	// best singleton.
	for _, c := range order {
		if c.Frees >= need && fits([]workload.Key{c.Key}) {
			return []workload.Key{c.Key}, true
		}
	}
	// The fewest victims whose Frees could add up to need.
	byFrees := slices.Clone(order)
	sort.SliceStable(byFrees, func(i, j int) bool { return byFrees[i].Frees > byFrees[j].Frees })
	size, sum := 0, 0
	for _, c := range byFrees {
		if sum >= need && size >= 2 {
			break
		}
		sum += c.Frees
		size++
	}
	size = max(size, 2)
	for ; size <= len(order); size++ {
		if set := greedy(order, size, need); set != nil && fits(set) {
			return reprieve(set, frees(order), need, fits), true
		}
		if !checked {
			checked = true
			if !fits(all) {
				return nil, false
			}
		}
	}
	if !checked && !fits(all) {
		return nil, false
	}
	return reprieve(all, frees(order), need, fits), true
}

// greedy picks size candidates in preference order, skipping one when
// taking it would leave the rest unable to reach need.
func greedy(order []*Candidate, size, need int) []workload.Key {
	var picked []workload.Key
	sum := 0
	for i, c := range order {
		if len(picked) == size {
			break
		}
		left := size - len(picked) - 1
		if sum+c.Frees+bestFrees(order[i+1:], left) < need {
			continue
		}
		picked = append(picked, c.Key)
		sum += c.Frees
	}
	if len(picked) < size || sum < need {
		return nil
	}
	return picked
}

// bestFrees is the most n of cands can free together.
func bestFrees(cands []*Candidate, n int) int {
	if n <= 0 {
		return 0
	}
	frees := make([]int, len(cands))
	for i, c := range cands {
		frees[i] = c.Frees
	}
	sort.Sort(sort.Reverse(sort.IntSlice(frees)))
	total := 0
	for i := 0; i < n && i < len(frees); i++ {
		total += frees[i]
	}
	return total
}

// reprieve gives back, from the most valuable down, every victim the
// preemptor fits without. set is in preference order (least valuable
// first). A victim whose going is needed to reach need (by the Frees
// bounds) is kept without simulating.
func reprieve(set []workload.Key, frees map[workload.Key]int, need int, fits Fits) []workload.Key {
	out := slices.Clone(set)
	sum := 0
	for _, k := range out {
		sum += frees[k]
	}
	for i := len(out) - 1; i >= 0 && len(out) > 1; i-- {
		if sum-frees[out[i]] < need {
			continue
		}
		without := slices.Delete(slices.Clone(out), i, i+1)
		if fits(without) {
			sum -= frees[out[i]]
			out = without
		}
	}
	return out
}

// frees maps each candidate to its Frees.
func frees(order []*Candidate) map[workload.Key]int {
	out := make(map[workload.Key]int, len(order))
	for _, c := range order {
		out[c.Key] = c.Frees
	}
	return out
}

func keys(order []*Candidate) []workload.Key {
	out := make([]workload.Key, len(order))
	for i, c := range order {
		out[i] = c.Key
	}
	return out
}
