package perf

import (
	"fmt"
	"maps"
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// TestAccountGroups checks the gang latency of synthetic namespaces:
// pods "gang@createdMs@boundMs" in creation order (gang empty: a plain
// pod; boundMs -1: never bound), times in milliseconds after t0.
func TestAccountGroups(t *testing.T) {
	t0 := time.Unix(500, 0)
	pods := func(specs ...string) []*podTimes {
		out := make([]*podTimes, len(specs))
		for i, spec := range specs {
			f := strings.Split(spec, "@")
			created, err1 := strconv.Atoi(f[1])
			bound, err2 := strconv.Atoi(f[2])
			if len(f) != 3 || err1 != nil || err2 != nil {
				t.Fatalf("pod %q: want gang@createdMs@boundMs", spec)
			}
			out[i] = &podTimes{gang: f[0], created: t0.Add(time.Duration(created) * time.Millisecond)}
			if bound >= 0 {
				out[i].bound = t0.Add(time.Duration(bound) * time.Millisecond)
			}
		}
		return out
	}
	// manyGangs: 101 gangs of two pods, gang i created at i ms and
	// wholly bound (i+1)·10 ms later: latencies 0.01 s to 1.01 s.
	var many []string
	for i := range 101 {
		many = append(many, fmt.Sprintf("js-%d@%d@%d", i, i, i+5), fmt.Sprintf("js-%d@%d@%d", i, i+1, i+(i+1)*10))
	}
	cases := map[string]struct {
		pods      []*podTimes
		groupSize int
		// want: the data item's metric and figures; no metric: no item.
		metric string
		want   map[string]float64
	}{
		"gangs, nearest-rank quantiles over 101 of them": {
			pods: pods(many...), groupSize: 2,
			metric: gangLatencyMetric,
			want: map[string]float64{"Count": 101, "Groups": 101, "Pods": 202,
				"Perc50": 0.51, "Perc90": 0.91, "Perc99": 1, "Max": 1.01, "Average": 0.51},
		},
		"gangs interleaved: each from its own first member created to its own last bound": {
			pods: pods("a@0@300", "b@10@120", "a@20@250", "b@30@100", "c@40@500", "a@50@900", "c@60@450"),
			// b: 10 → 120; a: 0 → 900; c: 40 → 500, in the order of their
			// first members: a, b, c.
			metric: gangLatencyMetric,
			want: map[string]float64{"Count": 3, "Groups": 3, "Pods": 7,
				"Perc50": 0.46, "Perc90": 0.9, "Perc99": 0.9, "Max": 0.9, "Average": (0.9 + 0.11 + 0.46) / 3},
		},
		"a gang not wholly bound counts among the groups, untimed": {
			pods:   pods("a@0@100", "a@10@200", "w@20@-1", "w@30@150"),
			metric: gangLatencyMetric,
			want: map[string]float64{"Count": 1, "Groups": 2, "Pods": 2,
				"Perc50": 0.2, "Perc90": 0.2, "Perc99": 0.2, "Max": 0.2, "Average": 0.2},
		},
		"no gang wholly bound: the groups without figures": {
			pods:   pods("w@0@-1", "w@10@-1", "v@20@-1"),
			metric: gangLatencyMetric,
			want:   map[string]float64{"Count": 0, "Groups": 2, "Pods": 0},
		},
		"plain pods beside gangs are not grouped": {
			pods:      pods("@0@10", "a@5@40", "@6@20", "a@7@30", "@8@50", "@9@60"),
			groupSize: 2,
			metric:    gangLatencyMetric,
			want: map[string]float64{"Count": 1, "Groups": 1, "Pods": 2,
				"Perc50": 0.035, "Perc90": 0.035, "Perc99": 0.035, "Max": 0.035, "Average": 0.035},
		},
		"plain pods in groups of consecutive pods; the last, smaller, is left out": {
			// Groups 0–2: 0 → 400 (a later pod bound first); 3–5: 30 →
			// 100; pod 6 left out.
			pods:      pods("@0@400", "@10@50", "@20@60", "@30@90", "@40@100", "@50@70", "@60@65"),
			groupSize: 3,
			metric:    plainGroupMetric,
			want: map[string]float64{"Count": 2, "Groups": 2, "Pods": 6, "GroupSize": 3,
				"Perc50": 0.07, "Perc90": 0.4, "Perc99": 0.4, "Max": 0.4, "Average": 0.235},
		},
		"a plain group with a pod never bound is untimed": {
			pods:      pods("@0@10", "@1@20", "@2@-1", "@3@30"),
			groupSize: 2,
			metric:    plainGroupMetric,
			want: map[string]float64{"Count": 1, "Groups": 2, "Pods": 2, "GroupSize": 2,
				"Perc50": 0.02, "Perc90": 0.02, "Perc99": 0.02, "Max": 0.02, "Average": 0.02},
		},
		"plain pods seen bound at once take no time": {
			pods:      pods("@100@100", "@100@100"),
			groupSize: 2,
			metric:    plainGroupMetric,
			want: map[string]float64{"Count": 1, "Groups": 1, "Pods": 2, "GroupSize": 2,
				"Perc50": 0, "Perc90": 0, "Perc99": 0, "Max": 0, "Average": 0},
		},
		"plain pods without a group size": {pods: pods("@0@10", "@1@20"), groupSize: 0},
		"fewer plain pods than a group":   {pods: pods("@0@10", "@1@20"), groupSize: 3},
		"no pod":                          {pods: nil, groupSize: 2},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			g, ok := accountGroups(tc.pods, tc.groupSize)
			if ok != (tc.metric != "") {
				t.Fatalf("grouped: %v, want %v (%+v)", ok, tc.metric != "", g)
			}
			if !ok {
				return
			}
			it := g.item("BenchmarkPerfScheduling/S_V/W/ns")
			if it.Labels["Metric"] != tc.metric || it.Labels["Name"] != "BenchmarkPerfScheduling/S_V/W/ns" || it.Unit != "s" {
				t.Errorf("item %v, unit %s; want metric %s", it.Labels, it.Unit, tc.metric)
			}
			if got := roundData(it.Data); !maps.Equal(got, roundData(tc.want)) {
				t.Errorf("figures:\n got %v\nwant %v", got, roundData(tc.want))
			}
		})
	}
}

