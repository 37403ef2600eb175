// Package wellknown names the labels, annotations and resources that users'
// existing objects (GKE nodes, JobSets, Kueue queues) already carry. Every
// other package refers to these keys through this one, so a key is spelled
// exactly once.
package wellknown

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
)

// SchedulerName is the schedulerName of this scheduler's shipped profile
// (manifests/scheduler/config.yaml): what pods name to be its.
const SchedulerName = "multislice-scheduler"

// GKE node labels.
const (
	// NodePoolLabel names the node pool a node belongs to. A multi-host TPU
	// node pool is one slice: created, failed and repaired as a unit.
	NodePoolLabel = "cloud.google.com/gke-nodepool"
	// TPUAcceleratorLabel is the TPU generation, e.g. tpu-v5-lite-podslice (v5e).
	TPUAcceleratorLabel = "cloud.google.com/gke-tpu-accelerator"
	// TPUTopologyLabel is the slice topology, e.g. 2x4 or 4x4.
	TPUTopologyLabel = "cloud.google.com/gke-tpu-topology"
	// GPUAcceleratorLabel is the GPU model of a GPU node pool.
	GPUAcceleratorLabel = "cloud.google.com/gke-accelerator"
	// ZoneLabel is the standard topology zone label.
	ZoneLabel = corev1.LabelTopologyZone
)

// GKELabelPrefix starts GKE's node labels; messages for users drop it
// ("gke-nodepool=pool-1").
const GKELabelPrefix = "cloud.google.com/"

// ShortLabel renders a label key for users without GKE's prefix.
func ShortLabel(key string) string { return strings.TrimPrefix(key, GKELabelPrefix) }

// Extended resources.
const (
	ResourceTPU corev1.ResourceName = "google.com/tpu"
	ResourceGPU corev1.ResourceName = "nvidia.com/gpu"
)

// JobSet labels and annotations (sigs.k8s.io/jobset). JobSet puts the labels
// on the Jobs and pods it creates.
const (
	JobSetNameLabel     = "jobset.sigs.k8s.io/jobset-name"
	JobSetUIDLabel      = "jobset.sigs.k8s.io/jobset-uid"
	JobGlobalIndexLabel = "jobset.sigs.k8s.io/job-global-index"
	JobKeyLabel         = "jobset.sigs.k8s.io/job-key"
	RestartAttemptLabel = "jobset.sigs.k8s.io/restart-attempt"
	// JobSetPriorityLabel is the pod's priority, set by JobSet's pod webhook.
	JobSetPriorityLabel = "jobset.sigs.k8s.io/priority"
	// ExclusiveTopologyAnnotation names the node label whose values are the
	// exclusive domains of a JobSet's Jobs (JobSet or Job template level).
	ExclusiveTopologyAnnotation = "alpha.jobset.sigs.k8s.io/exclusive-topology"
	// NodeSelectorStrategyAnnotation marks JobSets whose pods carry their own
	// node selectors; JobSet's webhook leaves them alone.
	NodeSelectorStrategyAnnotation = "alpha.jobset.sigs.k8s.io/node-selector"
	// JobCompletionIndexLabel is the Job controller's index of a pod in an
	// Indexed Job; index 0 is the Job's leader under exclusive placement.
	JobCompletionIndexLabel = "batch.kubernetes.io/job-completion-index"
)

// scheduler-plugins coscheduling PodGroup (scheduling.x-k8s.io/v1alpha1).
const (
	PodGroupLabel = "scheduling.x-k8s.io/pod-group"
)

// Kueue keys users already put on their workloads.
const (
	// QueueNameLabel names the LocalQueue (in the workload's namespace) a
	// workload is admitted through, as a label or an annotation.
	QueueNameLabel = "kueue.x-k8s.io/queue-name"
)

// QueueName reads the LocalQueue name from an object's labels or
// annotations (labels win).
func QueueName(labels, annotations map[string]string) string {
	if q := labels[QueueNameLabel]; q != "" {
		return q
	}
	return annotations[QueueNameLabel]
}

// QueueNameFitsLabel reports whether queue can be written as the value of
// the QueueNameLabel label; a longer or otherwise invalid name is written
// as an annotation of the same key, which QueueName reads just as well.
func QueueNameFitsLabel(queue string) bool {
	return len(validation.IsValidLabelValue(queue)) == 0
}

