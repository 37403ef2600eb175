// Package cache is the one informer-fed state every plugin of this
// scheduler shares: workloads (from JobSets and PodGroups), their pods, which
// nodes gang pods hold, and the domain reservations of workloads being
// placed. It imports no scheduler framework types: the plugin glue feeds it
// objects and node snapshots and turns its answers into statuses.
//
// Locking: every method takes c.mu itself. Methods never call back into the
// scheduler; where the scheduler must act (activate pods, reject waiting
// pods), they return what to act on, so the caller does it after the lock is
// released — the scheduling queue calls back into QueueSort, which reads here.
package cache

import (
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Options configures a Cache.
type Options struct {
	Clock clock.PassiveClock
	// PermitTimeout bounds how long a reservation waits for its gate.
	PermitTimeout time.Duration
	// FollowerTimeout bounds how long a committed staged reservation keeps
	// capacity for followers that have not appeared.
	FollowerTimeout time.Duration
	// DefaultDomainKey confines gangs that name no domain key.
	DefaultDomainKey string
	// SchedulerName is the scheduler whose pods are planned here.
	SchedulerName string
}

// Cache is safe for concurrent use.
type Cache struct {
	opts Options

	mu sync.RWMutex
	// sources: the workload derived from each JobSet/PodGroup, or why not.
	sources map[workload.Key]*source
	pods    map[types.UID]*podEntry
	members map[workload.Key]map[types.UID]*podEntry
	// holders counts, per node, the pods of confined gang slices on it, by
	// workload: a domain with any of them is held by that workload.
	holders      map[string]map[workload.Key]int
	reservations map[workload.Key]*Reservation
	// waiting lists workloads that failed to get domains, to activate when
	// domains are released.
	waiting map[workload.Key]bool
	// apis records which workload APIs are served (JobSet, PodGroup).
	apis map[workload.Source]bool
}

type source struct {
	w   *workload.Workload
	err error
	// ref names the object for events.
	ref corev1.ObjectReference
}

type podEntry struct {
	uid       types.UID
	namespace string
	name      string
	member    workload.Member
	memberErr error
	isMember  bool
	scheduler string
	nodeName  string
	// assumed is true between Reserve and the informer seeing the binding.
	assumed  bool
	terminal bool
	// stagedLeader is true for a leader pod that JobSet's webhook gave a
	// required affinity to its own Job: its followers come only after it binds.
	stagedLeader bool
	exclusive    string
	spec         *corev1.PodSpec
	created      time.Time
}

// New returns an empty cache.
func New(opts Options) *Cache {
	if opts.Clock == nil {
		opts.Clock = clock.RealClock{}
	}
	return &Cache{
		opts:         opts,
		sources:      map[workload.Key]*source{},
		pods:         map[types.UID]*podEntry{},
		members:      map[workload.Key]map[types.UID]*podEntry{},
		holders:      map[string]map[workload.Key]int{},
		reservations: map[workload.Key]*Reservation{},
		waiting:      map[workload.Key]bool{},
		apis:         map[workload.Source]bool{},
	}
}

// SetAPIServed records whether a workload API is served; pods of a source
// whose API is not served are scheduled as plain pods.
func (c *Cache) SetAPIServed(src workload.Source, served bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.apis[src] = served
}

// APIServed reports whether src's API is served.
func (c *Cache) APIServed(src workload.Source) bool {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.apis[src]
}

// PodRef names a pod.
type PodRef struct {
	Namespace, Name string
	UID             types.UID
}

// Actions are what the scheduler must do after a cache change.
type Actions struct {
	// Activate lists pods to move to the active queue.
	Activate []PodRef
	// Reject lists waiting pods to reject, with the reason.
	Reject []types.UID
	Reason string
}

func (a *Actions) merge(o Actions) {
	a.Activate = append(a.Activate, o.Activate...)
	a.Reject = append(a.Reject, o.Reject...)
	if o.Reason != "" {
		a.Reason = o.Reason
	}
}

// UpsertSource records a workload derived from its object (w nil and err
// set for a malformed object). Changes that end the current placement (a new
// restart attempt, completion, deletion) release its reservation.
func (c *Cache) UpsertSource(key workload.Key, w *workload.Workload, err error, ref corev1.ObjectReference) Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.sources[key] = &source{w: w, err: err, ref: ref}
	var acts Actions
	if r := c.reservations[key]; r != nil && (w == nil || w.Finished || w.RestartAttempt != r.Attempt || w.UID != r.UID) {
		acts.merge(c.releaseLocked(key, "the workload changed"))
	}
	// Pods gated on this workload's shape re-run PreEnqueue.
	acts.Activate = append(acts.Activate, c.pendingLocked(key)...)
	return acts
}

// DeleteSource forgets a workload's object and releases its reservation.
func (c *Cache) DeleteSource(key workload.Key) Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.sources, key)
	return c.releaseLocked(key, "the workload was deleted")
}

