package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// hotswapItems renders one run's Hotswap* data items for a variant: counts
// as given, with bind and decision times when set.
func hotswapItems(variant, workload string, counts map[string]float64, bind, decision map[string]float64) string {
	name := "BenchmarkPerfScheduling/Hotswap_" + variant + "/" + workload + "/hotswap"
	item := func(metric, unit string, data map[string]float64) string {
		var fields []string
		for k, v := range data {
			fields = append(fields, fmt.Sprintf("%q:%v", k, v))
		}
		return fmt.Sprintf(`{"data":{%s},"unit":%q,"labels":{"Metric":%q,"Name":%q}}`, strings.Join(fields, ","), unit, metric, name)
	}
	items := []string{item("HotswapCounts", "count", counts), item("HotswapDuration", "s", map[string]float64{"Measured": 9})}
	if bind != nil {
		items = append(items, item("HotswapBindTime", "s", bind))
	}
	if decision != nil {
		items = append(items, item("HotswapDecisionTime", "ms", decision))
	}
	return strings.Join(items, ",\n")
}

func hotswapFile(items ...string) string {
	return `{"version":"v1","dataItems":[` + strings.Join(items, ",\n") + `]}`
}

const hotswapWorkload = "2048Nodes_992LowGangs_50HighGangs"

var (
	// Pod by pod: every gang bound, some not as gangs; one pod per decision.
	defaultCounts = map[string]float64{
		"LowWorkloads": 992, "HighGangs": 50, "HighGangsBound": 50, "HighGangsPlaced": 44, "HighPods": 200, "HighPodsBound": 200,
		"PodPreemptions": 230, "PodPreemptionVictims": 230, "VictimWorkloads": 120, "VictimWorkloadsPartial": 20,
		"PodsEvicted": 230, "PodsLost": 260, "PodsNeeded": 200, "PodsLostBeyondNeed": 60, "TimedOut": 0,
	}
	// Whole workloads: one decision per gang.
	oursCounts = map[string]float64{
		"LowWorkloads": 992, "HighGangs": 50, "HighGangsBound": 50, "HighGangsPlaced": 50, "HighPods": 200, "HighPodsBound": 200,
		"WorkloadPreemptions": 50, "WorkloadVictims": 68, "VictimWorkloads": 68,
		"PodsEvicted": 200, "PodsLost": 200, "PodsNeeded": 200, "PodsLostBeyondNeed": 0, "TimedOut": 0,
	}
	bindTimes = map[string]float64{"Count": 50, "Perc50": 3.5, "Perc90": 6.25, "Max": 7, "Average": 3.8}
)

func with(m map[string]float64, changes map[string]float64) map[string]float64 {
	out := map[string]float64{}
	for k, v := range m {
		out[k] = v
	}
	for k, v := range changes {
		out[k] = v
	}
	return out
}

