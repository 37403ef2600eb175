package admission

import (
	"fmt"
	"maps"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// AdmitAlone admits a queued plain pod's workload on quota alone: its
// quota is charged to flavors one of whose nodes could hold it, and the
// scheduler's own filters choose the node among those flavors' nodes. It
// returns the names of those nodes, sorted (nil when the workload is not
// quota-managed; callers must not modify them), or why it cannot be
// admitted.
func AdmitAlone(st *state.State, pod *corev1.Pod, permitTimeout time.Duration) ([]string, *planner.Failure, state.Actions) {
	r, nodes := st.AloneRound(pod)
	if r == nil {
		return nodes, nil, state.Actions{}
	}
	q := r.Quota
	if q.Problem != nil {
		return nil, state.QuotaFailure(q.Problem), state.Actions{}
	}
	excluded, fail := flavorsThatCannotHold(r.Flavors, q.Needs[0])
	if fail != nil {
		return nil, fail, state.Actions{}
	}
	c, prob := q.View.Assign(q.ClusterQueue, q.Needs, excluded)
	if prob != nil {
		return nil, state.QuotaFailure(prob), state.Actions{}
	}
	labels := map[string]string{}
	for _, name := range c.Flavors[0] {
		for _, fc := range r.Flavors {
			if fc.Flavor.Name == name {
				maps.Copy(labels, fc.Flavor.NodeLabels)
			}
		}
	}
	res := &state.Reservation{
		Holder:  r.Holder,
		Attempt: r.Attempt,
		Slices:  map[int]*state.SliceReservation{0: {NodeLabels: labels}},
		Charge:  c,
	}
	_, acts, err := st.Commit(res, permitTimeout)
	if err != nil {
		return nil, &planner.Failure{Message: err.Error(), Reason: quota.ReasonQuotaExceeded}, acts
	}
	return st.NodesCarrying(labels), nil, acts
}

// flavorsThatCannotHold excludes, for a queued plain pod, the flavors
// whose nodes could not hold it even empty: quota charged to one of them
// would be held by a pod that cannot be placed there. A flavor with no
// node yet is kept (its nodes may join). When that leaves no flavor the
// pod is compatible with, it is unplaceable until the nodes change.
func flavorsThatCannotHold(flavors []state.FlavorCapacity, need quota.Need) (quota.Exclusions, *planner.Failure) {
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
	return nil, &planner.Failure{Reason: state.ReasonUnplaceable, Unresolvable: true,
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
