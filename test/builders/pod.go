package builders

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// PodBuilder builds a pod with one container.
type PodBuilder struct {
	pod *corev1.Pod
}

// Pod starts a pod requesting 100m CPU, for the default scheduler.
func Pod(namespace, name string) *PodBuilder {
	return &PodBuilder{pod: &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Spec: corev1.PodSpec{
			Containers: []corev1.Container{{
				Name:  "main",
				Image: "registry.k8s.io/pause:3.10",
				Resources: corev1.ResourceRequirements{
					Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")},
				},
			}},
		},
	}}
}

// Scheduler sets spec.schedulerName.
func (b *PodBuilder) Scheduler(name string) *PodBuilder { b.pod.Spec.SchedulerName = name; return b }

// Request sets a container request (and, for extended resources, the limit).
func (b *PodBuilder) Request(name corev1.ResourceName, quantity string) *PodBuilder {
	c := &b.pod.Spec.Containers[0]
	q := resource.MustParse(quantity)
	c.Resources.Requests[name] = q
	if name != corev1.ResourceCPU && name != corev1.ResourceMemory {
		if c.Resources.Limits == nil {
			c.Resources.Limits = corev1.ResourceList{}
		}
		c.Resources.Limits[name] = q
	}
	return b
}

// TPU requests chips google.com/tpu.
func (b *PodBuilder) TPU(chips string) *PodBuilder { return b.Request(wellknown.ResourceTPU, chips) }

// NodeSelector adds a nodeSelector term.
func (b *PodBuilder) NodeSelector(key, value string) *PodBuilder {
	if b.pod.Spec.NodeSelector == nil {
		b.pod.Spec.NodeSelector = map[string]string{}
	}
	b.pod.Spec.NodeSelector[key] = value
	return b
}

// Label adds a label.
func (b *PodBuilder) Label(key, value string) *PodBuilder {
	if b.pod.Labels == nil {
		b.pod.Labels = map[string]string{}
	}
	b.pod.Labels[key] = value
	return b
}

// Annotation adds an annotation.
func (b *PodBuilder) Annotation(key, value string) *PodBuilder {
	if b.pod.Annotations == nil {
		b.pod.Annotations = map[string]string{}
	}
	b.pod.Annotations[key] = value
	return b
}

// PriorityClass sets spec.priorityClassName; the apiserver resolves the priority.
func (b *PodBuilder) PriorityClass(name string) *PodBuilder {
	b.pod.Spec.PriorityClassName = name
	return b
}

// Toleration adds a toleration.
func (b *PodBuilder) Toleration(t corev1.Toleration) *PodBuilder {
	b.pod.Spec.Tolerations = append(b.pod.Spec.Tolerations, t)
	return b
}

// Obj returns the built pod.
func (b *PodBuilder) Obj() *corev1.Pod { return b.pod.DeepCopy() }
