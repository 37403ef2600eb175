package state

import (
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// What the external tests of this package read and production code does
// not.

// RunExpiredAt is when the workload was ended for exceeding its maximum
// run duration (zero: it was not).
func (s *State) RunExpiredAt(key workload.Key) time.Time {
	s.mu.RLock()
	defer s.mu.RUnlock()
	if w := s.workloads[key]; w != nil {
		return w.runExpired
	}
	return time.Time{}
}
