package chaos

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"time"
)

// Stats counts what the soak did, by operation.
type Stats struct {
	mu     sync.Mutex
	counts map[string]int
}

// NewStats returns empty counters.
func NewStats() *Stats { return &Stats{counts: map[string]int{}} }

// Add adds n to an operation's count.
func (s *Stats) Add(op string, n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.counts[op] += n
}

// Get returns an operation's count.
func (s *Stats) Get(op string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[op]
}

// Record is one violation, from the first time it was seen to the last.
type Record struct {
	Violation
	First, Last time.Time
	// Open: it still held at the last check.
	Open bool
}

// Recorder keeps every violation the checker reports: one Record per
// breach, however many checks see it while it lasts, and a new one if the
// same breach comes back after it ended. Each is written to out when it is
// first seen.
type Recorder struct {
	out  io.Writer
	open map[string]*Record
	all  []*Record
	// evidence, when set, describes a violation when it is first seen.
	evidence func(Violation) []string
}

// NewRecorder returns a recorder that reports to out (nil: nowhere).
func NewRecorder(out io.Writer) *Recorder {
	return &Recorder{out: out, open: map[string]*Record{}}
}

// Observe takes the violations of one check at now.
func (r *Recorder) Observe(vs []Violation, now time.Time) {
	seen := map[string]bool{}
	for _, v := range vs {
		seen[v.Key] = true
		if rec := r.open[v.Key]; rec != nil {
			rec.Last = now
			continue
		}
		rec := &Record{Violation: v, First: now, Last: now}
		r.open[v.Key] = rec
		r.all = append(r.all, rec)
		if r.out != nil {
			fmt.Fprintf(r.out, "%s VIOLATION %s: %s [%s]\n", now.Format("15:04:05.000"), v.Invariant, v.Message, strings.Join(v.Objects, "; "))
			if r.evidence != nil {
				for _, line := range r.evidence(v) {
					fmt.Fprintf(r.out, "    %s\n", line)
				}
			}
		}
	}
	for key, rec := range r.open {
		if !seen[key] {
			delete(r.open, key)
			if r.out != nil {
				fmt.Fprintf(r.out, "%s ended after %s: %s %s\n", now.Format("15:04:05.000"), rec.Last.Sub(rec.First).Round(time.Millisecond), rec.Invariant, rec.Key)
			}
		}
	}
}

// Records returns every violation recorded, in the order first seen.
func (r *Recorder) Records() []Record {
	out := make([]Record, len(r.all))
	for i, rec := range r.all {
		out[i] = *rec
		out[i].Open = r.open[rec.Key] == rec
	}
	return out
}

// Summary is the soak's outcome.
type Summary struct {
	Seed     int64
	Duration time.Duration
	// Operations are the counts of what the generator and the injector
	// did, in report order.
	Operations []Count
	// Outcomes are what the workloads did.
	Outcomes []Count
	// Violations are every violation found, in the order first seen.
	Violations []Record
	// Checks is how many times the invariants were evaluated.
	Checks int
}

// Count is one row of the summary.
type Count struct {
	What string
	N    int
}

// operationRows orders the operations in the summary; counts under other
// names follow, sorted.
var operationRows = []string{
	"JobSets created", "JobSets deleted at random",
	"PodGroups created", "PodGroups deleted at random",
	"Jobs created", "Jobs deleted at random",
	opPoolFailures, opRecoveries, opLeaderKills, opLeaderRestart, opStandbyRestarts,
}

// outcomeRows are the counts that describe workloads and replicas rather
// than operations.
var outcomeRows = []string{
	"JobSets completed", "JobSets failed", "PodGroups completed", "PodGroups failed", "Jobs completed", "Jobs failed",
}

// Rows splits the stats into operations and outcomes, in report order.
func (s *Stats) Rows() (ops, outcomes []Count) {
	s.mu.Lock()
	defer s.mu.Unlock()
	done := map[string]bool{}
	for _, name := range operationRows {
		ops = append(ops, Count{name, s.counts[name]})
		done[name] = true
	}
	for _, name := range outcomeRows {
		outcomes = append(outcomes, Count{name, s.counts[name]})
		done[name] = true
	}
	var rest []string
	for name := range s.counts {
		if !done[name] {
			rest = append(rest, name)
		}
	}
	slices.Sort(rest)
	for _, name := range rest {
		ops = append(ops, Count{name, s.counts[name]})
	}
	return ops, outcomes
}

// ViolationCounts counts violations by invariant, every invariant listed.
func (s *Summary) ViolationCounts() []Count {
	var out []Count
	for _, inv := range Invariants {
		n := 0
		for _, v := range s.Violations {
			if v.Invariant == inv {
				n++
			}
		}
		out = append(out, Count{string(inv), n})
	}
	return out
}

// Markdown renders the summary: a table of operations, outcomes and
// violations by invariant, then each violation.
func (s *Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# Chaos soak: %s, seed %d\n\n", s.Duration.Round(time.Second), s.Seed)
	b.WriteString("| | count |\n|---|---:|\n")
	for _, c := range s.Operations {
		fmt.Fprintf(&b, "| %s | %d |\n", c.What, c.N)
	}
	for _, c := range s.Outcomes {
		fmt.Fprintf(&b, "| %s | %d |\n", c.What, c.N)
	}
	for _, c := range s.ViolationCounts() {
		fmt.Fprintf(&b, "| **violations %s** (expected 0) | %d |\n", c.What, c.N)
	}
	fmt.Fprintf(&b, "\nInvariants evaluated %d times (on every event of the API and every second).\n", s.Checks)
	if len(s.Violations) == 0 {
		b.WriteString("\nNo violation.\n")
		return b.String()
	}
	b.WriteString("\n## Violations\n\n| first seen | lasted | invariant | what | objects |\n|---|---:|---|---|---|\n")
	for _, v := range s.Violations {
		lasted := v.Last.Sub(v.First).Round(time.Millisecond).String()
		if v.Open {
			lasted += " (still at the end)"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %s |\n", v.First.Format("15:04:05.000"), lasted,
			v.Invariant, escape(v.Message), escape(strings.Join(v.Objects, "; ")))
	}
	return b.String()
}

func escape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
