package state

import corev1 "k8s.io/api/core/v1"

// HasScheduler reports whether pods of schedulerName are this scheduler's
// to place: it names one of the profiles registered with AddScheduler. An
// empty name is the default scheduler's, as the apiserver defaults it.
func (s *State) HasScheduler(schedulerName string) bool {
	if schedulerName == "" {
		schedulerName = corev1.DefaultSchedulerName
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.schedulers.Has(schedulerName)
}
