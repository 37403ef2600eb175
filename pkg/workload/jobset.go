package workload

import (
	"errors"
	"fmt"
	"math"
	"strconv"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apimeta "k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/validation"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// maxSlices bounds a workload's slices; a larger JobSet is rejected as
// malformed rather than planned (each slice needs its own domain).
const maxSlices = 10000

// maxPods bounds the pods of one slice (what a Job runs at once, a
// PodGroup's minMember) and the indexes read from pod labels.
const maxPods = maxSlices * 100

// InvalidError explains why an object cannot be turned into a workload.
// Field names the offending field so users can fix it.
type InvalidError struct {
	Object string
	Field  string
	Reason string
}

func (e *InvalidError) Error() string {
	return fmt.Sprintf("%s: %s: %s", e.Object, e.Field, e.Reason)
}

// FromJobSet derives the workload of a JobSet: one slice per child Job, in
// JobSet's global Job index order. defaultDomainKey confines JobSets that
// name no exclusive topology ("" leaves them unconfined).
func FromJobSet(js *jobsetv1alpha2.JobSet, defaultDomainKey string) (*Workload, error) {
	obj := fmt.Sprintf("JobSet %s/%s", js.Namespace, js.Name)
	w := &Workload{
		Key:            Key{Source: SourceJobSet, Namespace: js.Namespace, Name: js.Name},
		UID:            js.UID,
		Created:        js.CreationTimestamp.Time,
		RestartAttempt: js.Status.Restarts,
		Finished:       jobSetFinished(js),
		Failed:         apimeta.IsStatusConditionTrue(js.Status.Conditions, string(jobsetv1alpha2.JobSetFailed)),
		Suspended:      js.Spec.Suspend != nil && *js.Spec.Suspend,
		QueueName:      wellknown.QueueName(js.Labels, js.Annotations),

		ProvisioningAnnotations: provisioningAnnotations(js.Annotations),
	}
	atomicKey, err := AtomicTopologyKey(obj, js.Annotations)
	if err != nil {
		return nil, err
	}
	w.AtomicKey = atomicKey
	jobSetKey := js.Annotations[wellknown.ExclusiveTopologyAnnotation]
	if err := validDomainKey(obj, "metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", jobSetKey); err != nil {
		return nil, err
	}
	groups := startupGroups(js)
	w.Groups = 1
	for _, g := range groups {
		w.Groups = max(w.Groups, g+1)
	}
	index := 0
	grouped := map[string]groupedPodSet{} // by podset-group-name: the first pod set of the group
	for i := range js.Spec.ReplicatedJobs {
		rj := &js.Spec.ReplicatedJobs[i]
		field := fmt.Sprintf("spec.replicatedJobs[%d]", i)
		if rj.Replicas < 0 {
			return nil, &InvalidError{obj, field + ".replicas", fmt.Sprintf("must not be negative, got %d", rj.Replicas)}
		}
		domainKey := jobSetKey
		if k, ok := rj.Template.Annotations[wellknown.ExclusiveTopologyAnnotation]; ok {
			if err := validDomainKey(obj, field+".template.metadata.annotations["+wellknown.ExclusiveTopologyAnnotation+"]", k); err != nil {
				return nil, err
			}
			domainKey = k
		}
		pods, err := jobPods(obj, field+".template.spec", &rj.Template.Spec)
		if err != nil {
			return nil, err
		}
		// The pod set is the replicated Job: all its Jobs' pods.
		podSet := int64(rj.Replicas) * int64(pods)
		if podSet > math.MaxInt32 {
			return nil, &InvalidError{obj, field + ".replicas", fmt.Sprintf("%d Jobs of %d pods are more pods than a pod set may have", rj.Replicas, pods)}
		}
		// A replicated Job of no Jobs has no pod set to check.
		var topo *TopologyRequest
		if podSet > 0 {
			if topo, err = topologyOf(obj, field+".template.spec.template", rj.Template.Spec.Template.Annotations, int32(podSet), domainKey); err != nil {
				return nil, err
			}
		}
		if topo != nil && topo.Group != "" {
			if err := sameGroupRequest(obj, field+".template.spec.template", grouped, rj.Name, topo); err != nil {
				return nil, err
			}
		}
		if domainKey == "" && topo == nil {
			domainKey = defaultDomainKey
		}
		if index+int(rj.Replicas) > maxSlices {
			return nil, &InvalidError{obj, field + ".replicas", fmt.Sprintf("the JobSet has more than %d Jobs", maxSlices)}
		}
		template := rj.Template.Spec.Template.Spec.DeepCopy()
		request, err := templateRequests(obj, field+".template.spec.template.spec", template)
		if err != nil {
			return nil, err
		}
		for r := 0; r < int(rj.Replicas); r++ {
			w.Slices = append(w.Slices, Slice{
				Index:     index,
				Name:      fmt.Sprintf("%s-%s-%d", js.Name, rj.Name, r),
				Pods:      pods,
				Request:   request,
				Template:  template,
				DomainKey: domainKey,
				Group:     groups[i],

				ReplicatedJob: rj.Name,
				Topology:      topo,
			})
			index++
		}
	}
	if len(w.Slices) == 0 {
		return nil, &InvalidError{obj, "spec.replicatedJobs", "no Jobs to schedule"}
	}
	for _, st := range js.Status.ReplicatedJobsStatus {
		if st.Succeeded > 0 {
			if w.SucceededJobs == nil {
				w.SucceededJobs = map[string]int32{}
			}
			w.SucceededJobs[st.Name] = st.Succeeded
		}
	}
	return w, nil
}

// startupGroups assigns each replicated Job its startup group. Under
// startupPolicyOrder InOrder every replicated Job is its own group, in list
// order. Under dependsOn, replicated Jobs without a dependency form group 0
// and those waiting on the same (replicated Job, status) share a group, since
// the JobSet controller creates them together.
func startupGroups(js *jobsetv1alpha2.JobSet) []int {
	out := make([]int, len(js.Spec.ReplicatedJobs))
	if p := js.Spec.StartupPolicy; p != nil && p.StartupPolicyOrder == jobsetv1alpha2.InOrder {
		for i := range out {
			out[i] = i
		}
		return out
	}
	ids := map[string]int{}
	for i, rj := range js.Spec.ReplicatedJobs {
		if len(rj.DependsOn) == 0 {
			continue
		}
		k := rj.DependsOn[0].Name + "/" + string(rj.DependsOn[0].Status)
		id, ok := ids[k]
		if !ok {
			id = len(ids) + 1
			ids[k] = id
		}
		out[i] = id
	}
	return out
}

// jobPods is how many pods of a Job run at once: its parallelism (default 1),
// capped by completions as the Job controller does, at most maxPods. An
// error is an *InvalidError of obj naming the field of spec, which is at
// field, that is at fault.
func jobPods(obj, field string, spec *batchv1.JobSpec) (int, error) {
	p := int32(1)
	if spec.Parallelism != nil {
		p = *spec.Parallelism
	}
	if p <= 0 {
		return 0, &InvalidError{obj, field + ".parallelism", fmt.Sprintf("must be positive, got %d", p)}
	}
	if c := spec.Completions; c != nil {
		if *c <= 0 {
			return 0, &InvalidError{obj, field + ".completions", fmt.Sprintf("must be positive, got %d", *c)}
		}
		p = min(p, *c)
	}
	if p > maxPods {
		return 0, &InvalidError{obj, field + ".parallelism", fmt.Sprintf("%d pods at once are more than one slice may have (%d)", p, maxPods)}
	}
	return int(p), nil
}

func jobSetFinished(js *jobsetv1alpha2.JobSet) bool {
	if js.DeletionTimestamp != nil || (js.Spec.Suspend != nil && *js.Spec.Suspend) {
		return true
	}
	for _, c := range []jobsetv1alpha2.JobSetConditionType{jobsetv1alpha2.JobSetCompleted, jobsetv1alpha2.JobSetFailed} {
		if apimeta.IsStatusConditionTrue(js.Status.Conditions, string(c)) {
			return true
		}
	}
	return false
}

func validDomainKey(obj, field, key string) error {
	if key == "" {
		return nil
	}
	if errs := validation.IsQualifiedName(key); len(errs) > 0 {
		return &InvalidError{obj, field, fmt.Sprintf("%q is not a node label key: %s", key, errs[0])}
	}
	return nil
}

// JobSetMember reads a pod's JobSet membership from the labels JobSet puts
// on it. ok is false for pods of no JobSet; err reports malformed labels.
func JobSetMember(pod *corev1.Pod) (m Member, ok bool, err error) {
	name, ok := pod.Labels[wellknown.JobSetNameLabel]
	if !ok {
		return Member{}, false, nil
	}
	obj := fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name)
	if name == "" {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.JobSetNameLabel + "]", "empty JobSet name"}
	}
	m.Key = Key{Source: SourceJobSet, Namespace: pod.Namespace, Name: name}
	idx, err := labelInt(pod, wellknown.JobGlobalIndexLabel, true)
	if err != nil {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.JobGlobalIndexLabel + "]", err.Error()}
	}
	m.Slice = idx
	attempt, err := labelInt(pod, wellknown.RestartAttemptLabel, false)
	if err != nil {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.RestartAttemptLabel + "]", err.Error()}
	}
	m.RestartAttempt = int32(attempt)
	m.OwnerUID = types.UID(pod.Labels[wellknown.JobSetUIDLabel])
	if err := readCompletionIndex(obj, pod, &m); err != nil {
		return Member{}, true, err
	}
	return m, true, nil
}

