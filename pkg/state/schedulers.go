package state

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
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

// ResolveQueue names the ClusterQueue a workload of namespace naming
// LocalQueue queue is admitted through, or the problem that keeps its
// queue from admitting anything (a LocalQueue or ClusterQueue missing, a
// namespace not selected, a flavor missing).
func (s *State) ResolveQueue(namespace, queue string) (clusterQueue string, problem *quota.Problem) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	cq, p := s.book.Resolve(namespace, queue)
	if p != nil {
		return "", p
	}
	return cq.Name, nil
}
