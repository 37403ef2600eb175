package main

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// provisioningItems renders one run's Provisioning* data items for a
// variant: counts as given, bind times and phases (metric suffix → stats)
// when set.
func provisioningItems(variant, workload string, counts map[string]float64, rate float64, bind map[string]float64, phases map[string]map[string]float64) string {
	name := "BenchmarkPerfScheduling/Provisioning_" + variant + "/" + workload + "/provisioning"
	item := func(metric, unit string, data map[string]float64) string {
		var fields []string
		for k, v := range data {
			fields = append(fields, fmt.Sprintf("%q:%v", k, v))
		}
		return fmt.Sprintf(`{"data":{%s},"unit":%q,"labels":{"Metric":%q,"Name":%q}}`, strings.Join(fields, ","), unit, metric, name)
	}
	items := []string{
		item("ProvisioningCounts", "count", counts),
		item("ProvisioningDuration", "s", map[string]float64{"Measured": 9}),
		item("ProvisioningThroughput", "workloads/s", map[string]float64{"Workloads": rate}),
	}
	if bind != nil {
		items = append(items, item("ProvisioningBindTime", "s", bind))
	}
	for phase, data := range phases {
		items = append(items, item("ProvisioningPhase"+phase, "s", data))
	}
	if n := counts["GangsBound"]; n > 0 {
		items = append(items, item("ProvisioningWorkloadObjects", "count", map[string]float64{"Count": n, "SpanSeconds": n / 10, "PerSecond": 10}))
	}
	if n := counts["Requests"]; n > 0 {
		items = append(items, item("ProvisioningRequestsCreated", "count", map[string]float64{"Count": n, "SpanSeconds": n / 12.5, "PerSecond": 12.5}))
	}
	return strings.Join(items, ",\n")
}

func provisioningFile(items ...string) string {
	return `{"version":"v1","dataItems":[` + strings.Join(items, ",\n") + `]}`
}

const provWorkload = "960Nodes_300Gangs"

var (
	withoutCheckCounts = map[string]float64{
		"Gangs": 300, "GangsBound": 300, "GangsPlaced": 300, "Pods": 900, "PodsBound": 900, "Requests": 0,
		"Attempts": 930, "AttemptsScheduled": 900, "AttemptsUnschedulable": 30, "Admissions": 300, "Check": 0, "TimedOut": 0,
	}
	withCheckCounts = with(withoutCheckCounts, map[string]float64{"Requests": 300, "RequestsProvisioned": 300, "Attempts": 900, "AttemptsUnschedulable": 0, "Check": 1})
	fastBind        = map[string]float64{"Count": 300, "Perc50": 0.5, "Perc90": 1, "Perc99": 1.5, "Max": 2, "Average": 0.6}
	slowBind        = map[string]float64{"Count": 300, "Perc50": 2.5, "Perc90": 3, "Perc99": 3.5, "Max": 4, "Average": 2.4}
	checkPhases     = map[string]map[string]float64{
		"Members":        {"Average": 0.01, "Perc90": 0.02},
		"WorkloadObject": {"Average": 0.5, "Perc90": 0.9},
		"Request":        {"Average": 1.2, "Perc90": 1.5},
		"Provisioned":    {"Average": 0.01, "Perc90": 0.02},
		"Annotated":      {"Average": 0.3, "Perc90": 0.5},
		"Bound":          {"Average": 0.38, "Perc90": 0.6},
	}
)

