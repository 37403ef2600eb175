package admission

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PreFilterOutcome is what PreFilter decided for one pod. The engine maps
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
	// Bounds are what every node of the pod must carry under its
	// workload's reservation, held or decided (nil: none covers the pod).
	Bounds *placement.SliceBounds
	// Ref names the workload's object, for events.
	Ref corev1.ObjectReference
	// Failure is why the workload could not be admitted, to report.
	Failure *placement.Failure
	// Snapshot is the snapshot a failed plan read (nil: no plan failed),
	// which preemption may simulate on in the same cycle.
	Snapshot *state.Snapshot
	// Reserved describes the placement of the reservation decided ("":
	// none); EndsEarly, with it, says that the reservation's nodes go
	// away before the workload's maximum run ends ("": they last).
	Reserved  string
	EndsEarly string
	// Conflict is why a planned reservation was refused when it was
	// applied: the cluster moved under the plan (nil: it was not).
	Conflict error
	// Full: the plan failed on a snapshot that left domains out
	// (Snapshot.Partial); decide again on the whole snapshot.
	Full bool
	// Decision is what to apply (nil: nothing); Nodes, for a reservation
	// decided, are those of the pod's slice once it is applied.
	Decision *state.Decision
	// Planned is how long deciding took, snapshots included (zero: no
	// plan was made).
	Planned time.Duration
	// Request is what the pod asks for, as the state derived it.
	Request workload.Resources
}

// decidePreFilter decides pod's cycle on c alone: a plain pod goes on; a
// member of a workload holding a reservation goes on the nodes planned
// for its slice; a member of a workload that runs whole joins its slice's
// domain; a workload awaiting admission is planned — every slice of its
// gang at once, quota and domains together — or, for a queued plain pod,
// admitted on quota alone. What is decided (a reservation to commit, a
// failure to remember, an expired reservation to release) is in the
// outcome's Decision, for the caller to apply.
func decidePreFilter(c *state.PodCycle, p Profile) PreFilterOutcome {
	v := present(c, classify(c))
	out := PreFilterOutcome{Gang: v.gang, Ref: v.ref}
	if !v.gang {
		return out
	}
	if v.wait || v.unresolvable {
		out.Code, out.Message = Unresolvable, v.message
		return out
	}
	key, pod := v.member.Key, c.Pod
	d := &state.Decision{Key: key, Pod: pod.UID, PermitTimeout: p.PermitTimeout}
	if key.Source == workload.SourcePod {
		return decideAlone(c, out, d)
	}
	if r := c.Reservation; r != nil {
		if _, in := r.Slices[pod.Member.Slice]; !in || r.Attempt != pod.Member.RestartAttempt {
			out.Code, out.Message = Unschedulable, fmt.Sprintf("%s already holds a reservation", key)
			return out
		}
		out.Bounds = boundsOf(r, pod)
		return out.restrict(reservedNodes(r, pod, c.SliceNodes), "the reserved room for the pod's slice is used up")
	}
	if c.Workload.PlacedWhole {
		// The gang already runs whole (a replacement pod, or a PodGroup
		// member beyond minMember): the pod joins its slice's domain.
		if c.HeldNodes != nil {
			return out.restrict(sets.New(c.HeldNodes...), "the slice's domain has no nodes left")
		}
		return out
	}
	if c.Plan == nil {
		// A failure decided at this generation stands: reported when it
		// was decided.
		if f := c.Workload.Failure; f != nil {
			out.Code, out.Message = code(f), f.Message
			return out
		}
		out.Code, out.Message = Unschedulable, fmt.Sprintf("%s may not plan now", key)
		return out
	}
	sn := c.Plan
	res, fail := Plan(sn)
	if fail != nil && sn.Partial() {
		out.Full = true
		return out
	}
	if fail != nil {
		d.Failed, d.Generation = fail, sn.Generation
		out.Decision = d
		return out.failed(fail, sn)
	}
	res.FollowerTimeout = p.FollowerTimeout
	d.Reserve, d.Generation = res, sn.Generation
	out.Decision, out.Bounds = d, boundsOf(res, pod)
	out.Reserved = state.DescribePlacement(sn.Self.Model, res)
	out.EndsEarly = EndsEarly(sn, res)
	var domain []string
	if sr := res.Slices[pod.Member.Slice]; sr != nil && sr.Domain != "" {
		domain = sn.Domains[sr.DomainKey][sr.Domain]
	}
	return out.restrict(reservedNodes(res, pod, domain), "the reserved room for the pod's slice is used up")
}

