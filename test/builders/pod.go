package builders

import (
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

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

// CPU requests quantity CPU.
func (b *PodBuilder) CPU(quantity string) *PodBuilder { return b.Request(corev1.ResourceCPU, quantity) }

// NodeSelector adds a nodeSelector term.
func (b *PodBuilder) NodeSelector(key, value string) *PodBuilder {
	if b.pod.Spec.NodeSelector == nil {
		b.pod.Spec.NodeSelector = map[string]string{}
	}
	b.pod.Spec.NodeSelector[key] = value
	return b
}

// NoNodeSelector drops every nodeSelector term (a unit JobSet's pods
// select v5e 2x4 nodes).
func (b *PodBuilder) NoNodeSelector() *PodBuilder {
	b.pod.Spec.NodeSelector = nil
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

// InPodGroup labels the pod a member of the PodGroup name.
func (b *PodBuilder) InPodGroup(name string) *PodBuilder {
	return b.Label(wellknown.PodGroupLabel, name)
}

// InSchedulingGroup makes the pod a member of the Kubernetes PodGroup
// name (spec.schedulingGroup.podGroupName).
func (b *PodBuilder) InSchedulingGroup(name string) *PodBuilder {
	b.pod.Spec.SchedulingGroup = &corev1.PodSchedulingGroup{PodGroupName: &name}
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

// NoRequests drops the container's requests and limits, the default CPU
// request included: the pod asks for nothing until Request says otherwise.
func (b *PodBuilder) NoRequests() *PodBuilder {
	b.pod.Spec.Containers[0].Resources = corev1.ResourceRequirements{Requests: corev1.ResourceList{}}
	return b
}

// UID sets metadata.uid, which the apiserver sets on creation.
func (b *PodBuilder) UID(uid string) *PodBuilder { b.pod.UID = types.UID(uid); return b }

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *PodBuilder) Created(t time.Time) *PodBuilder {
	b.pod.CreationTimestamp = metav1.NewTime(t)
	return b
}

// Priority sets spec.priority, as the apiserver resolves it from the
// priority class.
func (b *PodBuilder) Priority(p int32) *PodBuilder { b.pod.Spec.Priority = &p; return b }

// Gate adds a scheduling gate.
func (b *PodBuilder) Gate(name string) *PodBuilder {
	b.pod.Spec.SchedulingGates = append(b.pod.Spec.SchedulingGates, corev1.PodSchedulingGate{Name: name})
	return b
}

// NodeName sets spec.nodeName: the pod is bound (or assumed) there.
func (b *PodBuilder) NodeName(node string) *PodBuilder { b.pod.Spec.NodeName = node; return b }

// Phase sets status.phase.
func (b *PodBuilder) Phase(phase corev1.PodPhase) *PodBuilder { b.pod.Status.Phase = phase; return b }

// Running binds the pod to node and marks it running, as the informer
// delivers it once the kubelet started it.
func (b *PodBuilder) Running(node string) *PodBuilder {
	return b.NodeName(node).Phase(corev1.PodRunning)
}

// ControlledBy makes the pod's controller the object of kind (a Job,
// say) named name, as the owner that creates a pod sets it: the object
// that recreates the pod when it is evicted. Its UID is <name>-uid.
func (b *PodBuilder) ControlledBy(apiVersion, kind, name string) *PodBuilder {
	b.pod.OwnerReferences = []metav1.OwnerReference{{APIVersion: apiVersion, Kind: kind, Name: name,
		UID: types.UID(name + "-uid"), Controller: new(true), BlockOwnerDeletion: new(true)}}
	return b
}

// OwnedByJob is ControlledBy the pod's Job (its job-name label), as the
// Job controller creates a JobSet's or a Job's pods.
func (b *PodBuilder) OwnedByJob() *PodBuilder {
	return b.ControlledBy("batch/v1", "Job", b.pod.Labels[wellknown.LegacyJobNameLabel])
}

// Obj returns the built pod.
func (b *PodBuilder) Obj() *corev1.Pod { return b.pod.DeepCopy() }

// Edit returns a builder that starts from a copy of pod.
func Edit(pod *corev1.Pod) *PodBuilder { return &PodBuilder{pod: pod.DeepCopy()} }

// Bound returns a copy of pod bound to node and running, as the informer
// delivers it once the kubelet started it.
func Bound(pod *corev1.Pod, node string) *corev1.Pod { return Edit(pod).Running(node).Obj() }

// Assumed returns a copy of pod on node, as the scheduler's cache assumes
// it from Reserve until the binding is observed.
func Assumed(pod *corev1.Pod, node string) *corev1.Pod { return Edit(pod).NodeName(node).Obj() }

// InPhase returns a copy of pod in phase.
func InPhase(pod *corev1.Pod, phase corev1.PodPhase) *corev1.Pod { return Edit(pod).Phase(phase).Obj() }

// Relabelled returns a copy of pod with label key set to value, or removed
// when value is "".
func Relabelled(pod *corev1.Pod, key, value string) *corev1.Pod {
	b := Edit(pod)
	if value == "" {
		delete(b.pod.Labels, key)
		return b.Obj()
	}
	return b.Label(key, value).Obj()
}
