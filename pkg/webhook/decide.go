// Package webhook decides which new objects' pods are this scheduler's
// although they name no scheduler, and serves that decision as a mutating
// admission webhook (cmd/multislice-webhook, docs/tasks/webhook.md).
//
// Manifests written for Kueue on GKE name a LocalQueue and no
// schedulerName: their pods would go to the default scheduler, outside the
// queues, and a Job's or JobSet's pod template cannot change once the
// object exists. At CREATE the webhook gives this scheduler's name to the
// pod templates of a Job, JobSet or LeaderWorkerSet, and to pods that no
// such template made (members of a PodGroup, bare pods), when the object
// opts in:
//
//   - it names one of our LocalQueues (kueue.x-k8s.io/queue-name, read as
//     the scheduler reads it, of a multislice.dev LocalQueue that exists in
//     its namespace);
//   - its pods consume a ProvisioningRequest (seed 003 without a queue);
//   - its namespace carries wellknown.DefaultSchedulerNamespaceLabel=true.
//
// An explicit schedulerName other than the default is never changed.
// Deciding is this file's pure functions over a Lookup; patch.go writes
// the decision as a JSON patch, review.go serves it.
package webhook

import (
	"context"
	"fmt"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Lookup answers what deciding needs from the API. An error means the
// answer is unknown (not "no"): the request then fails, and the
// webhook's failure policy decides what becomes of the object.
type Lookup interface {
	// LocalQueue reports whether the multislice.dev LocalQueue
	// namespace/name exists.
	LocalQueue(ctx context.Context, namespace, name string) (bool, error)
	// NamespaceOptedIn reports whether namespace carries
	// wellknown.DefaultSchedulerNamespaceLabel=true.
	NamespaceOptedIn(ctx context.Context, namespace string) (bool, error)
	// PodGroupQueue is the LocalQueue a pod group object names ("" for
	// none); found is false when the group does not exist.
	PodGroupQueue(ctx context.Context, group GroupRef) (queue string, found bool, err error)
}

// GroupRef names a pod group object a pod belongs to.
type GroupRef struct {
	// InTree: Kubernetes' PodGroup (scheduling.k8s.io, named by the pod's
	// spec.schedulingGroup); else scheduler-plugins' (scheduling.x-k8s.io,
	// named by its label).
	InTree    bool
	Namespace string
	Name      string
}

func (g GroupRef) String() string {
	if g.InTree {
		return fmt.Sprintf("PodGroup.scheduling.k8s.io %s/%s", g.Namespace, g.Name)
	}
	return fmt.Sprintf("PodGroup.scheduling.x-k8s.io %s/%s", g.Namespace, g.Name)
}

// Path is a JSON location in an object: map keys (string) and list
// indices (int), from the root.
type Path []any

// Decision is what to change in one object. The zero Decision changes
// nothing.
type Decision struct {
	// PodSpecs are the pod specs (of the object, or of its pod templates)
	// whose schedulerName becomes the scheduler's.
	PodSpecs []Path
	// QueueLabels are pod templates' metadata that get the queue name (a
	// LeaderWorkerSet's, whose pods the scheduler reads the queue from).
	QueueLabels []Path
	// Queue is the queue name QueueLabels write.
	Queue string
	// Reason says why, for the object's SchedulerNameReasonAnnotation and
	// the webhook's log.
	Reason string
}

// Mutates reports whether the decision changes the object.
func (d Decision) Mutates() bool { return len(d.PodSpecs) > 0 }

// Decider decides for the scheduler named Scheduler.
type Decider struct {
	// Scheduler is the schedulerName given to the pods.
	Scheduler string
	Lookup    Lookup
}

// unset reports whether a pod spec leaves its scheduler to the cluster's
// default: empty (defaulted later) or named default-scheduler. Only such
// pods are given ours; an explicit choice of any other scheduler stands.
func unset(schedulerName string) bool {
	return schedulerName == "" || schedulerName == corev1.DefaultSchedulerName
}

// optIn says why the pods of an object in namespace, naming LocalQueue
// queue ("" for none), whose pods carry podAnnotations, are this
// scheduler's ("" when they are not). In order: the queue is one of ours;
// the pods consume a ProvisioningRequest; the namespace opted in. A
// queue that is not ours (Kueue's, or none yet) opts nothing in: such an
// object is left as written, as the scheduler leaves it.
func (d *Decider) optIn(ctx context.Context, namespace, queue string, podAnnotations ...map[string]string) (string, error) {
	if queue != "" {
		ours, err := d.Lookup.LocalQueue(ctx, namespace, queue)
		if err != nil {
			return "", fmt.Errorf("looking up LocalQueue %s/%s: %w", namespace, queue, err)
		}
		if ours {
			return fmt.Sprintf("names LocalQueue %s/%s (multislice.dev)", namespace, queue), nil
		}
	}
	for _, a := range podAnnotations {
		// Conflicting annotations consume nothing (the scheduler says so
		// on the pods); they opt nothing in either.
		if name, err := workload.ConsumedRequest(a); err == nil && name != "" {
			return fmt.Sprintf("its pods consume ProvisioningRequest %s/%s", namespace, name), nil
		}
	}
	in, err := d.Lookup.NamespaceOptedIn(ctx, namespace)
	if err != nil {
		return "", fmt.Errorf("looking up namespace %s: %w", namespace, err)
	}
	if in {
		return fmt.Sprintf("namespace %s has label %s=true", namespace, wellknown.DefaultSchedulerNamespaceLabel), nil
	}
	return "", nil
}

// Job decides for a batch/v1 Job: its pod template, when it has no
// scheduler and the Job opts in by its queue (workload.JobQueueName: the
// Job's, else its template's), its template's consume annotation or its
// namespace. A JobSet's Jobs are left to their JobSet, whose template
// they copy.
func (d *Decider) Job(ctx context.Context, job *batchv1.Job) (Decision, error) {
	tmpl := &job.Spec.Template
	if job.Labels[wellknown.JobSetNameLabel] != "" || !unset(tmpl.Spec.SchedulerName) {
		return Decision{}, nil
	}
	why, err := d.optIn(ctx, job.Namespace, workload.JobQueueName(job), tmpl.Annotations)
	if err != nil || why == "" {
		return Decision{}, err
	}
	return Decision{PodSpecs: []Path{{"spec", "template", "spec"}}, Reason: "the Job " + why}, nil
}

// JobSet decides for a JobSet: every replicated Job's pod template that
// has no scheduler, when the JobSet opts in by its queue (its own label
// or annotation, as the scheduler reads it), a template's consume
// annotation or its namespace.
func (d *Decider) JobSet(ctx context.Context, js *jobsetv1alpha2.JobSet) (Decision, error) {
	var specs []Path
	annotations := make([]map[string]string, 0, len(js.Spec.ReplicatedJobs))
	for i := range js.Spec.ReplicatedJobs {
		tmpl := &js.Spec.ReplicatedJobs[i].Template.Spec.Template
		if unset(tmpl.Spec.SchedulerName) {
			specs = append(specs, Path{"spec", "replicatedJobs", i, "template", "spec", "template", "spec"})
			annotations = append(annotations, tmpl.Annotations)
		}
	}
	if len(specs) == 0 {
		return Decision{}, nil
	}
	why, err := d.optIn(ctx, js.Namespace, wellknown.QueueName(js.Labels, js.Annotations), annotations...)
	if err != nil || why == "" {
		return Decision{}, err
	}
	return Decision{PodSpecs: specs, Reason: "the JobSet " + why}, nil
}

// LeaderWorkerSet decides for a LeaderWorkerSet: its leader and worker
// templates that have no scheduler. Its queue is the set's (label or
// annotation), else its leader template's: the scheduler reads a group's
// queue from its leader pod. A set naming our queue only on itself gets
// the queue name on the templates it gives our scheduler too, so that
// their pods are the queue's.
func (d *Decider) LeaderWorkerSet(ctx context.Context, lws *LeaderWorkerSet) (Decision, error) {
	lwt := &lws.Spec.LeaderWorkerTemplate
	type template struct {
		path Path
		tmpl *corev1.PodTemplateSpec
	}
	templates := []template{{Path{"spec", "leaderWorkerTemplate", "workerTemplate"}, &lwt.WorkerTemplate}}
	leader := &lwt.WorkerTemplate
	if lwt.LeaderTemplate != nil {
		leader = lwt.LeaderTemplate
		templates = append([]template{{Path{"spec", "leaderWorkerTemplate", "leaderTemplate"}, lwt.LeaderTemplate}}, templates...)
	}
	queue := wellknown.QueueName(lws.Labels, lws.Annotations)
	if queue == "" {
		queue = wellknown.QueueName(leader.Labels, leader.Annotations)
	}
	var dec Decision
	var annotations []map[string]string
	var unlabelled []Path
	for _, t := range templates {
		if !unset(t.tmpl.Spec.SchedulerName) {
			continue
		}
		dec.PodSpecs = append(dec.PodSpecs, append(append(Path{}, t.path...), "spec"))
		annotations = append(annotations, t.tmpl.Annotations)
		if wellknown.QueueName(t.tmpl.Labels, t.tmpl.Annotations) == "" {
			unlabelled = append(unlabelled, append(append(Path{}, t.path...), "metadata"))
		}
	}
	if !dec.Mutates() {
		return Decision{}, nil
	}
	why, err := d.optIn(ctx, lws.Namespace, queue, annotations...)
	if err != nil || why == "" {
		return Decision{}, err
	}
	dec.Reason = "the LeaderWorkerSet " + why
	if queue != "" && len(unlabelled) > 0 {
		// Only the templates whose pods become ours join the queue.
		dec.QueueLabels, dec.Queue = unlabelled, queue
	}
	return dec, nil
}

// Pod decides for a pod that no template of ours decides for, and that
// has no scheduler and no node yet. Membership is read in the
// scheduler's order (workload.MemberOf): a JobSet's pod, a
// LeaderWorkerSet's or a plain Job's is its parent's (the parent's
// template was decided at the parent's creation); a PodGroup's member
// opts in by its group's queue; any other pod by its own queue. Either
// also by consuming a ProvisioningRequest, or by its namespace.
func (d *Decider) Pod(ctx context.Context, pod *corev1.Pod) (Decision, error) {
	if pod.Spec.NodeName != "" || !unset(pod.Spec.SchedulerName) {
		return Decision{}, nil
	}
	queue, parent, err := d.podQueue(ctx, pod)
	if err != nil || parent {
		return Decision{}, err
	}
	why, err := d.optIn(ctx, pod.Namespace, queue, pod.Annotations)
	if err != nil || why == "" {
		return Decision{}, err
	}
	return Decision{PodSpecs: []Path{{"spec"}}, Reason: "the pod " + why}, nil
}

// podQueue is the queue a pod is admitted through, as far as the webhook
// decides for it; parent is set for a pod its parent's template decides
// for.
func (d *Decider) podQueue(ctx context.Context, pod *corev1.Pod) (queue string, parent bool, err error) {
	if _, ok := pod.Labels[wellknown.JobSetNameLabel]; ok {
		return "", true, nil
	}
	if name, ok := pod.Labels[wellknown.PodGroupLabel]; ok {
		return d.groupQueue(ctx, GroupRef{Namespace: pod.Namespace, Name: name})
	}
	if _, ok := pod.Labels[wellknown.LWSNameLabel]; ok {
		return "", true, nil
	}
	if g := pod.Spec.SchedulingGroup; g != nil && g.PodGroupName != nil {
		return d.groupQueue(ctx, GroupRef{InTree: true, Namespace: pod.Namespace, Name: *g.PodGroupName})
	}
	for _, key := range []string{wellknown.JobNameLabel, wellknown.LegacyJobNameLabel} {
		if _, ok := pod.Labels[key]; ok {
			return "", true, nil
		}
	}
	return wellknown.QueueName(pod.Labels, pod.Annotations), false, nil
}

// groupQueue is the queue a pod group names; a group that does not
// exist (yet) names none.
func (d *Decider) groupQueue(ctx context.Context, g GroupRef) (string, bool, error) {
	if g.Name == "" {
		return "", false, nil
	}
	queue, _, err := d.Lookup.PodGroupQueue(ctx, g)
	if err != nil {
		return "", false, fmt.Errorf("looking up %s: %w", g, err)
	}
	return queue, false, nil
}
