package state

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Admissions are recorded on the API before they take effect. When a
// quota-managed gang's gate passes, its members wait in Permit until the
// admission — its ClusterQueue, and each slice's flavors and usage — is
// written on its Workload object (status.admission); only then may any
// pod bind. A scheduler that takes over (a restart, a failover) so finds,
// for every pod bound, what it is charged to, even when the queue objects
// have changed or are missing since. A queued plain pod needs no record:
// it is a workload of one pod, whose binding is itself its admission.
//
// What a ClusterQueue uses is what the API shows: the pods on nodes of
// its workloads (charged as their Workload objects record, or else by the
// flavors of their nodes), and on the leader the reservations whose pods
// wait in Permit — which nothing else can see, and which hold nothing a
// successor could count twice, since none of their pods is bound.

// RecordedAdmission is what a Workload object's status.admission says of
// the workload it belongs to.
type RecordedAdmission struct {
	// OwnerUID is the UID of the object the Workload object belongs to.
	OwnerUID types.UID
	// Charge is the admission as recorded (nil: none recorded).
	Charge *quota.Charge
	// Check and CheckState are the admission check the object records
	// and its state (Pending, Ready, Retry, Rejected; "" for none).
	Check, CheckState string
}

// recordedAdmissions are what Workload objects record of their admission,
// by workload: the informer's last word on each object with a recorded
// charge (an object gone, or recording none, is absent). Guarded by
// State.mu.
type recordedAdmissions struct {
	byKey map[workload.Key]*RecordedAdmission
}

// set records what key's Workload object says (nil, or no charge: none).
func (x *recordedAdmissions) set(key workload.Key, rec *RecordedAdmission) {
	if rec == nil || rec.Charge == nil {
		delete(x.byKey, key)
		return
	}
	x.byKey[key] = rec
}

// of is what key's Workload object records (nil: nothing).
func (x *recordedAdmissions) of(key workload.Key) *RecordedAdmission { return x.byKey[key] }

// chargeFor is the charge key's Workload object records for the object
// uid (nil: none, or one of another object of the same name).
func (x *recordedAdmissions) chargeFor(key workload.Key, uid types.UID) *quota.Charge {
	rec := x.byKey[key]
	if rec == nil || rec.Charge == nil || (uid != "" && rec.OwnerUID != uid) {
		return nil
	}
	return rec.Charge
}

// recordFirstLocked reports whether r's admission must be recorded before
// its pods bind.
func (ap applier) recordFirstLocked(w *Workload, r *Reservation) bool {
	s := ap.s
	return s.opts.RecordAdmissions && r.Charge != nil && w.key.Source != workload.SourcePod && r.record != recordWritten
}

// PendingRecord returns the report of key's workload to record on its
// Workload object while reservation id waits for it (ok false once it no
// longer does: released, replaced or recorded).
func (rp Reports) PendingRecord(key workload.Key, id uint64) (WorkloadReport, bool) {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	r, w := s.reservations.of(key), s.workloads.of(key)
	if r == nil || w == nil || r.ID != id || r.record != recordWriting || r.Committed || w.model == nil {
		return WorkloadReport{}, false
	}
	return rp.workloadReportLocked(w, s.queues.queueNameLocked(w)), true
}

// AdmissionRecorded records that reservation id's admission is on its
// Workload object: its gate is committed, and every member waiting in
// Permit may bind (the result lists them). It answers nothing once the
// reservation is gone or replaced.
func (up Upkeep) AdmissionRecorded(key workload.Key, id uint64) PermitResult {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	r, w := s.reservations.of(key), s.workloads.of(key)
	if r == nil || w == nil || r.ID != id || r.record != recordWriting || r.Committed || w.model == nil {
		return PermitResult{}
	}
	if why := s.applier.staleLocked(w, r); why != "" {
		msg := fmt.Sprintf("the reservation of %s no longer holds: %s", w.key, why)
		return PermitResult{Message: msg, Ref: w.ref, Actions: s.releaseLocked(w.key, ReleaseStale, msg)}
	}
	r.record = recordWritten
	return s.applier.commitGateLocked(w, r, w.ref, "")
}

