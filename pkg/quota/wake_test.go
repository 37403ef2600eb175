package quota

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// waiting is a workload of queue cq created at minute m needing pods pods
// of chips chips, waiting for quota since its creation.
func waiting(name, cq string, prio int32, m int, pods, chips int64) *Waiting {
	needs := []Need{tpus(0, pods, chips)}
	created := t0.Add(time.Duration(m) * time.Minute)
	return &Waiting{
		Candidate: Candidate{Key: key(name), ClusterQueue: cq, Priority: prio, Created: created, WaitingSince: created},
		Needs:     needs, Shape: Shape(needs),
	}
}

func byQueue(ws ...*Waiting) map[string][]*Waiting {
	out := map[string][]*Waiting{}
	for _, w := range ws {
		out[w.ClusterQueue] = append(out[w.ClusterQueue], w)
	}
	for _, list := range out {
		sort.Slice(list, func(i, j int) bool { return Before(&list[i].Candidate, &list[j].Candidate) })
	}
	return out
}

// lists is queues as Wake takes them.
func lists(queues map[string][]*Waiting) map[string]WaitingList {
	out := make(map[string]WaitingList, len(queues))
	for name, ws := range queues {
		out[name] = WaitingSlice(ws)
	}
	return out
}

func TestWake(t *testing.T) {
	strict := queue("strict").strategy(StrictFIFO).group([]corev1.ResourceName{tpu}, "v5e").quota("v5e", tpu, 24, -1, -1).build()
	cases := []struct {
		name    string
		queues  []*ClusterQueue
		usage   map[string]int64
		waiting []*Waiting
		now     time.Duration // since t0
		want    []string
	}{
		{name: "queue order, each charged before the next", queues: []*ClusterQueue{tpuQueue("q", "", 16, "v5e")},
			waiting: []*Waiting{waiting("a", "q", 0, 0, 2, 4), waiting("b", "q", 0, 1, 2, 4), waiting("c", "q", 0, 2, 2, 4)},
			want:    []string{"a", "b"}},
		{name: "BestEffortFIFO: a smaller workload passes one that does not fit", queues: []*ClusterQueue{tpuQueue("q", "", 16, "v5e")},
			usage:   map[string]int64{"q": 8},
			waiting: []*Waiting{waiting("big", "q", 0, 0, 4, 4), waiting("small", "q", 0, 1, 2, 4)}, now: time.Minute,
			want: []string{"small"}},
		{name: "BestEffortFIFO: a starving head holds the rest back", queues: []*ClusterQueue{tpuQueue("q", "", 16, "v5e")},
			usage:   map[string]int64{"q": 8},
			waiting: []*Waiting{waiting("big", "q", 0, 0, 4, 4), waiting("small", "q", 0, 1, 2, 4)}, now: time.Hour},
		{name: "StrictFIFO: only the head, and only when it fits", queues: []*ClusterQueue{strict},
			waiting: []*Waiting{waiting("a", "strict", 0, 0, 2, 4), waiting("b", "strict", 0, 1, 2, 4)},
			want:    []string{"a"}},
		{name: "StrictFIFO: a head that does not fit blocks", queues: []*ClusterQueue{strict},
			usage:   map[string]int64{"strict": 16},
			waiting: []*Waiting{waiting("big", "strict", 0, 0, 4, 4), waiting("small", "strict", 0, 1, 2, 4)}},
		{name: "priority before age", queues: []*ClusterQueue{tpuQueue("q", "", 8, "v5e")},
			waiting: []*Waiting{waiting("old", "q", 0, 0, 2, 4), waiting("urgent", "q", 5, 3, 2, 4)},
			want:    []string{"urgent"}},
		{name: "fair share: the queue that would borrow less goes first, whatever the cohort's order",
			queues: []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 16, "v5e")},
			usage:  map[string]int64{"a": 16, "b": 8},
			// 8 chips free in the cohort: a would borrow 16, b 8.
			waiting: []*Waiting{waiting("from-a", "a", 0, 0, 2, 4), waiting("from-b", "b", 0, 1, 2, 4)},
			want:    []string{"from-b"}},
		{name: "within nominal goes before borrowing",
			queues:  []*ClusterQueue{tpuQueue("a", "c", 8, "v5e"), tpuQueue("b", "c", 8, "v5e"), tpuQueue("lender", "c", 8, "v5e")},
			usage:   map[string]int64{"a": 8},
			waiting: []*Waiting{waiting("borrower", "a", 0, 0, 2, 4), waiting("own", "b", 0, 1, 2, 4)},
			want:    []string{"own", "borrower"}},
		{name: "a queue with nothing available is skipped", queues: []*ClusterQueue{tpuQueue("full", "", 8, "v5e"), tpuQueue("q", "", 8, "v5e")},
			usage:   map[string]int64{"full": 8},
			waiting: []*Waiting{waiting("f", "full", 0, 0, 1, 4), waiting("g", "q", 0, 1, 1, 4)},
			want:    []string{"g"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			b := book([]string{"v5e"}, tc.queues...)
			for q, chips := range tc.usage {
				b.Charge(key("running-"+q), charge(q, "v5e", chips))
			}
			var got []string
			for _, k := range Wake(b.View(), lists(byQueue(tc.waiting...)), t0.Add(tc.now), 30*time.Minute) {
				got = append(got, k.Name)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("woken %v, want %v", got, tc.want)
			}
		})
	}
}

