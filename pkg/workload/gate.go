package workload

// Turn is where a pending member of a gang stands at its gang's gate
// (PreEnqueue): the gate holds a gang's members until the gang can be
// tried, and then lets one member, its head, plan for all of them.
type Turn int

const (
	// TurnMissing: members of its gang that can exist yet are missing.
	TurnMissing Turn = iota
	// TurnGo: the member may be tried now: its slice is in its
	// workload's reservation, or its complete gang holds a reservation or
	// runs whole.
	TurnGo
	// TurnBehindHead: its complete gang plans through another member, its
	// head; it waits until the head's plan is committed.
	TurnBehindHead
	// TurnHead: it is its complete gang's head, or the gang has no head
	// that can still plan: its provisioning check and its queue decide
	// whether it goes.
	TurnHead
)

// GateFacts are what a member's turn depends on.
type GateFacts struct {
	// InReservedSlice: the workload's reservation, made for the restart
	// attempt the workload is at, holds the member's slice.
	InReservedSlice bool
	// Reserved: the workload holds a reservation (of any attempt).
	Reserved bool
	// Complete: every member of the gang that can exist yet exists, the
	// member's slice among them.
	Complete bool
	// PlacedWhole: every active slice has all its pods placed.
	PlacedWhole bool
	// HeadValid: the gang has a head that can still plan; IsHead: the
	// member is that head.
	HeadValid, IsHead bool
}

// TurnAt is the one rule for a member's turn at its gang's gate. The gate
// (PreEnqueue, behindHead true) and the state's feed, which activates a
// member it has just indexed when the gate may now let it go, both read
// it; with behindHead false (PreFilter, for a pod the gate let through)
// members of a complete gang do not wait behind a head.
func TurnAt(f GateFacts, behindHead bool) Turn {
	switch {
	case f.InReservedSlice:
		return TurnGo
	case !f.Complete:
		return TurnMissing
	case !behindHead || f.Reserved || f.PlacedWhole:
		return TurnGo
	case f.HeadValid && !f.IsHead:
		return TurnBehindHead
	default:
		return TurnHead
	}
}
