package admission

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// membership is what a pod's facts say of it before anything is decided
// for its workload: a plain pod, a gang member that may be tried, or one
// that must wait or cannot be scheduled until its objects change.
type membership struct {
	// gang is false for pods scheduled as plain pods.
	gang   bool
	member workload.Member
	// wait: the pod must not be tried yet. unresolvable: only a change to
	// the pod's or its workload's objects can help (malformed input, a
	// finished workload, a stale attempt).
	wait, unresolvable bool
	message            string
	// ref names the workload's object, for events.
	ref corev1.ObjectReference
	// queueReason, with needsAction, is set when the pod waits for a
	// reason its queue or its request gives (see state.Verdict).
	queueReason string
	needsAction bool
}

// classify reads what c says of its pod's membership and of its
// workload's object. A pod the state has not observed is a plain pod: the
// gate holds a gang's members until the state has observed them.
func classify(c *state.PodCycle) membership {
	p := c.Pod
	if p == nil || !p.Gang {
		return membership{}
	}
	if p.MemberErr != nil {
		return membership{gang: true, unresolvable: true, message: p.MemberErr.Error()}
	}
	m := p.Member
	switch c.API {
	case state.APINotServed:
		// The API is definitely not served here: schedule as a plain pod.
		return membership{}
	case state.APIUnknown:
		return membership{gang: true, member: m, wait: true,
			message: fmt.Sprintf("waiting to learn whether the %s API is served", m.Key.Source)}
	}
	v := membership{gang: true, member: m}
	w := c.Workload
	if w == nil || !w.Observed {
		v.wait = true
		v.message = fmt.Sprintf("waiting for %s to be observed", m.Key)
		switch m.Key.Source {
		case workload.SourceProvisioningRequest:
			// Its API is served and watched: the request is not there.
			v.message = state.ConsumerMissingMessage(m.Key)
			v.queueReason, v.needsAction = state.ReasonProvisioningRequestGone, true
			v.ref = provisioning.ConsumedRef(m.Key.Namespace, m.Key.Name, "")
		case workload.SourceLeaderWorkerSet:
			// A group's object is its leader pod, seen only when the
			// leader is a member too: one asking for neither a topology
			// nor whole domains is scheduled alone, and leaves this pod
			// here.
			v.message = fmt.Sprintf("waiting for the leader pod of %s: the group is placed as its leader asks, and a leader whose template asks for neither a topology nor whole domains (exclusive-topology) is scheduled alone; give the leader template the annotations this pod's has", m.Key)
		}
		return v
	}
	v.ref = w.Ref
	if w.Err != nil {
		v.unresolvable, v.message = true, w.Err.Error()
		return v
	}
	model := w.Model
	if model == nil {
		// Its object is no gang (a Kubernetes PodGroup with the basic
		// policy): its pods are scheduled one by one.
		return membership{}
	}
	switch st, why := workload.StandingIn(m, model); st {
	case workload.Stale:
		v.unresolvable, v.message = true, why
	case workload.Ahead:
		v.wait, v.message = true, why
	}
	return v
}

// present says whether a classified gang member may be tried now: its
// slice is in its workload's reservation, or every member of its gang that
// can exist yet exists. Otherwise it waits, saying for which members.
func present(c *state.PodCycle, v membership) membership {
	if !v.gang || v.wait || v.unresolvable {
		return v
	}
	w := c.Workload
	if r := c.Reservation; r != nil && r.Attempt == w.Model.RestartAttempt {
		if _, in := r.Slices[v.member.Slice]; in {
			return v
		}
	}
	if w.Complete {
		return v
	}
	v.wait, v.message = true, missingMessage(w, 0)
	return v
}

// missingMessage says which members of w's gang it waits for, not
// counting uncounted members the state has not indexed yet (a pod at the
// gate before its informer event): "" when it waits for none but those.
func missingMessage(w *state.WorkloadFacts, uncounted int) string {
	if m := w.Model; m != nil && m.Children != nil && len(m.Children) < len(m.Slices) {
		// A CompositePodGroup's groups not created yet (minGroupCount).
		return fmt.Sprintf("waiting for %d of %d PodGroups of %s to be created", len(m.Slices)-len(m.Children), len(m.Slices), w.Key)
	}
	if w.Staged {
		if uncounted > 0 {
			return ""
		}
		return fmt.Sprintf("waiting for the first pod of %d of %d Jobs of %s to be created", w.MissingSlices, len(w.Active), w.Key)
	}
	if missing := w.MissingPods - uncounted; missing > 0 {
		return fmt.Sprintf("waiting for %d of %d pods of %s to be created", missing, w.ActivePods, w.Key)
	}
	return ""
}
