package chaos

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// keys lists the violations' keys, for failure messages.
func keys(vs []Violation) string {
	var out []string
	for _, v := range vs {
		out = append(out, v.Key+": "+v.Message)
	}
	return strings.Join(out, "\n")
}

// only keeps the violations of one invariant.
func only(inv Invariant, vs []Violation) []Violation {
	var out []Violation
	for _, v := range vs {
		if v.Invariant == inv {
			out = append(out, v)
		}
	}
	return out
}

func TestCheckExclusive(t *testing.T) {
	a := jobSet("a", 2, 2).exclusive()
	b := jobSet("b", 1, 2).exclusive()
	tests := []struct {
		name string
		w    *worldBuilder
		want []string // violation keys
	}{
		{
			name: "each slice on its own pool",
			w: world().jobSets(a, b).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b"),
				pod("a-2").ofJobSet("a", 0, 1).on("v5e-1-a"), pod("a-3").ofJobSet("a", 0, 1).on("v5e-1-b")),
		},
		{
			name: "a pool shared by two confined workloads is flagged",
			w: world().jobSets(a, b).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"),
				pod("b-0").ofJobSet("b", 0, 0).on("v5e-0-b")),
			want: []string{"shared v5e-0: JobSet chaos/a + JobSet chaos/b"},
		},
		{
			name: "a plain pod bound into a confined workload's pool is flagged",
			w: world().jobSets(a).
				boundAt(0, pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a")).
				boundAt(5, pod("plain").on("v5e-0-b")),
			want: []string{"shared v5e-0: JobSet chaos/a + Pod chaos/plain"},
		},
		{
			name: "a confined slice may land where a plain pod already runs",
			w: world().jobSets(a).
				boundAt(0, pod("plain").on("v5e-0-b")).
				boundAt(5, pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a")),
		},
		{
			name: "unconfined workloads may share a pool",
			w: world().jobSets(jobSet("u", 1, 1)).pods(
				pod("u-0").ofJobSet("u", 0, 0).on("v5e-0-a"),
				pod("plain").on("v5e-0-b")),
		},
		{
			name: "pods being deleted or finished hold nothing",
			w: world().jobSets(a, b).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a").deleting(),
				pod("a-1").ofJobSet("a", 0, 1).on("v5e-1-a").succeeded(),
				pod("b-0").ofJobSet("b", 0, 0).on("v5e-0-b"),
				pod("b-1").ofJobSet("b", 0, 0).on("v5e-1-b")),
			want: []string{"split JobSet chaos/b#0 slice 0"},
		},
		{
			name: "a slice split over two pools is flagged",
			w: world().jobSets(a).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).on("v5e-1-a")),
			want: []string{"split JobSet chaos/a#0 slice 0"},
		},
		{
			name: "two slices of one attempt in one pool are flagged",
			w: world().jobSets(a).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-2").ofJobSet("a", 0, 1).on("v5e-0-b")),
			want: []string{"slices v5e-0|JobSet chaos/a#0"},
		},
		{
			name: "a restarted JobSet's new attempt may take its own old pool",
			w: world().jobSets(a).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-0-new").ofJobSet("a", 1, 1).on("v5e-0-b")),
		},
		{
			name: "a confined PodGroup shares its pool with a JobSet, whichever came first",
			w: world().jobSets(a).podGroups(podGroup("pg", 2, "")).
				boundAt(5, pod("pg-0").ofPodGroup("pg").on("v5e-0-a")).
				boundAt(0, pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-b")),
			want: []string{"shared v5e-0: JobSet chaos/a + PodGroup chaos/pg"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckExclusive(tc.w.obj())
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tc.want), keys(got))
			}
			for i, v := range got {
				if v.Key != tc.want[i] || v.Invariant != Exclusive {
					t.Errorf("violation %d = %q (%s), want %q", i, v.Key, v.Invariant, tc.want[i])
				}
			}
		})
	}
}

