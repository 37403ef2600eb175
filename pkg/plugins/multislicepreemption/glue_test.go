package multislicepreemption

// The glue's own tests, against a fake manager (fakemanager) and, for
// plain pods, a stand-in for DefaultPreemption. What the engine decides
// (whose pods may be victims, which gang members preempt) is tested end
// to end in plugin_test.go.

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes/fake"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/cyclestate"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/internal/fakemanager"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// fakeNodes is the cycle's snapshot of nodes: the glue only passes it on.
type fakeNodes struct{ name string }

func (fakeNodes) Requested(string) (workload.Resources, bool)  { return nil, false }
func (fakeNodes) Fits(string, workload.Resources) (bool, bool) { return false, false }

// podByPodStub stands in for DefaultPreemption: its PostFilter offers the
// plugin's eligible the victims on each node of victims, as
// DefaultPreemption's dry run does, then answers res and st.
type podByPodStub struct {
	pl      *Plugin
	victims map[string][]*corev1.Pod
	res     *fwk.PostFilterResult
	st      *fwk.Status
	// calls counts its PostFilters; cs is the cycle state of the last.
	calls int
	cs    fwk.CycleState
}

func (d *podByPodStub) PostFilter(_ context.Context, cs fwk.CycleState, preemptor *corev1.Pod, _ fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	d.calls++
	d.cs = cs
	for node, pods := range d.victims {
		ni := framework.NewNodeInfo()
		ni.SetNode(builders.Node(node).Obj())
		for _, p := range pods {
			d.pl.eligible(ni, victimOf(p), preemptor)
		}
	}
	return d.res, d.st
}

func (d *podByPodStub) PreEnqueue(context.Context, *corev1.Pod) *fwk.Status { return nil }

func (d *podByPodStub) EventsToRegister(context.Context) ([]fwk.ClusterEventWithHint, error) {
	return nil, nil
}

// victimOf is p as DefaultPreemption offers it as a victim.
func victimOf(p *corev1.Pod) preemption.Victim {
	pi, err := framework.NewPodInfo(p)
	if err != nil {
		panic(err)
	}
	v, err := preemption.NewVictim([]fwk.PodInfo{pi}, 0, fwk.PodKeyType)
	if err != nil {
		panic(err)
	}
	return v
}

// newGlue is the plugin on m, with DefaultPreemption stood in for by d.
func newGlue(m *fakemanager.Manager, d *podByPodStub) *Plugin {
	pl := &Plugin{m: m, nodes: fakeNodes{"cycle"}, dp: d}
	d.pl = pl
	return pl
}

// A gang's pod (handled) gets the manager's answer, always Unschedulable,
// with the cycle MultisliceGang's PreFilter wrote and the plugin's
// snapshot; DefaultPreemption is not asked.
func TestPostFilterHandled(t *testing.T) {
	cases := map[string]struct {
		st   *admission.Status
		want *fwk.Status
	}{
		"no status":      {want: fwk.NewStatus(fwk.Unschedulable)},
		"no message":     {st: &admission.Status{Code: admission.Unschedulable}, want: fwk.NewStatus(fwk.Unschedulable)},
		"preempting":     {st: &admission.Status{Code: admission.Unschedulable, Message: "preempting 2 workloads"}, want: fwk.NewStatus(fwk.Unschedulable, "preempting 2 workloads")},
		"no victims":     {st: &admission.Status{Code: admission.Unschedulable, Message: "whole-workload preemption: none"}, want: fwk.NewStatus(fwk.Unschedulable, "whole-workload preemption: none")},
		"an odd success": {st: &admission.Status{Code: admission.Proceed, Message: "?"}, want: fwk.NewStatus(fwk.Unschedulable, "?")},
		"unresolvable":   {st: &admission.Status{Code: admission.Unresolvable, Message: "no"}, want: fwk.NewStatus(fwk.Unschedulable, "no")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().PreemptAnswers(true, tc.st)
			d := &podByPodStub{}
			pl, pod, cs := newGlue(m, d), unit.Pod("p").Obj(), framework.NewCycleState()
			c, _, _ := m.PreFilter(context.Background(), pod, nil) // MultisliceGang's PreFilter
			cyclestate.Write(cs, c)
			res, got := pl.PostFilter(context.Background(), cs, pod, framework.NewDefaultNodeToStatus())
			if res != nil {
				t.Errorf("PostFilter nominated %v", res)
			}
			if diff := cmp.Diff(tc.want.Code(), got.Code()); diff != "" {
				t.Errorf("code (-want +got):\n%s", diff)
			}
			if got.Message() != tc.want.Message() {
				t.Errorf("message %q, want %q", got.Message(), tc.want.Message())
			}
			calls := m.Calls()
			want := fakemanager.Call{Method: "Preempt", Pod: "ns/p", Cycle: 1, Snapshot: true}
			if diff := cmp.Diff(want, calls[len(calls)-1]); diff != "" {
				t.Errorf("Preempt call (-want +got):\n%s", diff)
			}
			if m.Snapshot() != pl.nodes {
				t.Errorf("the manager was given snapshot %v, want the plugin's", m.Snapshot())
			}
			if d.calls != 0 {
				t.Errorf("DefaultPreemption was asked too")
			}
		})
	}
}

