package state

import (
	"fmt"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A workload whose ClusterQueue lists a provisioning admission check is
// admitted in two steps. Its head first reserves quota alone (nothing is
// placed: the capacity does not exist yet) and the workload's
// ProvisioningRequest is created; its pods wait gated until the request is
// Provisioned, and then the head plans the whole workload, in one zone, as
// any other. The quota stays charged in between, so the capacity being
// provisioned is never left without the quota to use it.

// checkPhase is where a workload stands in its provisioning check.
type checkPhase int

const (
	// checkRequesting: quota reserved; the attempt's request is created
	// (or about to be) and not provisioned yet.
	checkRequesting checkPhase = iota
	// checkReady: provisioned; the workload may be placed.
	checkReady
	// checkBackoff: the attempt failed; quota released until retryAt.
	checkBackoff
	// checkRejected: retries are exhausted; the workload waits for its
	// owner to act (delete or recreate it).
	checkRejected
	// checkConsumed: the workload was placed on the provisioned capacity;
	// a later admission (after a restart or an eviction) provisions anew.
	checkConsumed
)

func (p checkPhase) String() string {
	return [...]string{"Pending", "Ready", "Retry", "Rejected", "Ready"}[p]
}

// checkTrack is a workload's progress through its provisioning check.
type checkTrack struct {
	check string
	// attempt is the current request's attempt (from 1); failures counts
	// the failed attempts of this admission.
	attempt, failures int32
	phase             checkPhase
	// created: the attempt's request exists.
	created bool
	message string
	// told: the message says only what the workload's own events told
	// already (QuotaReserved, ProvisioningRequested: quota reserved, the
	// request created and not accepted yet), so the gate holding its pods
	// records no event of it. A word of the provisioner's is not told
	// yet: the gate records it.
	told    bool
	retryAt time.Time
	since   time.Time
	// nodeSelector is where the capacity provisioned for it is: the
	// workload is placed only on nodes it matches.
	nodeSelector provisioning.Selector
}

// holdsQuota reports whether the track keeps the workload's charge while
// nothing of it is placed.
func (t *checkTrack) holdsQuota() bool {
	return t != nil && (t.phase == checkRequesting || t.phase == checkReady)
}

// provisioningChecks are the provisioning admission checks, by
// AdmissionCheck name: what the informer last read of each (a check that
// is not ours, or deleted, is absent). Guarded by State.mu.
type provisioningChecks struct {
	byName map[string]*provisioning.Check
}

// set records check name (nil: not ours, or deleted).
func (x *provisioningChecks) set(name string, c *provisioning.Check) {
	if c == nil {
		delete(x.byName, name)
		return
	}
	x.byName[name] = c
}

// get is check name (nil: none).
func (x *provisioningChecks) get(name string) *provisioning.Check { return x.byName[name] }

// forClusterQueue is the provisioning check workloads of cq pass (nil:
// none), or why cq's checks cannot be run.
func (x *provisioningChecks) forClusterQueue(cq *quota.ClusterQueue) (*provisioning.Check, string) {
	if len(cq.AdmissionChecks) == 0 {
		return nil, ""
	}
	if len(cq.AdmissionChecks) > 1 {
		return nil, fmt.Sprintf("ClusterQueue %s lists %d admission checks; this scheduler runs one provisioning check per queue", cq.Name, len(cq.AdmissionChecks))
	}
	name := cq.AdmissionChecks[0]
	c := x.byName[name]
	switch {
	case c == nil:
		return nil, fmt.Sprintf("AdmissionCheck %s of ClusterQueue %s not found, or not a provisioning check (controllerName %s)", name, cq.Name, "kueue.x-k8s.io/provisioning-request")
	case c.Problem != "":
		return nil, c.Problem
	}
	return c, ""
}

// SetAdmissionCheck records a provisioning admission check (nil c: the
// check is not ours, or was deleted). Workloads of queues that list it are
// looked at again.
func (fd Feed) SetAdmissionCheck(name string, c *provisioning.Check) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.checks.set(name, c)
	s.bumpLocked()
	return Actions{Activate: s.wakeAllLocked()}
}

