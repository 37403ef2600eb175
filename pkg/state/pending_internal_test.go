package state

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A pendingQueue stays in queue order through any sequence of filings and
// removals, including removals of workloads whose priority changed after
// they were filed.
func TestPendingQueueKeepsTheOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 50 {
		q := &pendingQueue{}
		filed := map[*Workload]pendingEntry{}
		for i := range 200 {
			if len(filed) > 0 && rng.IntN(3) == 0 {
				// Remove one at random, sometimes after a priority change.
				var victims []*Workload
				for w := range filed {
					victims = append(victims, w)
				}
				sort.Slice(victims, func(i, j int) bool { return victims[i].key.Name < victims[j].key.Name })
				w := victims[rng.IntN(len(victims))]
				if rng.IntN(2) == 0 {
					w.priority = int32(rng.IntN(3))
				}
				q.remove(filed[w])
				delete(filed, w)
				continue
			}
			k := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: fmt.Sprintf("r%d-w%03d", round, i)}
			w := &Workload{key: k, model: &workload.Workload{Created: time.Unix(int64(rng.IntN(20)), 0)}, priority: int32(rng.IntN(3))}
			filed[w] = entryOf(w)
			q.insert(filed[w])
		}
		var want []pendingEntry
		for _, e := range filed {
			want = append(want, e)
		}
		sort.Slice(want, func(i, j int) bool { return want[i].before(want[j]) })
		if q.len() != len(want) {
			t.Fatalf("round %d: %d filed, want %d", round, q.len(), len(want))
		}
		for i, e := range want {
			if got := q.at(i); got != e.w {
				t.Fatalf("round %d: position %d is %s, want %s", round, i, got.key.Name, e.w.key.Name)
			}
		}
		if q.at(len(want)) != nil {
			t.Fatalf("round %d: at(len) is not nil", round)
		}
	}
}

// reindexQueuedLocked gives the order that filing one by one gives.
func TestReindexSortsLikeFiling(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	q := &pendingQueue{}
	var entries []pendingEntry
	for i := range 300 {
		k := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: fmt.Sprintf("w%03d", i)}
		w := &Workload{key: k, model: &workload.Workload{Created: time.Unix(int64(rng.IntN(20)), 0)}, priority: int32(rng.IntN(3))}
		entries = append(entries, entryOf(w))
		q.insert(entryOf(w))
	}
	sorted := &pendingQueue{entries: slices.Clone(entries)}
	sortEntries(sorted.entries)
	for i := range entries {
		if q.at(i) != sorted.at(i) {
			t.Fatalf("position %d: filed %s, sorted %s", i, q.at(i).key.Name, sorted.at(i).key.Name)
		}
	}
}
