package cli

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
)

// maxEvents is how many of the latest events `why` prints (-o wide: all).
const maxEvents = 12

// PrintWhy prints an explanation for people, section by section.
func PrintWhy(w io.Writer, e *Explanation, now time.Time, wide bool) error {
	p := &printer{w: w}
	title := e.Workload.String()
	if e.WorkloadObject != "" {
		title += fmt.Sprintf(" (Workload object %s)", e.WorkloadObject)
	}
	p.line("%s", title)
	if e.Note != "" {
		p.line("  (%s)", e.Note)
	}
	state := e.State
	if e.Reason != "" {
		state += ": " + e.Reason
	}
	p.field("State", state)
	if e.Message != "" {
		p.field("", e.Message)
	}
	if e.Evicted != "" {
		p.field("Evicted", e.Evicted)
	}
	if e.Invalid != "" {
		p.field("Invalid", e.Invalid)
	}
	prio := fmt.Sprint(e.Priority)
	if e.PriorityClass != "" {
		prio += " (" + e.PriorityClass + ")"
	}
	p.field("Priority", prio)
	if !e.Created.IsZero() {
		p.field("Created", fmt.Sprintf("%s (%s ago)", e.Created.UTC().Format(time.RFC3339), Age(now, e.Created)))
	}
	p.queue(e.Queue)
	p.slices(e.Slices)
	for _, d := range e.Domains {
		p.domains(d, now)
	}
	p.topology(e.Topology)
	p.checks(e.Checks, e.Consumes)
	p.preemption(e.Preemption, now, wide)
	p.pods(e.Pods)
	p.lifetimes(e.Lifetimes, now)
	p.events(e.Events, now, wide)
	return p.err
}

// lifetimes prints when the nodes its pods are on go away, and what that
// means for the pods.
func (p *printer) lifetimes(ls []PodsNodeLifetime, now time.Time) {
	if len(ls) == 0 {
		return
	}
	p.section("Node lifetimes (flex-start nodes its pods run on):")
	rows := make([][]string, 0, len(ls))
	for _, l := range ls {
		rows = append(rows, []string{l.Node, l.Pool, fmt.Sprint(l.Pods), string(l.Phase),
			stamp(now, l.Recycles), stamp(now, l.Ends), lifetimeNote(l)})
	}
	p.table([]string{"NODE", "POOL", "PODS", "PHASE", "RECYCLES", "ENDS", "NOTE"}, rows)
}

// stamp is a time for a table: "2025-01-01T00:50:00Z (in 3m)".
func stamp(now, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.UTC().Format(time.RFC3339) + " (" + When(now, t) + ")"
}

func lifetimeNote(l PodsNodeLifetime) string {
	switch {
	case l.Phase == computeclass.Recycling && l.Cordoned:
		return "recycled: its replacement is Ready; the scheduler moves its pods off it (Migrating events)"
	case l.Phase == computeclass.Recycling:
		return "its replacement is being provisioned; its pods move once the node is cordoned"
	case l.Phase == computeclass.Ended:
		return "past its end of life: it is being removed, its pods with it"
	case !l.Recycles.IsZero():
		return "its pods move to its replacement when it is recycled"
	default:
		return "not recycled: its pods end with it"
	}
}

type printer struct {
	w   io.Writer
	err error
}

func (p *printer) line(format string, args ...any) {
	if p.err == nil {
		_, p.err = fmt.Fprintf(p.w, format+"\n", args...)
	}
}

func (p *printer) field(name, value string) {
	if name != "" {
		name += ":"
	}
	p.line("%-12s%s", name, value)
}

func (p *printer) section(title string) {
	p.line("")
	p.line("%s", title)
}

func (p *printer) table(header []string, rows [][]string) {
	if p.err != nil {
		return
	}
	t := newTable(&indented{w: p.w}, header...)
	for _, r := range rows {
		t.row(r...)
	}
	p.err = t.flush()
}

// indented indents every line by two spaces.
type indented struct {
	w   io.Writer
	mid bool
}

