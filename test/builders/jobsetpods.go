package builders

import (
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The pods of a JobSet are made in three steps, each emulated here as the
// pinned versions (JobSet v0.12.0, Kubernetes v1.37) do it:
//
//  1. JobSet's controller creates one Job per replica of each replicated Job,
//     putting the same set of JobSet labels and annotations on the Job and on
//     its pod template (labelAndAnnotateObject in its jobset_controller.go).
//  2. The apiserver adds the Job's selector labels to the template, and the
//     Job controller creates one pod per completion index of the Indexed Job,
//     adding the index as label and annotation, the hostname and the
//     JOB_COMPLETION_INDEX variable.
//  3. JobSet's pod webhook labels each pod with its priority and gives the
//     leader of an exclusively placed Job its affinities (JobSetPodWebhook).
//
// What needs objects that do not exist here is left out: the Jobs' UIDs
// (controller-uid labels, owner references), the Job controller's tracking
// finalizer, and the random name suffix, for which pods get -a<attempt>.

const (
	// The job-name labels the apiserver adds to a Job's pod template.
	jobNameLabel       = batchv1.JobNameLabel
	legacyJobNameLabel = "job-name"
	// completionIndexEnv is the variable the Job controller sets in every
	// container of an Indexed Job's pods.
	completionIndexEnv = "JOB_COMPLETION_INDEX"
	// defaultGroupName is what the JobSet CRD defaults an empty
	// replicatedJobs[].groupName to.
	defaultGroupName = "default"
)

// PodsOf returns the pods of every replicated Job of js, in spec order, for
// restart attempt attempt (JobSet's status.restarts): per Job, min(parallelism,
// completions) pods. It ignores dependsOn and startupPolicy; to create the
// replicated Jobs one after another as JobSet does for them, use
// PodsOfReplicatedJob.
func PodsOf(js *jobsetv1alpha2.JobSet, attempt int32) []*corev1.Pod {
	var pods []*corev1.Pod
	for i := range js.Spec.ReplicatedJobs {
		pods = append(pods, replicatedJobPods(js, attempt, i)...)
	}
	return pods
}

// PodsOfReplicatedJob returns only the pods of js's replicated Job rjName,
// labelled as PodsOf labels them (job global indexes count the replicas of
// the replicated Jobs before it); nil if js has no such replicated Job.
func PodsOfReplicatedJob(js *jobsetv1alpha2.JobSet, attempt int32, rjName string) []*corev1.Pod {
	for i := range js.Spec.ReplicatedJobs {
		if js.Spec.ReplicatedJobs[i].Name == rjName {
			return replicatedJobPods(js, attempt, i)
		}
	}
	return nil
}

// JobKey is the value of jobset.sigs.k8s.io/job-key on the Job named jobName
// and its pods: the hex SHA-1 of "namespace/jobName".
func JobKey(namespace, jobName string) string {
	sum := sha1.Sum([]byte(namespace + "/" + jobName))
	return hex.EncodeToString(sum[:])
}

// JobName is the name JobSet gives Job jobIndex of replicated Job rjName.
func JobName(jobSetName, rjName string, jobIndex int) string {
	return fmt.Sprintf("%s-%s-%d", jobSetName, rjName, jobIndex)
}

// LeaderPodName is the name PodsOf gives the leader (completion index 0) of
// the Job of pod, in the same restart attempt.
func LeaderPodName(pod *corev1.Pod) string {
	return podName(pod.Labels[jobNameLabel], 0, pod.Labels[wellknown.RestartAttemptLabel])
}

func podName(jobName string, completionIndex int, attempt string) string {
	return fmt.Sprintf("%s-%d-a%s", jobName, completionIndex, attempt)
}

func replicatedJobPods(js *jobsetv1alpha2.JobSet, attempt int32, rjIndex int) []*corev1.Pod {
	rj := &js.Spec.ReplicatedJobs[rjIndex]
	group := groupName(rj)
	// Job indexes across the JobSet and across rj's group start after the
	// replicas of the replicated Jobs before rj.
	globalReplicas, globalOffset, groupReplicas, groupOffset := 0, 0, 0, 0
	for i := range js.Spec.ReplicatedJobs {
		r := int(js.Spec.ReplicatedJobs[i].Replicas)
		globalReplicas += r
		if i < rjIndex {
			globalOffset += r
		}
		if groupName(&js.Spec.ReplicatedJobs[i]) == group {
			groupReplicas += r
			if i < rjIndex {
				groupOffset += r
			}
		}
	}
	exclusive := exclusiveAnnotations(js, rj)
	_, hasExclusive := exclusive[wellknown.ExclusiveTopologyAnnotation]
	_, hasNodeSelectorStrategy := exclusive[wellknown.NodeSelectorStrategyAnnotation]
	perJob := podsPerJob(rj)

	var out []*corev1.Pod
	for ji := range int(rj.Replicas) {
		jobName := JobName(js.Name, rj.Name, ji)
		jobSetKeys := map[string]string{
			wellknown.JobSetNameLabel:            js.Name,
			wellknown.JobSetUIDLabel:             string(js.UID),
			jobsetv1alpha2.ReplicatedJobNameKey:  rj.Name,
			wellknown.RestartAttemptLabel:        strconv.Itoa(int(attempt)),
			jobsetv1alpha2.ReplicatedJobReplicas: strconv.Itoa(int(rj.Replicas)),
			jobsetv1alpha2.GlobalReplicasKey:     strconv.Itoa(globalReplicas),
			jobsetv1alpha2.JobIndexKey:           strconv.Itoa(ji),
			wellknown.JobKeyLabel:                JobKey(js.Namespace, jobName),
			wellknown.JobGlobalIndexLabel:        strconv.Itoa(globalOffset + ji),
			jobsetv1alpha2.GroupNameKey:          group,
			jobsetv1alpha2.GroupReplicasKey:      strconv.Itoa(groupReplicas),
			jobsetv1alpha2.JobGroupIndexKey:      strconv.Itoa(groupOffset + ji),
		}
		if c := js.Spec.Coordinator; c != nil {
			jobSetKeys[jobsetv1alpha2.CoordinatorKey] = fmt.Sprintf("%s-%s-%d-%d.%s",
				js.Name, c.ReplicatedJob, c.JobIndex, c.PodIndex, subdomain(js))
		}

		// The pod template as JobSet's controller and the apiserver leave it.
		tmpl := rj.Template.Spec.Template.DeepCopy()
		labels := maps.Clone(tmpl.Labels)
		if labels == nil {
			labels = map[string]string{}
		}
		maps.Copy(labels, jobSetKeys)
		labels[jobNameLabel] = jobName
		labels[legacyJobNameLabel] = jobName
		annotations := maps.Clone(tmpl.Annotations)
		if annotations == nil {
			annotations = map[string]string{}
		}
		maps.Copy(annotations, jobSetKeys)
		maps.Copy(annotations, exclusive)
		spec := tmpl.Spec
		if dnsHostnames(js) {
			spec.Subdomain = subdomain(js)
		}
		if hasExclusive && hasNodeSelectorStrategy {
			if spec.NodeSelector == nil {
				spec.NodeSelector = map[string]string{}
			}
			spec.NodeSelector[jobsetv1alpha2.NamespacedJobKey] = js.Namespace + "_" + jobName
			spec.Tolerations = append(spec.Tolerations, corev1.Toleration{
				Key:      jobsetv1alpha2.NoScheduleTaintKey,
				Operator: corev1.TolerationOpExists,
				Effect:   corev1.TaintEffectNoSchedule,
			})
		}
		for i := range spec.InitContainers {
			addCompletionIndexEnv(&spec.InitContainers[i])
		}
		for i := range spec.Containers {
			addCompletionIndexEnv(&spec.Containers[i])
		}

		// One pod per completion index, as the Job controller makes them.
		for ci := range perJob {
			pod := &corev1.Pod{
				ObjectMeta: metav1.ObjectMeta{
					Namespace:   js.Namespace,
					Name:        podName(jobName, ci, strconv.Itoa(int(attempt))),
					Labels:      maps.Clone(labels),
					Annotations: maps.Clone(annotations),
				},
				Spec: *spec.DeepCopy(),
			}
			pod.Labels[wellknown.JobCompletionIndexLabel] = strconv.Itoa(ci)
			pod.Annotations[batchv1.JobCompletionIndexAnnotation] = strconv.Itoa(ci)
			pod.Spec.Hostname = fmt.Sprintf("%s-%d", jobName, ci)
			out = append(out, pod)
		}
	}
	return out
}

// podsPerJob is how many pods the Job controller keeps active for a Job of
// rj that has none succeeded: parallelism (default 1), at most completions.
func podsPerJob(rj *jobsetv1alpha2.ReplicatedJob) int {
	n := int32(1)
	if p := rj.Template.Spec.Parallelism; p != nil {
		n = *p
	}
	if c := rj.Template.Spec.Completions; c != nil && *c < n {
		n = *c
	}
	return int(n)
}

// exclusiveAnnotations are the placement annotations JobSet copies onto the
// Jobs and pods of rj: the JobSet's, overridden by rj's Job template's. The
// node-selector strategy flag is copied only from the level that sets the
// exclusive topology.
func exclusiveAnnotations(js *jobsetv1alpha2.JobSet, rj *jobsetv1alpha2.ReplicatedJob) map[string]string {
	out := map[string]string{}
	for _, src := range []map[string]string{js.Annotations, rj.Template.Annotations} {
		if v, ok := src[wellknown.ExclusiveTopologyAnnotation]; ok {
			out[wellknown.ExclusiveTopologyAnnotation] = v
			if s, ok := src[wellknown.NodeSelectorStrategyAnnotation]; ok {
				out[wellknown.NodeSelectorStrategyAnnotation] = s
			}
		}
	}
	return out
}

func groupName(rj *jobsetv1alpha2.ReplicatedJob) string {
	if rj.GroupName == "" {
		return defaultGroupName
	}
	return rj.GroupName
}

func dnsHostnames(js *jobsetv1alpha2.JobSet) bool {
	n := js.Spec.Network
	return n != nil && n.EnableDNSHostnames != nil && *n.EnableDNSHostnames
}

func subdomain(js *jobsetv1alpha2.JobSet) string {
	if n := js.Spec.Network; n != nil && n.Subdomain != "" {
		return n.Subdomain
	}
	return js.Name
}

func addCompletionIndexEnv(c *corev1.Container) {
	for _, e := range c.Env {
		if e.Name == completionIndexEnv {
			return
		}
	}
	c.Env = append(c.Env, corev1.EnvVar{
		Name: completionIndexEnv,
		ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{
			FieldPath: fmt.Sprintf("metadata.labels['%s']", batchv1.JobCompletionIndexAnnotation),
		}},
	})
}

