package state

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
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

// roomHeads holds exactly the heads waitsForRoom picks, through any
// sequence of filings, head changes, verdicts and refilings: freed room is
// offered to those and no others without walking every head.
func TestRoomHeadsFollowEveryChange(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	x := newQueueIndex()
	var all []*Workload
	for i := range 40 {
		src := workload.SourceJobSet
		if i%4 == 0 {
			src = workload.SourcePod
		}
		k := workload.Key{Source: src, Namespace: "ns", Name: fmt.Sprintf("w%02d", i)}
		all = append(all, &Workload{key: k, model: &workload.Workload{Created: time.Unix(int64(i), 0)}})
	}
	verdicts := []verdictCase{
		{"none", nil},
		{"domains", &quota.Problem{Reason: ReasonWaitingForDomains}},
		{"quota", &quota.Problem{Reason: quota.ReasonQuotaExceeded}},
		{"member", &quota.Problem{Reason: ReasonMemberUnschedulable}},
	}
	for step := range 2000 {
		w := all[rng.IntN(len(all))]
		var did string
		switch rng.IntN(5) {
		case 0:
			x.unfile(w)
			x.file(w, fmt.Sprintf("cq%d", rng.IntN(3)))
			did = "file"
		case 1:
			x.unfile(w)
			did = "unfile"
		case 2:
			if rng.IntN(3) == 0 {
				x.setHead(w, nil)
				did = "head none"
			} else {
				ref := PodRef{Namespace: "ns", Name: fmt.Sprintf("%s-%d", w.key.Name, rng.IntN(3))}
				ref.UID = types.UID(ref.Name)
				x.setHead(w, &ref)
				did = "head " + ref.Name
			}
		case 3:
			v := verdicts[rng.IntN(len(verdicts))]
			x.setProblem(w, v.p)
			did = "verdict " + v.name
		case 4:
			x.refile(slices.Values(all), func(w *Workload) string {
				if rng.IntN(2) == 0 {
					return ""
				}
				return "cq0"
			})
			did = "refile"
		}
		want := map[types.UID]*Workload{}
		for uid, h := range x.heads {
			if waitsForRoom(h) {
				want[uid] = h
			}
		}
		if len(want) != len(x.roomHeads) {
			t.Fatalf("step %d (%s %s): %d room heads, want %d", step, did, w.key.Name, len(x.roomHeads), len(want))
		}
		for uid, h := range want {
			if x.roomHeads[uid] != h {
				t.Fatalf("step %d (%s %s): head %s missing from the room heads", step, did, w.key.Name, uid)
			}
		}
	}
}

type verdictCase struct {
	name string
	p    *quota.Problem
}
