package workload_test

import (
	"reflect"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func TestInTreePodGroupMember(t *testing.T) {
	group := workload.Key{Source: workload.SourceInTreePodGroup, Namespace: "ns", Name: "infer"}
	for name, tc := range map[string]struct {
		pod             *corev1.Pod
		member, invalid bool
		want            workload.Key
	}{
		"member":           {pod: builders.Pod("ns", "p").InSchedulingGroup("infer").Obj(), member: true, want: group},
		"no group":         {pod: builders.Pod("ns", "p").Obj()},
		"empty group name": {pod: builders.Pod("ns", "p").InSchedulingGroup("").Obj(), member: true, invalid: true},
		// A JobSet's pods stay the JobSet's, whatever Job controller
		// feature also puts them in a PodGroup.
		"jobset pod in a group": {pod: builders.Pod("ns", "p").InSchedulingGroup("infer").
			Label(wellknown.JobSetNameLabel, "train").Label(wellknown.JobGlobalIndexLabel, "0").Obj(),
			member: true, want: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}},
		// A group wins over a LocalQueue label: the group is the gang.
		"queued pod in a group": {pod: builders.Pod("ns", "p").InSchedulingGroup("infer").Label(wellknown.QueueNameLabel, "lq").Obj(),
			member: true, want: group},
	} {
		t.Run(name, func(t *testing.T) {
			m, ok, err := workload.MemberOf(tc.pod)
			if ok != tc.member || (err != nil) != tc.invalid {
				t.Fatalf("MemberOf = %+v, %v, %v", m, ok, err)
			}
			if tc.invalid {
				if !strings.Contains(err.Error(), "spec.schedulingGroup.podGroupName") {
					t.Errorf("error does not name the field: %v", err)
				}
				return
			}
			if m.Key != tc.want {
				t.Errorf("key = %v, want %v", m.Key, tc.want)
			}
		})
	}
}

func TestFromInTreePodGroup(t *testing.T) {
	const pool, subblock = wellknown.NodePoolLabel, wellknown.GCETopologySubblockLabel
	for name, tc := range map[string]struct {
		group      *builders.InTreePodGroupBuilder
		defaultKey string
		// wantNil: not a gang; wantErr: the field the error names.
		wantNil    bool
		wantErr    string
		wantPods   int
		wantDomain string
		// wantRequired: the level a required topology names ("": none).
		wantRequired string
	}{
		"gang, unconfined":         {group: builders.InTreePodGroup("ns", "g", 4), wantPods: 4},
		"gang, default domain key": {group: builders.InTreePodGroup("ns", "g", 4), defaultKey: pool, wantPods: 4, wantDomain: pool},
		"topology constraint: one shared domain": {group: builders.InTreePodGroup("ns", "g", 2).Topology(subblock), defaultKey: pool,
			wantPods: 2, wantRequired: subblock},
		"our annotation confines": {group: builders.InTreePodGroup("ns", "g", 2).Exclusive(pool), wantPods: 2, wantDomain: pool},
		"constraint and annotation agree": {group: builders.InTreePodGroup("ns", "g", 2).Topology(pool).Exclusive(pool),
			wantPods: 2, wantDomain: pool},
		"constraint and annotation disagree": {group: builders.InTreePodGroup("ns", "g", 2).Topology(pool).Exclusive(wellknown.ZoneLabel),
			wantErr: "metadata.annotations[" + wellknown.PodGroupDomainKeyAnnotation + "]"},
		"two constraints":       {group: builders.InTreePodGroup("ns", "g", 2).Topology(pool).Topology(wellknown.ZoneLabel), wantErr: "spec.schedulingConstraints.topology"},
		"empty constraint key":  {group: builders.InTreePodGroup("ns", "g", 2).Topology(""), wantErr: "spec.schedulingConstraints.topology[0].key"},
		"bad constraint key":    {group: builders.InTreePodGroup("ns", "g", 2).Topology("not a key!"), wantErr: "spec.schedulingConstraints.topology[0].key"},
		"basic policy: no gang": {group: builders.InTreePodGroup("ns", "g", 2).Basic(), wantNil: true},
		"zero minCount":         {group: builders.InTreePodGroup("ns", "g", 0), wantErr: "spec.schedulingPolicy.gang.minCount"},
		"huge minCount":         {group: builders.InTreePodGroup("ns", "g", 1<<30), wantErr: "spec.schedulingPolicy.gang.minCount"},
		// Derived on its own only when its composite is basic (the feed
		// decides): then it is a gang like any other.
		"basic composite's child": {group: builders.InTreePodGroup("ns", "g", 2).Parent("all"), wantPods: 2},
		"bad atomic annotation":   {group: builders.InTreePodGroup("ns", "g", 2).Annotation(wellknown.AtomicTopologyAnnotation, "a/b/c"), wantErr: wellknown.AtomicTopologyAnnotation},
	} {
		t.Run(name, func(t *testing.T) {
			w, err := workload.FromInTreePodGroup(tc.group.Obj(), nil, tc.defaultKey)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), "PodGroup.scheduling.k8s.io ns/g") {
					t.Fatalf("err = %v, want one naming %s", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if tc.wantNil {
				if w != nil {
					t.Fatalf("a basic group is no gang, got %+v", w)
				}
				return
			}
			if w.Key != (workload.Key{Source: workload.SourceInTreePodGroup, Namespace: "ns", Name: "g"}) || len(w.Slices) != 1 {
				t.Fatalf("model %+v", w)
			}
			if s := w.Slices[0]; s.Pods != tc.wantPods || s.DomainKey != tc.wantDomain {
				t.Errorf("slice = %d pods in %q, want %d in %q", s.Pods, s.DomainKey, tc.wantPods, tc.wantDomain)
			}
			var want *workload.TopologyRequest
			if tc.wantRequired != "" {
				want = &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: tc.wantRequired}
			}
			if got := w.Slices[0].Topology; !reflect.DeepEqual(got, want) {
				t.Errorf("topology = %v, want %v", got, want)
			}
		})
	}
}

// The Workload object of an in-tree PodGroup never takes the name of a
// scheduler-plugins PodGroup's.
func TestInTreePodGroupObjectName(t *testing.T) {
	inTree := workload.Key{Source: workload.SourceInTreePodGroup, Namespace: "ns", Name: "g"}.ObjectName()
	plugins := workload.Key{Source: workload.SourcePodGroup, Namespace: "ns", Name: "g"}.ObjectName()
	if inTree == plugins {
		t.Fatalf("both are %q", inTree)
	}
}
