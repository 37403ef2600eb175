package main

import (
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
)

// The provisioning comparison: test/perf sends the same gangs through a
// ClusterQueue without an admission check and through one with a
// provisioning check whose ProvisioningRequests a fake provisioner marks
// Provisioned at once (the Provisioning scenarios of
// test/perf/performance-config.yaml), and records Provisioning* data items
// (test/perf/provisioning_results_test.go says how each is measured). Each
// variant is compared with its scenario's first variant on the same
// workload size, the one without the check.

// provPhases are the phases of a gang's admission, in order, as the data
// items name them, with their column headings.
var provPhases = []struct{ metric, heading string }{
	{"ProvisioningPhaseMembers", "Members"},
	{"ProvisioningPhaseWorkloadObject", "Workload object"},
	{"ProvisioningPhaseRequest", "Request"},
	{"ProvisioningPhaseProvisioned", "Provisioned"},
	{"ProvisioningPhaseAnnotated", "Pods annotated"},
	{"ProvisioningPhaseBound", "Bound"},
}

// provisioningRow is one variant on one workload size, over all its runs.
type provisioningRow struct {
	Scenario, Variant, Workload string
	Runs                        int
	// sums holds, per "Metric.Field", the sum over the runs that reported
	// it, and reported how many did: a figure is their mean.
	sums     map[string]float64
	reported map[string]int
	// byRun holds, per "Metric.Field", each run's figure, by run (see runs).
	byRun map[string]map[int]float64
}

// get returns the mean of metric.field over the runs that reported it.
func (r provisioningRow) get(metric, field string) (float64, bool) {
	k := metric + "." + field
	n := r.reported[k]
	if n == 0 {
		return 0, false
	}
	return r.sums[k] / float64(n), true
}

func (r provisioningRow) count(field string) float64 {
	v, _ := r.get("ProvisioningCounts", field)
	return v
}

func (r provisioningRow) checked() bool { return r.count("Check") > 0 }

// Rate is gangs wholly bound per second, from the first gang's creation to
// the last one bound.
func (r provisioningRow) Rate() float64 {
	v, _ := r.get("ProvisioningThroughput", "Workloads")
	return v
}

// AttemptsPerWorkload is 1 + the failed scheduling attempts (unschedulable,
// error) per gang bound: a gang's failed attempts are its head's retries,
// and 1 means none.
func (r provisioningRow) AttemptsPerWorkload() (float64, bool) {
	gangs := r.count("GangsBound")
	if gangs == 0 {
		return 0, false
	}
	return 1 + (r.count("AttemptsUnschedulable")+r.count("AttemptsError"))/gangs, true
}

// loadProvisioning reads the Provisioning_*.json files in dir; no rows
// when no Provisioning scenario ran.
func loadProvisioning(dir string) ([]provisioningRow, error) {
	files, err := filepath.Glob(filepath.Join(dir, "Provisioning_*.json"))
	if err != nil || len(files) == 0 {
		return nil, err
	}
	slices.Sort(files)
	var order []quotaKey
	rows := map[quotaKey]*provisioningRow{}
	for fileIndex, f := range files {
		items, err := readItems(f)
		if err != nil {
			return nil, err
		}
		numbered := runsOf(fileIndex)
		for _, it := range items.DataItems {
			metric := it.Labels["Metric"]
			k, ok := parseQuotaName(it.Labels["Name"])
			if !ok || !strings.HasPrefix(metric, "Provisioning") {
				continue
			}
			run := numbered.next(metric, it.Labels["Name"])
			r := rows[k]
			if r == nil {
				r = &provisioningRow{Scenario: k.scenario, Variant: k.variant, Workload: k.workload,
					sums: map[string]float64{}, reported: map[string]int{}, byRun: map[string]map[int]float64{}}
				rows[k] = r
				order = append(order, k)
			}
			if metric == "ProvisioningCounts" {
				r.Runs++
			}
			for field, v := range it.Data {
				mf := metric + "." + field
				r.sums[mf] += v
				r.reported[mf]++
				if r.byRun[mf] == nil {
					r.byRun[mf] = map[int]float64{}
				}
				r.byRun[mf][run] = v
			}
		}
	}
	out := make([]provisioningRow, 0, len(order))
	for _, k := range order {
		out = append(out, *rows[k])
	}
	return out, nil
}

