package state

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// registry is what this scheduler knows of who it schedules for: the
// profiles whose pods it places, and what discovery said of each workload
// API. It is embedded in State only because code that reads apis by that
// name is being moved out of the package by a concurrent change; other
// code names it (s.registry.ours). Guarded by State.mu.
type registry struct {
	// schedulers are the profile names whose pods this scheduler places.
	schedulers sets.Set[string]
	apis       map[workload.Source]APIStatus
}

func newRegistry() registry {
	// A LeaderWorkerSet group is read from its pods: no API to wait for.
	return registry{schedulers: sets.New[string](), apis: map[workload.Source]APIStatus{workload.SourceLeaderWorkerSet: APIServed}}
}

// ours reports whether name is one of this scheduler's profiles.
func (r *registry) ours(name string) bool { return r.schedulers.Has(name) }

// api is what is known of a workload API.
func (r *registry) api(src workload.Source) APIStatus { return r.apis[src] }

// setAPI records what discovery said of src, reporting whether it changed.
// The queue API stands for queued plain pods too: they are workloads only
// where queues are.
func (r *registry) setAPI(src workload.Source, status APIStatus) bool {
	if r.apis[src] == status {
		return false
	}
	r.apis[src] = status
	if src == QueueAPI {
		r.apis[workload.SourcePod] = status
	}
	return true
}

// HasScheduler reports whether pods of schedulerName are this scheduler's
// to place: it names one of the profiles registered with AddScheduler. An
// empty name is the default scheduler's, as the apiserver defaults it.
func (rp Reports) HasScheduler(schedulerName string) bool {
	s := rp.s
	if schedulerName == "" {
		schedulerName = corev1.DefaultSchedulerName
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.registry.ours(schedulerName)
}

// Schedulers lists the profile names whose pods this scheduler places,
// sorted.
func (rp Reports) Schedulers() []string {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	return sets.List(s.registry.schedulers)
}

// HasLocalQueue reports whether LocalQueue namespace/name exists in this
// scheduler's queue API.
func (rp Reports) HasLocalQueue(namespace, name string) bool {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	return s.book.HasLocalQueue(namespace, name)
}

// ResolveQueue names the ClusterQueue a workload of namespace naming
// LocalQueue queue is admitted through, or the problem that keeps its
// queue from admitting anything (a LocalQueue or ClusterQueue missing, a
// namespace not selected, a flavor missing).
func (rp Reports) ResolveQueue(namespace, queue string) (clusterQueue string, problem *quota.Problem) {
	s := rp.s
	s.mu.RLock()
	defer s.mu.RUnlock()
	cq, p := s.book.Resolve(namespace, queue)
	if p != nil {
		return "", p
	}
	return cq.Name, nil
}
