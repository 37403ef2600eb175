package perf

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// TestProvisioningAccount checks how a run's end is counted, on four pools
// of two hosts (p0: n0 n1 and p1: n2 n3 in zone a, p2: n4 n5 and p3: n6
// n7 in zone b), with the gangs pair-0 (slices x and y of two pods) and
// single-0 (slice z of two pods) in namespace prov, through the check
// perf-prov. Times are milliseconds after t0.
func TestProvisioningAccount(t *testing.T) {
	t0 := time.Unix(100, 0)
	at := func(ms int) time.Time {
		if ms < 0 {
			return time.Time{}
		}
		return t0.Add(time.Duration(ms) * time.Millisecond)
	}
	nodePool := map[string]string{"n0": "p0", "n1": "p0", "n2": "p1", "n3": "p1", "n4": "p2", "n5": "p2", "n6": "p3", "n7": "p3"}
	nodeZone := map[string]string{"n0": "a", "n1": "a", "n2": "a", "n3": "a", "n4": "b", "n5": "b", "n6": "b", "n7": "b"}
	const (
		check     = "perf-prov"
		pairReq   = "prov/jobset-pair-0-perf-prov-1"
		singleReq = "prov/jobset-single-0-perf-prov-1"
	)
	// gang builds a gang from its milestones (-1: not reached) and pods
	// "slice@node@request@boundMs" (node empty: not bound).
	gang := func(jobSet string, created, complete, annotated int, pods ...string) *provGang {
		g := &provGang{namespace: "prov", jobSet: jobSet, want: len(pods), complete: at(complete), annotated: at(annotated),
			pods: map[types.UID]*provPod{}}
		for i, spec := range pods {
			g.clock.memberCreated(at(created))
			f := strings.Split(spec, "@")
			p := &provPod{name: fmt.Sprintf("%s-%d", jobSet, i), slice: f[0], node: f[1], request: f[2]}
			if p.node != "" {
				var ms int
				if _, err := fmt.Sscan(f[3], &ms); err != nil {
					t.Fatalf("pod %q: %v", spec, err)
				}
				p.boundAt = at(ms)
				g.clock.memberBound(p.boundAt)
			}
			g.pods[types.UID(p.name)] = p
		}
		return g
	}
	gangs := func(gs ...*provGang) map[string]*provGang {
		out := map[string]*provGang{}
		for _, g := range gs {
			out[g.key()] = g
		}
		return out
	}
	req := func(seen, sent, done int) *provRequest {
		return &provRequest{seen: at(seen), sent: at(sent), done: at(done)}
	}
	objects := map[string]time.Time{"prov/jobset-pair-0": at(700), "prov/jobset-single-0": at(710)}
	sp := func(n, first, last int) span { return span{n: n, first: at(first), last: at(last)} }
	objectSpan := sp(2, 700, 710)
	// Both gangs placed through the check, pair-0 in zone a and single-0
	// in zone b.
	pair := gang("pair-0", 0, 10, 1900, "x@n0@jobset-pair-0-perf-prov-1@2000", "x@n1@jobset-pair-0-perf-prov-1@2010",
		"y@n2@jobset-pair-0-perf-prov-1@2020", "y@n3@jobset-pair-0-perf-prov-1@2050")
	single := gang("single-0", 5, 20, 1950, "z@n4@jobset-single-0-perf-prov-1@2100", "z@n5@jobset-single-0-perf-prov-1@2100")
	wellRequested := map[string]*provRequest{pairReq: req(1700, 1705, 1710), singleReq: req(1720, 1725, 1730)}

	cases := map[string]struct {
		gangs    map[string]*provGang
		requests map[string]*provRequest
		check    string
		want     provCounts
		// phases: the phases of each gang, in key order (pair-0 first).
		phases map[string][]float64
	}{
		"with the check, both gangs placed": {
			gangs: gangs(pair, single), requests: wellRequested, check: check,
			want: provCounts{gangs: 2, bound: 2, placed: 2, pods: 6, podsBound: 6, requests: 2, provisioned: 2, matched: 2,
				bind: []float64{2.05, 2.095}, first: at(0), last: at(2100), objects: objectSpan, requestsSeen: sp(2, 1700, 1720)},
			phases: map[string][]float64{
				"Members": {0.01, 0.015}, "WorkloadObject": {0.69, 0.69}, "Request": {1, 1.01}, "Provisioned": {0.01, 0.01},
				"Annotated": {0.19, 0.22}, "Bound": {0.15, 0.15},
			},
		},
		"without the check: members and bound only, no request expected": {
			gangs: gangs(gang("pair-0", 0, 10, -1, "x@n0@@300", "x@n1@@310", "y@n2@@320", "y@n3@@350")), requests: map[string]*provRequest{}, check: "",
			want: provCounts{gangs: 1, bound: 1, placed: 1, pods: 4, podsBound: 4, bind: []float64{0.35}, first: at(0), last: at(350),
				objects: objectSpan},
			phases: map[string][]float64{"Members": {0.01}, "Bound": {0.34}},
		},
		"a gang across two zones, and a pool shared by two slices": {
			gangs: gangs(gang("pair-0", 0, 10, 1900, "x@n0@jobset-pair-0-perf-prov-1@2000", "x@n1@jobset-pair-0-perf-prov-1@2000",
				"y@n4@jobset-pair-0-perf-prov-1@2000", "y@n5@jobset-pair-0-perf-prov-1@2000"),
				gang("single-0", 5, 20, 1950, "z@n6@jobset-single-0-perf-prov-1@2100", "z@n5@jobset-single-0-perf-prov-1@2100")),
			requests: wellRequested, check: check,
			want: provCounts{gangs: 2, bound: 2, placed: 0, pods: 6, podsBound: 6, requests: 2, provisioned: 2, matched: 2,
				bind: []float64{2, 2.095}, first: at(0), last: at(2100), objects: objectSpan, requestsSeen: sp(2, 1700, 1720)},
		},
		"bound before Provisioned, without the annotation": {
			gangs:    gangs(gang("single-0", 5, 20, -1, "z@n4@@1600", "z@n5@@1610")),
			requests: map[string]*provRequest{singleReq: req(1720, 1725, 1730)}, check: check,
			// No phases: it was never annotated.
			want: provCounts{gangs: 1, bound: 1, placed: 1, pods: 2, podsBound: 2, requests: 1, provisioned: 1, matched: 1,
				unannotated: 2, early: 1, bind: []float64{1.605}, first: at(5), last: at(1610), objects: objectSpan, requestsSeen: sp(1, 1720, 1720)},
		},
		"a request that is no gang's first attempt, another never answered, a gang without one": {
			gangs: gangs(pair, gang("single-0", 5, 20, -1, "z@@", "z@@")),
			requests: map[string]*provRequest{pairReq: req(1700, 1705, 1710), "prov/jobset-pair-0-perf-prov-2": req(1800, -1, -1),
				"prov/jobset-other-perf-prov-1": req(1900, 1901, 1902)},
			check: check,
			want: provCounts{gangs: 2, bound: 1, placed: 1, pods: 6, podsBound: 4, requests: 3, provisioned: 2, matched: 1, unexpected: 2,
				bind: []float64{2.05}, first: at(0), last: at(2050), objects: objectSpan, requestsSeen: sp(3, 1700, 1900)},
			phases: map[string][]float64{
				"Members": {0.01}, "WorkloadObject": {0.69}, "Request": {1}, "Provisioned": {0.01}, "Annotated": {0.19}, "Bound": {0.15},
			},
		},
		"watch skew: a milestone seen before the previous one counts as no time": {
			gangs:    gangs(single),
			requests: map[string]*provRequest{singleReq: req(705, 1725, 1730)}, check: check,
			want: provCounts{gangs: 1, bound: 1, placed: 1, pods: 2, podsBound: 2, requests: 1, provisioned: 1, matched: 1,
				bind: []float64{2.095}, first: at(5), last: at(2100), objects: objectSpan, requestsSeen: sp(1, 705, 705)},
			phases: map[string][]float64{
				"Members": {0.015}, "WorkloadObject": {0.69}, "Request": {0}, "Provisioned": {1.025}, "Annotated": {0.22}, "Bound": {0.15},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			got := accountProvisioning(tc.gangs, tc.requests, objects, tc.check, nodePool, nodeZone)
			phases := got.phases
			got.phases = nil
			round := func(xs []float64) []float64 {
				out := make([]float64, len(xs))
				for i, x := range xs {
					out[i] = float64(int64(x*1e6+0.5)) / 1e6
				}
				return out
			}
			got.bind = round(got.bind)
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("account:\n got %+v\nwant %+v", got, tc.want)
			}
			if tc.phases == nil {
				return
			}
			for _, name := range provPhases {
				if g, w := round(phases[name]), tc.phases[name]; !slices.Equal(g, w) && len(g)+len(w) > 0 {
					t.Errorf("phase %s: got %v, want %v", name, g, w)
				}
			}
		})
	}
}

