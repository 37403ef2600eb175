package state

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
)

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

// Schedulers lists the profile names whose pods this scheduler places,
// sorted.
func (s *State) Schedulers() []string {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sets.List(s.schedulers)
}

// HasLocalQueue reports whether LocalQueue namespace/name exists in this
// scheduler's queue API.
func (s *State) HasLocalQueue(namespace, name string) bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.book.HasLocalQueue(namespace, name)
}
