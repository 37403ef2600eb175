// Package autoprovision is the local cluster's stand-in for GKE's node
// auto-provisioning of ComputeClasses (cloud.google.com/v1, seed 001):
// node pools created for the pods that select a class, from the class's
// priorities tried in order against simulated capacity (the
// autoProvisioning block of the node pool file), with flex-start nodes
// that live a bounded time and are recycled before it ends.
//
//   - Demand: pods that select a class (node selector
//     cloud.google.com/compute-class: <name>) and are unbound. The pods of
//     one Job form one group, sized by the Job's parallelism: JobSet's
//     webhook creates only each Job's leader pod until it is bound, so the
//     size comes from the Job, not from the pods seen. A group whose
//     JobSet is exclusive per cloud.google.com/gke-nodepool gets a node
//     pool of its own (or one of the class's that is free and big
//     enough); other groups share a pool per class, priority and zone.
//   - Priorities in order: spot and on-demand get all their nodes at once,
//     after a delay, if a zone's capacity has room; flex-start nodes are
//     queued and created one by one as capacity appears (one per interval
//     per machine type and zone).
//   - Spot capacity is revocable: lowered in the file, the spot nodes
//     beyond it are deleted, as GKE preempts them; their pods fail, and
//     the groups that come back fall back to the next priority.
//   - Lifetime (pkg/computeclass): a node ends at creation +
//     maxRunDurationSeconds (7 days for flex-start); a flex-start node with
//     nodeRecycling gets a replacement in its node pool leadTimeSeconds
//     before that, is cordoned once the replacement is Ready (its pods
//     keep running) and removed after the drain time or at its end of life,
//     whichever comes first.
//   - Scale-down: a node no pod uses, that no waiting group needs, is
//     removed after the scale-down unneeded time.
//
// Each step is one line of its log and an event on the pods or nodes
// concerned (events.go). The decisions (demand.go, machines.go,
// capacity.go, lifecycle.go) are functions of the objects and the time;
// controller.go feeds them from informers and pass.go carries them out.
package autoprovision

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
)

// Config is the autoProvisioning block of the node pool file.
type Config = nodepools.AutoProvisioning

// Annotations on the nodes it creates, so that a restarted
// auto-provisioning takes them back and people can read what it did.
const (
	// GroupAnnotation on a node of an exclusive pool names the group
	// (Job) the pool was created for or last given to.
	GroupAnnotation = "localcluster.multislice-scheduler.io/auto-provisioned-for"
	// PriorityAnnotation is the index of the class priority the node was
	// created from.
	PriorityAnnotation = "localcluster.multislice-scheduler.io/compute-class-priority"
	// ReplacesAnnotation on a replacement node names the node it recycles.
	ReplacesAnnotation = "localcluster.multislice-scheduler.io/replaces"
	// CordonedAnnotation on a recycled node is when it was cordoned
	// because its replacement was Ready (RFC 3339).
	CordonedAnnotation = "localcluster.multislice-scheduler.io/recycled-at"
)

// retryAfter is how soon a pass that hit an API error is repeated.
const retryAfter = 2 * time.Second

// kindShort names a kind of capacity in node pool names.
func kindShort(k computeclass.Capacity) string {
	switch k {
	case computeclass.Spot:
		return "spot"
	case computeclass.FlexStart:
		return "flex"
	default:
		return "std"
	}
}

// capacityOf is the configured capacity of a kind; nil for none.
func capacityOf(cfg *Config, k computeclass.Capacity) *nodepools.Capacity {
	switch k {
	case computeclass.Spot:
		return cfg.Spot
	case computeclass.FlexStart:
		return cfg.FlexStart
	default:
		return cfg.OnDemand
	}
}

// ended reports whether a pod has ended or is going: it holds nothing
// any more.
func ended(p *corev1.Pod) bool {
	return p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed
}

func plural(n int, word string) string {
	if n == 1 {
		return fmt.Sprintf("%d %s", n, word)
	}
	return fmt.Sprintf("%d %ss", n, word)
}

// earliest is the earlier of two times, a zero time counting as none.
func earliest(a, b time.Time) time.Time {
	switch {
	case a.IsZero():
		return b
	case b.IsZero() || a.Before(b):
		return a
	default:
		return b
	}
}

// timeOfDay prints a time for the log.
func timeOfDay(t time.Time) string { return t.Format("15:04:05") }

// dateAndTime prints a time days away for the log: a flex-start node
// lives 7 days by default, so its end needs a date.
func dateAndTime(t time.Time) string { return t.Format("2006-01-02 15:04:05") }