// Without MultisliceGang's cycle (another PreFilter rejected the pod
// first) the manager is asked with none; an entry of another type under
// the cycle's key is an error, and nobody is asked.
func TestPostFilterCycleState(t *testing.T) {
	m := fakemanager.New().PreemptAnswers(true, nil)
	d := &podByPodStub{}
	pl, pod := newGlue(m, d), unit.Pod("p").Obj()
	pl.PostFilter(context.Background(), framework.NewCycleState(), pod, framework.NewDefaultNodeToStatus())
	if diff := cmp.Diff([]fakemanager.Call{{Method: "Preempt", Pod: "ns/p", Cycle: 0, Snapshot: true}}, m.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}

	m = fakemanager.New().PreemptAnswers(true, nil)
	pl = newGlue(m, d)
	cs := framework.NewCycleState()
	cs.Write("multislice.dev/cycle", wrongEntry{})
	_, st := pl.PostFilter(context.Background(), cs, pod, framework.NewDefaultNodeToStatus())
	if st.Code() != fwk.Error || !strings.Contains(st.AsError().Error(), `reading "multislice.dev/cycle" from the cycle state: got`) {
		t.Errorf("PostFilter = %v, want an Error naming the cycle's key", st)
	}
	if len(m.Calls()) != 0 || d.calls != 0 {
		t.Errorf("asked the manager %d and DefaultPreemption %d times, want neither", len(m.Calls()), d.calls)
	}
}

type wrongEntry struct{}

func (wrongEntry) Clone() fwk.StateData { return wrongEntry{} }

// A plain pod (not handled) preempts pod by pod through DefaultPreemption,
// in the same cycle state; when that finds nothing, the status says how
// many candidate victims were spared for belonging to a gang (the manager's
// Victim says gang), counted afresh in each PostFilter.
func TestPostFilterPodByPod(t *testing.T) {
	podNamed := func(name string) *corev1.Pod { return unit.Pod(name).Obj() }
	nominated := &fwk.PostFilterResult{NominatingInfo: &fwk.NominatingInfo{NominatedNodeName: "n1", NominatingMode: fwk.ModeOverride}}
	noVictims := fwk.NewStatus(fwk.Unschedulable, "preemption: 0/2 nodes are available: 2 No preemption victims found for incoming pod.")
	spared := "lower-priority pods of gang workloads (JobSet, Job, PodGroup) on 2 candidate node(s) were not preempted: a plain pod never evicts part of a gang, which would restart it whole"
	cases := map[string]struct {
		gang    bool
		victims map[string][]*corev1.Pod
		res     *fwk.PostFilterResult
		st      *fwk.Status
		want    []string
		wantRes *fwk.PostFilterResult
	}{
		"victims found": {
			victims: map[string][]*corev1.Pod{"n1": {podNamed("v")}},
			res:     nominated, st: fwk.NewStatus(fwk.Success), wantRes: nominated,
		},
		"none found, none of a gang": {
			victims: map[string][]*corev1.Pod{"n1": {podNamed("v")}},
			st:      noVictims, want: noVictims.Reasons(),
		},
		"none found, gangs spared": {
			gang:    true,
			victims: map[string][]*corev1.Pod{"n1": {podNamed("g1")}, "n2": {podNamed("g2")}},
			st:      noVictims, want: append(noVictims.Reasons(), spared),
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().PreemptAnswers(false, nil).VictimAnswers(!tc.gang, tc.gang)
			d := &podByPodStub{victims: tc.victims, res: tc.res, st: tc.st}
			pl, pod, cs := newGlue(m, d), unit.Pod("p").Obj(), framework.NewCycleState()
			// A PostFilter before, whose spared victims do not count.
			pl.PostFilter(context.Background(), framework.NewCycleState(), pod, framework.NewDefaultNodeToStatus())
			res, st := pl.PostFilter(context.Background(), cs, pod, framework.NewDefaultNodeToStatus())
			if d.calls != 2 || d.cs != cs {
				t.Errorf("DefaultPreemption ran %d times, last in another cycle state: %v", d.calls, d.cs != cs)
			}
			if diff := cmp.Diff(tc.wantRes, res); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
			if st.Code() != tc.st.Code() {
				t.Errorf("code %v, want %v", st.Code(), tc.st.Code())
			}
			if diff := cmp.Diff(tc.want, st.Reasons()); diff != "" {
				t.Errorf("reasons (-want +got):\n%s", diff)
			}
		})
	}
}

