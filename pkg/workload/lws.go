package workload

import (
	"fmt"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// SourceLeaderWorkerSet is one group of a LeaderWorkerSet (a multi-host
// serving replica: a leader and its workers) that places its groups
// exclusively (leaderworkerset.sigs.k8s.io/exclusive-topology): a gang of
// one slice, the group's pods, on a domain of its own. Groups are
// independent replicas, each admitted on its own. The LeaderWorkerSet's
// Go types are not available here: the group is read from its pods'
// labels and annotations, its model from its leader pod. Groups without
// exclusive placement are not gangs: their pods are scheduled as plain
// pods, as the default scheduler would.
const SourceLeaderWorkerSet Source = "LeaderWorkerSet"

// LWSMember reads a pod's LeaderWorkerSet group membership: the group is
// named after its leader pod, <set>-<group index>.
func LWSMember(pod *corev1.Pod) (Member, bool, error) {
	set, ok := pod.Labels[wellknown.LWSNameLabel]
	if !ok {
		return Member{}, false, nil
	}
	if _, exclusive := pod.Annotations[wellknown.LWSExclusiveTopologyAnnotation]; !exclusive {
		return Member{}, false, nil
	}
	obj := fmt.Sprintf("Pod %s/%s", pod.Namespace, pod.Name)
	if set == "" {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.LWSNameLabel + "]", "empty LeaderWorkerSet name"}
	}
	group, err := strconv.Atoi(pod.Labels[wellknown.LWSGroupIndexLabel])
	if err != nil || group < 0 {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.LWSGroupIndexLabel + "]", fmt.Sprintf("%q is not a group index", pod.Labels[wellknown.LWSGroupIndexLabel])}
	}
	worker, err := strconv.Atoi(pod.Labels[wellknown.LWSWorkerIndexLabel])
	if err != nil || worker < 0 {
		return Member{}, true, &InvalidError{obj, "metadata.labels[" + wellknown.LWSWorkerIndexLabel + "]", fmt.Sprintf("%q is not a worker index", pod.Labels[wellknown.LWSWorkerIndexLabel])}
	}
	return Member{
		Key:      Key{Source: SourceLeaderWorkerSet, Namespace: pod.Namespace, Name: fmt.Sprintf("%s-%d", set, group)},
		Leader:   worker == 0,
		HasIndex: true,
		OwnerUID: types.UID(pod.Labels[wellknown.LWSGroupKeyLabel]),
	}, true, nil
}

// FromLWSLeader derives a group's workload from its leader pod: one slice
// of the group's size, confined to the set's exclusive topology. Leader
// and workers may come from different templates: each member is sized
// from its own spec when the group is planned.
func FromLWSLeader(leader *corev1.Pod) (*Workload, error) {
	m, ok, err := LWSMember(leader)
	switch {
	case err != nil:
		return nil, err
	case !ok || !m.Leader:
		return nil, fmt.Errorf("pod %s/%s is not the leader of an exclusively placed LeaderWorkerSet group", leader.Namespace, leader.Name)
	}
	obj := fmt.Sprintf("Pod %s/%s", leader.Namespace, leader.Name)
	size, err := strconv.Atoi(leader.Annotations[wellknown.LWSSizeAnnotation])
	if err != nil || size < 1 || size > maxPods {
		return nil, &InvalidError{obj, "metadata.annotations[" + wellknown.LWSSizeAnnotation + "]",
			fmt.Sprintf("%q is not a group size (1 to %d pods)", leader.Annotations[wellknown.LWSSizeAnnotation], maxPods)}
	}
	domainKey := leader.Annotations[wellknown.LWSExclusiveTopologyAnnotation]
	if err := validDomainKey(obj, "metadata.annotations["+wellknown.LWSExclusiveTopologyAnnotation+"]", domainKey); err != nil {
		return nil, err
	}
	uid := m.OwnerUID
	if uid == "" {
		uid = leader.UID
	}
	return &Workload{
		Key:       m.Key,
		UID:       uid,
		Created:   leader.CreationTimestamp.Time,
		Slices:    []Slice{{Index: 0, Name: m.Key.Name, Pods: size, DomainKey: domainKey}},
		Groups:    1,
		QueueName: wellknown.QueueName(leader.Labels, leader.Annotations),
		Finished:  leader.DeletionTimestamp != nil || leader.Status.Phase == corev1.PodSucceeded || leader.Status.Phase == corev1.PodFailed,
		Failed:    leader.Status.Phase == corev1.PodFailed,
	}, nil
}
