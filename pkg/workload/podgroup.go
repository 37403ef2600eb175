package workload

import (
	"fmt"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// FromPodGroup derives the single-slice workload of a scheduler-plugins
// PodGroup. Its pods' shape is not on the PodGroup, so template is the spec
// of one member pod (nil until a member exists). The group is confined to a
// domain only when our annotation (or defaultDomainKey) names one, so
// coscheduling users switch schedulers with no change.
func FromPodGroup(pg *schedv1alpha1.PodGroup, template *corev1.PodSpec, defaultDomainKey string) (*Workload, error) {
	obj := fmt.Sprintf("PodGroup %s/%s", pg.Namespace, pg.Name)
	if pg.Spec.MinMember <= 0 {
		return nil, &InvalidError{obj, "spec.minMember", fmt.Sprintf("must be positive, got %d", pg.Spec.MinMember)}
	}
	if pg.Spec.MinMember > maxPods {
		return nil, &InvalidError{obj, "spec.minMember", fmt.Sprintf("%d is more pods than one gang may have", pg.Spec.MinMember)}
	}
	domainKey, set := pg.Annotations[wellknown.PodGroupDomainKeyAnnotation]
	if err := validDomainKey(obj, "metadata.annotations["+wellknown.PodGroupDomainKeyAnnotation+"]", domainKey); err != nil {
		return nil, err
	}
	if !set {
		domainKey = defaultDomainKey
	}
	atomicKey, err := AtomicTopologyKey(obj, pg.Annotations)
	if err != nil {
		return nil, err
	}
	w := groupWorkload(Key{Source: SourcePodGroup, Namespace: pg.Namespace, Name: pg.Name}, &pg.ObjectMeta, int(pg.Spec.MinMember), domainKey, atomicKey, template)
	w.Finished = w.Finished || pg.Status.Phase == schedv1alpha1.PodGroupFinished || pg.Status.Phase == schedv1alpha1.PodGroupFailed
	w.Failed = pg.Status.Phase == schedv1alpha1.PodGroupFailed
	return w, nil
}

// groupWorkload is the workload of a pod group object (scheduler-plugins'
// or Kubernetes'): one slice of pods pods, sized from template when a
// member exists, finished once the object is being deleted.
func groupWorkload(key Key, meta *metav1.ObjectMeta, pods int, domainKey, atomicKey string, template *corev1.PodSpec) *Workload {
	s := Slice{Index: 0, Name: meta.Name, Pods: pods, DomainKey: domainKey}
	if template != nil {
		s.Template = template.DeepCopy()
		s.Request = PodRequests(s.Template)
	}
	return &Workload{
		Key:       key,
		UID:       meta.UID,
		Created:   meta.CreationTimestamp.Time,
		Slices:    []Slice{s},
		Groups:    1,
		Finished:  meta.DeletionTimestamp != nil,
		QueueName: wellknown.QueueName(meta.Labels, meta.Annotations),
		AtomicKey: atomicKey,

		ProvisioningAnnotations: provisioningAnnotations(meta.Annotations),
	}
}

// PodGroupMember reads a pod's PodGroup membership.
func PodGroupMember(pod *corev1.Pod) (m Member, ok bool, err error) {
	name, ok := pod.Labels[wellknown.PodGroupLabel]
	if !ok {
		return Member{}, false, nil
	}
	if name == "" {
		return Member{}, true, &InvalidError{fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name), "metadata.labels[" + wellknown.PodGroupLabel + "]", "empty PodGroup name"}
	}
	return Member{Key: Key{Source: SourcePodGroup, Namespace: pod.Namespace, Name: name}}, true, nil
}

// MemberOf reads a pod's workload membership from any source. A pod that
// names both a JobSet and a PodGroup belongs to the JobSet; a pod of an
// exclusively placed LeaderWorkerSet belongs to its group; a queued pod
// of a plain Job belongs to the Job's workload; a pod that names a
// Kubernetes PodGroup (spec.schedulingGroup) belongs to it; a pod of none
// of these that names a LocalQueue is a workload of its own; the other
// pods that consume a ProvisioningRequest are the gang of that request.
func MemberOf(pod *corev1.Pod) (Member, bool, error) {
	if m, ok, err := JobSetMember(pod); ok {
		return m, ok, err
	}
	if m, ok, err := PodGroupMember(pod); ok {
		return m, ok, err
	}
	if m, ok, err := LWSMember(pod); ok {
		return m, ok, err
	}
	if m, ok, err := JobMember(pod); ok {
		return m, ok, err
	}
	if m, ok, err := InTreePodGroupMember(pod); ok {
		return m, ok, err
	}
	if m, ok := PodMember(pod); ok {
		return m, true, nil
	}
	return ConsumerMember(pod)
}
