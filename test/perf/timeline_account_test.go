package perf

import (
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// TestPodTimeline checks what the bound pods counter records from the pod
// events the informer delivers.
func TestPodTimeline(t *testing.T) {
	t0 := time.Unix(1000, 0)
	pod := func(ns, name, node string) *corev1.Pod {
		return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, UID: types.UID(ns + "/" + name)},
			Spec: corev1.PodSpec{NodeName: node}}
	}
	// event: a pod seen at ms after t0, on node ("": unbound).
	type event struct {
		ms             int
		ns, name, node string
	}
	created := func(ms int, ns, name string) event { return event{ms: ms, ns: ns, name: name} }
	bound := func(ms int, ns, name string) event { return event{ms: ms, ns: ns, name: name, node: "n"} }
	cases := map[string]struct {
		events []event
		want   map[string]map[string]float64 // by namespace
	}{
		"a short run: a point every 100 ms from the first pod, and the last bind": {
			events: []event{
				created(0, "m", "a"), created(20, "m", "b"), created(30, "m", "c"),
				bound(150, "m", "a"), bound(180, "m", "b"), bound(420, "m", "c"),
			},
			want: map[string]map[string]float64{"m": {"0": 0, "0.1": 0, "0.2": 2, "0.3": 2, "0.4": 2, "0.42": 3}},
		},
		"a long run: a point a second": {
			events: []event{
				created(0, "m", "a"), created(10, "m", "b"), created(20, "m", "c"),
				bound(500, "m", "a"), bound(1500, "m", "b"), bound(21250, "m", "c"),
			},
			want: map[string]map[string]float64{"m": func() map[string]float64 {
				s := map[string]float64{"0": 0, "1": 1, "21.25": 3}
				for k := 2; k <= 21; k++ {
					s[fmt.Sprint(k)] = 2
				}
				return s
			}()},
		},
		"a bound pod updated again, or seen bound at once, counts once": {
			events: []event{
				created(0, "m", "a"),
				bound(100, "m", "a"),
				bound(200, "m", "a"),
				bound(250, "m", "b"),
			},
			want: map[string]map[string]float64{"m": {"0": 0, "0.1": 0, "0.2": 1, "0.25": 2}},
		},
		"each namespace from its own first pod; one with nothing bound is left out": {
			events: []event{
				created(0, "loaded", "a"), bound(50, "loaded", "a"),
				created(1000, "waiting", "w"),
				created(2000, "measured", "x"), bound(2300, "measured", "x"),
			},
			want: map[string]map[string]float64{
				"loaded":   {"0": 0, "0.05": 1},
				"measured": {"0": 0, "0.1": 0, "0.2": 0, "0.3": 1},
			},
		},
		"all bound in the first bucket": {
			events: []event{created(0, "m", "a"), bound(0, "m", "a")},
			want:   map[string]map[string]float64{"m": {"0": 1}},
		},
		"nothing bound": {events: []event{created(0, "m", "a")}, want: map[string]map[string]float64{}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tl := newPodTimeline()
			for _, e := range tc.events {
				tl.observe(pod(e.ns, e.name, e.node), t0.Add(time.Duration(e.ms)*time.Millisecond))
			}
			items := tl.items("BenchmarkPerfScheduling/S_V/W")
			got := map[string]map[string]float64{}
			for _, it := range items {
				if it.Labels["Metric"] != boundPodsMetric || it.Unit != "pods" {
					t.Errorf("item %v", it.Labels)
				}
				got[it.Labels["Name"]] = it.Data
			}
			want := map[string]map[string]float64{}
			for ns, s := range tc.want {
				want["BenchmarkPerfScheduling/S_V/W/"+ns] = s
			}
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("items:\n got %v\nwant %v", got, want)
			}
		})
	}
}
