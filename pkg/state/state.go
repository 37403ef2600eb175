// Package state is the one informer-fed index every plugin and profile of
// this scheduler shares: workloads (from JobSets and PodGroups) and their
// pods, nodes grouped into domains, which domains bound gang pods hold, and
// the reservations of workloads being placed. It imports no scheduler
// framework types: the framework glue feeds it objects and turns its answers
// into statuses. Decisions about where workloads go are made by package
// admission on a Snapshot taken from here, and committed back.
//
// Locking: every exported method takes s.mu itself. Methods never call back
// into the scheduler; where the scheduler must act (activate pods, reject
// waiting pods), they return Actions, and the caller acts after the lock is
// released, because the scheduling queue calls back into the queue sort,
// which reads here.
package state

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Options configures a State.
type Options struct {
	Clock clock.PassiveClock
	// DefaultDomainKey confines gangs that name no domain key.
	DefaultDomainKey string
	// RejectionMemory is how long a domain where a workload's pods failed
	// the scheduler's other filters is kept out of its plans (unless the
	// domain changes first).
	RejectionMemory time.Duration
	// Observer receives measurements; nil discards them.
	Observer Observer
	// DefaultLocalQueue admits workloads that name no LocalQueue through
	// the LocalQueue of this name in their namespace ("": such workloads
	// are not quota-managed).
	DefaultLocalQueue string
	// ClaimTimeout is how long the domains a preemption freed stay kept
	// for the preemptor while it is not placed.
	ClaimTimeout time.Duration
	// RestartHold is how long a running workload's quota and healthy
	// nodes stay kept for it while its owner restarts it (0: not kept;
	// see restarthold.go).
	RestartHold time.Duration
	// QuotaStarvation is how long the head of a BestEffortFIFO queue may
	// wait for quota before the workloads behind it wait for it.
	QuotaStarvation time.Duration
	// RecordAdmissions makes a quota-managed gang's members wait in
	// Permit until its admission is written on its Workload object
	// (see record.go).
	RecordAdmissions bool
}

// Observer is told what metrics measure. Implementations must be cheap and
// must not call back into the State.
type Observer interface {
	ReservationsActive(n int)
	ReservationReleased(reason ReleaseReason)
	GangPlaced(wait time.Duration)
	GangsWaiting(unplaceable, waiting int)
	// WorkloadAdmitted: a quota-managed workload was admitted and placed
	// whole, wait after its creation.
	WorkloadAdmitted(clusterQueue string, wait time.Duration)
}

type nopObserver struct{}

func (nopObserver) ReservationsActive(int)                 {}
func (nopObserver) ReservationReleased(ReleaseReason)      {}
func (nopObserver) GangPlaced(time.Duration)               {}
func (nopObserver) GangsWaiting(int, int)                  {}
func (nopObserver) WorkloadAdmitted(string, time.Duration) {}

// APIStatus is what discovery said about a workload API.
type APIStatus int

const (
	// APIUnknown: discovery has not answered definitely (errors, timeouts).
	// Pods of such workloads wait rather than be scheduled as plain pods.
	APIUnknown APIStatus = iota
	// APINotServed: the API definitely does not exist; its pods are plain.
	APINotServed
	// APIServed: the informer runs and its cache has synced.
	APIServed
)

// DefaultQuotaStarvation is the default of Options.QuotaStarvation.
const DefaultQuotaStarvation = 10 * time.Minute

// State is safe for concurrent use. It composes the index's parts, each
// of one concern and each guarded by mu (but for blocked, which has its
// own lock): what the scheduler places for (registry), the nodes
// (topology), the pods by UID and node (pods) and their workloads, the
// domains their pods hold (domainHolders), the reservations and the room
// they keep (reservations), the queues' waiting workloads and heads (queued), the
// quota book (pkg/quota), the claims of preemptions and holds (claims), the
// provisioning checks (checks) and the admissions Workload objects record
// (recorded). A State method is what crosses them.
//
// Callers name the part (s.reservations.room.add): no part is embedded, so
// that none of their methods is promoted onto State.
type State struct {
	opts Options

	mu       sync.RWMutex
	registry registry
	nodes    *topology.Index
	// pods are the pods the state knows, by UID and by node.
	pods podIndex
	// room is the free room of the topology domains decisions asked
	// about, kept as pods and nodes change (see domainRoom).
	room domainRoom
	// workloads are the workloads observed or named by their pods.
	workloads     workloadIndex
	domainHolders domainHolders
	// reservations: at most one per workload, and the room they take.
	reservations reservationIndex
	// generation changes whenever something that could let a waiting
	// workload in happens; a failed plan is not retried until it does.
	generation uint64
	nextID     uint64
	// book holds the queue objects and what admitted workloads are charged.
	book *quota.Book
	// queued indexes the workloads that wait (see trackQueuedLocked).
	queued queueIndex
	// claims are the preemptions and holds under way (see claims.go).
	claims claimIndex
	// rejecting holds every workload with rejected domains (and may hold
	// workloads that no longer have any), so that a node change clears
	// rejections without walking every workload.
	rejecting map[workload.Key]*Workload
	// carrying caches the nodes that carry a set of labels (a queued plain
	// pod's flavors), by labelsKey; any node change clears it.
	carrying map[string][]string
	// selectable caches, by labelsKey of a set of labels, "|" and a domain
	// key, the values of the key's domains in which a node carries those
	// labels (see selectableDomainsLocked); any node change clears it.
	selectable map[string][]string
	// checks are the provisioning admission checks (see checks.go).
	checks provisioningChecks
	// recorded are the admissions Workload objects record (record.go).
	recorded recordedAdmissions
	// suspects are the drifts the last Reconcile found (reconcile.go).
	suspects map[workload.Key]DriftKind

	// blocked holds plain pods a reservation kept off nodes.
	blocked blockedPods

	// The unexported views of this State (see views.go), set by New.
	copier  copier
	applier applier
	queues  queues
}

