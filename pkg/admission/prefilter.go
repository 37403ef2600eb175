package admission

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Code is what a step's outcome asks of the scheduling cycle.
type Code int

const (
	// Proceed: the pod goes on to the filters (within Nodes when set).
	Proceed Code = iota
	// Unschedulable: not now; a change in the cluster may help.
	Unschedulable
	// Unresolvable: only a change to the pod's or its workload's objects,
	// or to the queue objects, can help.
	Unresolvable
)

// CycleSettings are the profile's settings a cycle's steps use.
type CycleSettings struct {
	// Requested is what the cycle's snapshot says each node's pods use.
	Requested state.Requested
	// PermitTimeout bounds how long a reservation's members wait in
	// Permit; FollowerTimeout how long its slices' followers may take.
	PermitTimeout, FollowerTimeout time.Duration
}

// PreFilterOutcome is what PreFilter decided for one pod. The glue maps
// it to a status and the cycle's data; it reports Failure and Reserved as
// events on Ref.
type PreFilterOutcome struct {
	Code    Code
	Message string
	// Gang: the pod is placed by this scheduler's admission (a gang
	// member, or a queued workload's pod); false for plain pods.
	Gang bool
	// Alone: a queued plain pod admitted on quota alone; the default
	// filters place it, on FlavorNodes (nil: on any node).
	Alone       bool
	FlavorNodes []string
	// Nodes are the nodes the pod is restricted to (nil: none); empty
	// with Code Unschedulable when the reserved room is used up.
	Nodes sets.Set[string]
	// Ref names the workload's object, for events.
	Ref corev1.ObjectReference
	// Failure is why the workload could not be admitted, to report.
	Failure *planner.Failure
	// Snapshot is the snapshot a failed plan read (nil: no plan failed),
	// which preemption may simulate on in the same cycle.
	Snapshot *state.Snapshot
	// Reserved describes the placement of a reservation made in this
	// call ("": none was made); Planned is how long the decision took,
	// snapshots included.
	Reserved string
	Planned  time.Duration
	// EndsEarly, with Reserved, says that the reservation's nodes go away
	// before the workload's maximum run ends ("": they last).
	EndsEarly string
	// Conflict is why a planned reservation was refused at commit: the
	// cluster moved under the plan (nil: it was not).
	Conflict error
}

// PreFilter makes sure pod's workload holds a reservation — planning every
// slice of its gang at once, on a snapshot, when it holds none — and says
// which nodes the pod may go on. act carries out what the state asks for
// as each step returns it (an expired reservation is released before the
// workload plans again).
func PreFilter(st *state.State, pod *corev1.Pod, set CycleSettings, act func(state.Actions)) PreFilterOutcome {
	v := st.Classify(pod)
	out := PreFilterOutcome{Gang: v.Gang, Ref: v.Ref}
	if !v.Gang {
		return out
	}
	if v.Wait || v.Unresolvable {
		out.Code, out.Message = Unresolvable, v.Message
		return out
	}
	key := v.Member.Key
	act(st.ExpireIfDue(key))
	if key.Source == workload.SourcePod {
		// A queued plain pod: admitted on quota alone; the default filters
		// and scores place it, on its flavors' nodes.
		flavorNodes, fail, acts := AdmitAlone(st, pod, set.PermitTimeout)
		act(acts)
		if fail != nil {
			st.PlanFailed(pod, 0, fail)
			return out.failed(fail, nil)
		}
		out.Alone, out.FlavorNodes = true, flavorNodes
		return out
	}
	if reserved, ok := st.MemberNodes(pod); ok {
		return out.restrict(reserved, "the reserved room for the pod's slice is used up")
	}
	if st.PlacedWhole(key) {
		// The gang already runs whole (a replacement pod, or a PodGroup
		// member beyond minMember): the pod joins its slice's domain.
		if held := st.HeldDomainNodes(pod); held != nil {
			return out.restrict(held, "the slice's domain has no nodes left")
		}
		return out
	}
	if f := st.CachedFailure(pod); f != nil {
		// Reported when it was decided.
		out.Code, out.Message = code(f), f.Message
		return out
	}
	start := time.Now()
	sn := st.SnapshotForPlan(key, set.Requested)
	r, fail := Plan(sn)
	if fail != nil && sn.Partial() {
		// Why it fails, and what preemption could free, are read from
		// the domains other workloads hold.
		sn = st.Snapshot(key, set.Requested)
		r, fail = Plan(sn)
	}
	out.Planned = time.Since(start)
	if fail != nil {
		st.PlanFailed(pod, sn.Generation, fail)
		return out.failed(fail, sn)
	}
	r.FollowerTimeout = set.FollowerTimeout
	_, acts, err := st.Commit(r, set.PermitTimeout)
	if err != nil {
		// Another workload took a chosen domain meanwhile: wait like a
		// failed plan, so that what frees room wakes this pod again.
		st.PlanFailed(pod, sn.Generation, &planner.Failure{Message: err.Error()})
		out.Code, out.Message, out.Conflict = Unschedulable, err.Error(), err
		return out
	}
	act(acts)
	out.Reserved = state.DescribePlacement(sn.Self.Model, r)
	out.EndsEarly = EndsEarly(sn, r)
	reserved, ok := st.MemberNodes(pod)
	if !ok {
		out.Code, out.Message = Unschedulable, fmt.Sprintf("the reservation of %s was released", key)
		return out
	}
	return out.restrict(reserved, "the reserved room for the pod's slice is used up")
}

// restrict limits the pod to nodes; none left is unschedulable (empty).
func (o PreFilterOutcome) restrict(nodes sets.Set[string], empty string) PreFilterOutcome {
	o.Nodes = nodes
	if nodes.Len() == 0 {
		o.Code, o.Message = Unschedulable, empty
	}
	return o
}

// failed reports f, decided in this call on sn (nil: on no snapshot).
func (o PreFilterOutcome) failed(f *planner.Failure, sn *state.Snapshot) PreFilterOutcome {
	o.Code, o.Message, o.Failure, o.Snapshot = code(f), f.Message, f, sn
	return o
}

func code(f *planner.Failure) Code {
	if f.Unresolvable {
		return Unresolvable
	}
	return Unschedulable
}