func TestProvisioningReport(t *testing.T) {
	cases := map[string]struct {
		files map[string]string
		// rows: "variant runs" in order; want/reject: lines the report
		// must hold or must not.
		rows         []string
		want, reject []string
	}{
		"both variants": {
			files: map[string]string{
				"Provisioning_benchmark_multislice_1.json": provisioningFile(
					provisioningItems("WithoutCheck", provWorkload, withoutCheckCounts, 40, fastBind,
						map[string]map[string]float64{"Members": {"Average": 0.01, "Perc90": 0.02}, "Bound": {"Average": 0.59, "Perc90": 0.98}}),
					provisioningItems("WithCheck", provWorkload, withCheckCounts, 10, slowBind, checkPhases)),
			},
			rows: []string{"WithoutCheck 1", "WithCheck 1"},
			want: []string{
				"| Provisioning | " + provWorkload + " | WithoutCheck | 300 / 300 | 0.50 | 1.00 | 1.50 | 2.00 | 40.0 | baseline | baseline | 1.10 | 0 | 1 |",
				"| Provisioning | " + provWorkload + " | WithCheck | 300 / 300 | 2.50 | 3.00 | 3.50 | 4.00 | 10.0 | 5.00× | 0.25× | 1.00 | 300 | 1 |",
				"| Provisioning | " + provWorkload + " | WithoutCheck | 0.010 (0.020) | – | – | – | – | 0.590 (0.980) |",
				"| Provisioning | " + provWorkload + " | WithCheck | 0.010 (0.020) | 0.500 (0.900) | 1.200 (1.500) | 0.010 (0.020) | 0.300 (0.500) | 0.380 (0.600) |",
				"WithCheck: mean bind time 2.40 s against 0.60 s for WithoutCheck (+1.80 s); from the quota reservation to the ProvisioningRequest's creation 1.70 s (Workload object 0.50 s, then request 1.20 s), 71% of the bind time; from Provisioned to the pods annotated 0.30 s.",
				"WithoutCheck: 300 Workload objects created over 30.00 s (10.0/s).",
				"WithCheck: 300 Workload objects created over 30.00 s (10.0/s), 300 ProvisioningRequests created over 24.00 s (12.5/s).",
			},
			reject: []string{"(timed out)", "the wait ended before", "multislice_admissions_total", "before their request"},
		},
		"a timed-out run and what its checks found": {
			files: map[string]string{
				"Provisioning_benchmark_multislice_1.json": provisioningFile(provisioningItems("WithCheck", provWorkload,
					with(withCheckCounts, map[string]float64{"GangsBound": 200, "GangsPlaced": 200, "PodsBound": 650, "TimedOut": 1,
						"GangsBoundBeforeProvisioned": 2, "PodsBoundUnannotated": 5, "Admissions": 0}), 5, slowBind, nil)),
			},
			rows: []string{"WithCheck 1"},
			want: []string{
				"| WithCheck | 200 / 200 (timed out) | 2.50 |",
				"WithCheck: the wait ended before every gang was bound: 200 of 300 gangs and 650 of 900 pods bound.",
				"WithCheck: 2 gangs had a pod bound before their request was Provisioned, 5 pods were bound without naming it, 0 requests were no gang's first attempt.",
				"WithCheck: multislice_admissions_total counted 0 admissions for 200 gangs admitted through the queue.",
			},
			// Alone, it has no baseline to be compared with.
			reject: []string{"mean bind time", "× |"},
		},
		"repeats are averaged, each figure over the runs that reported it": {
			files: map[string]string{
				"Provisioning_benchmark_multislice_1.json": provisioningFile(provisioningItems("WithCheck", provWorkload, withCheckCounts, 10, slowBind, checkPhases)),
				"Provisioning_benchmark_multislice_2.json": provisioningFile(provisioningItems("WithCheck", provWorkload,
					with(withCheckCounts, map[string]float64{"GangsBound": 299, "GangsPlaced": 299}), 20, nil, nil)),
			},
			rows: []string{"WithCheck 2"},
			// Bind times and phases from the first run only.
			want: []string{"| WithCheck | 299.5 / 299.5 | 2.50 | 3.00 | 3.50 | 4.00 | 15.0 | baseline | baseline | 1.00 | 300 | 2 |",
				"| WithCheck | 0.010 (0.020) | 0.500 (0.900) |"},
		},
		"other data items are ignored": {
			files: map[string]string{
				"Provisioning_benchmark_multislice_1.json": provisioningFile(provisioningItems("WithCheck", provWorkload, withCheckCounts, 10, slowBind, nil),
					`{"data":{"X":1},"unit":"s","labels":{"Metric":"Other","Name":"malformed"}}`),
				"Hotswap_benchmark_multislice_1.json":         hotswapFile(hotswapItems("GangsMultisliceProfile", hotswapWorkload, oursCounts, bindTimes, nil)),
				"QueueDrain_benchmark_multislice_1.json":      drainRun,
				"BenchmarkPerfScheduling_benchmark_ms_1.json": harnessRun,
			},
			rows: []string{"WithCheck 1"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			rows, err := loadProvisioning(writeFiles(t, tc.files))
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
			if err := writeProvisioning(&out, rows); err != nil {
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

func TestProvisioningNothingRan(t *testing.T) {
	rows, err := loadProvisioning(writeFiles(t, map[string]string{"BenchmarkPerfScheduling_benchmark_multislice_1.json": harnessRun}))
	if err != nil || len(rows) != 0 {
		t.Fatalf("loadProvisioning = %+v, %v; want nothing", rows, err)
	}
}

func TestProvisioningAttemptsPerWorkload(t *testing.T) {
	cases := map[string]struct {
		counts map[string]float64
		want   float64
		ok     bool
	}{
		"no failed attempt":      {map[string]float64{"GangsBound": 10, "AttemptsScheduled": 30}, 1, true},
		"retries of some heads":  {map[string]float64{"GangsBound": 10, "AttemptsUnschedulable": 4, "AttemptsError": 1}, 1.5, true},
		"nothing bound":          {map[string]float64{"AttemptsUnschedulable": 4}, 0, false},
		"only successes counted": {map[string]float64{"GangsBound": 4, "Attempts": 12, "AttemptsScheduled": 12}, 1, true},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			r := provisioningRow{sums: map[string]float64{}, reported: map[string]int{}}
			for k, v := range tc.counts {
				r.sums["ProvisioningCounts."+k] = v
				r.reported["ProvisioningCounts."+k] = 1
			}
			got, ok := r.AttemptsPerWorkload()
			if ok != tc.ok || math.Abs(got-tc.want) > 1e-9 {
				t.Errorf("AttemptsPerWorkload = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}
