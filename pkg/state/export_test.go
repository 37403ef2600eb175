package state

import (
	"maps"
	"slices"
	"time"

	"github.com/google/go-cmp/cmp"
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

// DomainRoomRecount compares the free room the state keeps for the domains
// of levels (domainRoom) with a count of every node made afresh: "" when
// they agree, else how they differ.
func (s *State) DomainRoomRecount(levels []string) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	spec := s.room.track(levels, s.nodes)
	s.room.refresh(s.nodes, &s.pods)
	fresh := newDomainRoom()
	fresh.track(levels, s.nodes)
	fresh.refresh(s.nodes, &s.pods)
	type domain struct {
		Free  map[string]int64
		Nodes []string
	}
	view := func(r *domainRoom) map[string]domain {
		out := map[string]domain{}
		for path, dom := range r.domains[spec] {
			d := domain{Free: map[string]int64{}, Nodes: slices.Sorted(maps.Keys(dom.nodes))}
			for name, v := range dom.free {
				if v != 0 {
					d.Free[string(name)] = v
				}
			}
			out[path] = d
		}
		return out
	}
	return cmp.Diff(view(&fresh), view(&s.room))
}