// What a wake wakes is what the gate lets through: charged one after
// another in the wake's order, each woken workload proceeds by Decide
// against the heads of the queues as they are at its turn (what
// queueVerdict asks), and once all are charged no workload left waiting
// would proceed. Random cohorts, quotas, shapes and priorities.
func TestWakeAgreesWithDecide(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 11))
	for round := range 500 {
		var queues []*ClusterQueue
		for i := range 2 + rng.IntN(3) {
			q := queue(fmt.Sprintf("q%d", i)).cohort("c").weight(int64(500+rng.IntN(3)*500)).
				group([]corev1.ResourceName{tpu}, "v5e").quota("v5e", tpu, int64(4*rng.IntN(5)), -1, -1)
			if rng.IntN(4) == 0 {
				q.strategy(StrictFIFO)
			}
			queues = append(queues, q.build())
		}
		b := book([]string{"v5e"}, queues...)
		var ws []*Waiting
		for i := range 2 + rng.IntN(10) {
			q := queues[rng.IntN(len(queues))]
			if rng.IntN(3) == 0 {
				b.Charge(key(fmt.Sprintf("running-%d", i)), charge(q.Name, "v5e", int64(4*(1+rng.IntN(3)))))
				continue
			}
			ws = append(ws, waiting(fmt.Sprintf("w%d", i), q.Name, int32(rng.IntN(2)), rng.IntN(5), int64(1+rng.IntN(3)), 4))
		}
		now := t0.Add(time.Duration(rng.IntN(3)) * 20 * time.Minute)
		left := byQueue(ws...)
		// The gate's verdict for w: Decide among w, the workloads before it
		// in its queue and the other queues' heads (queueVerdictLocked).
		verdict := func(w *Waiting) Verdict {
			view := b.View()
			cands := []*Candidate{}
			add := func(o *Waiting) {
				c := o.Candidate
				c.Charge, c.Problem = view.Assign(view.queues[o.ClusterQueue], o.Needs, nil)
				cands = append(cands, &c)
			}
			add(w)
			for q, list := range left {
				for _, o := range list {
					if o == w {
						break
					}
					add(o)
					if q != w.ClusterQueue {
						break // another queue: its head only
					}
				}
			}
			return Decide(view, cands, now, 30*time.Minute)[w.Key]
		}
		find := func(k workload.Key) *Waiting {
			for _, o := range ws {
				if o.Key == k {
					return o
				}
			}
			t.Fatalf("woke %s, which does not wait", k)
			return nil
		}
		// The state wakes again after every admission (what waited behind
		// an admitted workload may go now); wakes stop when one finds
		// nothing.
		var all []workload.Key
		for wakes := 0; ; wakes++ {
			woken := Wake(b.View(), lists(left), now, 30*time.Minute)
			if len(woken) == 0 {
				break
			}
			all = append(all, woken...)
			for _, k := range woken {
				w := find(k)
				if v := verdict(w); !v.Proceed {
					t.Fatalf("%s\n%s was woken but the gate holds it: %+v", describeRound(round, b, ws, all), k.Name, v.Problem)
				}
				c, p := b.View().Assign(b.queues[w.ClusterQueue], w.Needs, nil)
				if p != nil {
					t.Fatalf("%s\n%s was woken but does not fit: %v", describeRound(round, b, ws, all), k.Name, p)
				}
				b.Charge(k, c)
				left[w.ClusterQueue] = slices.DeleteFunc(left[w.ClusterQueue], func(o *Waiting) bool { return o == w })
			}
			if wakes > len(ws) {
				t.Fatalf("%s\nwakes do not settle", describeRound(round, b, ws, all))
			}
		}
		for _, list := range left {
			for _, w := range list {
				if v := verdict(w); v.Proceed {
					t.Fatalf("%s\n%s was not woken but the gate would let it through", describeRound(round, b, ws, all), w.Key.Name)
				}
			}
		}
	}
}

func describeRound(round int, b *Book, ws []*Waiting, woken []workload.Key) string {
	var s strings.Builder
	fmt.Fprintf(&s, "round %d:", round)
	for _, name := range b.ClusterQueues() {
		q := b.queues[name]
		fmt.Fprintf(&s, " %s(%s nominal %d, used %d)", name, q.Strategy, q.Quotas[FlavorResource{Flavor: "v5e", Resource: tpu}].Nominal/1000,
			b.usage[name][FlavorResource{Flavor: "v5e", Resource: tpu}]/1000)
	}
	for _, w := range ws {
		fmt.Fprintf(&s, "\n  %s in %s prio %d created %s needs %d", w.Key.Name, w.ClusterQueue, w.Priority, w.Created.Format("15:04"), w.Needs[0].total(tpu)/1000)
	}
	fmt.Fprintf(&s, "\n  woken: %v", woken)
	return s.String()
}

// A wake reads a queue only as far as it needs: the workloads that fit and
// the first one that does not.
func TestWakeReadsOnlyWhatItReaches(t *testing.T) {
	b := book([]string{"v5e"}, tpuQueue("q", "", 16, "v5e"))
	var ws []*Waiting
	for i := range 1000 {
		ws = append(ws, waiting(fmt.Sprintf("w%04d", i), "q", 0, i, 1, 4))
	}
	read := 0
	list := func(i int) *Waiting {
		read = max(read, i+1)
		return WaitingSlice(ws)(i)
	}
	woken := Wake(b.View(), map[string]WaitingList{"q": list}, t0, 30*time.Minute)
	if len(woken) != 4 {
		t.Fatalf("woke %d, want the 4 that fit 16 chips", len(woken))
	}
	if read > 5 {
		t.Errorf("read %d workloads of the queue, want at most 5", read)
	}
}

// WaitingSlice is a WaitingList over ws, already in queue order.
func WaitingSlice(ws []*Waiting) WaitingList {
	return func(i int) *Waiting {
		if i < len(ws) {
			return ws[i]
		}
		return nil
	}
}
