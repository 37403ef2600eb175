package builders

import (
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// JobBuilder builds a plain batch/v1 Job as users write it.
type JobBuilder struct{ job *batchv1.Job }

// Job starts a running Job of one pod with one container, restart policy
// Never, UID "<name>-uid" and resource version "1".
func Job(namespace, name string) *JobBuilder {
	return &JobBuilder{job: &batchv1.Job{
		TypeMeta: metav1.TypeMeta{APIVersion: batchv1.SchemeGroupVersion.String(), Kind: "Job"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, UID: types.UID(name + "-uid"), ResourceVersion: "1",
			Labels: map[string]string{}},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To(int32(1)),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{}},
				Spec: corev1.PodSpec{RestartPolicy: corev1.RestartPolicyNever,
					Containers: []corev1.Container{{Name: "c", Image: "img"}}},
			},
		},
	}}
}

// Queue names LocalQueue name with the Job's kueue.x-k8s.io/queue-name
// label, as Kueue's users do.
func (b *JobBuilder) Queue(name string) *JobBuilder {
	b.job.Labels[wellknown.QueueNameLabel] = name
	return b
}

// Suspended sets spec.suspend.
func (b *JobBuilder) Suspended(suspend bool) *JobBuilder {
	b.job.Spec.Suspend = ptr.To(suspend)
	return b
}

// Parallelism sets spec.parallelism.
func (b *JobBuilder) Parallelism(n int32) *JobBuilder {
	b.job.Spec.Parallelism = ptr.To(n)
	return b
}

// Scheduler sets the pod template's schedulerName.
func (b *JobBuilder) Scheduler(name string) *JobBuilder {
	b.job.Spec.Template.Spec.SchedulerName = name
	return b
}

// PodLabel puts a label on the pod template.
func (b *JobBuilder) PodLabel(key, value string) *JobBuilder {
	b.job.Spec.Template.Labels[key] = value
	return b
}

// PodAnnotation puts an annotation on the pod template.
func (b *JobBuilder) PodAnnotation(key, value string) *JobBuilder {
	if b.job.Spec.Template.Annotations == nil {
		b.job.Spec.Template.Annotations = map[string]string{}
	}
	b.job.Spec.Template.Annotations[key] = value
	return b
}

// Label puts a label on the Job.
func (b *JobBuilder) Label(key, value string) *JobBuilder {
	b.job.Labels[key] = value
	return b
}

// Obj returns the Job.
func (b *JobBuilder) Obj() *batchv1.Job { return b.job }
