package admission

import (
	"fmt"
	"slices"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// FilterFailure is what a scheduling cycle knows of a pod no node fits.
type FilterFailure struct {
	// PreFiltered: MultisliceGang's PreFilter ran for the pod; false when
	// another plugin's PreFilter rejected it first, for Other.
	PreFiltered bool
	Other       string
	// Alone and Gang are PreFilter's outcome (PreFilterOutcome).
	Alone, Gang bool
	// Candidates are the nodes PreFilter restricted the pod to.
	Candidates sets.Set[string]
	// Unseen are the candidates the scheduler's cache does not hold yet.
	Unseen []string
	// Accepted: a filter status says a candidate fits after all.
	Accepted bool
	// Labels are the labels the scheduler's cache holds for the rejected
	// candidates, by node name.
	Labels map[string]map[string]string
	// Relabelled are the rejected candidates whose labels in the
	// scheduler's cache put them outside the slice the state reserved
	// them in (Engine.PostFilter fills it from Labels): the state's
	// informer and the scheduler's cache have not both seen a relabel yet.
	Relabelled []string
	// Rejections count why the filters rejected the candidates
	// ("Plugin: reasons").
	Rejections map[string]int
}

// PostFilterOutcome is what to do about a pod no node fits: Decision for
// the state to write (nil: nothing), Message for its status.
type PostFilterOutcome struct {
	Message  string
	Decision *state.Decision
}

// PostFilter decides what a pod that fits no node means for its workload:
// a gang member rejected before PreFilter keeps its whole gang from
// completing, so the gang gives back its quota and domains; a queued plain
// pod gives back its quota at once; a gang member that fits none of its
// reserved nodes makes its workload plan again elsewhere — unless a
// reserved node is not in the scheduler's cache yet, when the reservation
// stands and the pod retries once it is. v is the pod's membership, read
// only when PreFilter did not run for it (f.PreFiltered false).
func PostFilter(v state.Verdict, pod *corev1.Pod, f FilterFailure) PostFilterOutcome {
	rejected := func(r state.Rejection) *state.Decision {
		return &state.Decision{Pod: pod.UID, Rejected: &r}
	}
	switch {
	case !f.PreFiltered:
		if v.Gang && !v.Wait && !v.Unresolvable && v.Member.Key.Source != workload.SourcePod {
			return PostFilterOutcome{Decision: rejected(state.Rejection{Unschedulable: f.Other})}
		}
		return PostFilterOutcome{}
	case f.Alone:
		return PostFilterOutcome{Decision: rejected(state.Rejection{Alone: "no node fits the pod"})}
	case !f.Gang || f.Candidates.Len() == 0:
		return PostFilterOutcome{}
	case len(f.Unseen) > 0:
		// The plan reads the nodes the state's informer has seen; the
		// cycle's snapshot is the scheduler's cache, which may not hold a
		// node that has just joined. A candidate missing there was never
		// filtered, so nothing rejected the pod on it.
		unseen := slices.Sorted(slices.Values(f.Unseen))
		return PostFilterOutcome{Message: fmt.Sprintf("waiting for the scheduler's cache to hold reserved node(s) %s", strings.Join(unseen, ", "))}
	case f.Accepted:
		return PostFilterOutcome{}
	case len(f.Relabelled) > 0:
		// The state planned on these nodes with the labels its informer
		// saw; the scheduler's cache shows others. Neither is the
		// domain's fault, and remembering the domain as rejected would
		// keep the workload out of it once both agree. If the node did
		// leave the slice, the state releases the reservation itself when
		// its informer sees it; if it came back, the pod retries when the
		// cache sees it (a node the reservation plans on is a queueing
		// hint).
		relabelled := slices.Sorted(slices.Values(f.Relabelled))
		return PostFilterOutcome{Message: fmt.Sprintf("waiting for the scheduler's cache and this scheduler's index to agree on the labels of reserved node(s) %s", strings.Join(relabelled, ", "))}
	}
	return PostFilterOutcome{
		Message:  "the pod fits none of its reserved nodes; its workload plans again elsewhere",
		Decision: rejected(state.Rejection{Reserved: summarize(f.Rejections)}),
	}
}

// summarize renders rejection counts, sorted.
func summarize(reasons map[string]int) string {
	parts := make([]string, 0, len(reasons))
	for msg, n := range reasons {
		parts = append(parts, fmt.Sprintf("%d node(s) %s", n, msg))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}