// JobSetPodWebhook mutates pod as JobSet's pod webhook does when the pod is
// created, priority being the spec.priority the apiserver resolved for it
// before (nil: none). Pods that are not JobSet's, or whose JobSet uses the
// node-selector strategy, are left alone. Every other pod gets the
// jobset.sigs.k8s.io/priority label; under exclusive placement a Job's
// leader (completion index 0) also gets InjectExclusiveAffinity's terms.
// A follower's node selector, which needs its leader's node, is the
// caller's: JobSet rejects a follower until its leader is bound.
func JobSetPodWebhook(pod *corev1.Pod, priority *int32) {
	if _, ok := pod.Annotations[jobsetv1alpha2.JobSetNameKey]; !ok {
		return
	}
	if _, ok := pod.Annotations[wellknown.NodeSelectorStrategyAnnotation]; ok {
		return
	}
	if priority != nil {
		if pod.Labels == nil {
			pod.Labels = map[string]string{}
		}
		pod.Labels[wellknown.JobSetPriorityLabel] = strconv.Itoa(int(*priority))
	}
	if _, ok := pod.Annotations[wellknown.ExclusiveTopologyAnnotation]; ok && IsJobLeader(pod) {
		InjectExclusiveAffinity(pod)
	}
}

// IsJobLeader reports whether pod is its Job's leader: completion index 0,
// by the annotation JobSet's webhook reads.
func IsJobLeader(pod *corev1.Pod) bool {
	return pod.Annotations[batchv1.JobCompletionIndexAnnotation] == "0"
}