func TestCheckPartial(t *testing.T) {
	cfg := Config{PartialGangAfter: 75 * time.Second, PendingAfter: time.Minute}
	type look struct {
		at   int // seconds after t0
		want int // partial-gang violations
	}
	tests := []struct {
		name      string
		w         *worldBuilder
		looks     []look
		wantWhole int
	}{
		{
			name: "some but not all pods bound past the timeout is flagged",
			w: world().jobSets(jobSet("a", 2, 2).exclusive()).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b"),
				pod("a-2").ofJobSet("a", 0, 1), pod("a-3").ofJobSet("a", 0, 1)),
			looks: []look{{0, 0}, {70, 0}, {76, 1}},
		},
		{
			name: "a JobSet restarting is not a partial gang",
			// Attempt 0 lost a pod to a pool failure: the rest are being
			// deleted while attempt 1 waits to be placed.
			w: world().jobSets(jobSet("a", 2, 2).exclusive().restarts(1)).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a").deleting(), pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b"),
				pod("b-0").ofJobSet("a", 1, 0), pod("b-1").ofJobSet("a", 1, 0), pod("b-2").ofJobSet("a", 1, 1), pod("b-3").ofJobSet("a", 1, 1)),
			looks: []look{{0, 0}, {200, 0}},
		},
		{
			name: "an attempt whose pods the informer shows before the JobSet's restart is the current one",
			w: world().jobSets(jobSet("a", 1, 2).exclusive()).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b"),
				pod("b-0").ofJobSet("a", 1, 0), pod("b-1").ofJobSet("a", 1, 0)),
			looks:     []look{{0, 0}, {200, 0}},
			wantWhole: 0,
		},
		{
			name: "an attempt that lost a pod is ending",
			w: func() *worldBuilder {
				b := world().jobSets(jobSet("a", 1, 2).exclusive()).pods(pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"))
				gone := pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b").obj()
				b.w.SetPod(gone, t0)
				b.w.DeletePod(gone, t0)
				return b
			}(),
			looks: []look{{0, 0}, {200, 0}},
		},
		{
			name: "pods that finished count as placed",
			w: world().jobSets(jobSet("a", 1, 2).exclusive()).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a").succeeded(), pod("a-1").ofJobSet("a", 0, 0).on("v5e-0-b")),
			looks:     []look{{0, 0}, {200, 0}},
			wantWhole: 1,
		},
		{
			name: "a finished JobSet is not checked",
			w: world().jobSets(jobSet("a", 1, 2).exclusive().completed()).pods(
				pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0)),
			looks: []look{{0, 0}, {200, 0}},
		},
		{
			name: "a partial PodGroup is flagged",
			w: world().podGroups(podGroup("pg", 2, "")).pods(
				pod("pg-0").ofPodGroup("pg").on("v5e-0-a"), pod("pg-1").ofPodGroup("pg")),
			looks: []look{{0, 0}, {100, 1}},
		},
		{
			name: "a Job outside any queue is plain pods, not a gang",
			w: world().jobs(job("j", 2, "")).pods(
				pod("j-0").ofJob("j").on("v5e-0-a"), pod("j-1").ofJob("j")),
			looks: []look{{0, 0}, {200, 0}},
		},
		{
			name: "a queued Job is a gang",
			w: world().jobs(job("j", 2, "team-a")).pods(
				pod("j-0").ofJob("j").queue("team-a").on("v5e-0-a"), pod("j-1").ofJob("j").queue("team-a")),
			looks: []look{{0, 0}, {100, 1}},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := NewChecker(cfg)
			w := tc.w.obj()
			for _, l := range tc.looks {
				got := only(NoPartialGang, c.Check(w, at(l.at)))
				if len(got) != l.want {
					t.Errorf("at +%ds: %d partial gangs, want %d:\n%s", l.at, len(got), l.want, keys(got))
				}
			}
			if c.Whole() != tc.wantWhole {
				t.Errorf("whole = %d, want %d", c.Whole(), tc.wantWhole)
			}
		})
	}
}

