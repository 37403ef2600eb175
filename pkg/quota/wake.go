package quota

import (
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Waiting is a workload waiting for quota, as a wake sees it: its place in
// its queue (the Candidate's ordering fields; Charge and Problem unused),
// what it needs, and the Shape of those needs.
type Waiting struct {
	Candidate
	Needs []Need
	Shape string
}

// WaitingList is one ClusterQueue's waiting workloads in queue order: it
// returns the i-th (nil past the end). A wake asks only for those it
// reaches, usually a few per queue, so that a queue of thousands costs no
// more than a short one.
type WaitingList func(i int) *Waiting

// Wake lists the waiting workloads of one cohort that the quota free in v
// admits, in the order they would be admitted one after another, and
// charges each of them in v. queues holds each ClusterQueue's waiting
// workloads in queue order.
//
// It applies Decide's rules one admission at a time, so that what it wakes
// is what the gate then lets through: within a queue, the first workload
// that fits (StrictFIFO: only the head; BestEffortFIFO: a starving head
// that does not fit holds the rest back); across queues, a workload that
// borrows nothing goes first, then the borrower whose queue's weighted
// share would stay lowest. Waking in any other order wakes workloads the
// gate holds back again (a borrower yielding to a fairer head) while the
// fairer head, not woken, leaves the quota unused.
//
// A StrictFIFO queue's next workload waits behind the head just woken
// until the head is admitted (the admission wakes again): it is not woken
// now, and when it would come first, the wake ends there, so that nothing
// woken after it yields to it once the head is admitted.
func Wake(v *View, queues map[string]WaitingList, now time.Time, starvation time.Duration) []workload.Key {
	cursors := make([]*wakeCursor, 0, len(queues))
	for name, list := range queues {
		if cq := v.queues[name]; cq != nil {
			cursors = append(cursors, &wakeCursor{cq: cq, list: list, misfit: map[string]*Problem{}, chargedAt: -1})
		}
	}
	var out []workload.Key
	for {
		var best *wakeCursor
		var bestKey wakeRank
		for _, c := range cursors {
			if !c.find(v, now, starvation) {
				continue
			}
			r := c.rank(v)
			if best == nil || r.before(bestKey) {
				best, bestKey = c, r
			}
		}
		if best == nil || best.behindHead {
			return out
		}
		v.Add(best.charge)
		out = append(out, best.cur.Key)
		best.pos++
		best.behindHead = best.cq.Strategy == StrictFIFO
	}
}

// wakeCursor walks one queue's waiting workloads during a wake.
type wakeCursor struct {
	cq   *ClusterQueue
	list WaitingList
	// pos is the first workload not yet woken nor known not to fit; cur is
	// list(pos).
	pos int
	cur *Waiting
	// misfit holds the shapes that did not fit, with why: v only shrinks
	// during a wake, so they are not tried again.
	misfit  map[string]*Problem
	blocked bool
	// behindHead: a StrictFIFO queue whose head was woken; its next
	// workload ranks but is not woken.
	behindHead bool
	// charge is what the workload at chargedAt would be charged (-1: none
	// computed yet).
	charge    *Charge
	chargedAt int
}

// find moves the cursor to the queue's next workload that fits v and sets
// its charge; false when none may be admitted any more.
func (c *wakeCursor) find(v *View, now time.Time, starvation time.Duration) bool {
	if c.blocked {
		return false
	}
	if !v.AnyAvailable(c.cq) {
		c.blocked = true
		return false
	}
	if c.chargedAt == c.pos && c.cur != nil && v.fits(c.cq, c.charge.Usage) {
		// Quota only shrinks during a wake, so a charge that still fits
		// is what assigning again would give: the flavors before it did
		// not fit and still do not.
		return true
	}
	for ; ; c.pos++ {
		w := c.list(c.pos)
		if w == nil {
			break
		}
		c.cur = w
		p, known := c.misfit[w.Shape]
		if !known {
			c.charge, p = v.Assign(c.cq, w.Needs, nil)
			if p == nil {
				c.chargedAt = c.pos
				return true
			}
			c.misfit[w.Shape] = p
		}
		if blocks(c.cq, &Candidate{Problem: p, WaitingSince: w.WaitingSince}, now, starvation) {
			c.blocked = true
			return false
		}
	}
	c.cur = nil
	c.blocked = true
	return false
}

// wakeRank orders the queues' next workloads: those that borrow nothing
// first, then borrowers by the share their queue would have, then queue
// order.
type wakeRank struct {
	share int64 // -1: borrows nothing
	c     *Candidate
}

func (c *wakeCursor) rank(v *View) wakeRank {
	r := wakeRank{share: -1, c: &c.cur.Candidate}
	if v.Borrowing(c.cq, c.charge.Usage) {
		r.share = v.Share(c.cq, c.charge.Usage)
	}
	return r
}

func (r wakeRank) before(o wakeRank) bool {
	if r.share != o.share {
		return r.share < o.share
	}
	return Before(r.c, o.c)
}