// InjectExclusiveAffinity appends the terms JobSet's webhook gives a leader
// under exclusive placement, both over all namespaces in the domains of the
// pod's exclusive-topology annotation: a required affinity to its own Job's
// pods, and a required anti-affinity to pods of any other Job with the same
// jobset.sigs.k8s.io/priority label as the pod.
func InjectExclusiveAffinity(pod *corev1.Pod) {
	topologyKey := pod.Annotations[wellknown.ExclusiveTopologyAnnotation]
	jobKey := pod.Labels[wellknown.JobKeyLabel]
	if pod.Spec.Affinity == nil {
		pod.Spec.Affinity = &corev1.Affinity{}
	}
	if pod.Spec.Affinity.PodAffinity == nil {
		pod.Spec.Affinity.PodAffinity = &corev1.PodAffinity{}
	}
	if pod.Spec.Affinity.PodAntiAffinity == nil {
		pod.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{}
	}
	aff := pod.Spec.Affinity.PodAffinity
	aff.RequiredDuringSchedulingIgnoredDuringExecution = append(aff.RequiredDuringSchedulingIgnoredDuringExecution, corev1.PodAffinityTerm{
		LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{jobKey}},
		}},
		TopologyKey:       topologyKey,
		NamespaceSelector: &metav1.LabelSelector{},
	})
	anti := pod.Spec.Affinity.PodAntiAffinity
	anti.RequiredDuringSchedulingIgnoredDuringExecution = append(anti.RequiredDuringSchedulingIgnoredDuringExecution, corev1.PodAffinityTerm{
		LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpExists},
			{Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{jobKey}},
			{Key: wellknown.JobSetPriorityLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{pod.Labels[wellknown.JobSetPriorityLabel]}},
		}},
		TopologyKey:       topologyKey,
		NamespaceSelector: &metav1.LabelSelector{},
	})
}
