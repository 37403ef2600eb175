package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Kinds of timeline entries: how the page tells them apart.
const (
	// KindAdmission: a workload was admitted by its queue or placed.
	KindAdmission = "admission"
	// KindPreemption: a workload preempts others, or was evicted.
	KindPreemption = "preemption"
	// KindFailure: a pool failed (a node is not Ready).
	KindFailure = "failure"
	// KindRecovery: a failed pool is not failed any more.
	KindRecovery = "recovery"
	// KindPool: another change of a pool: cordoned, recycling, healthy
	// again, added or removed.
	KindPool = "pool"
)

// What pool entries say.
const (
	PoolFailed    = "Pool failed"
	PoolRecovered = "Pool recovered"
	PoolCordoned  = "Pool cordoned"
	PoolRecycling = "Pool recycling"
	PoolHealthy   = "Pool healthy"
	PoolAdded     = "Pool added"
	PoolRemoved   = "Pool removed"
)

// kindOf groups what cli.History reports.
var kindOf = map[string]string{
	cli.HappeningAdmitted:   KindAdmission,
	cli.HappeningPlaced:     KindAdmission,
	cli.HappeningPreempting: KindPreemption,
	cli.HappeningPreempted:  KindPreemption,
	cli.HappeningEvicted:    KindPreemption,
}

// Entry is one line of the timeline.
type Entry struct {
	Time    time.Time `json:"time"`
	Kind    string    `json:"kind"`
	What    string    `json:"what"`
	Subject string    `json:"subject"`
	// Workload or Pool is what Subject names.
	Workload *cli.WorkloadRef `json:"workload,omitempty"`
	Pool     string           `json:"pool,omitempty"`
	Message  string           `json:"message,omitempty"`
	// Colour is the workload's, while it has one.
	Colour string `json:"colour,omitempty"`

	// id tells entries apart (cli.Happening.ID for workloads).
	id string
}

// timeline is the page's story: what cli.History reads from the API
// (admissions, placements, preemptions, evictions), and the changes of
// pool health seen between reads. It keeps the newest limit entries, each
// added once.
type timeline struct {
	limit int
	// kept is newest first, then by id.
	kept []Entry
	// known are the ids of the entries kept and of the happenings of the
	// last read: a happening that fell off the end is not added again
	// while the API still shows it.
	known map[string]bool
	// health is each pool's at the last read; nil before the first.
	health map[string]string
	// adding are new pools not yet healthy: their nodes come up not
	// Ready, which is no failure.
	adding map[string]bool
}

// observe adds what happened up to c to the timeline; pools are cli.Pools(c).
func (t *timeline) observe(c *cli.Cluster, pools []cli.Pool) {
	known := map[string]bool{}
	var added []Entry
	for _, h := range cli.History(c) {
		known[h.ID] = true
		if t.known[h.ID] {
			continue
		}
		ref := h.Workload
		added = append(added, Entry{Time: h.Time, Kind: kindOf[h.What], What: h.What, Subject: ref.String(), Workload: &ref, Message: h.Message, id: h.ID})
	}
	added = append(added, t.poolChanges(c, pools)...)
	all := append(added, t.kept...)
	slices.SortStableFunc(all, func(a, b Entry) int { return cmp.Or(b.Time.Compare(a.Time), cmp.Compare(a.id, b.id)) })
	if len(all) > t.limit {
		all = all[:t.limit]
	}
	t.kept = all
	for _, e := range t.kept {
		known[e.id] = true
	}
	t.known = known
}