type sliceRef struct {
	key   workload.Key
	slice int
}

// New returns an empty state.
func New(opts Options) *State {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	if opts.RejectionMemory <= 0 {
		opts.RejectionMemory = 5 * time.Minute
	}
	if opts.Observer == nil {
		opts.Observer = nopObserver{}
	}
	if opts.ClaimTimeout <= 0 {
		opts.ClaimTimeout = DefaultClaimTimeout
	}
	if opts.QuotaStarvation <= 0 {
		opts.QuotaStarvation = DefaultQuotaStarvation
	}
	nodes := topology.New()
	s := &State{
		opts:          opts,
		registry:      newRegistry(),
		nodes:         nodes,
		pods:          newPodIndex(),
		room:          newDomainRoom(),
		workloads:     newWorkloadIndex(),
		domainHolders: newDomainHolders(nodes),
		reservations:  newReservationIndex(),
		blocked:       blockedPods{pods: map[types.UID]PodRef{}},
		book:          quota.NewBook(),
		queued:        newQueueIndex(),
		claims:        newClaimIndex(),
		rejecting:     map[workload.Key]*Workload{},
		carrying:      map[string][]string{},
		selectable:    map[string][]string{},
		checks:        provisioningChecks{byName: map[string]*provisioning.Check{}},
		recorded:      recordedAdmissions{byKey: map[workload.Key]*RecordedAdmission{}},
		suspects:      map[workload.Key]DriftKind{},
	}
	s.copier, s.applier, s.queues = copier{s}, applier{s}, queues{s}
	return s
}

// Clock returns the state's clock.
func (s *State) Clock() clock.PassiveClock { return s.opts.Clock }

// AddScheduler registers a profile whose pods this state plans.
func (s *State) AddScheduler(name string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.registry.schedulers.Insert(name)
}

// QueueAPI is the source SetAPI records the multislice.dev queue API under.
// While it is not served, queue names on workloads are ignored (nothing is
// quota-managed); while unknown, quota-managed workloads wait.
const QueueAPI workload.Source = "multislice.dev queues"

// SetAPI records what discovery said about a workload API. Pods of a source
// whose status changes re-run PreEnqueue.
func (fd Feed) SetAPI(src workload.Source, status APIStatus) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.registry.setAPI(src, status) {
		return Actions{}
	}
	var acts Actions
	for key, w := range s.workloads.byKeys() {
		if key.Source == src {
			acts.Activate = append(acts.Activate, s.pendingLocked(w)...)
		}
	}
	if src == QueueAPI {
		fd.rechargeAllLocked(&acts)
		fd.reindexQueuedLocked()
		acts.Activate = append(acts.Activate, s.wakeAllLocked()...)
	}
	return acts
}

// API returns what is known of a workload API.
func (rp Reports) API(src workload.Source) APIStatus {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.registry.api(src)
}

// PodRef names a pod.
type PodRef struct {
	Namespace, Name string
	UID             types.UID
}

// Actions are what the scheduler must do after a state change.
type Actions struct {
	// Activate lists pods to move to the active queue.
	Activate []PodRef
	// Reject lists waiting pods to reject, with the reason.
	Reject []types.UID
	Reason string
	// Events are messages for users about workloads.
	Events []Event
	// Expired are workloads past their maximum run duration, to end.
	Expired []Expiry
	// Rediscover lists workload APIs to look up again now: a pod named one
	// that was last found not served.
	Rediscover []workload.Source
	// Wake lists ClusterQueues whose cohort may admit waiting workloads
	// now: quota was released in it, or a StrictFIFO queue admitted its
	// head and the next may go. The state does not decide which: the
	// actor asks admission.Wake on a fresh State.WakeRound which heads to
	// activate.
	Wake []string
	// Uncharged lists workloads found running with no charge and no
	// record of their admission: the leader decides what they are charged
	// (controllers.ChargeRunning) before it admits anything else.
	Uncharged []workload.Key
}

// Event is a message about a workload object.
type Event struct {
	Ref     corev1.ObjectReference
	Warning bool
	Reason  string
	Message string
}

func (a *Actions) merge(o Actions) {
	a.Activate = append(a.Activate, o.Activate...)
	a.Reject = append(a.Reject, o.Reject...)
	a.Events = append(a.Events, o.Events...)
	a.Expired = append(a.Expired, o.Expired...)
	a.Rediscover = append(a.Rediscover, o.Rediscover...)
	a.Wake = append(a.Wake, o.Wake...)
	a.Uncharged = append(a.Uncharged, o.Uncharged...)
	if o.Reason != "" {
		a.Reason = o.Reason
	}
}

// Empty reports whether there is nothing to do.
func (a *Actions) Empty() bool {
	return len(a.Activate) == 0 && len(a.Reject) == 0 && len(a.Events) == 0 && len(a.Expired) == 0 && len(a.Rediscover) == 0 && len(a.Wake) == 0 &&
		len(a.Uncharged) == 0
}

// bumpLocked records that capacity or domains may have been freed.
func (s *State) bumpLocked() { s.generation++ }