// roundData rounds figures to the microsecond, below float noise.
func roundData(data map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range data {
		out[k] = math.Round(v*1e6) / 1e6
	}
	return out
}

// TestGangClock checks a clock fed live, as the provisioning scenarios
// feed theirs: whole only once its size is bound, from its earliest
// member created.
func TestGangClock(t *testing.T) {
	t0 := time.Unix(500, 0)
	ms := func(n int) time.Time { return t0.Add(time.Duration(n) * time.Millisecond) }
	var c gangClock
	if _, whole := c.latency(0); whole {
		t.Error("an empty clock of size 0 is whole")
	}
	c.memberCreated(ms(20))
	c.memberCreated(ms(10)) // delivered late: the clock starts at the earlier
	c.memberBound(ms(300))
	if w := c.wholeAt(2); !w.IsZero() {
		t.Errorf("one of two bound: whole at %v", w)
	}
	c.memberBound(ms(250))
	if d, whole := c.latency(2); !whole || d != 290*time.Millisecond {
		t.Errorf("latency %v, %v; want 290ms from the first created to the last bound", d, whole)
	}
	if w := c.wholeAt(3); !w.IsZero() {
		t.Errorf("two of three bound: whole at %v", w)
	}
	var skewed gangClock
	skewed.memberBound(ms(5))
	skewed.memberCreated(ms(8))
	if d, whole := skewed.latency(1); !whole || d != 0 {
		t.Errorf("bound seen before created: latency %v, %v; want 0, true", d, whole)
	}
}

