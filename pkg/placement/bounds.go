package placement

import (
	"fmt"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SliceBounds are what every node a reserved slice's pods use must carry:
// the label of the confined domain reserved for it (DomainKey=Domain; none
// for an unconfined slice) and the labels of the flavors its quota is
// charged to (NodeLabels; none when the plan places its pods itself).
type SliceBounds struct {
	DomainKey, Domain string
	NodeLabels        map[string]string
}

// Excludes is the one rule for "a node that leaves a reserved domain
// leaves the reservation": it says why a node carrying labels is not one
// the slice bounded by b may use — it lies in another domain than the one
// reserved, in none, or lacks a label of the slice's flavors — and "" when
// it is. Node labels change at any time, so the rule is asked again at
// every step that puts a pod of the slice on a node: when a reservation is
// committed, at Filter (on the node as the scheduler's cache has it and as
// the state has it: either may see a relabel first), at Reserve, and at
// Permit, whether the gate is passing or has passed and a member's failed
// bind is retried.
func (b SliceBounds) Excludes(labels map[string]string) string {
	if b.DomainKey != "" && b.Domain != "" {
		key := wellknown.ShortLabel(b.DomainKey)
		v, ok := labels[b.DomainKey]
		switch {
		case !ok:
			return fmt.Sprintf("node has no %s label, and its slice is reserved in %s=%s", key, key, b.Domain)
		case v != b.Domain:
			return fmt.Sprintf("node is in %s=%s, not in %s=%s, where its slice is reserved", key, v, key, b.Domain)
		}
	}
	if !quota.AdmitsNode(b.NodeLabels, labels) {
		return "node is not of a flavor its slice's quota was charged to"
	}
	return ""
}
