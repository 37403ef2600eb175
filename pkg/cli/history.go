package cli

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

// What History reports, by the reason the API gives.
const (
	// HappeningAdmitted: a Workload object's Admitted condition turned
	// True (its quota is reserved and its admission checks passed).
	HappeningAdmitted = "Admitted"
	// HappeningPlaced: the scheduler placed a whole workload (its Placed
	// event), queued or not.
	HappeningPlaced = "Placed"
	// HappeningPreempting: the scheduler evicts workloads for this one
	// (its Preempting event).
	HappeningPreempting = "Preempting"
	// HappeningPreempted: the workload was evicted whole for another one
	// (its Preempted event).
	HappeningPreempted = "Preempted"
	// HappeningEvicted: the workload was ended because its capacity was
	// revoked or its maximum run duration passed (its event of that
	// reason).
	HappeningEvicted = "Evicted"
)

// happeningEvents map the reasons of the events the scheduler records on
// workloads to what History calls them; other events are left out.
var happeningEvents = map[string]string{
	"Placed":                     HappeningPlaced,
	eventPreempting:              HappeningPreempting,
	eventPreempted:               HappeningPreempted,
	"CapacityRevoked":            HappeningEvicted,
	"MaximumRunDurationExceeded": HappeningEvicted,
}

// Happening is something that happened to a workload, as the API still
// shows it.
type Happening struct {
	Time     time.Time   `json:"time"`
	What     string      `json:"what"`
	Workload WorkloadRef `json:"workload"`
	Message  string      `json:"message"`
	// ID is the same each time the same happening is read, and differs
	// between happenings: an event's name and count (a repeated event is
	// another happening), a Workload object's UID and transition time.
	ID string `json:"id"`
}

// History lists what the API shows of the workloads' admissions,
// placements, preemptions and evictions, newest first (then by ID): the
// Admitted conditions of the Workload objects, and the events the
// scheduler records on workloads. It reaches only as far back as those
// objects do (the apiserver drops events after an hour by default).
func History(c *Cluster) []Happening {
	var out []Happening
	for _, wl := range c.Workloads {
		a := condition(wl.Status.Conditions, multislicev1alpha1.WorkloadAdmitted)
		ref, _, ok := ownerOf(wl)
		if a == nil || a.Status != metav1.ConditionTrue || !ok {
			continue
		}
		msg := strings.TrimSpace(a.Message)
		if adm := wl.Status.Admission; adm != nil {
			msg = strings.TrimSuffix(fmt.Sprintf("by ClusterQueue %s: %s", adm.ClusterQueue, msg), ": ")
		}
		out = append(out, Happening{
			Time: a.LastTransitionTime.Time, What: HappeningAdmitted, Workload: ref, Message: msg,
			ID: fmt.Sprintf("admitted/%s/%s", wl.UID, a.LastTransitionTime.UTC().Format(time.RFC3339Nano)),
		})
	}
	for _, e := range c.Events {
		what, ok := happeningEvents[e.Reason]
		if !ok {
			continue
		}
		io := e.InvolvedObject
		out = append(out, Happening{
			Time: eventTime(e), What: what, Workload: WorkloadRef{Kind: io.Kind, Namespace: io.Namespace, Name: io.Name},
			Message: strings.TrimSpace(e.Message), ID: fmt.Sprintf("event/%s/%s/%d", e.Namespace, e.Name, eventCount(e)),
		})
	}
	slices.SortFunc(out, func(a, b Happening) int { return cmp.Or(b.Time.Compare(a.Time), cmp.Compare(a.ID, b.ID)) })
	return out
}
