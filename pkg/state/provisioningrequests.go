package state

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A workload's provisioning check runs through ProvisioningRequests: the
// provisioning controller creates the requests listed here, and what each
// says comes back through ObserveProvisioning (provisioned, failed,
// booking expired, capacity revoked), which moves the check on.

// ProvisioningTask is a request the provisioning controller must create.
type ProvisioningTask struct {
	Key     workload.Key
	Ref     corev1.ObjectReference
	Model   *workload.Workload
	Check   provisioning.Check
	Attempt int32
	Request string
	// Slices are the slices the request provisions (those not placed).
	Slices []int
}

// ProvisioningTasks lists the requests to create, in key order.
func (up Upkeep) ProvisioningTasks() []ProvisioningTask {
	s := up.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ProvisioningTask
	for _, key := range s.workloads.keys() {
		w := s.workloads.of(key)
		t := w.check
		if t == nil || t.created || t.phase != checkRequesting || w.model == nil {
			continue
		}
		c := s.checks.get(t.check)
		if c == nil {
			continue
		}
		out = append(out, ProvisioningTask{Key: key, Ref: w.ref, Model: w.model, Check: *c, Attempt: t.attempt, Request: t.requestName(w), Slices: w.active()})
	}
	return out
}

// ProvisioningCreated records that the request of key's attempt exists.
// The head is activated, so that the gate tells the workload's held pods
// the new reason for their wait (see retoldLocked).
func (up Upkeep) ProvisioningCreated(key workload.Key, attempt int32) Actions {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	if w := s.workloads.of(key); w != nil && w.check != nil && w.check.attempt == attempt && !w.check.created {
		w.check.created = true
		return up.retoldLocked(w, "request created", true)
	}
	return Actions{}
}

// retoldLocked sets the message of w's check (told: see checkTrack.told)
// and, when it changed while the workload waits for its request,
// activates its head: the gate then holds its pods again with the new
// message, which their PodScheduled condition shows. Nothing else would:
// the pods do not change while they wait (their template names the
// request already).
func (up Upkeep) retoldLocked(w *Workload, message string, told bool) Actions {
	t := w.check
	if t.message == message {
		return Actions{}
	}
	t.message, t.told = message, told
	return Actions{Activate: up.headRefsLocked(w)}
}

// ProvisioningUpdate is what a workload's request says now.
type ProvisioningUpdate struct {
	Key     workload.Key
	Attempt int32
	// Request names the attempt's request, in the workload's namespace,
	// and Check is the workload's check (ProvisioningRequests fills both).
	Request string
	Check   provisioning.Check
	Outcome provisioning.Outcome
	Message string
	// NodeSelector, for a provisioned request, is where the capacity
	// provisioned for it is (see provisioning.NodeSelector).
	NodeSelector provisioning.Selector
	// Stage is where the workload stood when ProvisioningRequests listed
	// it (see CheckStage).
	Stage CheckStage
}

// CheckStage is what ObserveProvisioning's answer depends on besides the
// request itself: the track's phase, whether its request was created,
// whether the workload runs or is being placed, and the check's config.
// The same request (resourceVersion) observed again at the same stage
// changes nothing, so the controller need not observe it again.
type CheckStage struct {
	phase   checkPhase
	created bool
	running bool
	check   *provisioning.Check
}

// ObserveProvisioning applies what a request's conditions say. It returns
// the pods to evict when provisioned capacity the workload runs on is
// revoked; the caller evicts them.
func (up Upkeep) ObserveProvisioning(u ProvisioningUpdate) (Actions, []PodRef) {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.workloads.of(u.Key)
	if w == nil || w.check == nil || w.check.attempt != u.Attempt {
		return Actions{}, nil
	}
	t := w.check
	now := s.opts.Clock.Now()
	running := up.runningLocked(w)
	var acts Actions
	event := func(warning bool, reason, msg string) {
		acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: warning, Reason: reason, Message: msg})
	}
	switch u.Outcome {
	case provisioning.Pending:
		if t.phase == checkRequesting && t.created {
			acts = up.retoldLocked(w, u.Message, u.Message == provisioning.NotAccepted)
		}
	case provisioning.Provisioned:
		if t.phase != checkRequesting {
			return Actions{}, nil
		}
		t.phase, t.since, t.message, t.nodeSelector = checkReady, now, "provisioned", u.NodeSelector
		s.bumpLocked()
		event(false, "Provisioned", fmt.Sprintf("ProvisioningRequest %s is provisioned; placing %s", t.requestName(w), w.key))
		acts.Activate = up.headRefsLocked(w)
	case provisioning.BookingExpired:
		if running || t.phase != checkRequesting && t.phase != checkReady {
			// The autoscaler ends the booking once the pods are placed.
			return Actions{}, nil
		}
		acts.merge(up.failCheckLocked(w, s.checks.get(t.check), "BookingExpired", u.Message, now))
	case provisioning.Failed:
		if running || t.phase != checkRequesting && t.phase != checkReady {
			return Actions{}, nil
		}
		acts.merge(up.failCheckLocked(w, s.checks.get(t.check), "Failed", u.Message, now))
	case provisioning.CapacityRevoked:
		if t.phase != checkReady && t.phase != checkConsumed {
			return Actions{}, nil
		}
		if limit, err := s.copier.maxRunLocked(w); err == nil && limit > 0 && !now.Before(t.since.Add(limit-runSlack(limit))) {
			// The provisioner reclaims the nodes maxRunDuration after it
			// provisioned them, a moment before the workload's own
			// deadline (counted from placement): the run is over, not
			// interrupted. End it as at its deadline; do not requeue it.
			return up.endRunLocked(w, limit, now), nil
		}
		// The capacity goes away under the workload: it is evicted whole
		// and comes back through its queue, with a new request.
		w.check = &checkTrack{check: t.check, attempt: t.attempt, phase: checkBackoff, since: now, message: "capacity revoked: " + u.Message}
		event(true, "CapacityRevoked", fmt.Sprintf("ProvisioningRequest %s: capacity revoked (%s); evicting %s whole", t.requestName(w), u.Message, w.key))
		var victims []PodRef
		for _, p := range w.members {
			if p.Live() && !p.Deleting {
				victims = append(victims, p.Ref())
			}
		}
		s.bumpLocked()
		return acts, victims
	}
	return acts, nil
}

