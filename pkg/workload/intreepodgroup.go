package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	schedv1beta1 "k8s.io/api/scheduling/v1beta1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SourceInTreePodGroup is a Kubernetes PodGroup (scheduling.k8s.io/v1beta1,
// feature gate GenericWorkload) whose pods name it in
// spec.schedulingGroup.podGroupName. Its source is spelled with the API
// group so that it never shares a Workload object name with a
// scheduler-plugins PodGroup (SourcePodGroup) of the same name.
const SourceInTreePodGroup Source = "PodGroup.scheduling.k8s.io"

// InTreePodGroupMember reads a pod's membership of a Kubernetes PodGroup.
func InTreePodGroupMember(pod *corev1.Pod) (Member, bool, error) {
	g := pod.Spec.SchedulingGroup
	if g == nil || g.PodGroupName == nil {
		return Member{}, false, nil
	}
	if *g.PodGroupName == "" {
		return Member{}, true, &InvalidError{fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name), "spec.schedulingGroup.podGroupName", "empty PodGroup name"}
	}
	return Member{Key: Key{Source: SourceInTreePodGroup, Namespace: pod.Namespace, Name: *g.PodGroupName}}, true, nil
}

// FromInTreePodGroup derives the workload of a Kubernetes PodGroup with the
// gang policy: one slice of minCount pods, all or none, like a
// scheduler-plugins PodGroup. Its topology constraint is read as
// Kubernetes reads it: every pod in one value of the key, a required
// topology other workloads may share (as Kueue's podset-required-topology).
// Our domain-key annotation asks for the domain whole instead (no other
// workload's slice in it), alone or with a constraint naming the same key;
// with neither, the group takes whole domains of defaultDomainKey, as
// scheduler-plugins PodGroups do. A group with the basic policy is not a gang:
// it has no workload (nil, nil) and its pods are scheduled one by one.
// A group with a parent CompositePodGroup is derived here only when that
// composite has the basic policy; a gang composite's groups are the slices
// of its workload (FromCompositePodGroup).
func FromInTreePodGroup(pg *schedv1beta1.PodGroup, template *corev1.PodSpec, defaultDomainKey string) (*Workload, error) {
	obj := fmt.Sprintf("%s %s/%s", SourceInTreePodGroup, pg.Namespace, pg.Name)
	s, gang, err := inTreeSlice(obj, pg, defaultDomainKey)
	if err != nil || !gang {
		return nil, err
	}
	atomicKey, err := AtomicTopologyKey(obj, pg.Annotations)
	if err != nil {
		return nil, err
	}
	w := groupWorkload(Key{Source: SourceInTreePodGroup, Namespace: pg.Namespace, Name: pg.Name}, &pg.ObjectMeta, s.Pods, s.DomainKey, atomicKey, template)
	w.Slices[0].Topology = s.Topology
	return w, nil
}

// inTreeSlice reads a Kubernetes PodGroup as one slice: its pods
// (minCount), where they go (inTreeDomainKey), and whether it is a gang
// at all (false for the basic policy).
func inTreeSlice(obj string, pg *schedv1beta1.PodGroup, defaultDomainKey string) (Slice, bool, error) {
	policy := pg.Spec.SchedulingPolicy
	switch {
	case policy.Basic != nil && policy.Gang != nil:
		return Slice{}, false, &InvalidError{obj, "spec.schedulingPolicy", "sets both basic and gang; exactly one is allowed"}
	case policy.Basic != nil:
		return Slice{}, false, nil
	case policy.Gang == nil:
		return Slice{}, false, &InvalidError{obj, "spec.schedulingPolicy", "sets neither basic nor gang; exactly one is required"}
	}
	minCount := policy.Gang.MinCount
	if minCount <= 0 {
		return Slice{}, false, &InvalidError{obj, "spec.schedulingPolicy.gang.minCount", fmt.Sprintf("must be positive, got %d", minCount)}
	}
	if minCount > maxPods {
		return Slice{}, false, &InvalidError{obj, "spec.schedulingPolicy.gang.minCount", fmt.Sprintf("%d is more pods than one gang may have", minCount)}
	}
	domainKey, required, err := inTreeDomainKey(obj, pg, defaultDomainKey)
	if err != nil {
		return Slice{}, false, err
	}
	s := Slice{Name: pg.Name, Pods: int(minCount), DomainKey: domainKey}
	if required != "" {
		s.Topology = &TopologyRequest{Mode: TopologyRequired, Level: required}
	}
	return s, true, nil
}

// inTreeDomainKey is where a Kubernetes PodGroup's pods go: whole domains
// of domainKey (our annotation, else, without a topology constraint,
// defaultDomainKey), or one shared domain of the constraint's key
// (required). The constraint and the annotation may both be set only if
// they agree: the domain is then taken whole.
func inTreeDomainKey(obj string, pg *schedv1beta1.PodGroup, defaultDomainKey string) (domainKey, required string, err error) {
	const annotationField = "metadata.annotations[" + wellknown.PodGroupDomainKeyAnnotation + "]"
	annotated, set := pg.Annotations[wellknown.PodGroupDomainKeyAnnotation]
	if err := validDomainKey(obj, annotationField, annotated); err != nil {
		return "", "", err
	}
	var topology []schedv1beta1.TopologyConstraint
	if c := pg.Spec.SchedulingConstraints; c != nil {
		topology = c.Topology
	}
	switch {
	case len(topology) > 1:
		return "", "", &InvalidError{obj, "spec.schedulingConstraints.topology", fmt.Sprintf("has %d constraints; at most one is allowed", len(topology))}
	case len(topology) == 1:
		key := topology[0].Key
		field := "spec.schedulingConstraints.topology[0].key"
		if key == "" {
			return "", "", &InvalidError{obj, field, "empty node label key"}
		}
		if err := validDomainKey(obj, field, key); err != nil {
			return "", "", err
		}
		switch {
		case set && annotated != key:
			return "", "", &InvalidError{obj, annotationField, fmt.Sprintf("%q disagrees with %s %q; set one of them", annotated, field, key)}
		case set:
			return key, "", nil
		}
		return "", key, nil
	case set:
		return annotated, "", nil
	}
	return defaultDomainKey, "", nil
}
