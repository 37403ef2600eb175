package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Output formats (-o).
const (
	OutputTable = ""
	OutputWide  = "wide"
	OutputJSON  = "json"
	OutputYAML  = "yaml"
)

// ValidOutput reports whether -o names a format the commands print.
func ValidOutput(o string) error {
	switch o {
	case OutputTable, OutputWide, OutputJSON, OutputYAML:
		return nil
	}
	return fmt.Errorf("unknown output format %q: want wide, json or yaml", o)
}

// PrintStructured prints v as JSON or YAML (format json or yaml).
func PrintStructured(w io.Writer, format string, v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	if format == OutputYAML {
		if data, err = yaml.JSONToYAML(data); err != nil {
			return err
		}
	} else {
		data = append(data, '\n')
	}
	_, err = w.Write(data)
	return err
}

// table writes tab-separated rows aligned as kubectl aligns them.
type table struct{ tw *tabwriter.Writer }

func newTable(w io.Writer, header ...string) *table {
	t := &table{tw: tabwriter.NewWriter(w, 0, 8, 3, ' ', 0)}
	if len(header) > 0 {
		t.row(header...)
	}
	return t
}

func (t *table) row(cells ...string) {
	for i, c := range cells {
		if c == "" {
			cells[i] = "-"
		}
	}
	fmt.Fprintln(t.tw, strings.Join(cells, "\t"))
}

func (t *table) flush() error { return t.tw.Flush() }

// truncate shortens s to n runes for a table cell (wide output does not).
func truncate(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}

// PoolsOutput is -o json/yaml of `pools`.
type PoolsOutput struct {
	Pools []Pool `json:"pools"`
}

// PrintPools prints the pools as a table (wide: with accelerator use,
// pods and every holder and problem).
func PrintPools(w io.Writer, pools []Pool, now time.Time, wide bool) error {
	header := []string{"POOL", "ACCELERATOR", "TOPOLOGY", "ZONE", "NODES", "HEALTH", "HELD BY", "PRIORITY", "SINCE"}
	if wide {
		header = append(header, "USED", "PODS", "RECYCLES", "ENDS", "PROBLEMS")
	}
	t := newTable(w, header...)
	for _, p := range pools {
		held, prio, since := "free", "", ""
		if len(p.Holders) > 0 {
			h := p.Holders[0]
			held, prio, since = h.Workload.String(), fmt.Sprint(h.Priority), Age(now, h.Since)
			if len(p.Holders) > 1 && !wide {
				held += fmt.Sprintf(" (+%d more)", len(p.Holders)-1)
			}
			if wide {
				var all []string
				for _, h := range p.Holders {
					all = append(all, h.Workload.String())
				}
				held = strings.Join(all, ", ")
			}
		}
		cells := []string{p.Name, p.Accelerator, p.Topology, p.Zone, fmt.Sprint(p.Nodes), p.Health, held, prio, since}
		if wide {
			used, pods := "", 0
			if p.Resource != "" {
				used = fmt.Sprintf("%d/%d %s", p.Used, p.Capacity, p.Resource)
			}
			for _, h := range p.Holders {
				pods += h.Pods
			}
			cells = append(cells, used, fmt.Sprint(pods), When(now, p.Recycles), When(now, p.Ends), strings.Join(p.Problems, "; "))
		}
		t.row(cells...)
	}
	return t.flush()
}

// QueuesOutput is -o json/yaml of `queues`.
type QueuesOutput struct {
	ClusterQueues []Queue `json:"clusterQueues"`
}

// PrintQueues prints a row per ClusterQueue, flavor and resource.
func PrintQueues(w io.Writer, queues []Queue, wide bool) error {
	header := []string{"CLUSTERQUEUE", "FLAVOR", "RESOURCE", "NOMINAL", "BORROWED", "IN USE", "PENDING", "ADMITTED"}
	if wide {
		header = append(header, "RESERVING", "FLAVOR WORKLOADS", "BORROWING LIMIT", "LENDING LIMIT", "COHORT", "STRATEGY", "ACTIVE", "LOCALQUEUES")
	}
	t := newTable(w, header...)
	for _, q := range queues {
		counts := []string{fmt.Sprint(q.Pending), fmt.Sprint(q.Admitted)}
		extra := func(flavorWorkloads, borrowing, lending string) []string {
			if !wide {
				return nil
			}
			active := "True"
			if !q.Active {
				active = "False: " + q.Inactive
			}
			return []string{fmt.Sprint(q.Reserving), flavorWorkloads, borrowing, lending, q.Cohort, q.Strategy, active, strings.Join(q.LocalQueues, ",")}
		}
		rows := 0
		for _, f := range q.Flavors {
			for _, r := range f.Resources {
				borrowing, lending := "", ""
				if r.BorrowingLimit != nil {
					borrowing = r.BorrowingLimit.String()
				}
				if r.LendingLimit != nil {
					lending = r.LendingLimit.String()
				}
				cells := append([]string{q.Name, f.Name, r.Name, r.Nominal.String(), r.Borrowed.String(), r.InUse.String()}, counts...)
				t.row(append(cells, extra(fmt.Sprint(f.Workloads), borrowing, lending)...)...)
				rows++
			}
		}
		if rows == 0 {
			cells := append([]string{q.Name, "", "", "", "", ""}, counts...)
			t.row(append(cells, extra("", "", "")...)...)
		}
	}
	return t.flush()
}

// PrintPending prints the pending workloads, saying first in which order.
func PrintPending(w io.Writer, list PendingList, now time.Time, wide bool) error {
	fmt.Fprintf(w, "Order: %s.\n", list.Order)
	header := []string{"CLUSTERQUEUE", "POSITION", "WORKLOAD", "PRIORITY", "AGE", "REASON", "MESSAGE"}
	if wide {
		header = append(header, "LOCALQUEUE", "WORKLOAD OBJECT", "PODS BOUND", "EVICTED")
	}
	t := newTable(w, header...)
	for _, p := range list.Workloads {
		msg := p.Message
		if !wide {
			msg = truncate(msg, 100)
		}
		cells := []string{p.ClusterQueue, fmt.Sprint(p.Position), p.Workload.String(), fmt.Sprint(p.Priority), Age(now, p.Created), p.Reason, msg}
		if p.ClusterQueue == "" && p.WorkloadObject == "" {
			cells[0] = "(no queue)"
		}
		if wide {
			lq := ""
			if p.LocalQueue != "" {
				lq = p.Workload.Namespace + "/" + p.LocalQueue
			}
			cells = append(cells, lq, p.WorkloadObject, fmt.Sprintf("%d/%d", p.Bound, p.Pods), p.Evicted)
		}
		t.row(cells...)
	}
	return t.flush()
}

// shortKey renders a domain key for people, without GKE's prefix.
func shortKey(k string) string { return wellknown.ShortLabel(k) }
