package preemption

import (
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

var t0 = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

func key(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}
}

// world is a cluster where the preemptor needs `need` more domains; each
// candidate holds some domains it would free.
type world struct {
	need  int
	holds map[string][]string
	// calls counts simulations.
	calls int
}

func (w *world) fits(removed []workload.Key) bool {
	w.calls++
	freed := map[string]bool{}
	for _, k := range removed {
		for _, d := range w.holds[k.Name] {
			freed[d] = true
		}
	}
	return len(freed) >= w.need
}

func cand(name string, prio int32, startedMin int, domains ...string) (Candidate, []string) {
	return Candidate{Key: key(name), Priority: prio, Started: t0.Add(time.Duration(startedMin) * time.Minute), Frees: len(domains)}, domains
}

func TestChoose(t *testing.T) {
	type c struct {
		name    string
		prio    int32
		started int
		domains []string
		pods    int
	}
	cases := []struct {
		name  string
		need  int
		cands []c
		want  []string // nil: no victims can help
	}{
		{name: "the lowest priority of several that suffice", need: 1,
			cands: []c{{"mid", 5, 0, []string{"p1"}, 0}, {"low", 1, 0, []string{"p2"}, 0}, {"lower-but-useless", 0, 0, nil, 0}},
			want:  []string{"low"}},
		{name: "equal priority: the most recently started loses least", need: 1,
			cands: []c{{"old", 1, 0, []string{"p1"}, 0}, {"new", 1, 30, []string{"p2"}, 0}},
			want:  []string{"new"}},
		{name: "equal priority: fewer pods before the most recently started", need: 1,
			cands: []c{{"small-old", 1, 0, []string{"p1"}, 2}, {"big-new", 1, 30, []string{"p2"}, 4}},
			want:  []string{"small-old"}},
		{name: "fewest workloads before lowest priority", need: 2,
			cands: []c{{"big", 5, 0, []string{"p1", "p2"}, 0}, {"small-a", 1, 0, []string{"p3"}, 0}, {"small-b", 1, 0, []string{"p4"}, 0}},
			want:  []string{"big"}},
		{name: "two victims, the cheapest pair", need: 3,
			cands: []c{{"big", 5, 0, []string{"p1", "p2"}, 0}, {"s1", 1, 0, []string{"p3"}, 0}, {"s2", 2, 0, []string{"p4"}, 0}, {"s3", 3, 0, []string{"p5"}, 0}},
			want:  []string{"s1", "big"}},
		{name: "victims sharing domains do not add up", need: 2,
			cands: []c{{"a", 1, 0, []string{"p1"}, 0}, {"b", 1, 1, []string{"p1"}, 0}, {"c", 2, 0, []string{"p2"}, 0}},
			want:  []string{"b", "c"}},
		{name: "nothing is enough", need: 3,
			cands: []c{{"a", 1, 0, []string{"p1"}, 0}, {"b", 1, 0, []string{"p2"}, 0}}},
		{name: "no candidates", need: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := &world{need: tc.need, holds: map[string][]string{}}
			var cands []Candidate
			for _, x := range tc.cands {
				cd, doms := cand(x.name, x.prio, x.started, x.domains...)
				cd.Pods = x.pods
				cands = append(cands, cd)
				w.holds[x.name] = doms
			}
			got, ok := Choose(cands, tc.need, w.fits)
			if tc.want == nil {
				if ok {
					t.Fatalf("Choose = %v, want no victims", got)
				}
				return
			}
			if !ok {
				t.Fatalf("Choose found no victims, want %v", tc.want)
			}
			var names []string
			for _, k := range got {
				names = append(names, k.Name)
			}
			if !slices.Equal(names, tc.want) {
				t.Errorf("victims %v, want %v", names, tc.want)
			}
			if !w.fits(got) {
				t.Errorf("the preemptor does not fit with %v gone", names)
			}
		})
	}
}

// Unknown need (0): the bounds prune nothing, yet victims are minimal.
func TestChooseWithoutNeedIsStillMinimal(t *testing.T) {
	w := &world{need: 2, holds: map[string][]string{"a": {"p1"}, "b": {"p2"}, "c": {"p3"}, "d": {"p4"}}}
	var cands []Candidate
	for i, n := range []string{"a", "b", "c", "d"} {
		cands = append(cands, Candidate{Key: key(n), Priority: int32(i), Started: t0})
	}
	got, ok := Choose(cands, 0, w.fits)
	if !ok || len(got) != 2 || got[0].Name != "a" || got[1].Name != "b" {
		t.Fatalf("Choose = %v, %v; want [a b]", got, ok)
	}
}

// A thousand candidates that each free one domain of the ten needed: the
// search stays a handful of simulations, not one per subset.
func TestChooseIsBounded(t *testing.T) {
	w := &world{need: 10, holds: map[string][]string{}}
	var cands []Candidate
	for i := range 1000 {
		name := "w" + string(rune('a'+i%26)) + string(rune('a'+i/26%26)) + string(rune('a'+i/676))
		cands = append(cands, Candidate{Key: key(name), Priority: int32(i % 7), Started: t0, Frees: 1})
		w.holds[name] = []string{name}
	}
	got, ok := Choose(cands, 10, w.fits)
	if !ok || len(got) != 10 {
		t.Fatalf("Choose = %d victims, %v; want 10", len(got), ok)
	}
	for _, k := range got {
		for _, c := range cands {
			if c.Key == k && c.Priority != 0 {
				t.Fatalf("victim %s has priority %d; ten of priority 0 exist", k.Name, c.Priority)
			}
		}
	}
	if w.calls > 30 {
		t.Errorf("%d simulations", w.calls)
	}
}

// With a known need, the smallest sufficient set is found without first
// simulating every candidate gone (the costliest simulation of all).
func TestChooseSkipsTheAllCandidatesCheckWhenASetFits(t *testing.T) {
	w := &world{need: 2, holds: map[string][]string{}}
	var cands []Candidate
	for i := range 100 {
		name := fmt.Sprintf("w%03d", i)
		cands = append(cands, Candidate{Key: key(name), Priority: 1, Started: t0, Frees: 1})
		w.holds[name] = []string{name}
	}
	all := 0
	fits := func(removed []workload.Key) bool {
		if len(removed) == len(cands) {
			all++
		}
		return w.fits(removed)
	}
	if got, ok := Choose(cands, 2, fits); !ok || len(got) != 2 {
		t.Fatalf("Choose = %v, %v; want two victims", got, ok)
	}
	if all > 0 {
		t.Errorf("every candidate was simulated gone %d time(s)", all)
	}
}