func TestSpanRate(t *testing.T) {
	t0 := time.Unix(100, 0)
	var s span
	if s.rate() != 0 {
		t.Errorf("rate of nothing = %v, want 0", s.rate())
	}
	s.add(t0)
	s.add(time.Time{}) // not seen: not counted
	if s.n != 1 || s.rate() != 0 {
		t.Errorf("one object: n %d, rate %v; want 1, 0", s.n, s.rate())
	}
	s.add(t0.Add(2 * time.Second))
	s.add(t0.Add(time.Second))
	if s.n != 3 || s.seconds() != 2 || s.rate() != 1 {
		t.Errorf("three objects over 2 s: n %d, %v s, rate %v; want 3, 2 s, 1/s", s.n, s.seconds(), s.rate())
	}
}

func TestProvisioningCRDFiles(t *testing.T) {
	for name, want := range map[string]bool{
		"BenchmarkPerfScheduling/Provisioning_WithCheck/36Nodes_8Gangs":    true,
		"BenchmarkPerfScheduling/Provisioning_WithoutCheck/36Nodes_8Gangs": true,
		"BenchmarkPerfScheduling/Quota_QueuedMultisliceProfile/120Nodes":   false,
		"BenchmarkPerfScheduling/ProvisioningLike/x":                       false,
		"BenchmarkPerfScheduling":                                          false,
	} {
		if got := len(provisioningCRDFilesFor(name)) > 0; got != want {
			t.Errorf("%s: ProvisioningRequest CRD installed %v, want %v", name, got, want)
		}
	}
}
