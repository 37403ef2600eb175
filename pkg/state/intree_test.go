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

// A Kubernetes PodGroup with the gang policy is a gang of minCount pods:
// its pods wait until all exist, then plan together, all in one domain of
// its topology constraint's key, or on one pool no other workload holds
// when our annotation asks for it whole. A group with the basic policy is
// no gang: its pods are plain pods.
func TestInTreePodGroups(t *testing.T) {
	t.Run("gang on its exclusive domain", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(2)...)
		f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
		f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "infer", 2).Topology(wellknown.NodePoolLabel).Exclusive(wellknown.NodePoolLabel))
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
		f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "bad", 0))
		pods := inTreeMembers("bad", 2)
		f.addPods(pods...)
		if v := f.admit(pods[0]); !v.Unresolvable || !strings.Contains(v.Message, "spec.schedulingPolicy.gang.minCount") {
			t.Fatalf("a malformed group's pod: %+v", v)
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

// gpuMembers are n pods of group asking for gpus GPUs each.
func gpuMembers(group string, n int, gpus string) []*corev1.Pod {
	pods := make([]*corev1.Pod, n)
	for i := range pods {
		name := fmt.Sprintf("%s-%d", group, i)
		pods[i] = unit.Pod(name).UID(name+"-uid").Request(wellknown.ResourceGPU, gpus).InSchedulingGroup(group).Obj()
	}
	return pods
}

// A topology constraint is read as Kubernetes reads it: every pod in one
// domain of its key, a domain other workloads share where room allows
// (the tightest that holds the gang, so a second group joins the first's
// subblock and the empty one stays whole). Our annotation naming the same
// key asks for a domain whole: that group takes the empty subblock, and
// no other gang is planned into it.
func TestInTreePodGroupTopologyConstraint(t *testing.T) {
	var nodes []*corev1.Node
	for _, name := range []string{"s0-h0", "s0-h1", "s1-h0", "s1-h1"} {
		nodes = append(nodes, builders.Node(name).GPU("nvidia-h100-80gb", 8).Label(corev1.LabelHostname, name).
			Label(gpuSubblock, name[:2]).Obj())
	}
	f := newFixture(t, nodes...)
	f.s.Feed().SetAPI(workload.SourceInTreePodGroup, state.APIServed)
	subblockOf := func(group string, minCount int, exclusive bool) (string, *state.Reservation) {
		t.Helper()
		b := builders.InTreePodGroup(unit.Namespace, group, int32(minCount)).Topology(gpuSubblock)
		if exclusive {
			b.Exclusive(gpuSubblock)
		}
		f.addInTreePodGroup(b)
		f.addPods(gpuMembers(group, minCount, "4")...)
		_, r, _ := f.commit(workload.Key{Source: workload.SourceInTreePodGroup, Namespace: unit.Namespace, Name: group})
		in := map[string]bool{}
		for _, slot := range r.Slices[0].Slots {
			if slot.Count > 0 {
				in[slot.Node[:2]] = true
			}
		}
		if len(in) != 1 {
			t.Fatalf("%s planned over subblocks %v, want one", group, in)
		}
		for sb := range in {
			return sb, r
		}
		return "", nil
	}
	first, r := subblockOf("first", 2, false)
	if r.Slices[0].Domain != "" {
		t.Errorf("first took %s whole; a topology constraint shares its domain", r.Slices[0].Domain)
	}
	if second, _ := subblockOf("second", 2, false); second != first {
		t.Errorf("second went to %s, not to %s beside first (the tightest subblock that holds it)", second, first)
	}
	whole, r := subblockOf("whole", 2, true)
	if whole == first || r.Slices[0].Domain != whole {
		t.Errorf("the exclusive group planned in %s (domain %q), want the empty subblock, whole", whole, r.Slices[0].Domain)
	}
	f.addInTreePodGroup(builders.InTreePodGroup(unit.Namespace, "late", 2).Topology(gpuSubblock))
	f.addPods(gpuMembers("late", 2, "4")...)
	if r, fail := f.plan(workload.Key{Source: workload.SourceInTreePodGroup, Namespace: unit.Namespace, Name: "late"}); fail == nil {
		t.Errorf("late planned %+v into a subblock the exclusive group holds whole", r.Slices[0].Slots)
	}
}