// writeProvisioning writes the comparison table, the phases of each
// variant, and notes on the overhead and on anything amiss.
func writeProvisioning(w io.Writer, rows []provisioningRow) error {
	var b strings.Builder
	b.WriteString("\n## Provisioning: admission through a provisioning admission check\n\n")
	b.WriteString("The same gangs, all created at once on nodes that exist already, through a ClusterQueue without an admission check (the baseline) " +
		"and through one with a provisioning check, whose ProvisioningRequests a fake provisioner marks Provisioned as soon as it sees them: " +
		"the difference is the scheduler's own work, not the provisioning of capacity. " +
		"**Gangs bound / placed**: gangs with every pod bound, and of those the ones placed as gangs (each slice on a pool of its own, the whole gang in one zone). " +
		"**Bind**: from a gang's first pod created to its last pod bound. " +
		"**Workloads/s**: gangs wholly bound over the time from the first gang's creation to the last one bound. " +
		"**× baseline**: the variant's figure over the baseline's on the same workload (bind p50: above 1 is slower; workloads/s: below 1 is slower). " +
		"**Attempts / workload**: 1 + failed scheduling attempts per gang bound. " +
		"**Requests**: ProvisioningRequests created (one per gang with the check).\n\n")
	b.WriteString("| Scenario | Workload | Variant | Gangs bound / placed | Bind p50 (s) | p90 | p99 | max | Workloads/s | Bind p50 × baseline | Workloads/s × baseline | Attempts / workload | Requests | Runs |\n")
	b.WriteString("|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	baseline := map[[2]string]provisioningRow{}
	var notes []string
	for _, r := range rows {
		bk := [2]string{r.Scenario, r.Workload}
		base, seen := baseline[bk]
		if !seen {
			baseline[bk] = r
		}
		p50Ratio, rateRatio := "baseline", "baseline"
		if seen {
			p50Ratio, rateRatio = "–", "–"
			if p, ok := r.get("ProvisioningBindTime", "Perc50"); ok {
				if bp, ok := base.get("ProvisioningBindTime", "Perc50"); ok && bp > 0 {
					p50Ratio = fmt.Sprintf("%.2f×", p/bp)
				}
			}
			if base.Rate() > 0 {
				rateRatio = fmt.Sprintf("%.2f×", r.Rate()/base.Rate())
			}
		}
		bound := fmt.Sprintf("%s / %s", num(r.count("GangsBound")), num(r.count("GangsPlaced")))
		if r.count("TimedOut") > 0 {
			bound += " (timed out)"
		}
		apw := "–"
		if a, ok := r.AttemptsPerWorkload(); ok {
			apw = fmt.Sprintf("%.2f", a)
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s | %.1f | %s | %s | %s | %s | %d |\n",
			r.Scenario, r.Workload, r.Variant, bound, r.stats("ProvisioningBindTime", "%.2f", "Perc50", "Perc90", "Perc99", "Max"),
			r.Rate(), p50Ratio, rateRatio, apw, num(r.count("Requests")), r.Runs)
		if seen {
			notes = append(notes, r.overhead(base)...)
		}
		notes = append(notes, r.pace()...)
		notes = append(notes, r.problems()...)
	}
	b.WriteString("\nPhases of a gang's admission, mean (p90) in seconds, each from the previous milestone: " +
		"**Members**: from its first pod created to its last (then its head is admitted; with the check its quota is reserved alone); " +
		"**Workload object**: until its Workload object exists, which the request is owned by; " +
		"**Request**: until its ProvisioningRequest exists; " +
		"**Provisioned**: until the fake provisioner's status update returned; " +
		"**Pods annotated**: until its first pod names the request (none when its pods named it before it was Provisioned, as pods created from templates naming it do); " +
		"**Bound**: until its last pod is bound. Without the check only Members and Bound apply.\n\n")
	b.WriteString("| Scenario | Workload | Variant |")
	for _, p := range provPhases {
		b.WriteString(" " + p.heading + " |")
	}
	b.WriteString("\n|---|---|---|" + strings.Repeat("---:|", len(provPhases)) + "\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "| %s | %s | %s |", r.Scenario, r.Workload, r.Variant)
		for _, p := range provPhases {
			cell := "–"
			if m, ok := r.get(p.metric, "Average"); ok {
				p90, _ := r.get(p.metric, "Perc90")
				cell = fmt.Sprintf("%.3f (%.3f)", m, p90)
			}
			b.WriteString(" " + cell + " |")
		}
		b.WriteString("\n")
	}
	out := b.String()
	if len(notes) > 0 {
		out += "\nOverhead and notes:\n\n" + strings.Join(notes, "")
	}
	_, err := io.WriteString(w, out)
	return err
}

// stats formats fields of a metric as table cells, "–" where not reported.
func (r provisioningRow) stats(metric, format string, fields ...string) string {
	cells := make([]string, len(fields))
	for i, f := range fields {
		cells[i] = "–"
		if v, ok := r.get(metric, f); ok {
			cells[i] = fmt.Sprintf(format, v)
		}
	}
	return strings.Join(cells, " | ")
}

// overhead says what the check adds to a gang's mean bind time, and how
// much of it passes between the quota reservation and the request.
func (r provisioningRow) overhead(base provisioningRow) []string {
	m, ok1 := r.get("ProvisioningBindTime", "Average")
	bm, ok2 := base.get("ProvisioningBindTime", "Average")
	if !r.checked() || !ok1 || !ok2 || m <= 0 {
		return nil
	}
	s := fmt.Sprintf("- %s %s, %s: mean bind time %.2f s against %.2f s for %s (%+.2f s)",
		r.Scenario, r.Workload, r.Variant, m, bm, base.Variant, m-bm)
	obj, ok1 := r.get("ProvisioningPhaseWorkloadObject", "Average")
	req, ok2 := r.get("ProvisioningPhaseRequest", "Average")
	if ok1 && ok2 {
		s += fmt.Sprintf("; from the quota reservation to the ProvisioningRequest's creation %.2f s (Workload object %.2f s, then request %.2f s), %.0f%% of the bind time",
			obj+req, obj, req, 100*(obj+req)/m)
	}
	if ann, ok := r.get("ProvisioningPhaseAnnotated", "Average"); ok {
		s += fmt.Sprintf("; from Provisioned to the pods annotated %.2f s", ann)
	}
	return []string{s + ".\n"}
}

// pace says how fast the gangs' Workload objects (written by the
// scheduler's status writer) and ProvisioningRequests were created.
func (r provisioningRow) pace() []string {
	var parts []string
	for _, o := range []struct{ metric, what string }{
		{"ProvisioningWorkloadObjects", "Workload objects"},
		{"ProvisioningRequestsCreated", "ProvisioningRequests"},
	} {
		n, ok := r.get(o.metric, "Count")
		if !ok {
			continue
		}
		span, _ := r.get(o.metric, "SpanSeconds")
		rate, _ := r.get(o.metric, "PerSecond")
		parts = append(parts, fmt.Sprintf("%s %s created over %.2f s (%.1f/s)", num(n), o.what, span, rate))
	}
	if len(parts) == 0 {
		return nil
	}
	return []string{fmt.Sprintf("- %s %s, %s: %s.\n", r.Scenario, r.Workload, r.Variant, strings.Join(parts, ", "))}
}

// problems lists what a row's checks found amiss: the run then failed, or
// a counter disagrees with what was seen.
func (r provisioningRow) problems() []string {
	head := fmt.Sprintf("- %s %s, %s:", r.Scenario, r.Workload, r.Variant)
	var out []string
	if r.count("TimedOut") > 0 {
		out = append(out, fmt.Sprintf("%s the wait ended before every gang was bound: %s of %s gangs and %s of %s pods bound.\n",
			head, num(r.count("GangsBound")), num(r.count("Gangs")), num(r.count("PodsBound")), num(r.count("Pods"))))
	}
	if bad := r.count("GangsBoundBeforeProvisioned") + r.count("PodsBoundUnannotated") + r.count("RequestsUnexpected"); bad > 0 {
		out = append(out, fmt.Sprintf("%s %s gangs had a pod bound before their request was Provisioned, %s pods were bound without naming it, %s requests were no gang's first attempt.\n",
			head, num(r.count("GangsBoundBeforeProvisioned")), num(r.count("PodsBoundUnannotated")), num(r.count("RequestsUnexpected"))))
	}
	if bound := r.count("GangsBound"); bound > 0 && r.count("Admissions") != bound {
		out = append(out, fmt.Sprintf("%s multislice_admissions_total counted %s admissions for %s gangs admitted through the queue.\n",
			head, num(r.count("Admissions")), num(bound)))
	}
	return out
}