func (i *indented) Write(b []byte) (int, error) {
	var sb strings.Builder
	for _, c := range string(b) {
		if !i.mid {
			sb.WriteString("  ")
			i.mid = true
		}
		sb.WriteRune(c)
		if c == '\n' {
			i.mid = false
		}
	}
	if _, err := io.WriteString(i.w, sb.String()); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (p *printer) queue(q *QueueExplanation) {
	if q == nil {
		p.field("Queue", "none: not quota-managed (no kueue.x-k8s.io/queue-name)")
		return
	}
	s := "LocalQueue " + q.LocalQueue
	if q.ClusterQueue != "" {
		s += " → ClusterQueue " + q.ClusterQueue
		if q.Strategy != "" {
			s += " (" + q.Strategy
			if q.Cohort != "" {
				s += ", cohort " + q.Cohort
			}
			s += ")"
		}
	}
	p.field("Queue", s)
	if q.Problem != "" {
		p.field("", q.Problem)
	}
	if q.Position > 0 {
		p.field("Position", fmt.Sprintf("%d of %d pending in ClusterQueue %s (higher priority first, then earlier creation)", q.Position, q.Pending, q.ClusterQueue))
	}
	if len(q.Quota) == 0 {
		return
	}
	p.section(fmt.Sprintf("Quota in ClusterQueue %s:", q.ClusterQueue))
	var rows [][]string
	for _, l := range q.Quota {
		if l.Flavor == "" {
			rows = append(rows, []string{"(none)", l.Resource, l.Requested.String(), "", "", "", "", "", "no: no resource group covers it"})
			continue
		}
		borrowing := "-"
		if l.BorrowingLimit != nil {
			borrowing = l.BorrowingLimit.String()
		}
		fits := fmt.Sprintf("no: %s more than available", quotaShort(l))
		switch {
		case l.Charged:
			fits = "charged"
		case l.Fits():
			fits = "yes"
		case l.Requested.Cmp(l.Max) > 0:
			fits = "never: more than it could ever use"
		}
		rows = append(rows, []string{l.Flavor, l.Resource, l.Requested.String(), l.Nominal.String(), borrowing,
			l.InUse.String(), l.Available.String(), l.Max.String(), fits})
	}
	p.table([]string{"FLAVOR", "RESOURCE", "REQUESTED", "NOMINAL", "BORROWING LIMIT", "IN USE", "AVAILABLE", "MAX", "FITS"}, rows)
}

func (p *printer) slices(ss []SliceExplanation) {
	if len(ss) == 0 {
		return
	}
	p.section("Slices:")
	var rows [][]string
	for _, s := range ss {
		rows = append(rows, []string{s.Name, fmt.Sprint(s.Pods), s.Request, shortKey(s.DomainKey), s.Selector, s.Flavor, s.Domain})
	}
	p.table([]string{"SLICE", "PODS", "REQUEST PER POD", "DOMAIN KEY", "NODE SELECTOR", "FLAVOR", "DOMAIN"}, rows)
}

func (p *printer) domains(d DomainExplanation, now time.Time) {
	p.section(fmt.Sprintf("Domains (%s): %d in the cluster, %d match its slices' selectors and size, %d free, %d unhealthy, %d held by others; it needs %d.",
		shortKey(d.Key), d.Domains, d.Matching, d.Free, len(d.Unhealthy), len(d.Held), d.Slices))
	if len(d.Own) > 0 {
		p.line("  its own: %s", strings.Join(d.Own, ", "))
	}
	if len(d.FreeDomains) > 0 {
		p.line("  free: %s", strings.Join(d.FreeDomains, ", "))
	}
	for _, u := range d.Unhealthy {
		p.line("  %s: %s (%s)", u.Domain, u.Health, strings.Join(u.Problems, "; "))
	}
	for _, h := range d.Held {
		var by []string
		for _, x := range h.Holders {
			by = append(by, fmt.Sprintf("%s (priority %d, since %s)", x.Workload, x.Priority, Age(now, x.Since)))
		}
		p.line("  %s: held by %s", h.Domain, strings.Join(by, ", "))
	}
}

// topology prints, for each pod set that asks for a topology, what it
// asks, the levels it is placed by, and where its pods are or what the
// scheduler sees while it waits.
func (p *printer) topology(ts []TopologyExplanation) {
	if len(ts) == 0 {
		return
	}
	p.section("Topology (pod sets placed in a tree of levels):")
	for _, t := range ts {
		p.line("  pod set %s: %s; %d pods, each %s", t.PodSet, topologyAsks(t), t.Pods, orDash(t.PerPod))
		for _, tr := range t.Trees {
			p.line("    levels: %s", treeLevels(tr))
			if len(tr.Placed) > 0 {
				var on []string
				for _, d := range tr.Placed {
					on = append(on, fmt.Sprintf("%s (%s)", d.Domain, plural(d.Pods, "pod")))
				}
				p.line("    placed in %s %s", shortKey(tr.At), strings.Join(on, ", "))
			}
			if n := tr.Now; n != nil {
				s := fmt.Sprintf("    now: %s, %d of them take all %d pods; the largest free one takes %d",
					plural(n.Domains, shortKey(tr.At)+" domain"), n.Fitting, t.Pods, n.Largest)
				if t.Mode != ModeRequired {
					s += fmt.Sprintf("; together they take %d", n.Total)
				}
				p.line("%s", s)
				if len(n.FitsIn) > 0 {
					p.line("    fits now in %s, where the scheduler would place it", strings.Join(n.FitsIn, ", "))
				}
				if n.Message != "" {
					p.line("    placement: %s", n.Message)
				}
			}
		}
	}
}

// topologyAsks says what a pod set asks, e.g. "required
// gce-topology-subblock" or "sliced: slices of 4 pods, each in one
// gce-topology-subblock".
func topologyAsks(t TopologyExplanation) string {
	s := t.Mode
	if t.Level != "" {
		s += " " + shortKey(t.Level)
	}
	if t.SliceLevel != "" {
		sep := ", "
		if t.Mode == ModeSliced {
			sep = ": "
		}
		s += fmt.Sprintf("%sslices of %d pods, each in one %s", sep, t.SliceSize, shortKey(t.SliceLevel))
	}
	return s
}

// treeLevels names a tree and its levels, or what is wrong with it.
func treeLevels(tr TopologyTree) string {
	var s string
	switch {
	case tr.Flavor == "" && tr.Topology == "" && tr.Problem == "":
		levels := tr.Levels
		s = "unqueued: "
		if len(levels) > 1 {
			s += shortKeys(levels[:len(levels)-1]) + " above "
		}
		return s + shortKey(levels[len(levels)-1])
	case tr.Topology != "":
		s = fmt.Sprintf("Topology %s of flavor %s: ", tr.Topology, tr.Flavor)
	case tr.Flavor != "":
		s = fmt.Sprintf("flavor %s: ", tr.Flavor)
	}
	if tr.Problem != "" {
		return s + tr.Problem
	}
	return s + shortKeys(tr.Levels)
}

// plural is "1 pod" or "n pods".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// shortKeys joins label keys, highest first, GKE's prefix left out.
func shortKeys(keys []string) string {
	out := make([]string, len(keys))
	for i, k := range keys {
		out[i] = shortKey(k)
	}
	return strings.Join(out, " > ")
}

func (p *printer) checks(cs []CheckExplanation, consumes *RequestExplanation) {
	if len(cs) > 0 {
		p.section("Admission checks:")
		for _, c := range cs {
			state := c.State
			if state == "" {
				state = "(no state yet)"
			}
			p.line("  %s: %s %s", c.Name, state, c.Message)
			if c.Controller != "" || c.Active != "" {
				p.line("    controller %s, active %s", orDash(c.Controller), orDash(c.Active))
			}
			p.request(c.Request)
		}
	}
	if consumes != nil {
		p.section("Consumes:")
		p.request(consumes)
	}
}

func (p *printer) request(r *RequestExplanation) {
	if r == nil {
		return
	}
	if r.Missing {
		p.line("    ProvisioningRequest %s: does not exist", r.Name)
		return
	}
	p.line("    ProvisioningRequest %s (class %s)", r.Name, r.Class)
	for _, c := range r.Conditions {
		s := fmt.Sprintf("      %s=%s", c.Type, c.Status)
		if c.Reason != "" {
			s += " " + c.Reason
		}
		if c.Message != "" {
			s += ": " + c.Message
		}
		p.line("%s", s)
	}
	for _, k := range slices.Sorted(maps.Keys(r.Details)) {
		p.line("      %s: %s", k, r.Details[k])
	}
}

func (p *printer) preemption(pe PreemptionExplanation, now time.Time, wide bool) {
	p.section("Preemption:")
	if pe.Policy != "" {
		p.line("  policy: %s", pe.Policy)
	}
	p.line("  %s", pe.Summary)
	evs := append(append([]EventLine(nil), pe.Considered...), pe.Evictions...)
	if len(evs) > 0 {
		p.eventRows(evs, now, wide)
	}
}

func (p *printer) pods(pe PodsExplanation) {
	exist := fmt.Sprint(pe.Total)
	if pe.Expected > pe.Total {
		exist = fmt.Sprintf("%d of %d exist", pe.Total, pe.Expected)
	}
	p.section(fmt.Sprintf("Pods: %s, %d bound, %d running, %d succeeded, %d failed.", exist, pe.Bound, pe.Running, pe.Succeeded, pe.Failed))
	if len(pe.Pools) > 0 {
		p.line("  on node pools: %s", strings.Join(pe.Pools, ", "))
	}
	for _, wt := range pe.Waiting {
		p.line("  %d waiting, %s: %s (e.g. %s)", wt.Pods, wt.Reason, wt.Message, wt.Example)
	}
}

func (p *printer) events(evs []EventLine, now time.Time, wide bool) {
	if len(evs) == 0 {
		p.section("Events: none.")
		return
	}
	if !wide && len(evs) > maxEvents {
		p.section(fmt.Sprintf("Events (latest %d of %d; -o wide for all):", maxEvents, len(evs)))
		evs = evs[len(evs)-maxEvents:]
	} else {
		p.section("Events:")
	}
	p.eventRows(evs, now, wide)
}

func (p *printer) eventRows(evs []EventLine, now time.Time, wide bool) {
	var rows [][]string
	for _, e := range evs {
		msg := e.Message
		if !wide {
			msg = truncate(msg, 160)
		}
		age := Age(now, e.Time)
		if e.Count > 1 {
			age += fmt.Sprintf(" (x%d)", e.Count)
		}
		rows = append(rows, []string{age, e.Type, e.Reason, e.Object, msg})
	}
	p.table([]string{"AGE", "TYPE", "REASON", "OBJECT", "MESSAGE"}, rows)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

// quotaShort is how much more a request asks than is available.
func quotaShort(l QuotaLine) string {
	short := l.Requested.DeepCopy()
	short.Sub(l.Available)
	return short.String()
}