// SetRecordedAdmission records what key's Workload object says of its
// admission (rec nil: the object is gone). A workload with pods on nodes
// and no charge (the scheduler started after they were placed) is charged
// as recorded.
func (fd Feed) SetRecordedAdmission(key workload.Key, rec *RecordedAdmission) Actions {
	s := fd.s
	s.mu.Lock()
	defer s.mu.Unlock()
	s.recorded.set(key, rec)
	if rec == nil || rec.Charge == nil {
		return Actions{}
	}
	var acts Actions
	if w := s.workloads.of(key); w != nil && s.rechargeLocked(w, &acts) {
		s.bumpLocked()
	}
	return acts
}

// Provisioning checks are rebuilt from the API too. A workload whose quota
// was reserved for its check, and whose capacity is being provisioned,
// has nothing on a node; its Workload object records the admission and
// the check's state, and its ProvisioningRequests exist, numbered by
// attempt. A scheduler that takes over charges it as recorded and resumes
// the check at its latest request, instead of reserving quota anew (which
// another workload may have taken meanwhile) and replaying every attempt.

// CheckToRestore is a workload whose provisioning check must be resumed
// from its Workload object and requests.
type CheckToRestore struct {
	Key   workload.Key
	Check string
}

// ChecksToRestore lists the workloads whose Workload object records quota
// reserved for a provisioning check still pending or ready, that this
// scheduler neither charges nor tracks yet.
func (rp Reports) ChecksToRestore() []CheckToRestore {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	var out []CheckToRestore
	for key, rec := range s.recorded.byKey {
		if w := s.workloads.of(key); w != nil && s.Upkeep().restorableLocked(w, rec) {
			out = append(out, CheckToRestore{Key: key, Check: rec.Check})
		}
	}
	slices.SortFunc(out, func(a, b CheckToRestore) int { return a.Key.Compare(b.Key) })
	return out
}

// restorableLocked: w's record says its check holds quota, and nothing of
// it is known here yet.
func (up Upkeep) restorableLocked(w *Workload, rec *RecordedAdmission) bool {
	s := up.s
	return rec.Charge != nil && rec.Check != "" && (rec.CheckState == checkRequesting.String() || rec.CheckState == checkReady.String()) &&
		w.model != nil && w.observed && !w.model.Finished && rec.OwnerUID == w.model.UID &&
		w.check == nil && s.book.ChargeOf(w.key) == nil && s.reservations.of(w.key) == nil && w.onNodes() == 0
}

// RestoreCheck resumes key's provisioning check at request attempt (the
// latest that exists; 0: none does, and the check starts over), charging
// the workload as its Workload object records. Its head is activated: the
// check's requests say what comes next.
func (up Upkeep) RestoreCheck(key workload.Key, attempt int32) Actions {
	s := up.s
	s.mu.Lock()
	defer s.mu.Unlock()
	w, rec := s.workloads.of(key), s.recorded.of(key)
	if w == nil || rec == nil || !up.restorableLocked(w, rec) {
		return Actions{}
	}
	t := &checkTrack{check: rec.Check, attempt: attempt, phase: checkRequesting, created: true, since: s.opts.Clock.Now(),
		message: "resumed from its Workload object after the scheduler took over"}
	if attempt == 0 {
		// Nothing to resume: the check starts over, as for a new workload.
		t = &checkTrack{check: rec.Check, phase: checkBackoff, since: s.opts.Clock.Now(), message: "its ProvisioningRequest is gone; requesting anew"}
		w.check = t
		s.bumpLocked()
		return Actions{Activate: up.headRefsLocked(w)}
	}
	s.book.Charge(key, rec.Charge)
	w.check = t
	s.queues.trackQueuedLocked(w)
	s.bumpLocked()
	return Actions{Activate: up.headRefsLocked(w)}
}

// checkRestorePendingLocked reports whether w's check waits to be resumed
// from its Workload object (see RestoreCheck): its head must not reserve
// quota anew meanwhile.
func (cp copier) checkRestorePendingLocked(w *Workload) bool {
	s := cp.s
	rec := s.recorded.of(w.key)
	return rec != nil && s.Upkeep().restorableLocked(w, rec)
}
