package perf

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// TestHotswapAccount checks how a run's end is counted, on four pools of
// two hosts (p0: n0 n1, p1: n2 n3, p2: n4 n5, p3: n6 n7) held at the mark
// by low gangs single-a (p0), pair-b (p1, p2) and single-c (p3), and one
// high gang of two slices.
func TestHotswapAccount(t *testing.T) {
	nodePool := map[string]string{"n0": "p0", "n1": "p0", "n2": "p1", "n3": "p1", "n4": "p2", "n5": "p2", "n6": "p3", "n7": "p3"}
	holder := map[string]string{"n0": "low/single-a", "n1": "low/single-a",
		"n2": "low/pair-b", "n3": "low/pair-b", "n4": "low/pair-b", "n5": "low/pair-b", "n6": "low/single-c", "n7": "low/single-c"}
	seen := time.Unix(100, 0)
	// gang builds a gang from its pods ("slice@node", node empty: not
	// bound) and the hosts of its evicted pods.
	gang := func(key string, high bool, want int, pods []string, evicted ...string) *hsGang {
		g := &hsGang{key: key, high: high, want: want, seen: seen, pods: map[types.UID]*hsPod{}, evicted: evicted}
		for i, p := range pods {
			slice, node, _ := strings.Cut(p, "@")
			g.pods[types.UID(fmt.Sprintf("%s-%d", key, i))] = &hsPod{name: fmt.Sprintf("pod-%d", i), slice: slice, node: node}
		}
		if high && g.bound() == want {
			g.whole = seen.Add(1500 * time.Millisecond)
		}
		return g
	}
	gangs := func(gs ...*hsGang) map[string]*hsGang {
		out := map[string]*hsGang{}
		for _, g := range gs {
			out[g.key] = g
		}
		return out
	}
	untouchedA := gang("low/single-a", false, 2, []string{"a@n0", "a@n1"})
	untouchedC := gang("low/single-c", false, 2, []string{"c@n6", "c@n7"})
	cases := map[string]struct {
		gangs map[string]*hsGang
		want  hotswapCounts
	}{
		"a whole workload evicted and all of it used": {
			gangs: gangs(untouchedA, untouchedC,
				gang("low/pair-b", false, 4, nil, "n2", "n3", "n4", "n5"),
				gang("high/hot-0", true, 4, []string{"x@n2", "x@n3", "y@n4", "y@n5"})),
			want: hotswapCounts{lowGangs: 3, lowPods: 8, highGangs: 1, highBound: 1, highPlaced: 1, highPods: 4, highPodsBound: 4,
				victims: 1, evicted: 4, lost: 4, needed: 4, bindSeconds: []float64{1.5}},
		},
		"pod by pod: a slice split over two pools, two gangs partly evicted": {
			gangs: gangs(untouchedC,
				gang("low/single-a", false, 2, []string{"a@n1"}, "n0"),
				gang("low/pair-b", false, 4, []string{"b1@n3"}, "n2", "n4", "n5"),
				gang("high/hot-0", true, 4, []string{"x@n0", "x@n2", "y@n4", "y@n5"})),
			// Lost: both victims whole (6); needed: n0, n2, n4, n5.
			want: hotswapCounts{lowGangs: 3, lowPods: 8, highGangs: 1, highBound: 1, highPlaced: 0, highPods: 4, highPodsBound: 4,
				victims: 2, partial: 2, evicted: 4, lost: 6, needed: 4, bindSeconds: []float64{1.5}},
		},
		"a pool shared with a survivor is no gang placement": {
			gangs: gangs(untouchedA, untouchedC,
				gang("low/pair-b", false, 4, []string{"b1@n5"}, "n2", "n3", "n4"),
				gang("high/hot-0", true, 3, []string{"x@n2", "x@n3", "y@n4"})),
			want: hotswapCounts{lowGangs: 3, lowPods: 8, highGangs: 1, highBound: 1, highPlaced: 0, highPods: 3, highPodsBound: 3,
				victims: 1, partial: 1, evicted: 3, lost: 4, needed: 3, bindSeconds: []float64{1.5}},
		},
		"evicted for nothing, the gang not bound": {
			gangs: gangs(untouchedA,
				gang("low/single-c", false, 2, []string{"c@n7"}, "n6"),
				gang("low/pair-b", false, 4, []string{"b@n2", "b@n3", "b@n4", "b@n5"}),
				gang("high/hot-0", true, 4, []string{"x@", "x@", "y@", "y@"})),
			want: hotswapCounts{lowGangs: 3, lowPods: 8, highGangs: 1, highPods: 4,
				victims: 1, partial: 1, evicted: 1, lost: 2, evictedNotTaken: 1},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := account(tc.gangs, holder, nodePool)
			got.lastBound = time.Time{}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("account:\n got %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestQuantile(t *testing.T) {
	xs := []float64{5, 1, 4, 2, 3, 10, 9, 8, 7, 6}
	for _, c := range []struct{ q, want float64 }{{0.5, 5}, {0.9, 9}, {0.99, 10}, {1, 10}, {0, 1}} {
		if got := quantile(xs, c.q); got != c.want {
			t.Errorf("quantile(%v) = %v, want %v", c.q, got, c.want)
		}
	}
	if got := quantile(nil, 0.5); got != 0 {
		t.Errorf("quantile of nothing = %v, want 0", got)
	}
}