// eligible asks the manager about the victims on the candidate node, by
// name ("" for a NodeInfo without its node), and follows its answer.
func TestEligibleAsksTheManager(t *testing.T) {
	preemptor := unit.Pod("preemptor").Obj()
	a, b := unit.Pod("a").Obj(), unit.Pod("b").Obj()
	for _, ok := range []bool{true, false} {
		m := fakemanager.New().VictimAnswers(ok, false)
		pl := newGlue(m, &podByPodStub{})
		ni := framework.NewNodeInfo()
		ni.SetNode(builders.Node("n1").Obj())
		if got := pl.eligible(ni, victim(t, a, b), preemptor); got != ok {
			t.Errorf("eligible = %v, want the manager's %v", got, ok)
		}
		pl.eligible(framework.NewNodeInfo(), victim(t, a), preemptor)
		want := []fakemanager.Call{
			{Method: "Victim", Pod: "ns/preemptor", Node: "n1", Victims: []string{"ns/a", "ns/b"}},
			{Method: "Victim", Pod: "ns/preemptor", Node: "", Victims: []string{"ns/a"}},
		}
		if diff := cmp.Diff(want, m.Calls()); diff != "" {
			t.Errorf("calls (-want +got):\n%s", diff)
		}
	}
}

// glueHandle is just enough of a framework handle for DefaultPreemption
// to be built: its listers, never started.
type glueHandle struct {
	fwk.Handle
	informers informers.SharedInformerFactory
}

func (h glueHandle) SharedInformerFactory() informers.SharedInformerFactory { return h.informers }

// The factory builds DefaultPreemption for plain pods; every event the
// plugin registers (DefaultPreemption's) has a queueing hint.
func TestFactoryEvents(t *testing.T) {
	h := glueHandle{informers: informers.NewSharedInformerFactory(fake.NewClientset(), 0)}
	m := fakemanager.New()
	p, err := Factory(m)(context.Background(), nil, h)
	if err != nil {
		t.Fatalf("Factory: %v", err)
	}
	pl := p.(*Plugin)
	events, err := pl.EventsToRegister(context.Background())
	if err != nil {
		t.Fatalf("EventsToRegister: %v", err)
	}
	if len(events) == 0 {
		t.Fatalf("no events registered: DefaultPreemption's PreEnqueue (asynchronous preemption) would hold pods forever")
	}
	for _, e := range events {
		if e.QueueingHintFn == nil {
			t.Errorf("%v has no queueing hint", e.Event)
		}
	}
	if st := pl.PreEnqueue(context.Background(), unit.Pod("p").Obj()); !st.IsSuccess() {
		t.Errorf("PreEnqueue of a pod no preemption concerns: %v", st)
	}
	if _, err := Factory(m)(context.Background(), &runtime.Unknown{Raw: []byte(`{"minCandidateNodesAbsolute": 1}`)}, h); err == nil {
		t.Errorf("Factory accepted DefaultPreemption's args")
	}
	if calls := m.Calls(); len(calls) != 0 {
		t.Errorf("building the plugin asked the manager %v", calls)
	}
}
