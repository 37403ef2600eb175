package autoprovision

import (
	"sort"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	resourcehelper "k8s.io/component-helpers/resource"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/computeclass"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Group is the demand of pods that go together: the pods of one Job, or
// a pod of no Job alone.
type Group struct {
	// Key tells groups apart: job/<namespace>/<name>/<uid> or
	// pod/<namespace>/<name>.
	Key string
	// Ref is <namespace>/<name> of the Job or pod, for people.
	Ref   string
	Class string
	// Size is how many pods the group runs at once: the Job's parallelism
	// (at least the pods seen).
	Size int
	// Requests are one pod's (the first one seen).
	Requests corev1.ResourceList
	// Exclusive: its JobSet wants one node pool per Job.
	Exclusive bool
	// Pool is the node pool its pods are pinned to: what a node selector
	// names (JobSet's webhook pins a Job's followers to the leader's
	// pool), or, for an exclusive group, where a member is bound; "" for
	// none.
	Pool string
	// Selector are the other terms of its node selector.
	Selector map[string]string
	// Pending are its unbound pods, oldest first.
	Pending []*corev1.Pod
	// Bound counts its pods bound to a node.
	Bound int
	// Created is when its oldest pod was created.
	Created time.Time
}

// JobLookup returns a Job by namespace and name.
type JobLookup func(namespace, name string) (*batchv1.Job, bool)

// Groups gathers the groups of pods that select a class and have at least
// one unbound pod: the demand. nodePool gives the node pool of a node by
// name ("" when unknown). Pods that have ended or are being deleted, and
// unbound pods with scheduling gates, are not demand; bound pods of a
// group with pending ones pin it to their pool. Groups are ordered by
// their oldest pod, then key.
func Groups(pods []*corev1.Pod, jobs JobLookup, nodePool func(node string) string) []*Group {
	byKey := map[string]*Group{}
	for _, p := range pods {
		class := computeclass.PodClass(p)
		if class == "" || ended(p) {
			continue
		}
		key, ref, size := groupOf(p, jobs)
		g := byKey[key]
		if g == nil {
			g = &Group{Key: key, Ref: ref, Class: class, Size: size, Requests: resourcehelper.PodRequests(p, resourcehelper.PodResourcesOptions{}),
				Exclusive: p.Annotations[wellknown.ExclusiveTopologyAnnotation] == wellknown.NodePoolLabel, Selector: map[string]string{},
				Created: p.CreationTimestamp.Time}
			byKey[key] = g
		}
		if p.CreationTimestamp.Time.Before(g.Created) {
			g.Created = p.CreationTimestamp.Time
		}
		for k, v := range p.Spec.NodeSelector {
			switch k {
			case wellknown.ComputeClassLabel:
			case wellknown.NodePoolLabel:
				g.Pool = v
			default:
				g.Selector[k] = v
			}
		}
		if p.Spec.NodeName != "" {
			g.Bound++
			if pool := nodePool(p.Spec.NodeName); pool != "" && g.Exclusive {
				g.Pool = pool
			}
			continue
		}
		if len(p.Spec.SchedulingGates) == 0 {
			g.Pending = append(g.Pending, p)
		}
	}
	var out []*Group
	for _, g := range byKey {
		if len(g.Pending) == 0 {
			continue
		}
		g.Size = max(g.Size, g.Bound+len(g.Pending))
		sort.Slice(g.Pending, func(i, j int) bool {
			a, b := g.Pending[i], g.Pending[j]
			if !a.CreationTimestamp.Equal(&b.CreationTimestamp) {
				return a.CreationTimestamp.Before(&b.CreationTimestamp)
			}
			return a.Name < b.Name
		})
		out = append(out, g)
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].Created.Equal(out[j].Created) {
			return out[i].Created.Before(out[j].Created)
		}
		return out[i].Key < out[j].Key
	})
	return out
}

// groupOf is a pod's group: its controlling Job, sized by the Job's
// parallelism (capped by its completions), or the pod alone.
func groupOf(p *corev1.Pod, jobs JobLookup) (key, ref string, size int) {
	owner := metav1.GetControllerOf(p)
	if owner == nil || owner.Kind != "Job" {
		return "pod/" + p.Namespace + "/" + p.Name, p.Namespace + "/" + p.Name, 1
	}
	key = "job/" + p.Namespace + "/" + owner.Name + "/" + string(owner.UID)
	ref = p.Namespace + "/" + owner.Name
	size = 1
	if job, ok := jobs(p.Namespace, owner.Name); ok && job.UID == owner.UID && job.Spec.Parallelism != nil {
		size = int(*job.Spec.Parallelism)
		if job.Spec.Completions != nil && int(*job.Spec.Completions) < size {
			size = int(*job.Spec.Completions)
		}
	}
	return key, ref, max(size, 1)
}
