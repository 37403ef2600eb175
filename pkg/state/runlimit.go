package state

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A workload may run at most maxRunDurationSeconds, counted from when it
// was placed whole: its own provreq.kueue.x-k8s.io/maxRunDurationSeconds
// annotation, or else the parameter of its queue's provisioning check, or
// else its ClusterQueue's maxRunDurationSeconds. Flex-start capacity is reclaimed at that time
// anyway; ending the workload then, whole, is what lets it end cleanly.

// Expiry is a workload past its maximum run duration: its owner is
// suspended (Jobs, JobSets: their controllers remove the pods and nothing
// restarts them) or, for owners that cannot be suspended, its pods are
// evicted.
type Expiry struct {
	Key   workload.Key
	Ref   corev1.ObjectReference
	Limit time.Duration
	// At is when it was found past its limit.
	At time.Time
	// Pods are its live pods, for owners that cannot be suspended.
	Pods []PodRef
}

// maxRunLocked is w's maximum run duration (0: none), or why its
// annotation cannot be read.
func (cp copier) maxRunLocked(w *Workload) (time.Duration, error) {
	s := cp.s
	if w.model == nil {
		return 0, nil
	}
	check := &provisioning.Check{}
	if c, _ := s.queues.checkOfLocked(w); c != nil {
		check = c
	}
	d, err := provisioning.MaxRunDuration(provisioning.Parameters(check, w.model.ProvisioningAnnotations))
	if d != 0 || err != nil {
		return d, err
	}
	if q := s.queues.queueNameLocked(w); q != "" {
		if cq, p := s.book.Resolve(w.key.Namespace, q); p == nil {
			return cq.MaxRunDuration, nil
		}
	}
	return 0, nil
}

// expireRunsLocked ends the workloads whose run duration passed.
func (up Upkeep) expireRunsLocked(now time.Time) Actions {
	s := up.s
	var acts Actions
	for w := range s.workloads.all() {
		if w.model == nil || w.model.Finished || w.placedAt.IsZero() || !w.runExpired.IsZero() || !w.ran() || w.livePods() == 0 {
			continue
		}
		limit, err := s.copier.maxRunLocked(w)
		if err != nil || limit == 0 || now.Sub(w.placedAt) < limit {
			continue
		}
		acts.merge(up.endRunLocked(w, limit, now))
	}
	return acts
}

// endRunLocked ends w at its maximum run duration.
func (up Upkeep) endRunLocked(w *Workload, limit time.Duration, now time.Time) Actions {
	w.runExpired, w.ending = now, true
	e := Expiry{Key: w.key, Ref: w.ref, Limit: limit, At: now}
	for _, p := range w.members {
		if p.Live() && !p.Deleting {
			e.Pods = append(e.Pods, p.Ref())
		}
	}
	return Actions{Expired: []Expiry{e}, Events: []Event{{Ref: w.ref, Warning: true, Reason: "MaximumRunDurationExceeded",
		Message: fmt.Sprintf("%s ran for its maximum of %s since it was placed at %s; it is ended whole", w.key, limit, w.placedAt.UTC().Format(time.RFC3339))}}}
}

// runSlack is how early a provisioner's revocation may come and still be
// the end of the run: it counts from provisioning, the workload from its
// placement a moment later.
func runSlack(limit time.Duration) time.Duration { return min(limit/10, 30*time.Second) }
