package admission

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Manager is the one interface the framework glue (pkg/plugins) calls, one
// method per extension point, as scheduler-plugins' coscheduling calls its
// PodGroup manager. Its answers are values the glue maps to framework
// statuses; what users are told (events, held pods' conditions) and what
// the scheduler must do (activate pods, let waiting ones through, evict)
// the manager carries out itself. Engine implements it.
type Manager interface {
	// AddProfile registers a profile whose pods this scheduler places.
	AddProfile(p Profile)
	// PreEnqueue says whether pod may enter the active queue (nil: it
	// may). A standby replica holds every pod.
	PreEnqueue(ctx context.Context, pod *corev1.Pod) *Status
	// PreFilter decides pod's scheduling cycle: the nodes it may use
	// (nil: any), or why it cannot be scheduled now. The Cycle it returns
	// is immutable; the later steps of the same cycle read it.
	PreFilter(ctx context.Context, pod *corev1.Pod, nodes NodeSnapshot) (*Cycle, sets.Set[string], *Status)
	// Filter says whether pod may go on node, as the cycle's snapshot has
	// it, as far as reservations, claims and exclusive domains go; free is
	// what the node has left in that snapshot, read only when it matters.
	Filter(c *Cycle, pod *corev1.Pod, node *corev1.Node, free func() workload.Resources) *Status
	// PostFilter decides what a pod no node fits means for its workload.
	PostFilter(ctx context.Context, c *Cycle, pod *corev1.Pod, f FilterFailure) *Status
	// Preempt evicts whole workloads for a gang member whose cycle failed
	// (handled false: pod is a plain pod, which preempts pod by pod).
	Preempt(ctx context.Context, c *Cycle, pod *corev1.Pod, nodes NodeSnapshot) (handled bool, st *Status)
	// Victim says whether a plain pod's preemption may evict victims on
	// node: never a gang's pod (gang reports that), never in a domain
	// reserved for another workload's slice.
	Victim(preemptor *corev1.Pod, victims []*corev1.Pod, node string) (ok, gang bool)
	// Reserve takes pod's room on node from its workload's reservation and
	// returns the reservation's ID (0: none); Unreserve gives it back.
	Reserve(pod *corev1.Pod, node string) uint64
	Unreserve(ctx context.Context, pod *corev1.Pod, reservation uint64)
	// Permit holds a gang's pods until every required member is reserved.
	Permit(ctx context.Context, pod *corev1.Pod) (*Status, time.Duration)
	// SortKey is pod's place in the scheduling queue, memoised the first
	// time it is asked for, so that the order of two queued pods never
	// changes while they are queued.
	SortKey(pod *corev1.Pod, priority int32, queued time.Time) SortKey
	// WaitsForCapacity says whether pod is its waiting workload's head and
	// the workload waits for room, not for its queue.
	WaitsForCapacity(pod *corev1.Pod) bool
	// PlansOn says whether pod's workload's reservation planned room on
	// node, or reserved the domain node is in.
	PlansOn(pod *corev1.Pod, node string) bool
}

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
	// Wait: the pod waits in Permit.
	Wait
)

// Status is a Manager's answer that is not a plain success: the glue maps
// its code to the framework's.
type Status struct {
	Code    Code
	Message string
}

func newStatus(c Code, msg string) *Status { return &Status{Code: c, Message: msg} }

// Profile is what a profile's MultisliceGang arguments say of its pods.
type Profile struct {
	Name string
	// PermitTimeout bounds how long a reservation's members wait in
	// Permit; FollowerTimeout how long its slices' followers may take.
	PermitTimeout, FollowerTimeout time.Duration
}

// Settings are the plugin arguments every profile shares: the scheduler
// has one state and one set of queues.
type Settings struct {
	DefaultDomainKey  string
	DefaultLocalQueue string
	QuotaStarvation   time.Duration
	// QuotaReconcile is how often the leader reconciles usage with the API.
	QuotaReconcile time.Duration
	// RestartHold is how long a restarting workload's quota and healthy
	// nodes stay kept for it.
	RestartHold time.Duration
	// QueuedStartDepth is each ClusterQueue's start window (0: none).
	QueuedStartDepth int
}

// NodeSnapshot is what the scheduling cycle's snapshot of nodes tells
// decisions, in the model's units: what the pods on a node request, and
// whether one more pod fits there, as the scheduler's own filters count.
type NodeSnapshot interface {
	// Requested is what pods on node request (false: no such node; nil
	// or empty: nothing).
	Requested(node string) (workload.Resources, bool)
	// Fits says whether one more pod asking for request fits on node
	// (known false: no such node).
	Fits(node string, request workload.Resources) (known, fits bool)
}

// SortKey orders the scheduling queue: higher priority first, then older
// workloads (a plain pod is a workload of one, dated by when it was
// queued), keeping a workload's pods together, then a stable name order.
type SortKey struct {
	Priority int32
	Since    time.Time
	Group    string
	Pod      string
}

// Less is the queue order.
func (k SortKey) Less(o SortKey) bool {
	switch {
	case k.Priority != o.Priority:
		return k.Priority > o.Priority
	case !k.Since.Equal(o.Since):
		return k.Since.Before(o.Since)
	case k.Group != o.Group:
		return k.Group < o.Group
	}
	return k.Pod < o.Pod
}

// Effects are what the engine has carried out beyond the state: the
// scheduler's shared runtime (pkg/feed) implements them with the
// framework's handles and the API.
type Effects interface {
	// Leading reports whether this replica decides and writes.
	Leading() bool
	// Act carries out what the state asked for.
	Act(ctx context.Context, acts state.Actions)
	// AllowWaiting lets a pod waiting in plugin's Permit through.
	AllowWaiting(uid types.UID, plugin string)
	// RecordAdmission writes an admission on its Workload object, then
	// calls done with what to let through.
	RecordAdmission(ctx context.Context, key workload.Key, id uint64, done func(state.PermitResult))
	// PokeProvisioning wakes the provisioning controller.
	PokeProvisioning()
	// Held, HeldAll, HeldWaiting and Released keep what held pods say
	// about why they wait.
	Held(pod *corev1.Pod, reason, message string, warn bool)
	HeldAll(pods []state.PodRef, reason, message string, warn bool)
	HeldWaiting(pod *corev1.Pod, reason, message string)
	Released(pod *corev1.Pod)
	// Evict evicts pods until they are gone.
	Evict(ctx context.Context, pods []state.PodRef, reason, message string)
}

// Notifier records events for users; repeats are dropped.
type Notifier interface {
	Normal(ref *corev1.ObjectReference, reason, msg string)
	Warn(ref *corev1.ObjectReference, reason, msg string)
	// WarnPod records a Warning on a pod, naming its workload's object.
	WarnPod(pod *corev1.Pod, workloadRef *corev1.ObjectReference, reason, msg string)
}
