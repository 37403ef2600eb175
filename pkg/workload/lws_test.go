package workload_test

import (
	"strings"
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

// topologyAnnotations are a group's pod annotations asking for level
// (required) with Kueue's annotations, plus extra.
func topologyAnnotations(size string, kv ...string) map[string]string {
	a := map[string]string{wellknown.LWSSizeAnnotation: size}
	for i := 0; i+1 < len(kv); i += 2 {
		a[kv[i]] = kv[i+1]
	}
	return a
}

// A LeaderWorkerSet group whose templates carry Kueue's topology
// annotations is a gang of one pod set kept as its leader asks; a worker
// asking otherwise stands refused, naming what to change; malformed
// annotations name the annotation.
func TestLWSGroupTopology(t *testing.T) {
	subblock := []string{wellknown.RequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel}
	grouped := append([]string{wellknown.PodSetGroupNameAnnotation, "serve"}, subblock...)
	for name, tc := range map[string]struct {
		leader, worker map[string]string
		want           string // the slice's request; "" none
		leaderErr      string // FromLWSLeader's error contains it
		workerErr      string // MemberOf's error on the worker contains it
		workerStale    string // StandingIn's refusal of the worker contains it
	}{
		"required on both templates": {leader: topologyAnnotations("4", subblock...), worker: topologyAnnotations("4", subblock...),
			want: "required " + wellknown.GCETopologySubblockLabel},
		"grouped, as Kueue's LeaderWorkerSet sample writes it": {leader: topologyAnnotations("4", grouped...), worker: topologyAnnotations("4", grouped...),
			want: `required ` + wellknown.GCETopologySubblockLabel + `, group "serve"`},
		"preferred": {leader: topologyAnnotations("2", wellknown.PreferredTopologyAnnotation, wellknown.GCETopologyBlockLabel),
			worker: topologyAnnotations("2", wellknown.PreferredTopologyAnnotation, wellknown.GCETopologyBlockLabel),
			want:   "preferred " + wellknown.GCETopologyBlockLabel},
		"slices of the group": {leader: topologyAnnotations("8", wellknown.SliceRequiredTopologyAnnotation, wellknown.GCETopologyHostLabel, wellknown.SliceSizeAnnotation, "4"),
			worker: topologyAnnotations("8", wellknown.SliceRequiredTopologyAnnotation, wellknown.GCETopologyHostLabel, wellknown.SliceSizeAnnotation, "4"),
			want:   "unconstrained, slices of 4 in " + wellknown.GCETopologyHostLabel},
		"a worker asking for another level": {leader: topologyAnnotations("4", subblock...),
			worker:      topologyAnnotations("4", wellknown.RequiredTopologyAnnotation, wellknown.GCETopologyBlockLabel),
			want:        "required " + wellknown.GCETopologySubblockLabel,
			workerStale: "asks for required " + wellknown.GCETopologyBlockLabel + " and its group's leader for required " + wellknown.GCETopologySubblockLabel},
		"a leader asking for none while its workers ask": {leader: topologyAnnotations("4", wellknown.UnconstrainedTopologyAnnotation, "false"),
			worker:      topologyAnnotations("4", subblock...),
			workerStale: "its group's leader for no topology"},
		"exclusive and a topology on the leader": {leader: topologyAnnotations("4", append([]string{wellknown.LWSExclusiveTopologyAnnotation, wellknown.NodePoolLabel}, subblock...)...),
			worker:    topologyAnnotations("4", subblock...),
			leaderErr: "ask for one of them"},
		"a slice size that does not divide the group": {leader: topologyAnnotations("6", wellknown.SliceRequiredTopologyAnnotation, wellknown.GCETopologyHostLabel, wellknown.SliceSizeAnnotation, "4"),
			worker:    topologyAnnotations("6", wellknown.SliceRequiredTopologyAnnotation, wellknown.GCETopologyHostLabel, wellknown.SliceSizeAnnotation, "4"),
			leaderErr: "metadata.annotations[" + wellknown.SliceSizeAnnotation + `]: "4" does not divide`,
			workerErr: "metadata.annotations[" + wellknown.SliceSizeAnnotation + `]: "4" does not divide`},
		"required and preferred both": {leader: topologyAnnotations("4", append([]string{wellknown.PreferredTopologyAnnotation, wellknown.GCETopologyBlockLabel}, subblock...)...),
			worker:    topologyAnnotations("4", subblock...),
			leaderErr: "may not be set together with"},
	} {
		t.Run(name, func(t *testing.T) {
			leader := builders.Pod("ns", "serve-2").Obj()
			leader.Labels, leader.Annotations = lwsLabels("2", "0"), tc.leader
			worker := builders.Pod("ns", "serve-2-1").Obj()
			worker.Labels, worker.Annotations = lwsLabels("2", "1"), tc.worker
			if m, ok, err := workload.MemberOf(leader); !ok || err != nil || !m.Leader || m.Key.Source != workload.SourceLeaderWorkerSet {
				t.Fatalf("leader: MemberOf = %+v, %v, %v", m, ok, err)
			}
			model, err := workload.FromLWSLeader(leader)
			if tc.leaderErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.leaderErr) {
					t.Fatalf("FromLWSLeader error %v, want one containing %q", err, tc.leaderErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			if r := model.Slices[0].Topology; r != nil {
				got = r.String()
			}
			if got != tc.want || model.Slices[0].DomainKey != "" || len(model.Slices) != 1 {
				t.Errorf("the group's slice asks for %q (domain key %q), want %q", got, model.Slices[0].DomainKey, tc.want)
			}
			m, ok, err := workload.MemberOf(worker)
			if tc.workerErr != "" {
				if !ok || err == nil || !strings.Contains(err.Error(), tc.workerErr) {
					t.Fatalf("worker: MemberOf = %v, %v; want an error containing %q", ok, err, tc.workerErr)
				}
				return
			}
			if !ok || err != nil {
				t.Fatalf("worker: MemberOf = %+v, %v, %v", m, ok, err)
			}
			st, why := workload.StandingIn(m, model)
			if tc.workerStale == "" {
				if st != workload.Current {
					t.Errorf("the worker stands %v: %s", st, why)
				}
				return
			}
			if st != workload.Stale || !strings.Contains(why, tc.workerStale) {
				t.Errorf("the worker stands %v (%q), want Stale saying %q", st, why, tc.workerStale)
			}
		})
	}
}
