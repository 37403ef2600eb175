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
// exclusively (leaderworkerset.sigs.k8s.io/exclusive-topology) or whose
// pod templates ask for a topology (Kueue's podset-*-topology
// annotations): a gang of one slice, the group's pods, on a domain of its
// own or in one domain of the level asked, shared. Groups are independent
// replicas, each admitted on its own. The LeaderWorkerSet's Go types are
// not available here: the group is read from its pods' labels and
// annotations, its model from its leader pod. Groups asking for neither
// are not gangs: their pods are scheduled as plain pods, as the default
// scheduler would.
const SourceLeaderWorkerSet Source = "LeaderWorkerSet"

// LWSMember reads a pod's LeaderWorkerSet group membership: the group is
// named after its leader pod, <set>-<group index>.
func LWSMember(pod *corev1.Pod) (Member, bool, error) {
	set, ok := pod.Labels[wellknown.LWSNameLabel]
	if !ok {
		return Member{}, false, nil
	}
	_, exclusive := pod.Annotations[wellknown.LWSExclusiveTopologyAnnotation]
	if !exclusive && !AsksForTopology(pod.Annotations) {
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
	m := Member{
		Key:      Key{Source: SourceLeaderWorkerSet, Namespace: pod.Namespace, Name: fmt.Sprintf("%s-%d", set, group)},
		Leader:   worker == 0,
		HasIndex: true,
		OwnerUID: types.UID(pod.Labels[wellknown.LWSGroupKeyLabel]),
	}
	if worker > 0 {
		// The leader's request is the group's (FromLWSLeader reads it); a
		// worker's own is compared with it (StandingIn).
		size, err := lwsSize(obj, pod)
		if err != nil {
			return Member{}, true, err
		}
		r, err := topologyOf(obj, "", pod.Annotations, int32(size), "")
		if err != nil {
			return Member{}, true, err
		}
		m.Topology = topologyKey(r)
	}
	return m, true, nil
}

// lwsSize reads a group's size from a pod of it.
func lwsSize(obj string, pod *corev1.Pod) (int, error) {
	size, err := strconv.Atoi(pod.Annotations[wellknown.LWSSizeAnnotation])
	if err != nil || size < 1 || size > maxPods {
		return 0, &InvalidError{obj, "metadata.annotations[" + wellknown.LWSSizeAnnotation + "]",
			fmt.Sprintf("%q is not a group size (1 to %d pods)", pod.Annotations[wellknown.LWSSizeAnnotation], maxPods)}
	}
	return size, nil
}

// topologyKey is what a member's request is compared by ("" for none).
func topologyKey(r *TopologyRequest) string {
	if r == nil {
		return ""
	}
	return r.String()
}

// lwsStanding says whether a worker of a LeaderWorkerSet group asks for
// the topology its leader does: the group is placed as one pod set, by
// its leader's request, so a worker whose template asks for another (or
// none, or whole domains) would be placed as it did not ask.
func lwsStanding(m Member, model *Workload) (Standing, string) {
	if m.Leader || len(model.Slices) == 0 {
		return Current, ""
	}
	if want := topologyKey(model.Slices[0].Topology); m.Topology != want {
		say := func(k string) string {
			if k == "" {
				return "no topology"
			}
			return k
		}
		return Stale, fmt.Sprintf("the pod asks for %s and its group's leader for %s: a LeaderWorkerSet group is placed as one, as its leader asks; give the leader and worker templates the same %s annotations",
			say(m.Topology), say(want), "kueue.x-k8s.io/podset-*-topology")
	}
	return Current, ""
}

// FromLWSLeader derives a group's workload from its leader pod: one slice
// of the group's size, confined to the set's exclusive topology, or kept
// in one domain as the leader's topology annotations ask (the group's
// pods are one pod set). Leader and workers may come from different
// templates: each member is sized from its own spec when the group is
// planned.
func FromLWSLeader(leader *corev1.Pod) (*Workload, error) {
	m, ok, err := LWSMember(leader)
	switch {
	case err != nil:
		return nil, err
	case !ok || !m.Leader:
		return nil, fmt.Errorf("pod %s/%s is not the leader of a LeaderWorkerSet group placed as a gang (exclusive-topology or a topology request)", leader.Namespace, leader.Name)
	}
	obj := fmt.Sprintf("Pod %s/%s", leader.Namespace, leader.Name)
	size, err := lwsSize(obj, leader)
	if err != nil {
		return nil, err
	}
	domainKey := leader.Annotations[wellknown.LWSExclusiveTopologyAnnotation]
	if err := validDomainKey(obj, "metadata.annotations["+wellknown.LWSExclusiveTopologyAnnotation+"]", domainKey); err != nil {
		return nil, err
	}
	topo, err := topologyOf(obj, "", leader.Annotations, int32(size), domainKey)
	if err != nil {
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
		Slices:    []Slice{{Index: 0, Name: m.Key.Name, Pods: size, DomainKey: domainKey, Topology: topo}},
		Groups:    1,
		QueueName: wellknown.QueueName(leader.Labels, leader.Annotations),
		Finished:  leader.DeletionTimestamp != nil || leader.Status.Phase == corev1.PodSucceeded || leader.Status.Phase == corev1.PodFailed,
		Failed:    leader.Status.Phase == corev1.PodFailed,
	}, nil
}
