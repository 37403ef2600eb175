package state_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// addInTreePodGroup feeds a Kubernetes PodGroup as its informer would.
func (f *fixture) addInTreePodGroup(b *builders.InTreePodGroupBuilder) state.Actions {
	f.t.Helper()
	pg := b.Obj()
	w, err := workload.FromInTreePodGroup(pg, nil, f.s.DefaultDomainKey())
	key := workload.Key{Source: workload.SourceInTreePodGroup, Namespace: pg.Namespace, Name: pg.Name}
	return f.s.Feed().UpsertSource(key, w, err, corev1.ObjectReference{Kind: "PodGroup", APIVersion: "scheduling.k8s.io/v1beta1", Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID})
}

func inTreeMembers(group string, n int) []*corev1.Pod {
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		name := fmt.Sprintf("%s-%d", group, i)
		pods[i] = unit.Pod(name).UID(name + "-uid").TPU("4").InSchedulingGroup(group).Obj()
	}
	return pods
}

// A Kubernetes PodGroup with the gang policy is a gang of minCount pods on
// the domain of its topology constraint, exclusive: its pods wait until
// all exist, then plan together on one pool no other workload holds. A
// group with the basic policy is no gang: its pods are plain pods.
func TestInTreePodGroups(t *testing.T) {
	t.Run("gang on its topology constraint's domain", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(2)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
		f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "infer", 2).Topology(wellknown.NodePoolLabel))
		pods := inTreeMembers("infer", 2)
		f.addPods(pods[0])
		if v := f.admit(pods[0]); !v.Gang || !v.Wait {
			t.Fatalf("alone, the first member: %+v, want it to wait for the second", v)
		}
		f.addPods(pods[1])
		key := workload.Key{Source: workload.SourceInTreePodGroup, Namespace: unit.Namespace, Name: "infer"}
		if v := f.admit(pods[0]); !v.Gang || v.Wait || v.Unresolvable || v.Member.Key != key {
			t.Fatalf("the head with its gang whole: %+v", v)
		}
		_, r, _ := f.commit(key)
		if s := r.Slices[0]; s.Domain == "" || len(s.Slots) != 2 {
			t.Fatalf("reserved %+v, want both pods in one pool", s)
		}
		if v := f.admit(pods[1]); v.Wait || v.Unresolvable {
			t.Fatalf("the second member once its gang has room: %+v", v)
		}
	})
	t.Run("basic policy: plain pods", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(1)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
		f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "web", 2).Basic())
		pods := inTreeMembers("web", 2)
		f.addPods(pods[0])
		if v := f.admit(pods[0]); v.Gang || v.Wait {
			t.Fatalf("a basic group's pod: %+v, want a plain pod", v)
		}
	})
	t.Run("invalid group: its pods say why", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(1)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
		f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "child", 2).Parent("all"))
		pods := inTreeMembers("child", 2)
		f.addPods(pods...)
		if v := f.admit(pods[0]); !v.Unresolvable || !strings.Contains(v.Message, "spec.parentCompositePodGroupName") {
			t.Fatalf("a composite group's pod: %+v", v)
		}
	})
	t.Run("API not served: plain pods", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(1)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APINotServed)
		pods := inTreeMembers("infer", 2)
		f.addPods(pods[0])
		if v := f.admit(pods[0]); v.Gang || v.Wait {
			t.Fatalf("%+v, want a plain pod", v)
		}
	})
}