// Source returns the workload of key, the error that made it unusable, and
// its event reference.
func (c *Cache) Source(key workload.Key) (*workload.Workload, error, corev1.ObjectReference, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	s, ok := c.sources[key]
	if !ok {
		return nil, nil, corev1.ObjectReference{}, false
	}
	return s.w, s.err, s.ref, true
}

// UpsertPod records a pod's membership, node and phase.
func (c *Cache) UpsertPod(pod *corev1.Pod) Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.upsertPodLocked(pod)
}

func (c *Cache) upsertPodLocked(pod *corev1.Pod) Actions {
	old := c.pods[pod.UID]
	m, isMember, err := workload.MemberOf(pod)
	e := &podEntry{
		uid: pod.UID, namespace: pod.Namespace, name: pod.Name,
		member: m, memberErr: err, isMember: isMember,
		scheduler:    pod.Spec.SchedulerName,
		nodeName:     pod.Spec.NodeName,
		terminal:     pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed || pod.DeletionTimestamp != nil,
		stagedLeader: m.Leader && hasOwnJobAffinity(pod),
		exclusive:    pod.Annotations[exclusiveAnnotation],
		spec:         &pod.Spec,
		created:      pod.CreationTimestamp.Time,
	}
	if old != nil && old.assumed && e.nodeName == "" {
		// The informer has not seen the binding yet: keep the assumption.
		e.nodeName, e.assumed = old.nodeName, true
	}
	if old != nil {
		c.unindexLocked(old)
	}
	c.pods[pod.UID] = e
	c.indexLocked(e)
	var acts Actions
	if !isMember || err != nil {
		return acts
	}
	if old == nil || !old.isMember || old.memberErr != nil || old.member != m {
		// A new (or newly well-formed) member may complete the set
		// PreEnqueue waits for.
		acts.Activate = c.pendingLocked(m.Key)
	}
	c.settleLocked(m.Key)
	return acts
}

// DeletePod forgets a pod.
func (c *Cache) DeletePod(uid types.UID) Actions {
	c.mu.Lock()
	defer c.mu.Unlock()
	e := c.pods[uid]
	if e == nil {
		return Actions{}
	}
	c.unindexLocked(e)
	delete(c.pods, uid)
	var acts Actions
	if e.isMember && e.memberErr == nil {
		if r := c.reservations[e.member.Key]; r != nil {
			delete(r.Reserved, uid)
		}
	}
	if e.nodeName != "" && !e.terminal {
		// Freed capacity or a freed domain may let a waiting workload in.
		acts.Activate = c.waitingPodsLocked()
	}
	return acts
}

func (c *Cache) indexLocked(e *podEntry) {
	if e.isMember && e.memberErr == nil {
		set := c.members[e.member.Key]
		if set == nil {
			set = map[types.UID]*podEntry{}
			c.members[e.member.Key] = set
		}
		set[e.uid] = e
	}
	if c.holdsLocked(e) {
		h := c.holders[e.nodeName]
		if h == nil {
			h = map[workload.Key]int{}
			c.holders[e.nodeName] = h
		}
		h[e.member.Key]++
	}
}

func (c *Cache) unindexLocked(e *podEntry) {
	if e.isMember && e.memberErr == nil {
		if set := c.members[e.member.Key]; set != nil {
			delete(set, e.uid)
			if len(set) == 0 {
				delete(c.members, e.member.Key)
			}
		}
	}
	if c.holdsLocked(e) {
		if h := c.holders[e.nodeName]; h != nil {
			h[e.member.Key]--
			if h[e.member.Key] <= 0 {
				delete(h, e.member.Key)
			}
			if len(h) == 0 {
				delete(c.holders, e.nodeName)
			}
		}
	}
}

// holdsLocked: a running or assumed pod of a confined slice holds its node's
// domains against other workloads. Whether the slice is confined is read
// from the pod itself (JobSet copies the exclusive-topology annotation onto
// it), so the index never changes under a pod when its workload changes.
func (c *Cache) holdsLocked(e *podEntry) bool {
	return e.isMember && e.memberErr == nil && e.nodeName != "" && !e.terminal &&
		(e.exclusive != "" || c.opts.DefaultDomainKey != "")
}

// pendingLocked lists the unbound, non-terminal pods of our scheduler in a
// workload.
func (c *Cache) pendingLocked(key workload.Key) []PodRef {
	var out []PodRef
	for uid, e := range c.members[key] {
		if e.nodeName == "" && !e.terminal && e.scheduler == c.opts.SchedulerName {
			out = append(out, PodRef{Namespace: e.namespace, Name: e.name, UID: uid})
		}
	}
	return out
}

func (c *Cache) waitingPodsLocked() []PodRef {
	var out []PodRef
	for key := range c.waiting {
		out = append(out, c.pendingLocked(key)...)
	}
	return out
}

// Logger is used for cache-level diagnostics.
var logger = klog.Background().WithName("multislice-cache")
