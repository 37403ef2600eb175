package cli

import (
	corev1 "k8s.io/api/core/v1"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// memberOf is a pod's membership as the scheduler derives it: from its
// labels and spec, and, for a pod of a Kubernetes PodGroup that is a child
// of a gang CompositePodGroup, the composite's slice that child is (the
// scheduler's own rule, workload.FromCompositePodGroup).
func (c *Cluster) memberOf(pod *corev1.Pod) (workload.Member, bool) {
	m, ok, err := workload.MemberOf(pod)
	if !ok || err != nil {
		return workload.Member{}, false
	}
	if m.Key.Source != workload.SourceInTreePodGroup || len(c.CompositePodGroups) == 0 {
		return m, true
	}
	pg := find(c.InTreePodGroups, m.Key.Namespace, m.Key.Name)
	if pg == nil {
		return m, true
	}
	parent, ok := workload.CompositeParent(pg)
	if !ok {
		return m, true
	}
	cpg := find(c.CompositePodGroups, parent.Namespace, parent.Name)
	if cpg == nil {
		return m, true
	}
	// A basic composite's child is a gang of its own; a malformed
	// composite's children carry its error (the scheduler says so on each).
	w, err := workload.FromCompositePodGroup(cpg, c.childrenOf(parent.Namespace, parent.Name), "")
	if err != nil || w == nil {
		return m, true
	}
	if i, ok := w.Children[m.Key]; ok {
		m.Key, m.Slice = parent, i
	}
	return m, true
}

// childrenOf lists the Kubernetes PodGroups that name namespace/name as
// their parent CompositePodGroup.
func (c *Cluster) childrenOf(namespace, name string) []*schedv1beta1.PodGroup {
	want := workload.Key{Source: workload.SourceCompositePodGroup, Namespace: namespace, Name: name}
	var out []*schedv1beta1.PodGroup
	for _, pg := range c.InTreePodGroups {
		if parent, ok := workload.CompositeParent(pg); ok && parent == want {
			out = append(out, pg)
		}
	}
	return out
}