// readCompletionIndex sets m's HasIndex, Index and Leader from the pod's Job
// completion index label, if it has one.
func readCompletionIndex(obj string, pod *corev1.Pod, m *Member) error {
	v, has := pod.Labels[wellknown.JobCompletionIndexLabel]
	if !has {
		return nil
	}
	ci, err := strconv.Atoi(v)
	if err != nil || ci < 0 {
		return &InvalidError{obj, "metadata.labels[" + wellknown.JobCompletionIndexLabel + "]", fmt.Sprintf("%q is not a completion index", v)}
	}
	m.HasIndex, m.Index = true, ci
	m.Leader = ci == 0
	return nil
}

func labelInt(pod *corev1.Pod, key string, required bool) (int, error) {
	v, ok := pod.Labels[key]
	if !ok {
		if required {
			return 0, fmt.Errorf("missing")
		}
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n >= maxPods {
		return 0, fmt.Errorf("%q is not a non-negative integer", v)
	}
	return n, nil
}

// topologyOf reads the topology request of a pod set of pods pods from its
// pod template's annotations (template names the template's field; "":
// the annotations are a pod's own): an
// error is an *InvalidError of obj naming the annotation. A pod set whose
// owner names an exclusive domain key (domainKey) may not ask for a
// topology too: one says "a whole domain per slice", the other "these
// nodes of a shared domain".
func topologyOf(obj, template string, annotations map[string]string, pods int32, domainKey string) (*TopologyRequest, error) {
	r, err := TopologyRequestOf(annotations, pods)
	field := "metadata.annotations"
	if template != "" {
		field = template + "." + field
	}
	var ae *TopologyAnnotationError
	switch {
	case errors.As(err, &ae):
		return nil, &InvalidError{obj, field + "[" + ae.Annotation + "]", fmt.Sprintf("%q %s", ae.Value, ae.Reason)}
	case err != nil:
		return nil, &InvalidError{obj, field, err.Error()}
	case r == nil:
		return nil, nil
	case domainKey != "":
		return nil, &InvalidError{obj, field,
			fmt.Sprintf("asks for a topology (%s) and for whole domains of %q (exclusive topology): ask for one of them", r, domainKey)}
	}
	return r, nil
}

// groupedPodSet is the first pod set of a group (podset-group-name) seen:
// its replicated Job's name and its request.
type groupedPodSet struct {
	name string
	r    *TopologyRequest
}

// sameGroupRequest records the pod set name's request r in its group, and
// refuses one that asks for another mode or level than the group's first
// pod set: a group is kept together in one domain of one level.
func sameGroupRequest(obj, template string, grouped map[string]groupedPodSet, name string, r *TopologyRequest) error {
	first, ok := grouped[r.Group]
	if !ok {
		grouped[r.Group] = groupedPodSet{name: name, r: r}
		return nil
	}
	if first.r.Mode != r.Mode || first.r.Level != r.Level {
		return &InvalidError{obj, template + ".metadata.annotations[" + wellknown.PodSetGroupNameAnnotation + "]",
			fmt.Sprintf("%q groups it with %s, which asks for %s; a group's pod sets ask for the same level (this one: %s)",
				r.Group, first.name, first.r, r)}
	}
	return nil
}
