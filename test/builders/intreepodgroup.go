package builders

import (
	"time"

	schedv1beta1 "k8s.io/api/scheduling/v1beta1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// InTreePodGroupBuilder builds a Kubernetes PodGroup
// (scheduling.k8s.io/v1beta1). Its members are the pods whose
// spec.schedulingGroup.podGroupName names it (PodBuilder.InSchedulingGroup).
type InTreePodGroupBuilder struct {
	pg *schedv1beta1.PodGroup
}

// InTreePodGroup starts a gang PodGroup of minCount pods, with no
// topology constraint.
func InTreePodGroup(namespace, name string, minCount int32) *InTreePodGroupBuilder {
	return &InTreePodGroupBuilder{pg: &schedv1beta1.PodGroup{
		TypeMeta:   metav1.TypeMeta{APIVersion: schedv1beta1.SchemeGroupVersion.String(), Kind: "PodGroup"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: schedv1beta1.PodGroupSpec{SchedulingPolicy: schedv1beta1.PodGroupSchedulingPolicy{
			Gang: &schedv1beta1.GangSchedulingPolicy{MinCount: minCount},
		}},
	}}
}

// Basic gives the group the basic policy: no gang.
func (b *InTreePodGroupBuilder) Basic() *InTreePodGroupBuilder {
	b.pg.Spec.SchedulingPolicy = schedv1beta1.PodGroupSchedulingPolicy{Basic: &schedv1beta1.BasicSchedulingPolicy{}}
	return b
}

// Topology adds a topology constraint on the node label key.
func (b *InTreePodGroupBuilder) Topology(key string) *InTreePodGroupBuilder {
	if b.pg.Spec.SchedulingConstraints == nil {
		b.pg.Spec.SchedulingConstraints = &schedv1beta1.PodGroupSchedulingConstraints{}
	}
	c := b.pg.Spec.SchedulingConstraints
	c.Topology = append(c.Topology, schedv1beta1.TopologyConstraint{Key: key})
	return b
}

// Exclusive sets this project's domain-key annotation.
func (b *InTreePodGroupBuilder) Exclusive(topologyKey string) *InTreePodGroupBuilder {
	return b.Annotation(wellknown.PodGroupDomainKeyAnnotation, topologyKey)
}

// Annotation sets an annotation.
func (b *InTreePodGroupBuilder) Annotation(key, value string) *InTreePodGroupBuilder {
	if b.pg.Annotations == nil {
		b.pg.Annotations = map[string]string{}
	}
	b.pg.Annotations[key] = value
	return b
}

// Parent names a CompositePodGroup parent, and the Workload template the
// group came from (the API requires one with a parent).
func (b *InTreePodGroupBuilder) Parent(name string) *InTreePodGroupBuilder {
	b.pg.Spec.ParentCompositePodGroupName = &name
	if b.pg.Spec.WorkloadRef == nil {
		b.pg.Spec.WorkloadRef = &schedv1beta1.WorkloadReference{WorkloadName: name, TemplateName: "group"}
	}
	return b
}

// Queue sets the LocalQueue label.
func (b *InTreePodGroupBuilder) Queue(name string) *InTreePodGroupBuilder {
	if b.pg.Labels == nil {
		b.pg.Labels = map[string]string{}
	}
	b.pg.Labels[wellknown.QueueNameLabel] = name
	return b
}

// UID sets metadata.uid, which the apiserver sets on creation.
func (b *InTreePodGroupBuilder) UID(uid string) *InTreePodGroupBuilder {
	b.pg.UID = types.UID(uid)
	return b
}

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *InTreePodGroupBuilder) Created(t time.Time) *InTreePodGroupBuilder {
	b.pg.CreationTimestamp = metav1.NewTime(t)
	return b
}

// Obj returns the PodGroup.
func (b *InTreePodGroupBuilder) Obj() *schedv1beta1.PodGroup { return b.pg.DeepCopy() }
