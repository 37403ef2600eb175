package admission

import (
	"fmt"
	"maps"
	"strings"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// admitAlone decides the reservation that admits a queued plain pod's
// workload on quota alone (round): its quota charged to flavors one of
// whose nodes could hold it, the pod restricted to their nodes (sorted,
// shared: read-only), or why it cannot be admitted.
func admitAlone(r *state.AloneRound) (*state.Reservation, []string, *placement.Failure) {
	q := r.Quota
	if q.Problem != nil {
		return nil, nil, state.QuotaFailure(q.Problem)
	}
	excluded, fail := flavorsThatCannotHold(r.Flavors, q.Needs[0])
	if fail != nil {
		return nil, nil, fail
	}
	c, prob := q.View.Assign(q.ClusterQueue, q.Needs, excluded)
	if prob != nil {
		return nil, nil, state.QuotaFailure(prob)
	}
	labels := map[string]string{}
	var nodes []string
	first := true
	for _, name := range c.Flavors[0] {
		for _, fc := range r.Flavors {
			if fc.Flavor.Name != name {
				continue
			}
			maps.Copy(labels, fc.Flavor.NodeLabels)
			// The nodes of several flavors carry all their labels.
			if first {
				nodes, first = fc.NodeNames, false
			} else {
				nodes = intersect(nodes, fc.NodeNames)
			}
		}
	}
	res := &state.Reservation{
		Holder:  r.Holder,
		Attempt: r.Attempt,
		Slices:  map[int]*state.SliceReservation{0: {NodeLabels: labels}},
		Charge:  c,
	}
	return res, nodes, nil
}

// intersect lists the names both sorted lists hold, sorted.
func intersect(a, b []string) []string {
	out := []string{}
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] == b[j]:
			out = append(out, a[i])
			i++
			j++
		case a[i] < b[j]:
			i++
		default:
			j++
		}
	}
	return out
}

// flavorsThatCannotHold excludes, for a queued plain pod, the flavors
// whose nodes could not hold it even empty: quota charged to one of them
// would be held by a pod that cannot be placed there. A flavor with no
// node yet is kept (its nodes may join). When that leaves no flavor the
// pod is compatible with, it is unplaceable until the nodes change.
func flavorsThatCannotHold(flavors []state.FlavorCapacity, need quota.Need) (quota.Exclusions, *placement.Failure) {
	var excluded quota.Exclusions
	var cannot []string
	kept := 0
	for _, fc := range flavors {
		if fc.Nodes == 0 || fc.HoldsOne {
			kept++
			continue
		}
		if excluded == nil {
			excluded = quota.Exclusions{}
		}
		excluded.Exclude(need.Slice, fc.Flavor.Name)
		cannot = append(cannot, fmt.Sprintf("%s (%d node(s))", fc.Flavor.Name, fc.Nodes))
	}
	if kept > 0 || len(cannot) == 0 {
		return excluded, nil
	}
	return nil, &placement.Failure{Reason: state.ReasonUnplaceable, Unresolvable: true,
		Message: fmt.Sprintf("the pod asks for %s, more than any node of flavor %s has allocatable", need.Request, strings.Join(cannot, ", "))}
}

// decideCheckQuota decides, on round, the quota that a head whose queue
// runs a provisioning check it has not passed reserves alone, so that the
// workload's request can be created: message is what it waits for,
// problem why no quota is reserved. reserve is the quota to reserve (nil:
// none; with problem nil, the check is under way or being resumed).
func decideCheckQuota(r *state.CheckRound) (message string, problem *quota.Problem, reserve *state.CheckReservation) {
	if r.Quota == nil {
		return r.Message, r.Problem, nil
	}
	charge, prob := r.Quota.View.Assign(r.Quota.ClusterQueue, r.Quota.Needs, nil)
	if prob != nil {
		return prob.Message, prob, nil
	}
	message = fmt.Sprintf("quota reserved in ClusterQueue %s; waiting for ProvisioningRequest %s", charge.ClusterQueue, provisioning.RequestName(r.Key.ObjectName(), r.Check, r.Attempt))
	return message, nil, &state.CheckReservation{Check: r.Check, Attempt: r.Attempt, Charge: charge}
}
