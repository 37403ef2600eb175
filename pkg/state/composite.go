package state

import (
	"maps"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// A pod of a Kubernetes PodGroup names only its group
// (spec.schedulingGroup.podGroupName). When that group is a child of a gang
// CompositePodGroup, the pod is a member of the composite's workload, in
// the slice the child is: the state resolves this from the composite's
// model (workload.Workload.Children), and moves the pods already indexed
// whenever a composite's children change, so that membership always
// follows the composite the state holds.

// childMember resolves the membership of a pod of a Kubernetes PodGroup:
// its own group's, or, for a child of a composite the state holds, the
// composite's slice. Other memberships are returned as they are.
func (x *workloadIndex) childMember(m workload.Member, namespace string, spec *corev1.PodSpec) workload.Member {
	if m.Key.Source != workload.SourceInTreePodGroup && m.Key.Source != workload.SourceCompositePodGroup {
		return m
	}
	if g := spec.SchedulingGroup; g != nil && g.PodGroupName != nil {
		m.Key, m.Slice = workload.Key{Source: workload.SourceInTreePodGroup, Namespace: namespace, Name: *g.PodGroupName}, 0
	}
	if c, ok := x.children[m.Key]; ok {
		m.Key, m.Slice = c.key, c.slice
	}
	return m
}

// rechildLocked records a composite's children as its model now names
// them, and re-indexes the pods whose membership that changes: those of
// a child that joined (indexed, until now, under the child's own key) and
// every member of the composite (a child that left, or slices renumbered
// because a child came or went). Pods are replaced, never changed, once
// indexed.
func (fd Feed) rechildLocked(key workload.Key, model *workload.Workload) {
	s := fd.s
	x := &s.workloads
	var now map[workload.Key]int
	if model != nil {
		now = model.Children
	}
	before := map[workload.Key]int{}
	for child, ref := range x.children {
		if ref.key == key {
			before[child] = ref.slice
		}
	}
	if maps.Equal(before, now) {
		return
	}
	for child := range before {
		delete(x.children, child)
	}
	for child, slice := range now {
		x.children[child] = sliceRef{key: key, slice: slice}
	}
	touched := map[workload.Key]bool{key: true}
	for child := range before {
		touched[child] = true
	}
	for child := range now {
		touched[child] = true
	}
	var moved []*Pod
	for k := range touched {
		if w := x.of(k); w != nil {
			for _, p := range w.members {
				moved = append(moved, p)
			}
		}
	}
	emptied := map[workload.Key]bool{}
	for _, p := range moved {
		m := x.childMember(p.Member, p.Namespace, p.Spec)
		if m == p.Member {
			continue
		}
		emptied[p.Member.Key] = true
		np := *p
		np.Member = m
		s.unindexLocked(p)
		s.indexLocked(&np)
	}
	for k := range emptied {
		if w := x.of(k); w != nil && k != key {
			fd.dropIfEmptyLocked(w)
		}
	}
}

// forgetChildrenLocked drops the children of a composite the state no
// longer holds.
func (x *workloadIndex) forgetChildren(key workload.Key) {
	for child, ref := range x.children {
		if ref.key == key {
			delete(x.children, child)
		}
	}
}