// checkOfLocked returns the provisioning check w must pass (nil: none),
// or why it cannot be used.
func (qs queues) checkOfLocked(w *Workload) (*provisioning.Check, string) {
	queue := qs.queueNameLocked(w)
	if queue == "" {
		return nil, ""
	}
	return qs.queueCheckLocked(w.key.Namespace, queue)
}

// queueCheckLocked is the provisioning check of LocalQueue namespace/queue
// (nil: none), or why the queue's checks cannot be run.
func (qs queues) queueCheckLocked(namespace, queue string) (*provisioning.Check, string) {
	s := qs.s
	cq, p := s.book.Resolve(namespace, queue)
	if p != nil {
		return nil, ""
	}
	return s.checks.forClusterQueue(cq)
}

// QueueCheck is the provisioning check a workload queued in LocalQueue
// namespace/queue passes before it is placed (nil: none, or none this
// scheduler can run). The caller must not modify it.
func (rp Reports) QueueCheck(namespace, queue string) *provisioning.Check {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if c, problem := s.queues.queueCheckLocked(namespace, queue); problem == "" {
		return c
	}
	return nil
}

// checkWait is why a workload's head waits for its provisioning check,
// or for the request it consumes.
type checkWait struct {
	reason, message string
	// needsAction: only the user can help. told: the workload's own
	// events told the message already (see checkTrack.told).
	needsAction, told bool
}

// checkGateLocked says why w's head must wait for its provisioning check,
// or for the request it consumes, before it plans (nil: it need not).
func (cp copier) checkGateLocked(w *Workload) *checkWait {
	s := cp.s
	if w.ending {
		// Its owner is being suspended: no new capacity for it.
		return &checkWait{reason: "MaximumRunDurationExceeded", message: fmt.Sprintf("%s ran for its maximum run duration; it is not admitted again", w.key)}
	}
	if c := w.model.Consumes; c != nil {
		return consumerGate(w.key, c)
	}
	c, problem := s.queues.checkOfLocked(w)
	if problem != "" {
		return &checkWait{reason: "AdmissionCheckNotReady", message: problem, needsAction: true}
	}
	t := w.check
	if c == nil || t == nil || t.check != c.Name {
		return nil
	}
	switch t.phase {
	case checkRequesting:
		return &checkWait{reason: ReasonWaitingForProvisioning, message: fmt.Sprintf("waiting for ProvisioningRequest %s: %s", t.requestName(w), t.message), told: t.told}
	case checkBackoff:
		if s.opts.Clock.Now().Before(t.retryAt) {
			return &checkWait{reason: "WaitingForRetry", message: fmt.Sprintf("%s; retrying at %s", t.message, t.retryAt.UTC().Format(time.RFC3339))}
		}
	case checkRejected:
		return &checkWait{reason: "ProvisioningRejected", message: t.message}
	}
	return nil
}

// requestName is the name of the track's current request.
func (t *checkTrack) requestName(w *Workload) string {
	return provisioning.RequestName(w.key.ObjectName(), t.check, t.attempt)
}

// CheckRound is what reserving quota for a provisioning check reads
// (State.Gate copies it as PodCycle.CheckQuota for the head of a workload
// whose queue runs a check it has not passed): why it waits when it need
// not reserve now, or the quota to decide on.
type CheckRound struct {
	// Message is why it waits when it need not reserve now; Problem is
	// set when the user must act or its queue refuses it.
	Message string
	Problem *quota.Problem
	// Quota is set when its quota must be reserved now, for attempt
	// Attempt of Check (the next request's).
	Quota   *QuotaDecision
	Key     workload.Key
	Check   string
	Attempt int32
}

