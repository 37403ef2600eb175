package workload

// SliceNeed is what one slice of a workload still needs, by indexes into
// the members the rule was given.
type SliceNeed struct {
	// Placed are the placed members that count towards the slice: the
	// first of them, at most the slice's size.
	Placed []int
	// Waiting are the members not placed yet that count, the first of
	// them up to what the placed ones leave: each is one pod to place,
	// sized from its own spec (admission may have added what the template
	// lacks, and a PodGroup's members differ).
	Waiting []int
	// Rest is how many pods the slice needs beyond its members (JobSet
	// followers not created yet), each shaped like member StandIn — its
	// leader if it has one, else its first member — or, when it has no
	// member (StandIn -1), like the slice's own spec.
	Rest    int
	StandIn int
}

// Unplaced is how many pods the slice still needs placed.
func (n SliceNeed) Unplaced() int { return len(n.Waiting) + n.Rest }

// StillNeeds is the one rule for what a slice of size pods still needs,
// given its live members of the current attempt in a fixed order (by
// name) and, through placed and leader, which of them are placed and
// which leads: the queue charges quota for the placed, waiting and rest
// pods together, the plan places the waiting and rest ones. Members
// beyond the slice's size (a PodGroup's beyond minMember) do not count.
func StillNeeds[M any](size int, members []M, placed, leader func(M) bool) SliceNeed {
	n := SliceNeed{StandIn: -1}
	for i, m := range members {
		if placed(m) && len(n.Placed) < size {
			n.Placed = append(n.Placed, i)
		}
		if n.StandIn < 0 || (leader(m) && !leader(members[n.StandIn])) {
			n.StandIn = i
		}
	}
	left := size - len(n.Placed)
	for i, m := range members {
		if !placed(m) && len(n.Waiting) < left {
			n.Waiting = append(n.Waiting, i)
		}
	}
	n.Rest = max(left-len(n.Waiting), 0)
	return n
}