// runningLocked reports whether w runs or is being placed: a request's
// booking ending then ends nothing.
func (up Upkeep) runningLocked(w *Workload) bool {
	s := up.s
	return s.reservations.of(w.key) != nil || w.model != nil && w.placedWhole()
}

// failCheckLocked ends a failed attempt: the quota goes back and the
// workload retries after a backoff, or is rejected once the retries are
// spent.
func (up Upkeep) failCheckLocked(w *Workload, c *provisioning.Check, what, message string, now time.Time) Actions {
	s := up.s
	t := w.check
	retry := provisioning.DefaultRetry
	if c != nil {
		retry = c.Retry
	}
	t.failures++
	var acts Actions
	req := t.requestName(w)
	if t.failures > retry.Limit {
		t.phase, t.since = checkRejected, now
		t.message = fmt.Sprintf("ProvisioningRequest %s: %s (%s); no retries left (%d allowed)", req, what, message, retry.Limit)
		acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: true, Reason: "ProvisioningRejected", Message: t.message})
	} else {
		wait := retry.Backoff(t.failures)
		t.phase, t.since, t.retryAt = checkBackoff, now, now.Add(wait)
		t.message = fmt.Sprintf("ProvisioningRequest %s: %s (%s); retry %d of %d", req, what, message, t.failures, retry.Limit)
		acts.Events = append(acts.Events, Event{Ref: w.ref, Warning: true, Reason: "ProvisioningRetry", Message: fmt.Sprintf("%s in %s", t.message, wait)})
	}
	if s.book.ChargeOf(w.key) != nil && s.reservations.of(w.key) == nil {
		ch := s.book.Release(w.key)
		s.queues.trackQueuedLocked(w)
		acts.Wake = append(acts.Wake, ch.ClusterQueue)
	}
	s.bumpLocked()
	return acts
}

// expireChecksLocked lets workloads whose retry backoff ended try again.
func (up Upkeep) expireChecksLocked(now time.Time) Actions {
	s := up.s
	var acts Actions
	for w := range s.workloads.all() {
		if t := w.check; t != nil && t.phase == checkBackoff && !t.retryAt.IsZero() && !now.Before(t.retryAt) {
			t.retryAt = time.Time{}
			acts.Activate = append(acts.Activate, up.headRefsLocked(w)...)
		}
	}
	if len(acts.Activate) > 0 {
		s.bumpLocked()
	}
	return acts
}

// checkPlacedLocked is called when a workload with a check is placed
// whole: the capacity it was provisioned is consumed, and a later
// admission (after a restart or an eviction) provisions anew.
func (w *Workload) checkPlacedLocked() {
	if t := w.check; t != nil && t.phase == checkReady {
		w.check = &checkTrack{check: t.check, attempt: t.attempt, phase: checkConsumed, since: t.since, message: "placed on the provisioned capacity"}
	}
}

// ProvisioningRequests lists, per workload with a check, its current
// request and attempt, for the controller to read what each says.
func (rp Reports) ProvisioningRequests() []ProvisioningUpdate {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []ProvisioningUpdate
	for w := range s.workloads.all() {
		if u, ok := rp.provisioningUpdateLocked(w); ok {
			out = append(out, u)
		}
	}
	return out
}

// ProvisioningRequestOf is what ProvisioningRequests lists for key alone
// (false: key has no request).
func (rp Reports) ProvisioningRequestOf(key workload.Key) (ProvisioningUpdate, bool) {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.workloads.of(key); w != nil {
		return rp.provisioningUpdateLocked(w)
	}
	return ProvisioningUpdate{}, false
}

func (rp Reports) provisioningUpdateLocked(w *Workload) (ProvisioningUpdate, bool) {
	s := rp.s
	t := w.check
	if t == nil || t.attempt <= 0 {
		return ProvisioningUpdate{}, false
	}
	c := s.checks.get(t.check)
	u := ProvisioningUpdate{Key: w.key, Attempt: t.attempt, Request: t.requestName(w),
		Stage: CheckStage{phase: t.phase, created: t.created, check: c}}
	if t.phase == checkRequesting || t.phase == checkReady {
		// Only then does ObserveProvisioning read it.
		u.Stage.running = s.Upkeep().runningLocked(w)
	}
	if c != nil {
		u.Check = *c
	}
	return u, true
}