// poolChanges are the changes of pool health since the last read. The
// first read reports the pools that are not healthy then.
func (t *timeline) poolChanges(c *cli.Cluster, pools []cli.Pool) []Entry {
	first := t.health == nil
	if t.adding == nil {
		t.adding = map[string]bool{}
	}
	health := make(map[string]string, len(pools))
	var out []Entry
	for _, p := range pools {
		health[p.Name] = p.Health
		old, known := t.health[p.Name]
		switch {
		case first:
			if p.Health != cli.HealthOK {
				out = append(out, poolEntry(c, p, cli.HealthOK))
			}
		case !known || t.adding[p.Name]:
			if p.Health != cli.HealthOK {
				t.adding[p.Name] = true
				continue
			}
			delete(t.adding, p.Name)
			out = append(out, newPoolEntry(c.Now, p.Name, KindPool, PoolAdded, fmt.Sprintf("%d nodes of %s", p.Nodes, describe(p))))
		case old != p.Health:
			out = append(out, poolEntry(c, p, old))
		}
	}
	for name := range t.health {
		if _, ok := health[name]; !ok {
			delete(t.adding, name)
			out = append(out, newPoolEntry(c.Now, name, KindPool, PoolRemoved, "its nodes are gone"))
		}
	}
	t.health = health
	return out
}

// poolEntry says that pool p went from health old to its health now.
func poolEntry(c *cli.Cluster, p cli.Pool, old string) Entry {
	problems := strings.Join(p.Problems, "; ")
	switch {
	case p.Health == cli.HealthFailed:
		msg := problems
		if len(p.Holders) > 0 {
			msg = "held by " + holderNames(p) + "; " + msg
		}
		return newPoolEntry(readySince(c, p.Name, corev1.ConditionFalse), p.Name, KindFailure, PoolFailed, msg)
	case old == cli.HealthFailed:
		msg := "its nodes are Ready"
		if p.Health != cli.HealthOK {
			msg += "; now " + p.Health + ": " + problems
		}
		return newPoolEntry(readySince(c, p.Name, corev1.ConditionTrue), p.Name, KindRecovery, PoolRecovered, msg)
	case p.Health == cli.HealthCordoned:
		return newPoolEntry(c.Now, p.Name, KindPool, PoolCordoned, problems)
	case p.Health == cli.HealthRecycling:
		return newPoolEntry(c.Now, p.Name, KindPool, PoolRecycling, problems)
	default:
		return newPoolEntry(c.Now, p.Name, KindPool, PoolHealthy, "no longer "+old)
	}
}

func newPoolEntry(at time.Time, pool, kind, what, msg string) Entry {
	return Entry{
		Time: at, Kind: kind, What: what, Subject: "pool " + pool, Pool: pool, Message: msg,
		id: fmt.Sprintf("pool/%s/%s/%s", pool, what, at.UTC().Format(time.RFC3339Nano)),
	}
}

// readySince is when the last node of a pool whose Ready condition has
// status s turned so: when a pool failed or came back, to the second the
// nodes report it, whenever it is read. The time of the read when no node
// says.
func readySince(c *cli.Cluster, pool string, s corev1.ConditionStatus) time.Time {
	var last time.Time
	for _, n := range c.Nodes {
		if n.Labels[wellknown.NodePoolLabel] != pool {
			continue
		}
		for _, cond := range n.Status.Conditions {
			if cond.Type == corev1.NodeReady && cond.Status == s && cond.LastTransitionTime.After(last) {
				last = cond.LastTransitionTime.Time
			}
		}
	}
	if last.IsZero() {
		return c.Now
	}
	return last
}

// describe sums up a pool's accelerator: "tpu-v5-lite-podslice 2x4".
func describe(p cli.Pool) string {
	parts := []string{}
	for _, s := range []string{p.Accelerator, p.Topology} {
		if s != "" {
			parts = append(parts, s)
		}
	}
	if len(parts) == 0 {
		return "no accelerator"
	}
	return strings.Join(parts, " ")
}

// holderNames names the workloads holding p.
func holderNames(p cli.Pool) string {
	names := make([]string, len(p.Holders))
	for i, h := range p.Holders {
		names[i] = h.Workload.String()
	}
	return strings.Join(names, ", ")
}

// entries are the kept entries, each workload's with its colour now.
func (t *timeline) entries(colourOf map[cli.WorkloadRef]string) []Entry {
	out := slices.Clone(t.kept)
	if out == nil {
		out = []Entry{}
	}
	for i := range out {
		if w := out[i].Workload; w != nil {
			out[i].Colour = colourOf[*w]
		}
	}
	return out
}
