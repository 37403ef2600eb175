package workload

import (
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SourceJob is a plain batch/v1 Job that names a LocalQueue: a workload of
// one slice, the pods the Job runs at once. Jobs a JobSet owns are slices
// of their JobSet, not workloads of their own.
const SourceJob Source = "Job"

// JobQueueName is the LocalQueue a Job is admitted through: the one the
// Job names, or else the one its pod template names (its pods are members
// of the Job's workload only when they carry it).
func JobQueueName(job *batchv1.Job) string {
	if q := wellknown.QueueName(job.Labels, job.Annotations); q != "" {
		return q
	}
	return wellknown.QueueName(job.Spec.Template.Labels, job.Spec.Template.Annotations)
}

// FromJob derives the workload of a Job: one slice of as many pods as the
// Job runs at once. The slice is confined to a domain when the Job names a
// domain key (JobSet's exclusive-topology annotation or ours), else by
// defaultDomainKey ("" leaves it unconfined).
func FromJob(job *batchv1.Job, defaultDomainKey string) (*Workload, error) {
	obj := fmt.Sprintf("Job %s/%s", job.Namespace, job.Name)
	domainKey, err := jobDomainKey(obj, job.Annotations)
	if err != nil {
		return nil, err
	}
	atomicKey, err := AtomicTopologyKey(obj, job.Annotations)
	if err != nil {
		return nil, err
	}
	pods, idle, err := jobSlicePods(obj, job)
	if err != nil {
		return nil, err
	}
	// A Job is one pod set: the pods it runs at once as written (its
	// parallelism capped by its completions), not what is left of them, so
	// a request valid when the Job starts stays valid as its pods complete.
	// An idle Job has no pod set to check.
	var topo *TopologyRequest
	if declared := jobDeclaredPods(job); !idle && declared > 0 {
		if topo, err = topologyOf(obj, "spec.template", job.Spec.Template.Annotations, declared, domainKey); err != nil {
			return nil, err
		}
	}
	if domainKey == "" && topo == nil {
		domainKey = defaultDomainKey
	}
	suspended := job.Spec.Suspend != nil && *job.Spec.Suspend
	complete, failed := jobConditions(job)
	template := job.Spec.Template.Spec.DeepCopy()
	request, err := templateRequests(obj, "spec.template.spec", template)
	if err != nil {
		return nil, err
	}
	return &Workload{
		Key:     Key{Source: SourceJob, Namespace: job.Namespace, Name: job.Name},
		UID:     job.UID,
		Created: job.CreationTimestamp.Time,
		Slices: []Slice{{
			Index: 0, Name: job.Name, Pods: pods,
			Request: request, Template: template, DomainKey: domainKey,
			Topology: topo,
		}},
		Groups: 1,
		// A Job scaled to parallelism 0 runs nothing, as if suspended.
		Finished:  job.DeletionTimestamp != nil || suspended || idle || complete || failed,
		Failed:    failed,
		Suspended: suspended || (idle && !complete && !failed),
		QueueName: JobQueueName(job),
		AtomicKey: atomicKey,

		ProvisioningAnnotations: provisioningAnnotations(job.Annotations),
	}, nil
}

// jobDomainKey reads the domain key a Job names: JobSet's exclusive-topology
// annotation, which users of JobSet already write, or ours. Naming two
// different keys is an error rather than a silent choice.
func jobDomainKey(obj string, annotations map[string]string) (string, error) {
	jobSetKey := annotations[wellknown.ExclusiveTopologyAnnotation]
	if err := validDomainKey(obj, "metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", jobSetKey); err != nil {
		return "", err
	}
	ours := annotations[wellknown.DomainKeyAnnotation]
	field := "metadata.annotations[" + wellknown.DomainKeyAnnotation + "]"
	if err := validDomainKey(obj, field, ours); err != nil {
		return "", err
	}
	switch {
	case ours == "":
		return jobSetKey, nil
	case jobSetKey != "" && jobSetKey != ours:
		return "", &InvalidError{obj, field, fmt.Sprintf("names %q, but %s names %q; name one domain key",
			ours, wellknown.ExclusiveTopologyAnnotation, jobSetKey)}
	}
	return ours, nil
}

// jobDeclaredPods is how many pods a Job's spec runs at once: its
// parallelism (default 1) capped by its completions.
func jobDeclaredPods(job *batchv1.Job) int32 {
	n := int32(1)
	if p := job.Spec.Parallelism; p != nil {
		n = *p
	}
	if c := job.Spec.Completions; c != nil {
		n = min(n, *c)
	}
	return n
}

// jobSlicePods is how many pods a Job runs at once from now on: its
// parallelism capped by its completions, less the completions already
// reached (pods that succeeded are not replaced, so a Job whose pods partly
// completed asks only for what is left), and at least 1. idle is set for a
// Job that runs no pods at all: parallelism 0 (scaled down) or completions
// 0 (nothing to do). obj names the Job in errors.
func jobSlicePods(obj string, job *batchv1.Job) (pods int, idle bool, err error) {
	spec := &job.Spec
	if (spec.Parallelism != nil && *spec.Parallelism == 0) || (spec.Completions != nil && *spec.Completions == 0) {
		return 1, true, nil
	}
	n, err := jobPods(obj, "spec", spec)
	if err != nil {
		return 0, false, err
	}
	if spec.Completions != nil {
		n = min(n, int(*spec.Completions)-int(job.Status.Succeeded))
	}
	return max(n, 1), false, nil
}

// jobConditions reads whether the Job controller reports the Job complete
// or failed.
func jobConditions(job *batchv1.Job) (complete, failed bool) {
	for _, c := range job.Status.Conditions {
		if c.Status != corev1.ConditionTrue {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			complete = true
		case batchv1.JobFailed:
			failed = true
		}
	}
	return complete, failed
}

// JobMember reads a pod's membership in its Job's workload from the labels
// the Job controller puts on it. Only pods that name a LocalQueue
// themselves are members: pods of Jobs that are not queue-managed stay
// plain pods, and pods of a JobSet's Jobs are the JobSet's (ok false for
// both). err reports malformed labels.
func JobMember(pod *corev1.Pod) (m Member, ok bool, err error) {
	nameLabel := wellknown.JobNameLabel
	name, named := pod.Labels[nameLabel]
	if !named {
		nameLabel = wellknown.LegacyJobNameLabel
		name, named = pod.Labels[nameLabel]
	}
	if !named {
		return Member{}, false, nil
	}
	if _, ofJobSet := pod.Labels[wellknown.JobSetNameLabel]; ofJobSet {
		return Member{}, false, nil
	}
	if wellknown.QueueName(pod.Labels, pod.Annotations) == "" {
		return Member{}, false, nil
	}
	obj := fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name)
	if name == "" {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + nameLabel + "]", "empty Job name"}
	}
	m.Key = Key{Source: SourceJob, Namespace: pod.Namespace, Name: name}
	uid, has := pod.Labels[wellknown.JobControllerUIDLabel]
	if !has {
		uid = pod.Labels[wellknown.LegacyJobControllerUIDLabel]
	}
	m.OwnerUID = types.UID(uid)
	if err := readCompletionIndex(obj, pod, &m); err != nil {
		return Member{}, true, err
	}
	return m, true, nil
}
