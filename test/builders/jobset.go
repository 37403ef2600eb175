package builders

import (
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// JobSetBuilder builds a JobSet of TPU slices as users write them.
type JobSetBuilder struct {
	js  *jobsetv1alpha2.JobSet
	pod *PodBuilder
}

// JobSet starts a JobSet with no replicated Jobs; its pod template starts
// as Pod's default.
func JobSet(namespace, name string) *JobSetBuilder {
	return &JobSetBuilder{
		js: &jobsetv1alpha2.JobSet{
			TypeMeta:   metav1.TypeMeta{APIVersion: jobsetv1alpha2.GroupVersion.String(), Kind: "JobSet"},
			ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Annotations: map[string]string{}},
		},
		pod: Pod(namespace, ""),
	}
}

// Exclusive sets alpha.jobset.sigs.k8s.io/exclusive-topology.
func (b *JobSetBuilder) Exclusive(topologyKey string) *JobSetBuilder {
	b.js.Annotations[wellknown.ExclusiveTopologyAnnotation] = topologyKey
	return b
}

// Unconfined drops alpha.jobset.sigs.k8s.io/exclusive-topology: the
// JobSet's Jobs may share domains with anything.
func (b *JobSetBuilder) Unconfined() *JobSetBuilder {
	delete(b.js.Annotations, wellknown.ExclusiveTopologyAnnotation)
	return b
}

// UID sets metadata.uid, which the apiserver sets on creation.
func (b *JobSetBuilder) UID(uid string) *JobSetBuilder { b.js.UID = types.UID(uid); return b }

// Created sets metadata.creationTimestamp, which the apiserver sets on
// creation.
func (b *JobSetBuilder) Created(t time.Time) *JobSetBuilder {
	b.js.CreationTimestamp = metav1.NewTime(t)
	return b
}

// InOrder sets startupPolicy InOrder: each replicated Job starts once the
// ones before it are ready.
func (b *JobSetBuilder) InOrder() *JobSetBuilder {
	b.js.Spec.StartupPolicy = &jobsetv1alpha2.StartupPolicy{StartupPolicyOrder: jobsetv1alpha2.InOrder}
	return b
}

// DependsOn makes the replicated Job added last wait until replicated Job
// rjName reaches status.
func (b *JobSetBuilder) DependsOn(rjName string, status jobsetv1alpha2.DependsOnStatus) *JobSetBuilder {
	rjs := b.js.Spec.ReplicatedJobs
	rjs[len(rjs)-1].DependsOn = []jobsetv1alpha2.DependsOn{{Name: rjName, Status: status}}
	return b
}

// Annotation sets a JobSet annotation.
func (b *JobSetBuilder) Annotation(key, value string) *JobSetBuilder {
	b.js.Annotations[key] = value
	return b
}

// Label sets a JobSet label.
func (b *JobSetBuilder) Label(key, value string) *JobSetBuilder {
	if b.js.Labels == nil {
		b.js.Labels = map[string]string{}
	}
	b.js.Labels[key] = value
	return b
}

// Pod edits the pod template used by replicated Jobs added after this call.
func (b *JobSetBuilder) Pod(edit func(*PodBuilder)) *JobSetBuilder {
	edit(b.pod)
	return b
}

// ReplicatedJob adds replicas Jobs (slices) of parallelism pods each.
func (b *JobSetBuilder) ReplicatedJob(name string, replicas, parallelism int32) *JobSetBuilder {
	pod := b.pod.Obj()
	b.js.Spec.ReplicatedJobs = append(b.js.Spec.ReplicatedJobs, jobsetv1alpha2.ReplicatedJob{
		Name:     name,
		Replicas: replicas,
		Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
			Parallelism:    &parallelism,
			Completions:    &parallelism,
			CompletionMode: ptrTo(batchv1.IndexedCompletion),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: pod.Labels, Annotations: pod.Annotations},
				Spec:       pod.Spec,
			},
		}},
	})
	return b
}

// Obj returns the JobSet.
func (b *JobSetBuilder) Obj() *jobsetv1alpha2.JobSet { return b.js.DeepCopy() }

func ptrTo[T any](v T) *T { return &v }
