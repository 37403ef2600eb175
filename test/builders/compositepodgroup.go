package builders

import (
	"time"

	schedv1alpha3 "k8s.io/api/scheduling/v1alpha3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// CompositePodGroupBuilder builds a Kubernetes CompositePodGroup
// (scheduling.k8s.io/v1alpha3). Its groups are the PodGroups that name it
// (InTreePodGroupBuilder.Parent).
type CompositePodGroupBuilder struct {
	cpg *schedv1alpha3.CompositePodGroup
}

// CompositePodGroup starts a gang CompositePodGroup of minGroupCount
// groups, with no topology constraint.
func CompositePodGroup(namespace, name string, minGroupCount int32) *CompositePodGroupBuilder {
	return &CompositePodGroupBuilder{cpg: &schedv1alpha3.CompositePodGroup{
		TypeMeta:   metav1.TypeMeta{APIVersion: schedv1alpha3.SchemeGroupVersion.String(), Kind: "CompositePodGroup"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: schedv1alpha3.CompositePodGroupSpec{
			WorkloadRef: &schedv1alpha3.WorkloadReference{WorkloadName: name, TemplateName: "all"},
			SchedulingPolicy: schedv1alpha3.CompositePodGroupSchedulingPolicy{
				Gang: &schedv1alpha3.CompositeGangSchedulingPolicy{MinGroupCount: minGroupCount},
			},
		},
	}}
}

// Basic gives the composite the basic policy: its groups are scheduled
// independently.
func (b *CompositePodGroupBuilder) Basic() *CompositePodGroupBuilder {
	b.cpg.Spec.SchedulingPolicy = schedv1alpha3.CompositePodGroupSchedulingPolicy{Basic: &schedv1alpha3.CompositeBasicSchedulingPolicy{}}
	return b
}

// Topology adds a topology constraint on the node label key.
func (b *CompositePodGroupBuilder) Topology(key string) *CompositePodGroupBuilder {
	if b.cpg.Spec.SchedulingConstraints == nil {
		b.cpg.Spec.SchedulingConstraints = &schedv1alpha3.CompositePodGroupSchedulingConstraints{}
	}
	c := b.cpg.Spec.SchedulingConstraints
	c.Topology = append(c.Topology, schedv1alpha3.TopologyConstraint{Key: key})
	return b
}

// Exclusive sets this project's domain-key annotation: each group a whole
// domain of topologyKey.
func (b *CompositePodGroupBuilder) Exclusive(topologyKey string) *CompositePodGroupBuilder {
	return b.Annotation(wellknown.PodGroupDomainKeyAnnotation, topologyKey)
}

// Parent names a CompositePodGroup parent.
func (b *CompositePodGroupBuilder) Parent(name string) *CompositePodGroupBuilder {
	b.cpg.Spec.ParentCompositePodGroupName = &name
	return b
}

// Queue sets the LocalQueue label.
func (b *CompositePodGroupBuilder) Queue(name string) *CompositePodGroupBuilder {
	if b.cpg.Labels == nil {
		b.cpg.Labels = map[string]string{}
	}
	b.cpg.Labels[wellknown.QueueNameLabel] = name
	return b
}

// Annotation sets an annotation.
func (b *CompositePodGroupBuilder) Annotation(key, value string) *CompositePodGroupBuilder {
	if b.cpg.Annotations == nil {
		b.cpg.Annotations = map[string]string{}
	}
	b.cpg.Annotations[key] = value
	return b
}

// UID sets metadata.uid, which the apiserver sets on creation.
func (b *CompositePodGroupBuilder) UID(uid string) *CompositePodGroupBuilder {
	b.cpg.UID = types.UID(uid)
	return b
}

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *CompositePodGroupBuilder) Created(t time.Time) *CompositePodGroupBuilder {
	b.cpg.CreationTimestamp = metav1.NewTime(t)
	return b
}

// Obj returns the CompositePodGroup.
func (b *CompositePodGroupBuilder) Obj() *schedv1alpha3.CompositePodGroup { return b.cpg.DeepCopy() }