// checkRoundLocked gathers what reserving quota for w's provisioning
// check reads (nil: w needs no such step, it plans as usual). w is a
// complete gang that holds no reservation and does not run whole.
func (cp copier) checkRoundLocked(w *Workload) *CheckRound {
	s := cp.s
	c, problem := s.queues.checkOfLocked(w)
	if c == nil {
		if problem != "" {
			return &CheckRound{Message: problem, Problem: &quota.Problem{Reason: "AdmissionCheckNotReady", Message: problem}}
		}
		return nil
	}
	if w.ending {
		const ended = "ended at its maximum run duration"
		return &CheckRound{Message: ended, Problem: &quota.Problem{Reason: "MaximumRunDurationExceeded", Message: ended}}
	}
	if t := w.check; t != nil && t.check == c.Name && t.phase == checkReady {
		return nil
	}
	if cp.checkRestorePendingLocked(w) {
		// The leader before this one reserved its quota and requested its
		// capacity: resumed from the API (RestoreCheck), not done again.
		return &CheckRound{Message: fmt.Sprintf("resuming the provisioning check of %s from its Workload object", w.key)}
	}
	if !s.queues.awaitingAdmissionLocked(w) {
		// Charged already: the request is under way.
		return &CheckRound{Message: fmt.Sprintf("waiting for the provisioning of %s", w.key)}
	}
	q := cp.quotaDecisionLocked(w)
	if q.Problem != nil {
		return &CheckRound{Message: q.Problem.Message, Problem: q.Problem}
	}
	return &CheckRound{Quota: q, Key: w.key, Check: c.Name, Attempt: nextAttempt(w.check, c.Name)}
}

// nextAttempt is the attempt of the next request of check after track t:
// attempts number every request of the workload (names stay unique).
func nextAttempt(t *checkTrack, check string) int32 {
	if t != nil && t.check == check {
		return t.attempt + 1
	}
	return 1
}

// CheckReservation is quota reserved for a workload's provisioning check
// (Decision.CheckQuota): Charge, for attempt Attempt of Check.
type CheckReservation struct {
	Check   string
	Attempt int32
	Charge  *quota.Charge
}

// reserveCheckQuotaLocked charges the quota decided for key's
// provisioning check and starts the check: its request can then be
// created. It refuses what moved under the decision: the workload gone or
// admitted, its check changed or another attempt started meanwhile, or
// the quota taken.
func (ap applier) reserveCheckQuotaLocked(key workload.Key, cr *CheckReservation) error {
	s := ap.s
	w := s.workloads.of(key)
	if w == nil || w.model == nil {
		return fmt.Errorf("%s is gone", key)
	}
	if !s.queues.awaitingAdmissionLocked(w) {
		return fmt.Errorf("%s was admitted meanwhile", key)
	}
	if c, _ := s.queues.checkOfLocked(w); c == nil || c.Name != cr.Check {
		return fmt.Errorf("the admission check of %s changed meanwhile", key)
	}
	if nextAttempt(w.check, cr.Check) != cr.Attempt {
		return fmt.Errorf("the provisioning check of %s moved on meanwhile", key)
	}
	if err := ap.chargeLocked(w, cr.Charge); err != nil {
		return err
	}
	t := &checkTrack{check: cr.Check, attempt: cr.Attempt, phase: checkRequesting, since: s.opts.Clock.Now(), message: "quota reserved; the request is being created", told: true}
	if old := w.check; old != nil && old.check == cr.Check && old.phase == checkBackoff {
		// Failures count those of this admission only.
		t.failures = old.failures
	}
	w.check = t
	s.bumpLocked()
	return nil
}

// CheckReport is where a workload stands in its admission check.
type CheckReport struct {
	Name    string
	State   string
	Message string
	Request string
	Attempt int32
	Since   time.Time
}

func (rp Reports) checkReportLocked(w *Workload) *CheckReport {
	t := w.check
	if t == nil {
		return nil
	}
	return &CheckReport{Name: t.check, State: t.phase.String(), Message: t.message, Request: t.requestName(w), Attempt: t.attempt, Since: t.since}
}

// PendingMembers lists the live members of key this scheduler still has to
// place.
func (rp Reports) PendingMembers(key workload.Key) []PodRef {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.workloads.of(key); w != nil {
		return s.pendingLocked(w)
	}
	return nil
}

// headRefsLocked is w's head, to activate when its check lets it plan.
func (up Upkeep) headRefsLocked(w *Workload) []PodRef {
	s := up.s
	if h := s.headLocked(w); h != nil {
		return []PodRef{*h}
	}
	return nil
}

// provisionedSelectorLocked is the node selector of the capacity
// provisioned for w (nil: none).
func (cp copier) provisionedSelectorLocked(w *Workload) provisioning.Selector {
	if t := w.check; t != nil && t.phase == checkReady {
		return t.nodeSelector
	}
	if w.model != nil && w.model.Consumes != nil && w.model.Consumes.Provisioned {
		return w.model.Consumes.NodeSelector
	}
	return nil
}