// The clock of a partial gang starts again once it is whole or empty.
func TestCheckPartialClockResets(t *testing.T) {
	c := NewChecker(Config{PartialGangAfter: 75 * time.Second, PendingAfter: time.Minute})
	w := world().podGroups(podGroup("pg", 2, "")).pods(
		pod("pg-0").ofPodGroup("pg").on("v5e-0-a"), pod("pg-1").ofPodGroup("pg")).obj()
	c.Check(w, at(0))
	// Whole at +50 s: the next partial spell starts afresh.
	w.SetPod(pod("pg-1").ofPodGroup("pg").on("v5e-0-b").obj(), at(50))
	c.Check(w, at(50))
	w.SetPod(pod("pg-1").ofPodGroup("pg").obj(), at(60))
	for _, tc := range []struct{ at, want int }{{60, 0}, {130, 0}, {136, 1}} {
		if got := only(NoPartialGang, c.Check(w, at(tc.at))); len(got) != tc.want {
			t.Errorf("at +%ds: %d, want %d", tc.at, len(got), tc.want)
		}
	}
}

func TestCheckQuota(t *testing.T) {
	// team-a and team-b share a cohort: v5e 8 each (team-a may borrow at
	// most 8), v6e 32 and 16 (team-b lends at most 8 of it).
	queues := func() *worldBuilder {
		return world().queues(
			clusterQueue("team-a", "chaos").quota(V5e.Flavor, 8, 8, -1).quota(V6e.Flavor, 32, -1, -1),
			clusterQueue("team-b", "chaos").quota(V5e.Flavor, 8, -1, -1).quota(V6e.Flavor, 16, -1, 8),
			clusterQueue("solo", "").quota(V5e.Flavor, 4, -1, -1),
		)
	}
	a := func(name, node string) *podBuilder { return pod(name).queue("team-a").on(node) }
	b := func(name, node string) *podBuilder { return pod(name).queue("team-b").on(node) }
	tests := []struct {
		name string
		w    *worldBuilder
		want []string
	}{
		{
			name: "within nominal quota",
			w:    queues().pods(a("a0", "v5e-0-a"), a("a1", "v5e-0-b"), b("b0", "v5e-1-a")),
		},
		{
			name: "borrowing what the cohort has unused",
			w:    queues().pods(a("a0", "v5e-0-a"), a("a1", "v5e-0-b"), a("a2", "v5e-1-a"), a("a3", "v5e-1-b")),
		},
		{
			name: "borrowing what another queue uses is flagged on the borrower",
			w: queues().pods(a("a0", "v5e-0-a"), a("a1", "v5e-0-b"), a("a2", "v5e-1-a"),
				b("b0", "v5e-1-b"), b("b1", "v6e-0-a"), b("b2", "v5e-1-b")),
			want: []string{"quota team-a/v5e-2x4"},
		},
		{
			name: "a queue without a cohort has its nominal quota only",
			w:    queues().pods(pod("s0").queue("solo").on("v5e-0-a"), pod("s1").queue("solo").on("v5e-0-b")),
			want: []string{"quota solo/v5e-2x4"},
		},
		{
			name: "usage over quota is flagged, pods being deleted and finished pods left out",
			w: queues().pods(
				pod("s0").queue("solo").on("v5e-0-a"),
				pod("s1").queue("solo").on("v5e-0-b").deleting(),
				pod("s2").queue("solo").on("v5e-1-a").succeeded(),
				pod("s3").queue("solo").on("v5e-1-b")),
			want: []string{"quota solo/v5e-2x4"},
		},
		{
			name: "pods of workloads outside any queue do not count",
			w:    queues().pods(pod("p0").on("v5e-0-a"), pod("p1").on("v5e-0-b"), pod("s0").queue("solo").on("v5e-1-a")),
		},
		{
			name: "a workload counts for the queue its owner names",
			w: queues().jobSets(jobSet("js", 2, 2).queue("solo")).pods(
				pod("js-0").ofJobSet("js", 0, 0).on("v5e-0-a"), pod("js-1").ofJobSet("js", 0, 0).on("v5e-0-b")),
			want: []string{"quota solo/v5e-2x4"},
		},
		{
			name: "a flavor the queue does not have is over quota",
			w:    queues().pods(pod("s0").queue("solo").on("v6e-0-a")),
			want: []string{"quota solo/v6e-4x4"},
		},
		{
			name: "a lending limit keeps part of the nominal quota from the cohort",
			// team-b lends 8 of its 16 v6e chips: team-a may use 40.
			w: queues().pods(
				a("a0", "v6e-0-a"), a("a1", "v6e-0-b"), a("a2", "v6e-0-c"), a("a3", "v6e-0-d"),
				a("a4", "v6e-0-a"), a("a5", "v6e-0-b"), a("a6", "v6e-0-c"), a("a7", "v6e-0-d"),
				a("a8", "v6e-0-a"), a("a9", "v6e-0-b"), a("a10", "v6e-0-c")),
			want: []string{"quota team-a/v6e-4x4"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := CheckQuota(tc.w.obj())
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tc.want), keys(got))
			}
			for i, v := range got {
				if v.Key != tc.want[i] {
					t.Errorf("violation %d = %q (%s), want %q", i, v.Key, v.Message, tc.want[i])
				}
			}
		})
	}
}