// expiredReservation is the ID of c's workload's reservation when its gate
// did not pass in time (0: it did, or there is none): it is released, and
// the workload decided again, before anything else.
func expiredReservation(c *state.PodCycle) uint64 {
	if r := c.Reservation; r != nil && !r.Committed && c.Now.After(r.Deadline) {
		return r.ID
	}
	return 0
}

// decideAlone admits a queued plain pod's workload on quota alone: its
// quota is charged to flavors one of whose nodes could hold it, and the
// scheduler's own filters choose the node among those flavors' nodes.
func decideAlone(c *state.PodCycle, out PreFilterOutcome, d *state.Decision) PreFilterOutcome {
	out.Alone = true
	round := c.Alone
	if round == nil {
		// Admitted already (on the nodes of its flavors), or not
		// quota-managed (on any node).
		out.FlavorNodes, out.Bounds = c.AloneNodes, boundsOf(c.Reservation, c.Pod)
		return out
	}
	res, nodes, fail := admitAlone(round)
	if fail != nil {
		d.Failed = fail
		out.Decision = d
		return out.failed(fail, nil)
	}
	d.Reserve, d.RefusedReason = res, quota.ReasonQuotaExceeded
	out.Decision, out.FlavorNodes, out.Bounds = d, nodes, boundsOf(res, c.Pod)
	return out
}

// boundsOf are what every node of pod must carry under reservation r (nil:
// r does not cover the pod).
func boundsOf(r *state.Reservation, pod *state.Pod) *placement.SliceBounds {
	if r == nil || r.Attempt != pod.Member.RestartAttempt {
		return nil
	}
	sr := r.Slices[pod.Member.Slice]
	if sr == nil {
		return nil
	}
	b := sr.Bounds()
	return &b
}

// reservedNodes are the nodes a member may use under reservation r: those
// with room planned for a pod of its shape in its slice (only its rank's,
// for a topology slice, while room is left there), or any node of the
// slice's domain (domain) when the plan has no slot of its shape left.
func reservedNodes(r *state.Reservation, pod *state.Pod, domain []string) sets.Set[string] {
	sr := r.Slices[pod.Member.Slice]
	if sr == nil || r.Attempt != pod.Member.RestartAttempt {
		return sets.New[string]()
	}
	nodes := sets.New[string]()
	for _, slot := range sr.Slots {
		if slot.Count > 0 && sr.Shapes[slot.Shape].Sig == pod.RequestSig {
			nodes.Insert(slot.Node)
		}
	}
	// A topology slice's pod goes to the node of its rank while room is
	// planned there for it.
	if m := pod.Member; m.HasIndex && m.Index < len(sr.Ranks) && nodes.Has(sr.Ranks[m.Index]) {
		return sets.New(sr.Ranks[m.Index])
	}
	if nodes.Len() == 0 && sr.Domain != "" {
		nodes.Insert(domain...)
	}
	return nodes
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
func (o PreFilterOutcome) failed(f *placement.Failure, sn *state.Snapshot) PreFilterOutcome {
	o.Code, o.Message, o.Failure, o.Snapshot = code(f), f.Message, f, sn
	return o
}

func code(f *placement.Failure) Code {
	if f.Unresolvable {
		return Unresolvable
	}
	return Unschedulable
}
