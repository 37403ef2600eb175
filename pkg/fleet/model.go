// Package fleet is the model of the fleet page (cmd/multislice-fleet): the
// node pools and who holds them, the queues' usage, the pending workloads
// in queue order and a timeline, built from a cli.Cluster with the
// functions `kubectl multislice` prints (pkg/cli), and the read-only HTTP
// handlers that serve the page and push each new model to browsers with
// Server-Sent Events.
//
// Build is framework-free: it only reads the cluster it is given. What it
// remembers between builds is what a single read cannot tell: which
// colour each workload was given, and the timeline (pool health changes
// are seen only by comparing reads).
package fleet

import (
	"cmp"
	"fmt"
	"slices"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
)

// Model is what the page shows.
type Model struct {
	// At is when the objects were read.
	At    time.Time `json:"at"`
	Pools []Pool    `json:"pools"`
	// Workloads are the workloads holding pools, in the order they took
	// them, each with its colour: the legend.
	Workloads []Workload  `json:"workloads"`
	Queues    []Queue     `json:"queues"`
	Pending   PendingList `json:"pending"`
	// Timeline is newest first.
	Timeline []Entry `json:"timeline"`
}

// Pool is a node pool as `kubectl multislice pools` lists it.
type Pool struct {
	cli.Pool
	// Holders are cli.Pool's with their colours (this field's JSON name
	// hides the embedded one, which Build leaves empty).
	Holders []Holder `json:"holders,omitempty"`
}

// Holder is a workload holding a pool, and its colour.
type Holder struct {
	cli.Holder
	Colour string `json:"colour"`
}

// Workload is an entry of the legend: a workload holding pools.
type Workload struct {
	Workload cli.WorkloadRef `json:"workload"`
	Colour   string          `json:"colour"`
	Priority int32           `json:"priority"`
	// Pools are the pools it holds, by name.
	Pools []string `json:"pools"`
	// Since is when it took its first pool.
	Since time.Time `json:"since,omitzero"`
}

// PendingList is what `kubectl multislice pending -A` lists.
type PendingList struct {
	Order     string            `json:"order"`
	Workloads []PendingWorkload `json:"workloads"`
}

// PendingWorkload is a waiting workload and its colour: the one it had
// while it held pools, or the one it will have when it does.
type PendingWorkload struct {
	cli.PendingWorkload
	Colour string `json:"colour"`
}

// Queue is a ClusterQueue as `kubectl multislice queues` lists it, with
// a usage bar per flavor and resource.
type Queue struct {
	cli.Queue
	Bars []Bar `json:"bars"`
}

// Bar is the usage of one resource of a flavor against its nominal quota,
// in the resource's unit (chips, cores, bytes).
type Bar struct {
	Flavor   string `json:"flavor"`
	Resource string `json:"resource"`
	// Nominal is the flavor's own quota; InUse what its workloads hold, of
	// which Borrowed is above Nominal, lent by the cohort.
	Nominal  float64 `json:"nominal"`
	InUse    float64 `json:"inUse"`
	Borrowed float64 `json:"borrowed"`
	// BorrowingLimit caps Borrowed (absent: the cohort's unused quota).
	BorrowingLimit *float64 `json:"borrowingLimit,omitempty"`
	// Label says the same in the API's notation.
	Label string `json:"label"`
}

// Builder builds models, remembering between builds the colours given and
// the timeline. It is not safe for concurrent use.
type Builder struct {
	colours  palette
	timeline timeline
}

// NewBuilder returns a builder whose timeline keeps the newest limit
// entries.
func NewBuilder(limit int) *Builder {
	return &Builder{colours: palette{slots: map[cli.WorkloadRef]int{}}, timeline: timeline{limit: limit}}
}

// Build makes the model of c, the cluster read after the previous one.
func (b *Builder) Build(c *cli.Cluster) *Model {
	pools := cli.Pools(c)
	pending := cli.Pending(c, cli.PendingFilter{})
	b.timeline.observe(c, pools)

	// Holders keep their colours while they hold a pool or wait (an
	// evicted workload keeps its colour in the pending list).
	holding := map[cli.WorkloadRef]*Workload{}
	for _, p := range pools {
		for _, h := range p.Holders {
			w := holding[h.Workload]
			if w == nil {
				w = &Workload{Workload: h.Workload, Priority: h.Priority, Since: h.Since}
				holding[h.Workload] = w
			}
			w.Pools = append(w.Pools, p.Name)
			w.Priority = max(w.Priority, h.Priority)
			if h.Since.Before(w.Since) {
				w.Since = h.Since
			}
		}
	}
	legend := make([]Workload, 0, len(holding))
	for _, w := range holding {
		legend = append(legend, *w)
	}
	slices.SortFunc(legend, func(a, b Workload) int {
		return cmp.Or(a.Since.Compare(b.Since), cmp.Compare(a.Workload.String(), b.Workload.String()))
	})
	coloured := make([]cli.WorkloadRef, 0, len(legend)+len(pending.Workloads))
	for _, w := range legend {
		coloured = append(coloured, w.Workload)
	}
	for _, w := range pending.Workloads {
		coloured = append(coloured, w.Workload)
	}
	colourOf := b.colours.assign(coloured)

	m := &Model{
		At: c.Now, Pools: make([]Pool, len(pools)), Workloads: legend, Queues: queues(c),
		Pending: PendingList{Order: pending.Order, Workloads: make([]PendingWorkload, len(pending.Workloads))},
	}
	for i, w := range pending.Workloads {
		m.Pending.Workloads[i] = PendingWorkload{PendingWorkload: w, Colour: colourOf[w.Workload]}
	}
	for i := range m.Workloads {
		m.Workloads[i].Colour = colourOf[m.Workloads[i].Workload]
	}
	for i, p := range pools {
		m.Pools[i] = Pool{Pool: p}
		m.Pools[i].Pool.Holders = nil
		for _, h := range p.Holders {
			m.Pools[i].Holders = append(m.Pools[i].Holders, Holder{Holder: h, Colour: colourOf[h.Workload]})
		}
	}
	m.Timeline = b.timeline.entries(colourOf)
	return m
}

// queues are the ClusterQueues with their usage bars.
func queues(c *cli.Cluster) []Queue {
	qs := cli.Queues(c)
	out := make([]Queue, len(qs))
	for i, q := range qs {
		out[i] = Queue{Queue: q, Bars: []Bar{}}
		for _, f := range q.Flavors {
			for _, r := range f.Resources {
				bar := Bar{
					Flavor: f.Name, Resource: r.Name,
					Nominal: r.Nominal.AsApproximateFloat64(), InUse: r.InUse.AsApproximateFloat64(), Borrowed: r.Borrowed.AsApproximateFloat64(),
					Label: fmt.Sprintf("%s of %s", r.InUse.String(), r.Nominal.String()),
				}
				if !r.Borrowed.IsZero() {
					bar.Label += fmt.Sprintf(", %s borrowed", r.Borrowed.String())
				}
				if r.BorrowingLimit != nil {
					limit := r.BorrowingLimit.AsApproximateFloat64()
					bar.BorrowingLimit = &limit
				}
				out[i].Bars = append(out[i].Bars, bar)
			}
		}
	}
	return out
}