func TestAllowances(t *testing.T) {
	n := func(v int64) *int64 { return &v }
	tests := []struct {
		name    string
		quotas  map[string]QueueQuota
		usage   map[string]int64
		cohorts map[string]string
		want    map[string]int64 // Max
	}{
		{
			name:   "no cohort: the nominal quota",
			quotas: map[string]QueueQuota{"a": {Has: true, Nominal: 8}},
			usage:  map[string]int64{"a": 4},
			want:   map[string]int64{"a": 8},
		},
		{
			name:    "an idle member lends all its nominal quota",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8}, "b": {Has: true, Nominal: 16}},
			usage:   map[string]int64{"a": 20},
			cohorts: map[string]string{"a": "c", "b": "c"},
			want:    map[string]int64{"a": 24, "b": 16},
		},
		{
			name:    "a member lends only what it does not use",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8}, "b": {Has: true, Nominal: 16}},
			usage:   map[string]int64{"a": 8, "b": 10},
			cohorts: map[string]string{"a": "c", "b": "c"},
			want:    map[string]int64{"a": 14, "b": 16},
		},
		{
			name:    "a lending limit keeps the rest guaranteed",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8}, "b": {Has: true, Nominal: 16, LendingLimit: n(4)}},
			usage:   map[string]int64{"b": 2},
			cohorts: map[string]string{"a": "c", "b": "c"},
			want:    map[string]int64{"a": 12, "b": 24},
		},
		{
			name:    "a borrowing limit caps what may be borrowed",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8, BorrowingLimit: n(2)}, "b": {Has: true, Nominal: 16}},
			cohorts: map[string]string{"a": "c", "b": "c"},
			want:    map[string]int64{"a": 10, "b": 24},
		},
		{
			name:    "a queue within its nominal quota is within quota whatever the others borrow",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 16}, "b": {Has: true, Nominal: 16}},
			usage:   map[string]int64{"a": 8, "b": 32},
			cohorts: map[string]string{"a": "c", "b": "c"},
			want:    map[string]int64{"a": 16, "b": 24},
		},
		{
			name:    "a member without the flavor may use none of it, and what it uses is not lent to the others",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8}, "b": {Has: true, Nominal: 4}, "x": {}},
			usage:   map[string]int64{"x": 2},
			cohorts: map[string]string{"a": "c", "b": "c", "x": "c"},
			want:    map[string]int64{"a": 10, "b": 10, "x": 0},
		},
		{
			name:    "members of other cohorts lend nothing",
			quotas:  map[string]QueueQuota{"a": {Has: true, Nominal: 8}, "b": {Has: true, Nominal: 16}},
			cohorts: map[string]string{"a": "c", "b": "d"},
			want:    map[string]int64{"a": 8, "b": 16},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := Allowances(tc.quotas, tc.usage, tc.cohorts)
			for q, want := range tc.want {
				if got[q].Max != want {
					t.Errorf("%s: Max = %d (%+v), want %d", q, got[q].Max, got[q], want)
				}
			}
		})
	}
}

