package workload_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func lwsLabels(group, worker string) map[string]string {
	return map[string]string{wellknown.LWSNameLabel: "serve", wellknown.LWSGroupIndexLabel: group, wellknown.LWSWorkerIndexLabel: worker, wellknown.LWSGroupKeyLabel: "k1"}
}

func lwsAnnotations(size string) map[string]string {
	return map[string]string{wellknown.LWSSizeAnnotation: size, wellknown.LWSExclusiveTopologyAnnotation: wellknown.NodePoolLabel}
}

func TestLWSMember(t *testing.T) {
	group := workload.Key{Source: workload.SourceLeaderWorkerSet, Namespace: "ns", Name: "serve-2"}
	for name, tc := range map[string]struct {
		labels, annotations map[string]string
		member, invalid     bool
		leader              bool
	}{
		"leader":                       {labels: lwsLabels("2", "0"), annotations: lwsAnnotations("4"), member: true, leader: true},
		"worker":                       {labels: lwsLabels("2", "3"), annotations: lwsAnnotations("4"), member: true},
		"not exclusive: a plain pod":   {labels: lwsLabels("2", "0"), annotations: map[string]string{wellknown.LWSSizeAnnotation: "4"}},
		"bad group index":              {labels: lwsLabels("two", "0"), annotations: lwsAnnotations("4"), member: true, invalid: true},
		"missing worker index":         {labels: map[string]string{wellknown.LWSNameLabel: "serve", wellknown.LWSGroupIndexLabel: "2"}, annotations: lwsAnnotations("4"), member: true, invalid: true},
		"no LeaderWorkerSet at all":    {labels: map[string]string{"app": "x"}},
		"JobSet labels win over LWS's": {labels: map[string]string{wellknown.LWSNameLabel: "serve", wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0"}, annotations: lwsAnnotations("4"), member: true},
	} {
		t.Run(name, func(t *testing.T) {
			pod := builders.Pod("ns", "p").Obj()
			pod.Labels, pod.Annotations = tc.labels, tc.annotations
			m, ok, err := workload.MemberOf(pod)
			if ok != tc.member || (err != nil) != tc.invalid {
				t.Fatalf("MemberOf = %+v, %v, %v", m, ok, err)
			}
			if ok && !tc.invalid && m.Key.Source == workload.SourceLeaderWorkerSet && (m.Key != group || m.Leader != tc.leader || m.OwnerUID != "k1") {
				t.Errorf("member %+v", m)
			}
		})
	}
}

func TestFromLWSLeader(t *testing.T) {
	leader := builders.Pod("ns", "serve-2").Obj()
	leader.Labels, leader.Annotations = lwsLabels("2", "0"), lwsAnnotations("4")
	w, err := workload.FromLWSLeader(leader)
	if err != nil {
		t.Fatal(err)
	}
	if len(w.Slices) != 1 || w.Slices[0].Pods != 4 || w.Slices[0].DomainKey != wellknown.NodePoolLabel || w.UID != "k1" || w.Slices[0].Template != nil {
		t.Errorf("model %+v", w)
	}
	for _, size := range []string{"", "0", "x", "99999999"} {
		bad := leader.DeepCopy()
		bad.Annotations[wellknown.LWSSizeAnnotation] = size
		if _, err := workload.FromLWSLeader(bad); err == nil {
			t.Errorf("size %q: no error", size)
		}
	}
	worker := leader.DeepCopy()
	worker.Labels[wellknown.LWSWorkerIndexLabel] = "1"
	if _, err := workload.FromLWSLeader(worker); err == nil {
		t.Error("a worker made a group")
	}
	leader.Status.Phase = corev1.PodSucceeded
	if w, _ := workload.FromLWSLeader(leader); !w.Finished {
		t.Error("a group whose leader ended is not finished")
	}
}
