package state

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// firstPendingLocked is the prefix of the queue's full order, for every
// size around the bound.
func TestFirstPendingIsThePrefixOfTheOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, size := range []int{0, 1, 5, 63, 64, 65, 300} {
		s := New(Options{})
		m := map[workload.Key]*Workload{}
		var all []*Workload
		for i := range size {
			k := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: fmt.Sprintf("w%03d", i)}
			w := &Workload{key: k, model: &workload.Workload{Created: time.Unix(int64(rng.IntN(20)), 0)}, priority: int32(rng.IntN(3))}
			m[k] = w
			all = append(all, w)
		}
		s.pendingByCQ["cq"] = m
		sort.Slice(all, func(i, j int) bool { return s.before(all[i], all[j]) })
		got := s.firstPendingLocked("cq", maxWakeScan)
		want := all[:min(len(all), maxWakeScan)]
		if len(got) != len(want) {
			t.Fatalf("size %d: %d workloads, want %d", size, len(got), len(want))
		}
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("size %d: position %d is %s, want %s", size, i, got[i].key.Name, want[i].key.Name)
			}
		}
	}
}