func TestHotswapReport(t *testing.T) {
	fast := map[string]float64{"Count": 50, "Perc50": 8, "Perc90": 20, "Perc99": 42.5, "Max": 50, "Average": 10}
	slow := with(fast, map[string]float64{"Perc99": 130})
	cases := map[string]struct {
		files map[string]string
		// rows: "variant runs" in order; want/reject: lines the report
		// must hold or must not.
		rows         []string
		want, reject []string
	}{
		"both variants, target met": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(
					hotswapItems("AffinityDefaultProfile", hotswapWorkload, defaultCounts, bindTimes, nil),
					hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, map[string]float64{"Perc50": 0.5, "Perc90": 1.25, "Max": 2}, fast)),
			},
			rows: []string{"AffinityDefaultProfile 1", "GangsMultisliceProfile 1"},
			want: []string{
				"| Hotswap | " + hotswapWorkload + " | AffinityDefaultProfile | 992 | 50 / 50 | 44 | 3.50 | 6.25 | 7.00 | 230 | 1.00 | 120 (20) | 230 | 260 (60) | – | – | – | 1 |",
				"| Hotswap | " + hotswapWorkload + " | GangsMultisliceProfile | 992 | 50 / 50 | 50 | 0.50 | 1.25 | 2.00 | 50 | 1.36 | 68 (0) | 200 | 200 (0) | 8.0 | 42.5 | 50.0 | 1 |",
				"preemption decision p99 42.5 ms over 50 decisions with 992 candidate workloads (target < 100 ms with ~1 000 candidates: met).",
			},
			reject: []string{"(timed out)", "the wait ended before", "MISSED", "DisruptionTarget", "reservations released"},
		},
		"target missed": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, bindTimes, slow)),
			},
			rows: []string{"GangsMultisliceProfile 1"},
			want: []string{"decision p99 130.0 ms over 50 decisions with 992 candidate workloads (target < 100 ms with ~1 000 candidates: MISSED)."},
		},
		"too few candidates to judge": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("GangsMultisliceProfile", "24Nodes", with(oursCounts, map[string]float64{"LowWorkloads": 10}), bindTimes, slow)),
			},
			rows:   []string{"GangsMultisliceProfile 1"},
			want:   []string{"with 10 candidate workloads (target < 100 ms with ~1 000 candidates: not judged, too few candidates)."},
			reject: []string{"MISSED"},
		},
		"a variant that binds nothing timed out": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("AffinityDefaultProfile", hotswapWorkload,
					with(defaultCounts, map[string]float64{"HighGangsBound": 0, "HighGangsPlaced": 0, "HighPodsBound": 37, "TimedOut": 1}), nil, nil)),
			},
			rows: []string{"AffinityDefaultProfile 1"},
			want: []string{
				"| 992 | 0 / 50 (timed out) | 0 | – | – | – | 230 |",
				"AffinityDefaultProfile: the wait ended before every gang was bound: 0 of 50 gangs and 37 of 200 of their pods bound.",
			},
		},
		"repeats are averaged, each figure over the runs that reported it": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, bindTimes, fast)),
				"Hotswap_benchmark_multislice_2.json": hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload,
					with(oursCounts, map[string]float64{"HighGangsBound": 49, "WorkloadVictims": 82}), nil, slow)),
			},
			rows: []string{"GangsMultisliceProfile 2"},
			// Bind times from the first run only; victims (68+82)/2 over 50.
			want: []string{"| 992 | 49.5 / 50 | 50 | 3.50 | 6.25 | 7.00 | 50 | 1.50 | 68 (0) | 200 | 200 (0) | 8.0 | 86.2 | 50.0 | 2 |"},
		},
		"reservations released are listed by reason": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, bindTimes, fast),
					`{"data":{"timeout":1,"rejected_by_filters":3},"unit":"count","labels":{"Metric":"HotswapReservationReleases","Name":"BenchmarkPerfScheduling/Hotswap_GangsMultisliceProfile/`+hotswapWorkload+`/hotswap"}}`),
			},
			rows: []string{"GangsMultisliceProfile 1"},
			want: []string{"GangsMultisliceProfile: reservations released before their gang was placed (multislice_reservation_releases_total): rejected_by_filters 3, timeout 1."},
		},
		"oddities are reported": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json": hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload,
					with(oursCounts, map[string]float64{"EvictedWithoutDisruption": 2}), bindTimes, fast)),
			},
			rows: []string{"GangsMultisliceProfile 1"},
			want: []string{"GangsMultisliceProfile: 2 victims lacked a DisruptionTarget condition and 0 high-priority pods were deleted."},
		},
		"other data items are ignored": {
			files: map[string]string{
				"Hotswap_benchmark_multislice_1.json":         hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, bindTimes, fast), `{"data":{"X":1},"unit":"s","labels":{"Metric":"Other","Name":"malformed"}}`),
				"QueueDrain_benchmark_multislice_1.json":      drainRun,
				"BenchmarkPerfScheduling_benchmark_ms_1.json": harnessRun,
			},
			rows: []string{"GangsMultisliceProfile 1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rows, err := loadHotswap(writeFiles(t, tc.files))
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, r := range rows {
				got = append(got, fmt.Sprintf("%s %d", r.Variant, r.Runs))
			}
			if strings.Join(got, ", ") != strings.Join(tc.rows, ", ") {
				t.Fatalf("rows %v, want %v", got, tc.rows)
			}
			var out strings.Builder
			if err := writeHotswap(&out, rows); err != nil {
				t.Fatal(err)
			}
			for _, w := range tc.want {
				if !strings.Contains(out.String(), w) {
					t.Errorf("report lacks %q:\n%s", w, out.String())
				}
			}
			for _, r := range tc.reject {
				if strings.Contains(out.String(), r) {
					t.Errorf("report has %q:\n%s", r, out.String())
				}
			}
		})
	}
}

func TestHotswapNothingRan(t *testing.T) {
	rows, err := loadHotswap(writeFiles(t, map[string]string{"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun}))
	if err != nil || len(rows) != 0 {
		t.Fatalf("loadHotswap = %+v, %v; want nothing", rows, err)
	}
}

func TestHotswapVictimsPerPreemption(t *testing.T) {
	cases := map[string]struct {
		counts map[string]float64
		want   float64
		ok     bool
	}{
		"whole workloads":   {map[string]float64{"WorkloadPreemptions": 4, "WorkloadVictims": 6}, 1.5, true},
		"pod by pod":        {map[string]float64{"PodPreemptions": 10, "PodPreemptionVictims": 10}, 1, true},
		"no preemption":     {map[string]float64{}, 0, false},
		"only failed tries": {map[string]float64{"WorkloadPreemptionsNoVictim": 3}, 0, false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := hotswapRow{sums: map[string]float64{}, reported: map[string]int{}}
			for k, v := range tc.counts {
				r.sums["HotswapCounts."+k] = v
				r.reported["HotswapCounts."+k] = 1
			}
			got, ok := r.VictimsPerPreemption()
			if ok != tc.ok || math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("VictimsPerPreemption = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestNum(t *testing.T) {
	for in, want := range map[float64]string{0: "0", 50: "50", 49.5: "49.5", 1.25: "1.2", 992: "992"} {
		if got := num(in); got != want {
			t.Errorf("num(%v) = %q, want %q", in, got, want)
		}
	}
}