// Keys of this project.
const (
	// PodGroupDomainKeyAnnotation on a scheduler-plugins PodGroup confines
	// the whole group to one exclusive domain of the named node label.
	PodGroupDomainKeyAnnotation = "multislice-scheduler.io/exclusive-topology"
)

// Queued provisioning: the cluster autoscaler's ProvisioningRequest API
// (autoscaling.x-k8s.io) and the keys Kueue users put on their workloads
// for it.
const (
	// ConsumeProvisioningRequestAnnotation on a pod names the
	// ProvisioningRequest, in the pod's namespace, whose capacity the pod
	// runs on; the autoscaler then does not scale up for the pod on its
	// own.
	ConsumeProvisioningRequestAnnotation = "autoscaling.x-k8s.io/consume-provisioning-request"
	// ProvisioningClassNameAnnotation on a pod is the provisioningClassName
	// of the request it consumes.
	ProvisioningClassNameAnnotation = "autoscaling.x-k8s.io/provisioning-class-name"
	// DeprecatedConsumeProvisioningRequestAnnotation and
	// DeprecatedProvisioningClassNameAnnotation are the keys above under
	// their deprecated cluster-autoscaler.kubernetes.io/ prefix, which
	// older documents (seed 003's among them) still show. Read them, do not
	// write them.
	DeprecatedConsumeProvisioningRequestAnnotation = "cluster-autoscaler.kubernetes.io/consume-provisioning-request"
	DeprecatedProvisioningClassNameAnnotation      = "cluster-autoscaler.kubernetes.io/provisioning-class-name"
	// ProvReqAnnotationPrefix starts a workload's annotations that become
	// parameters of its ProvisioningRequests: provreq.kueue.x-k8s.io/<key>
	// sets parameters[<key>].
	ProvReqAnnotationPrefix = "provreq.kueue.x-k8s.io/"
	// MaxRunDurationSecondsParameter is the parameter bounding, in seconds,
	// how long the provisioned nodes live (set through the annotation
	// provreq.kueue.x-k8s.io/maxRunDurationSeconds).
	MaxRunDurationSecondsParameter = "maxRunDurationSeconds"
	// QueuedProvisioningClass is GKE's provisioning class of the Dynamic
	// Workload Scheduler: all of a request's nodes at once, in one zone.
	QueuedProvisioningClass = "queued-provisioning.gke.io"
)

// AtomicTopologyAnnotation on a JobSet or PodGroup names a node label (e.g.
// topology.kubernetes.io/zone) of which every slice of the workload must
// share one value: all slices land in one zone, or none is placed.
const AtomicTopologyAnnotation = "multislice-scheduler.io/atomic-topology"

// Keys of batch/v1 Jobs and their pods (the Job controller's labels).
const (
	// JobNameLabel names the Job a pod was created for;
	// LegacyJobNameLabel is the unprefixed label older pods carry.
	JobNameLabel       = "batch.kubernetes.io/job-name"
	LegacyJobNameLabel = "job-name"
	// JobControllerUIDLabel is the UID of the Job a pod was created for;
	// LegacyJobControllerUIDLabel is its unprefixed form.
	JobControllerUIDLabel       = "batch.kubernetes.io/controller-uid"
	LegacyJobControllerUIDLabel = "controller-uid"
)

// DomainKeyAnnotation on a Job (or a PodGroup: it is the same key as
// PodGroupDomainKeyAnnotation) confines the workload to one exclusive
// domain of the named node label.
const DomainKeyAnnotation = PodGroupDomainKeyAnnotation

// UnsuspendedAnnotation records on a queue-managed Job or JobSet, created
// suspended, when this scheduler unsuspended it (RFC 3339). An object
// carrying it is never unsuspended again: a user who suspends it later
// keeps it suspended.
const UnsuspendedAnnotation = "multislice-scheduler.io/unsuspended"

// The optional admission webhook (cmd/multislice-webhook, docs/tasks/webhook.md).
const (
	// DefaultSchedulerNamespaceLabel, set to "true" on a namespace, makes
	// this scheduler the default of the pods created in it: the webhook
	// gives them (and the pod templates of its Jobs, JobSets and
	// LeaderWorkerSets) this scheduler's name unless they name another.
	DefaultSchedulerNamespaceLabel = "multislice-scheduler.io/default-scheduler"
	// SchedulerNameReasonAnnotation on an object whose pods the webhook
	// gave this scheduler's name says why, for `kubectl describe`.
	SchedulerNameReasonAnnotation = "multislice-scheduler.io/scheduler-name-reason"
)
