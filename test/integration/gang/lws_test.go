package gang_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// lwsGroupPod is a pod of a LeaderWorkerSet group as the set's controller
// and webhook make it: the leader (worker 0) with the required affinity to
// its own group and anti-affinity to the others on the exclusive topology,
// a worker pinned to its leader's pool.
func lwsGroupPod(ns, set string, group, worker, size int, pool string) *corev1.Pod {
	leader := fmt.Sprintf("%s-%d", set, group)
	name, key := leader, leader+"-key"
	if worker > 0 {
		name = fmt.Sprintf("%s-%d", leader, worker)
	}
	b := builders.Pod(ns, name).Scheduler(app.Name).TPU("4").
		Label(wellknown.LWSNameLabel, set).
		Label(wellknown.LWSGroupIndexLabel, fmt.Sprint(group)).
		Label(wellknown.LWSWorkerIndexLabel, fmt.Sprint(worker)).
		Label(wellknown.LWSGroupKeyLabel, key).
		Annotation(wellknown.LWSSizeAnnotation, fmt.Sprint(size)).
		Annotation(wellknown.LWSExclusiveTopologyAnnotation, wellknown.NodePoolLabel)
	if worker > 0 {
		return b.Annotation(wellknown.LWSLeaderNameAnnotation, leader).NodeSelector(wellknown.NodePoolLabel, pool).Obj()
	}
	pod := b.Obj()
	term := func(op metav1.LabelSelectorOperator, values ...string) corev1.PodAffinityTerm {
		req := []metav1.LabelSelectorRequirement{{Key: wellknown.LWSGroupKeyLabel, Operator: op, Values: values}}
		if op == metav1.LabelSelectorOpNotIn {
			req = append([]metav1.LabelSelectorRequirement{{Key: wellknown.LWSGroupKeyLabel, Operator: metav1.LabelSelectorOpExists}}, req...)
		}
		return corev1.PodAffinityTerm{LabelSelector: &metav1.LabelSelector{MatchExpressions: req}, TopologyKey: wellknown.NodePoolLabel}
	}
	pod.Spec.Affinity = &corev1.Affinity{
		PodAffinity:     &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(metav1.LabelSelectorOpIn, key)}},
		PodAntiAffinity: &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{term(metav1.LabelSelectorOpNotIn, key)}},
	}
	return pod
}

// Multi-host serving beside training (seed 000): each group of an
// exclusively placed LeaderWorkerSet gets a pool of its own, its leader
// first (the set creates the workers once the leader exists), the pool
// kept for the group while its workers come; as many groups as there are
// free pools run, the others wait whole, and no group shares a pool with
// a JobSet slice.
func TestLeaderWorkerSetGroupsArePlacedWhole(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	v5ePools(t, cp, 3)
	harness.StartScheduler(t, cp, harness.SchedulerConfig(t))
	ns := cp.CreateNamespace(t, "lws")
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)
	jobsets.Create(t, multislice(ns, "train", 1))
	train := waitWhollyPlaced(t, cp, ns, "train", 2)

	pools := map[string]string{}
	for g := range 3 {
		cp.CreatePod(t, lwsGroupPod(ns, "serve", g, 0, 2, ""))
	}
	for g := range 2 {
		leader := cp.WaitForPodBound(t, ns, fmt.Sprintf("serve-%d", g))
		pool := poolOfNode(leader.Spec.NodeName)
		for other, p := range pools {
			if p == pool {
				t.Fatalf("groups %s and %d share pool %s", other, g, pool)
			}
		}
		pools[fmt.Sprint(g)] = pool
		cp.CreatePod(t, lwsGroupPod(ns, "serve", g, 1, 2, pool))
		if w := cp.WaitForPodBound(t, ns, fmt.Sprintf("serve-%d-1", g)); poolOfNode(w.Spec.NodeName) != pool {
			t.Errorf("group %d's worker on %s, outside its pool %s", g, w.Spec.NodeName, pool)
		}
	}
	for _, p := range pools {
		if train.Uses(p) {
			t.Errorf("a group shares pool %s with the JobSet", p)
		}
	}
	// Three pools, one trains, two serve: the third group waits, whole.
	cp.ExpectPodStaysUnbound(t, ns, "serve-2", 0)
}

// poolOfNode is the v5e pool of a node of v5ePools (<pool>-node-<i>).
func poolOfNode(node string) string {
	return node[:strings.LastIndex(node, "-node-")]
}
