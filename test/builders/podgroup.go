package builders

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// PodGroupBuilder builds a scheduler-plugins PodGroup. Its members are the
// pods labelled with wellknown.PodGroupLabel.
type PodGroupBuilder struct {
	pg *schedv1alpha1.PodGroup
}

// PodGroup starts an unconfined PodGroup of at least minMember pods.
func PodGroup(namespace, name string, minMember int32) *PodGroupBuilder {
	return &PodGroupBuilder{pg: &schedv1alpha1.PodGroup{
		TypeMeta:   metav1.TypeMeta{APIVersion: schedv1alpha1.SchemeGroupVersion.String(), Kind: "PodGroup"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec:       schedv1alpha1.PodGroupSpec{MinMember: minMember},
	}}
}

// Exclusive confines the group to one exclusive domain of the node label
// topologyKey (this project's annotation).
func (b *PodGroupBuilder) Exclusive(topologyKey string) *PodGroupBuilder {
	if b.pg.Annotations == nil {
		b.pg.Annotations = map[string]string{}
	}
	b.pg.Annotations[wellknown.PodGroupDomainKeyAnnotation] = topologyKey
	return b
}

// UID sets metadata.uid, which the apiserver sets on creation.
func (b *PodGroupBuilder) UID(uid string) *PodGroupBuilder { b.pg.UID = types.UID(uid); return b }

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *PodGroupBuilder) Created(t time.Time) *PodGroupBuilder {
	b.pg.CreationTimestamp = metav1.NewTime(t)
	return b
}

// Obj returns the PodGroup.
func (b *PodGroupBuilder) Obj() *schedv1alpha1.PodGroup { return b.pg.DeepCopy() }
