package admission_test

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

var prefilterUnit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

// nothingRequested is a scheduler's snapshot with no pod on any node.
func nothingRequested(string) (workload.Resources, bool) { return nil, false }

// prefilterState is a state of the scheduler with v5e pools pool-1 to
// pool-<pools> and the JobSet API served.
func prefilterState(t *testing.T, pools int) *state.State {
	t.Helper()
	st := state.New(state.Options{Clock: testingclock.NewFakeClock(builders.Epoch)})
	st.AddScheduler(prefilterUnit.Scheduler)
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	for _, n := range builders.V5ePools(pools) {
		st.Feed().UpsertNode(n)
	}
	return st
}

// addJobSet feeds a JobSet of slices × 2 pods and its pods to st, and
// returns the pods.
func addJobSet(t *testing.T, st *state.State, name string, slices int32, edits ...func(*builders.JobSetBuilder)) []*corev1.Pod {
	t.Helper()
	b := prefilterUnit.JobSet(name)
	for _, e := range edits {
		e(b)
	}
	js := b.ReplicatedJob("slice", slices, 2).Obj()
	model, err := workload.FromJobSet(js, "")
	key := workload.Key{Source: workload.SourceJobSet, Namespace: js.Namespace, Name: js.Name}
	st.Feed().UpsertSource(key, model, err, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
	pods := builders.Members(js)
	for _, p := range pods {
		st.Feed().UpsertPod(p)
	}
	return pods
}

// poolOf names the pool every node of nodes is in ("" when they are not
// in one).
func poolOf(nodes sets.Set[string]) string {
	pool := ""
	for n := range nodes {
		p := n[:strings.LastIndex(n, "-")]
		if pool != "" && p != pool {
			return ""
		}
		pool = p
	}
	return pool
}

// PreFilter is one call per scheduling cycle: it reserves for the whole
// gang on the first member's cycle, restricts every member to its slice's
// nodes, reports a failed plan once (with the snapshot it read, for
// preemption) and names the pods that are not its to place.
func TestPreFilter(t *testing.T) {
	noActs := func(t *testing.T) func(state.Actions) {
		return func(a state.Actions) {
			if len(a.Reject) > 0 {
				t.Errorf("waiting pods rejected: %v", a.Reject)
			}
		}
	}

	t.Run("a plain pod is not ours to place", func(t *testing.T) {
		st := prefilterState(t, 1)
		pod := prefilterUnit.Pod("web").Obj()
		st.Feed().UpsertPod(pod)
		out := prefilter(st, pod, noActs(t))
		if out.Gang || out.Code != admission.Proceed || out.Nodes != nil {
			t.Errorf("outcome %+v, want a plain pod let through", out)
		}
	})

	t.Run("a gang is reserved on its first member's cycle, and every member restricted to its slice's pool", func(t *testing.T) {
		st := prefilterState(t, 2)
		pods := addJobSet(t, st, "train", 2)
		first := prefilter(st, pods[0], noActs(t))
		if first.Code != admission.Proceed || !first.Gang || first.Reserved == "" || first.Ref.Name != "train" {
			t.Fatalf("first member: %+v, want a reservation made and reported", first)
		}
		pools := sets.New[string]()
		for i, p := range pods {
			out := prefilter(st, p, noActs(t))
			if out.Code != admission.Proceed || out.Nodes.Len() != 2 {
				t.Fatalf("member %d: %+v, want its slice's two nodes", i, out)
			}
			if i > 0 && out.Reserved != "" {
				t.Errorf("member %d: reserved again (%s)", i, out.Reserved)
			}
			pools.Insert(poolOf(out.Nodes))
		}
		if pools.Len() != 2 || pools.Has("") {
			t.Errorf("the slices went to pools %v, want one whole pool each", sets.List(pools))
		}
	})

	t.Run("a gang with no free domain is told, with the snapshot its plan read, and its other members not again", func(t *testing.T) {
		st := prefilterState(t, 1)
		holder := addJobSet(t, st, "holder", 1)
		if out := prefilter(st, holder[0], noActs(t)); out.Reserved == "" {
			t.Fatalf("the holder was not reserved: %+v", out)
		}
		pods := addJobSet(t, st, "train", 1)
		out := prefilter(st, pods[0], noActs(t))
		if out.Code != admission.Unschedulable || out.Failure == nil || out.Snapshot == nil || out.Reserved != "" || out.Planned <= 0 {
			t.Fatalf("outcome %+v, want an unschedulable plan reported with its snapshot", out)
		}
		// The head plans again on every cycle (the scheduler's cache may
		// have caught up with a change); the other members reuse its answer.
		other := prefilter(st, pods[1], noActs(t))
		if other.Code != admission.Unschedulable || other.Failure != nil || other.Snapshot != nil || other.Planned != 0 || other.Message != out.Message {
			t.Errorf("another member: %+v, want the head's failure, not planned or reported again", other)
		}
	})

	t.Run("a gang with more slices than domains exist is unresolvable", func(t *testing.T) {
		st := prefilterState(t, 1)
		pods := addJobSet(t, st, "wide", 2)
		out := prefilter(st, pods[0], noActs(t))
		if out.Code != admission.Unresolvable || out.Failure == nil || !out.Failure.Unresolvable || out.Nodes != nil {
			t.Errorf("outcome %+v, want an unresolvable failure", out)
		}
	})

	t.Run("a pod of a workload not observed yet waits", func(t *testing.T) {
		st := prefilterState(t, 1)
		js := prefilterUnit.JobSet("later").ReplicatedJob("slice", 1, 2).Obj()
		pod := builders.Members(js)[0]
		st.Feed().UpsertPod(pod)
		out := prefilter(st, pod, noActs(t))
		if out.Code != admission.Unresolvable || !out.Gang || !strings.Contains(out.Message, "observed") {
			t.Errorf("outcome %+v, want it held until its JobSet is observed", out)
		}
	})

	t.Run("what the state asks for is carried out once the decision is applied", func(t *testing.T) {
		st := prefilterState(t, 1)
		pods := addJobSet(t, st, "train", 1)
		var got []state.Actions
		out := prefilter(st, pods[0], func(a state.Actions) { got = append(got, a) })
		if out.Code != admission.Proceed || len(got) != 1 {
			t.Errorf("outcome %+v after %d calls of act, want a reservation after 1 (its one write-back)", out, len(got))
		}
	})
}
