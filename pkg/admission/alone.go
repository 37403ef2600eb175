package admission

import (
	"fmt"
	"maps"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// AdmitAlone admits a queued plain pod's workload on quota alone, as a
// scheduling cycle would (decideAlone), when the gate lets it pass: its
// quota is charged for permitTimeout, so that pods beyond the quota wait
// gated rather than each spending a cycle. It returns the sorted names of
// the nodes of the flavors charged (nil when the workload is not
// quota-managed; callers must not modify them), or why it cannot be
// admitted.
func AdmitAlone(st *state.State, pod *corev1.Pod, permitTimeout time.Duration) ([]string, *placement.Failure, state.Actions) {
	r, nodes := st.AloneRound(pod)
	if r == nil {
		return nodes, nil, state.Actions{}
	}
	res, nodes, fail := admitAlone(r)
	if fail != nil {
		return nil, fail, state.Actions{}
	}
	_, acts, err := st.Commit(res, permitTimeout)
	if err != nil {
		return nil, &placement.Failure{Message: err.Error(), Reason: quota.ReasonQuotaExceeded}, acts
	}
	return nodes, nil, acts
}

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

// ReserveForCheck reserves quota alone for a head whose queue runs a
// provisioning check it has not passed, so that the workload's request
// can be created. done is false when the pod's workload needs no such
// step (it plans as usual); message is what it waits for, and fail why
// quota could not be reserved.
func ReserveForCheck(st *state.State, pod *corev1.Pod) (done bool, message string, fail *quota.Problem) {
	r := st.CheckRound(pod)
	switch {
	case !r.Needed:
		return false, "", nil
	case r.Quota == nil:
		return true, r.Message, r.Problem
	}
	charge, prob := r.Quota.View.Assign(r.Quota.ClusterQueue, r.Quota.Needs, nil)
	if prob != nil {
		return true, prob.Message, prob
	}
	msg, err := st.ReserveForCheck(r, charge)
	if err != nil {
		return true, err.Error(), &quota.Problem{Reason: quota.ReasonQuotaExceeded, Message: err.Error()}
	}
	return true, msg, nil
}
