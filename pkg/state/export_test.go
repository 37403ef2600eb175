package state

import (
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// What the external tests of this package read and production code does
// not.

// RunExpiredAt is when the workload was ended for exceeding its maximum
// run duration (zero: it was not).
func (s *State) RunExpiredAt(key workload.Key) time.Time {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.workloads.of(key); w != nil {
		return w.runExpired
	}
	return time.Time{}
}

// IsWaitingHead reports whether the pod is the one its waiting workload
// retries through.
func (s *State) IsWaitingHead(pod *corev1.Pod) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.queued.headOf(pod.UID) != nil
}

// SnapshotForPlan is the snapshot a scheduling cycle plans on first
// (PodCycle.Plan), taken for key's workload whatever its state: the tests
// compare it with the full Snapshot. The domains in which no node carries
// the labels every pod of the workload selects are left out; the domains
// in which another workload's pods hold a node are listed in Domains but
// their nodes are left out (Elided), and so are the workloads only they
// hold.
func (s *State) SnapshotForPlan(key workload.Key, requested Requested) *Snapshot {
	return s.snapshot(key, requested, true)
}

// DefaultDomainKey is the key confining gangs that name none.
func (s *State) DefaultDomainKey() string { return s.opts.DefaultDomainKey }

// Reservations is the number of live reservations.
func (s *State) Reservations() int {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.reservations.count()
}