// TestPodTimelineGroupItems checks the gang latency the bound pods
// counter records from the pod events the informer delivers: gangs by
// their JobSet label, per namespace, and plain pods by the group size.
func TestPodTimelineGroupItems(t *testing.T) {
	t0 := time.Unix(1000, 0)
	pod := func(ns, name, jobSet, node string) *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "/" + name)},
			Spec: corev1.PodSpec{NodeName: node}}
		if jobSet != "" {
			p.Labels = map[string]string{wellknown.JobSetNameLabel: jobSet, wellknown.JobKeyLabel: jobSet + "-0"}
		}
		return p
	}
	tl := newPodTimeline()
	for _, e := range []struct {
		ms                     int
		ns, name, jobSet, node string
	}{
		{0, "gangs", "a0", "a", ""}, {10, "gangs", "a1", "a", ""}, {20, "gangs", "b0", "b", ""}, {30, "gangs", "b1", "b", ""},
		{0, "plain", "p0", "", ""}, {5, "plain", "p1", "", ""}, {40, "plain", "p2", "", ""}, {45, "plain", "p3", "", ""},
		{100, "gangs", "a0", "a", "n0"}, {150, "gangs", "b1", "b", "n2"},
		{160, "gangs", "a1", "a", "n1"}, {170, "gangs", "a1", "a", "n1"}, // an update of a bound pod
		{180, "plain", "p1", "", "n3"}, {190, "plain", "p0", "", "n4"}, {200, "plain", "p3", "", "n5"}, {290, "plain", "p2", "", "n6"},
		{240, "unbound", "u0", "", ""}, {250, "unbound", "u1", "", ""},
		{400, "gangs", "b0", "b", "n7"},
	} {
		tl.observe(pod(e.ns, e.name, e.jobSet, e.node), t0.Add(time.Duration(e.ms)*time.Millisecond))
	}
	var logged []string
	logf := func(format string, args ...any) { logged = append(logged, fmt.Sprintf(format, args...)) }
	items := tl.groupItems(logf, "BenchmarkPerfScheduling/S_V/W", 2)
	got := map[string]string{}
	for _, it := range items {
		got[it.Labels["Name"]] = it.Labels["Metric"] + " " + fmt.Sprint(roundData(it.Data))
	}
	// a: 0 → 160 ms; b: 20 → 400 ms. Plain p0, p1: 0 → 190 ms; p2, p3:
	// 40 → 290 ms. The unbound namespace's one group is untimed.
	want := map[string]string{
		"BenchmarkPerfScheduling/S_V/W/gangs": gangLatencyMetric + " " + fmt.Sprint(map[string]float64{
			"Count": 2, "Groups": 2, "Pods": 4, "Perc50": 0.16, "Perc90": 0.38, "Perc99": 0.38, "Max": 0.38, "Average": 0.27}),
		"BenchmarkPerfScheduling/S_V/W/plain": plainGroupMetric + " " + fmt.Sprint(map[string]float64{
			"Count": 2, "Groups": 2, "Pods": 4, "GroupSize": 2, "Perc50": 0.19, "Perc90": 0.25, "Perc99": 0.25, "Max": 0.25, "Average": 0.22}),
		"BenchmarkPerfScheduling/S_V/W/unbound": plainGroupMetric + " " + fmt.Sprint(map[string]float64{
			"Count": 0, "Groups": 1, "Pods": 0, "GroupSize": 2}),
	}
	if !maps.Equal(got, want) {
		t.Errorf("items:\n got %v\nwant %v", got, want)
	}
	if len(logged) != 3 || !strings.Contains(logged[0], "namespace gangs: 2 of 2 gangs wholly bound, first created to last bound p50 0.160 s, p99 0.380 s") {
		t.Errorf("logged %q", logged)
	}
}