func TestCheckExplained(t *testing.T) {
	cfg := Config{PendingAfter: 60 * time.Second, ReservedFor: 60 * time.Second}
	waiting := func(reason, msg string) metav1.Condition {
		return metav1.Condition{Type: multislicev1alpha1.WorkloadQuotaReserved, Status: metav1.ConditionFalse, Reason: reason, Message: msg}
	}
	gang := func() *worldBuilder {
		return world().jobSets(jobSet("a", 1, 2).exclusive())
	}
	tests := []struct {
		name string
		w    *worldBuilder
		now  int
		want []string
	}{
		{
			name: "a pod pending past the grace with no reason is flagged",
			w:    gang().pods(pod("a-0").ofJobSet("a", 0, 0), pod("a-1").ofJobSet("a", 0, 0)),
			now:  61,
			want: []string{"unexplained JobSet chaos/a#0"},
		},
		{
			name: "within the grace nothing is needed",
			w:    gang().pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  59,
		},
		{
			name: "the gang's head says why in its PodScheduled condition",
			w: gang().pods(pod("a-0").ofJobSet("a", 0, 0).unschedulable("waiting for 1 more domains"),
				pod("a-1").ofJobSet("a", 0, 0)),
			now: 300,
		},
		{
			name: "the Workload object says why",
			w: gang().workload("jobset", "a", waiting("QuotaExceeded", "insufficient quota")).
				pods(pod("a-0").ofJobSet("a", 0, 0)),
			now: 300,
		},
		{
			name: "a Workload object still Pending says nothing",
			w: gang().workload("jobset", "a", waiting(multislicev1alpha1.ReasonPending, "waiting to be admitted")).
				pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  300,
			want: []string{"unexplained JobSet chaos/a#0"},
		},
		{
			name: "an event of the scheduler on the owner since the wait began",
			w:    gang().event("a", "WaitingForDomains", at(10)).pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  300,
		},
		{
			name: "an event older than the attempt does not explain it",
			w: gang().event("a", "WaitingForDomains", at(-600)).
				pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  300,
			want: []string{"unexplained JobSet chaos/a#0"},
		},
		{
			name: "progress events are no reason to wait",
			w:    gang().event("a", "Placed", at(10)).pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  300,
			want: []string{"unexplained JobSet chaos/a#0"},
		},
		{
			name: "a gang reserved within the permit timeout waits for its members",
			w:    gang().event("a", "Reserved", at(30)).pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  80,
		},
		{
			name: "a reservation past the permit timeout explains nothing",
			w:    gang().event("a", "Reserved", at(30)).pods(pod("a-0").ofJobSet("a", 0, 0)),
			now:  91,
			want: []string{"unexplained JobSet chaos/a#0"},
		},
		{
			name: "bound and deleted pods do not wait",
			w:    gang().pods(pod("a-0").ofJobSet("a", 0, 0).on("v5e-0-a"), pod("a-1").ofJobSet("a", 0, 0).deleting()),
			now:  300,
		},
		{
			name: "a queued JobSet created suspended and never started is flagged",
			w:    world().jobSets(jobSet("q", 1, 2).queue("team-a").suspended()),
			now:  61,
			want: []string{"suspended JobSet chaos/q"},
		},
		{
			name: "one the scheduler started and the user suspended again is not",
			w:    world().jobSets(jobSet("q", 1, 2).queue("team-a").suspended().unsuspended()),
			now:  300,
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := tc.w.obj()
			got := CheckExplained(w, gangsOf(w), at(tc.now), cfg)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tc.want), keys(got))
			}
			for i, v := range got {
				if v.Key != tc.want[i] || v.Invariant != Explained {
					t.Errorf("violation %d = %q, want %q", i, v.Key, tc.want[i])
				}
			}
		})
	}
}
