package perf

import "time"

// gangClock times a group of pods from its first member created to its
// last member bound, from the pod events an informer delivers. It is fed
// live (the provisioning scenarios' gangs) or at a workload's end (gang
// latency).
type gangClock struct {
	// created is when its first member was seen created.
	created time.Time
	// lastBound is when the last of its members seen bound so far was.
	lastBound      time.Time
	members, bound int
}

// memberCreated notes a member seen for the first time.
func (c *gangClock) memberCreated(at time.Time) {
	if c.members == 0 || at.Before(c.created) {
		c.created = at
	}
	c.members++
}

// memberBound notes a member seen bound for the first time.
func (c *gangClock) memberBound(at time.Time) {
	c.bound++
	if at.After(c.lastBound) {
		c.lastBound = at
	}
}

// wholeAt is when the group, of size members, was wholly bound: zero
// until size members are.
func (c gangClock) wholeAt(size int) time.Time {
	if size <= 0 || c.bound < size {
		return time.Time{}
	}
	return c.lastBound
}

// latency is the time from the first member created to the group of size
// members wholly bound; false until it is. Fed from one informer, whose
// events come in order, a group is bound after its first member was
// created; a clock fed out of order counts no time rather than a negative
// one.
func (c gangClock) latency(size int) (time.Duration, bool) {
	whole := c.wholeAt(size)
	if whole.IsZero() {
		return 0, false
	}
	return max(whole.Sub(c.created), 0), true
}
