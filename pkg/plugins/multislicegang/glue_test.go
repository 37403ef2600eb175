package multislicegang

// The glue's own tests: each extension point against a fake manager
// (fakemanager), which answers what a case says and records what it was
// asked. They check how an answer becomes a framework status and what the
// glue hands the manager; what the manager decides is the engine's, and is
// tested end to end on the real engine (see fixture_test.go).

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/internal/fakemanager"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// fakeNodes is the cycle's snapshot of nodes handed to the plugin: the
// glue only passes it on.
type fakeNodes struct{ name string }

func (fakeNodes) Requested(string) (workload.Resources, bool)  { return nil, false }
func (fakeNodes) Fits(string, workload.Resources) (bool, bool) { return false, false }

// newGlue is the plugin on m; its snapshot holds no node.
func newGlue(m *fakemanager.Manager) *Plugin {
	return &Plugin{m: m, nodes: fakeNodes{"cycle"}, nodeInfo: func(string) fwk.NodeInfo { return nil }}
}

// aNode is a node of a v5e pool: 8 CPUs, 32Gi, 110 pods, 4 chips.
func aNode() *corev1.Node { return builders.V5ePool("pool-1").Node(0) }

// nodeInfoOf is n as the cycle's snapshot has it, with pods on it.
func nodeInfoOf(n *corev1.Node, pods ...*corev1.Pod) fwk.NodeInfo {
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(n)
	return ni
}

// methods lists the methods of calls.
func methods(calls []fakemanager.Call) []string {
	var out []string
	for _, c := range calls {
		out = append(out, c.Method)
	}
	return out
}

// answers are what the manager may answer, each with the framework
// status every extension point that maps it must return.
var answers = map[string]struct {
	st   *admission.Status
	want *fwk.Status
}{
	"no status":                    {st: nil, want: nil},
	"proceed":                      {st: &admission.Status{Code: admission.Proceed}, want: nil},
	"proceed, with a message":      {st: &admission.Status{Code: admission.Proceed, Message: "ignored"}, want: nil},
	"unschedulable":                {st: &admission.Status{Code: admission.Unschedulable}, want: fwk.NewStatus(fwk.Unschedulable)},
	"unschedulable, with a reason": {st: &admission.Status{Code: admission.Unschedulable, Message: "waiting for 1 more domains"}, want: fwk.NewStatus(fwk.Unschedulable, "waiting for 1 more domains")},
	"unresolvable":                 {st: &admission.Status{Code: admission.Unresolvable, Message: "waiting for 1 of 4 pods"}, want: fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "waiting for 1 of 4 pods")},
	"unresolvable, no reason":      {st: &admission.Status{Code: admission.Unresolvable}, want: fwk.NewStatus(fwk.UnschedulableAndUnresolvable)},
	"wait":                         {st: &admission.Status{Code: admission.Wait, Message: "waiting for 1 of 2 gang members"}, want: fwk.NewStatus(fwk.Wait, "waiting for 1 of 2 gang members")},
	// A code the glue does not know never lets a pod through.
	"an unknown code": {st: &admission.Status{Code: admission.Code(99), Message: "?"}, want: fwk.NewStatus(fwk.Unschedulable, "?")},
}

// checkStatus compares framework statuses; nil is success, and must stay
// nil (the framework reads a nil status as success, not Code()==Success).
func checkStatus(t *testing.T, point string, want, got *fwk.Status) {
	t.Helper()
	if diff := cmp.Diff(statusOf(want), statusOf(got)); diff != "" {
		t.Errorf("%s status (-want +got):\n%s", point, diff)
	}
	if want == nil && got != nil {
		t.Errorf("%s status %v, want nil (success)", point, got)
	}
}

// Every extension point that maps a manager's answer maps every code the
// same way, message included.
func TestStatusMapping(t *testing.T) {
	pod := unit.Pod("p").Obj()
	node := aNode()
	points := map[string]func(m *fakemanager.Manager, st *admission.Status) *fwk.Status{
		"PreEnqueue": func(m *fakemanager.Manager, st *admission.Status) *fwk.Status {
			return (&Gate{m: m.PreEnqueueAnswers(st)}).PreEnqueue(context.Background(), pod)
		},
		"PreFilter": func(m *fakemanager.Manager, st *admission.Status) *fwk.Status {
			_, got := newGlue(m.PreFilterAnswers(nil, st)).PreFilter(context.Background(), framework.NewCycleState(), pod, nil)
			return got
		},
		"Filter": func(m *fakemanager.Manager, st *admission.Status) *fwk.Status {
			pl, cs := newGlue(m.FilterAnswers(st)), framework.NewCycleState()
			pl.PreFilter(context.Background(), cs, pod, nil)
			return pl.Filter(context.Background(), cs, pod, nodeInfoOf(node))
		},
		"Permit": func(m *fakemanager.Manager, st *admission.Status) *fwk.Status {
			got, _ := newGlue(m.PermitAnswers(st, 0)).Permit(context.Background(), framework.NewCycleState(), pod, node.Name)
			return got
		},
	}
	for point, run := range points {
		for name, a := range answers {
			t.Run(point+"/"+name, func(t *testing.T) {
				checkStatus(t, point, a.want, run(fakemanager.New(), a.st))
			})
		}
	}
}

// PostFilter never nominates a node: whatever the manager answers, the pod
// is not schedulable in this cycle (nil reads as Unschedulable).
func TestPostFilterStatus(t *testing.T) {
	pod := unit.Pod("p").Obj()
	for name, a := range answers {
		t.Run(name, func(t *testing.T) {
			pl, cs := newGlue(fakemanager.New().PostFilterAnswers(a.st)), framework.NewCycleState()
			pl.PreFilter(context.Background(), cs, pod, nil)
			res, got := pl.PostFilter(context.Background(), cs, pod, framework.NewDefaultNodeToStatus())
			if res != nil {
				t.Errorf("PostFilter nominated %v", res)
			}
			checkStatus(t, "PostFilter", a.want, got)
		})
	}
}

// PreFilter limits the pod to the manager's nodes only when it proceeds,
// and a nil set is every node; the manager reads the plugin's snapshot.
func TestPreFilterResult(t *testing.T) {
	cases := map[string]struct {
		nodes sets.Set[string]
		st    *admission.Status
		want  *fwk.PreFilterResult
	}{
		"every node":     {nodes: nil, want: nil},
		"the nodes":      {nodes: sets.New("n1", "n2"), want: &fwk.PreFilterResult{NodeNames: sets.New("n1", "n2")}},
		"no node at all": {nodes: sets.New[string](), want: &fwk.PreFilterResult{NodeNames: sets.New[string]()}},
		"nodes, but the pod cannot proceed": {
			nodes: sets.New("n1"), st: &admission.Status{Code: admission.Unschedulable, Message: "no"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().PreFilterAnswers(tc.nodes, tc.st)
			pl := newGlue(m)
			res, _ := pl.PreFilter(context.Background(), framework.NewCycleState(), unit.Pod("p").Obj(), nil)
			if diff := cmp.Diff(tc.want, res); diff != "" {
				t.Errorf("PreFilterResult (-want +got):\n%s", diff)
			}
			if tc.want != nil && res.AllNodes() {
				t.Errorf("PreFilterResult is all nodes, want %v", tc.want.NodeNames)
			}
			if m.Snapshot() != pl.nodes {
				t.Errorf("the manager read snapshot %v, want the plugin's", m.Snapshot())
			}
		})
	}
}

// The cycle PreFilter returns reaches Filter and PostFilter of the same
// scheduling cycle — whether PreFilter let the pod through or not — and
// another cycle's steps get their own.
func TestCycleCarriedThroughCycleState(t *testing.T) {
	for name, st := range map[string]*admission.Status{
		"PreFilter proceeds":     nil,
		"PreFilter rejects":      {Code: admission.Unschedulable, Message: "waiting for 1 more domains"},
		"PreFilter unresolvable": {Code: admission.Unresolvable, Message: "malformed"},
	} {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().PreFilterAnswers(nil, st)
			pl := newGlue(m)
			ctx, pod, ni := context.Background(), unit.Pod("p").Obj(), nodeInfoOf(aNode())
			first, second := framework.NewCycleState(), framework.NewCycleState()
			pl.PreFilter(ctx, first, pod, nil)
			pl.PreFilter(ctx, second, pod, nil)
			pl.Filter(ctx, second, pod, ni)
			pl.Filter(ctx, first, pod, ni)
			// Preemption's simulations filter on a clone of the state.
			pl.Filter(ctx, first.Clone(), pod, ni)
			pl.PostFilter(ctx, first, pod, framework.NewDefaultNodeToStatus())
			var got []string
			for _, c := range m.Calls() {
				got = append(got, fmt.Sprintf("%s %d", c.Method, c.Cycle))
			}
			want := []string{"PreFilter 1", "PreFilter 2", "Filter 2", "Filter 1", "Filter 1", "PostFilter 1"}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("calls and the cycle each got (-want +got):\n%s", diff)
			}
		})
	}
}

// Filter without MultisliceGang's PreFilter in its cycle is a broken
// invariant: an error that says what is missing, and the manager is not
// asked (it would take the pod for one no PreFilter placed). PostFilter
// runs without it when another plugin's PreFilter rejected the pod first:
// the manager is told, with no cycle, what that plugin said.
func TestWithoutCycleState(t *testing.T) {
	m := fakemanager.New().PostFilterAnswers(&admission.Status{Code: admission.Unschedulable, Message: "not ours"})
	pl := newGlue(m)
	pod := unit.Pod("p").Obj()

	got := pl.Filter(context.Background(), framework.NewCycleState(), pod, nodeInfoOf(aNode()))
	want := `reading "multislice.dev/cycle" from the cycle state: not found (MultisliceGang's PreFilter did not run in this cycle)`
	if got.Code() != fwk.Error || got.AsError() == nil || got.AsError().Error() != want {
		t.Errorf("Filter = %v, want Error %q", got, want)
	}

	statuses := framework.NewDefaultNodeToStatus()
	statuses.SetAbsentNodesStatus(fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node(s) didn't match Pod's node affinity/selector").WithPlugin("NodeAffinity"))
	_, pf := pl.PostFilter(context.Background(), framework.NewCycleState(), pod, statuses)
	checkStatus(t, "PostFilter", fwk.NewStatus(fwk.Unschedulable, "not ours"), pf)

	wantCalls := []fakemanager.Call{{Method: "PostFilter", Pod: "ns/p", Cycle: 0, Failure: &admission.FilterFailure{
		Other: "NodeAffinity: node(s) didn't match Pod's node affinity/selector",
	}}}
	if diff := cmp.Diff(wantCalls, m.Calls(), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// PostFilter tells the manager, of a pod its PreFilter ran for, why the
// other plugins rejected it (the candidates PreFilter chose are walked
// only on the real engine's cycles: see TestPostFilter).
func TestPostFilterTellsWhy(t *testing.T) {
	cases := map[string]struct {
		absent *fwk.Status
		want   string
	}{
		"a plugin's reason": {
			absent: fwk.NewStatus(fwk.Unschedulable, "Insufficient google.com/tpu", "too many pods").WithPlugin("NodeResourcesFit"),
			want:   "NodeResourcesFit: Insufficient google.com/tpu, too many pods",
		},
		"no plugin named": {absent: fwk.NewStatus(fwk.Unschedulable, "no room"), want: "no room"},
		"no reason":       {absent: fwk.NewStatus(fwk.UnschedulableAndUnresolvable), want: ""},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New()
			pl, cs, pod := newGlue(m), framework.NewCycleState(), unit.Pod("p").Obj()
			pl.PreFilter(context.Background(), cs, pod, nil)
			statuses := framework.NewDefaultNodeToStatus()
			if tc.absent != nil {
				statuses.SetAbsentNodesStatus(tc.absent)
			}
			pl.PostFilter(context.Background(), cs, pod, statuses)
			calls := m.Calls()
			got := calls[len(calls)-1]
			want := fakemanager.Call{Method: "PostFilter", Pod: "ns/p", Cycle: 1, Failure: &admission.FilterFailure{Other: tc.want, Rejections: map[string]int{}}}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("PostFilter call (-want +got):\n%s", diff)
			}
		})
	}
}

// countingNodeInfo counts the reads of what a node's pods request.
type countingNodeInfo struct {
	fwk.NodeInfo
	reads *int
}

func (c countingNodeInfo) GetRequested() fwk.Resource {
	*c.reads++
	return c.NodeInfo.GetRequested()
}

// Filter hands the manager what the node has left as a closure: it is
// computed only if the manager reads it, and then from the cycle's
// NodeInfo, in the model's units.
func TestFilterFreeIsLazy(t *testing.T) {
	node := aNode() // 8 CPUs, 32Gi, 110 pods, 4 chips
	running := unit.Pod("r").TPU("3").NodeName(node.Name).Obj()
	running.Spec.Containers[0].Resources.Requests[corev1.ResourceCPU] = resource.MustParse("500m")
	cases := map[string]struct {
		reads     bool
		wantReads int
		wantFree  workload.Resources
	}{
		"not read": {},
		"read": {
			reads: true, wantReads: 1,
			wantFree: workload.Resources{
				corev1.ResourceCPU:    7500,
				corev1.ResourceMemory: 32 << 30 * 1000,
				corev1.ResourcePods:   109000,
				wellknown.ResourceTPU: 1000,
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New()
			if tc.reads {
				m.ReadsFree()
			}
			pl, cs, pod := newGlue(m), framework.NewCycleState(), unit.Pod("p").Obj()
			pl.PreFilter(context.Background(), cs, pod, nil)
			reads := 0
			if st := pl.Filter(context.Background(), cs, pod, countingNodeInfo{nodeInfoOf(node, running), &reads}); st != nil {
				t.Fatalf("Filter: %v", st)
			}
			if reads != tc.wantReads {
				t.Errorf("the node's requests were read %d times, want %d", reads, tc.wantReads)
			}
			calls := m.Calls()
			got := calls[len(calls)-1]
			if diff := cmp.Diff(fakemanager.Call{Method: "Filter", Pod: "ns/p", Node: node.Name, Cycle: 1, Free: tc.wantFree}, got); diff != "" {
				t.Errorf("Filter call (-want +got):\n%s", diff)
			}
		})
	}
}

// A NodeInfo without its node is refused before the manager is asked.
func TestFilterWithoutNode(t *testing.T) {
	m := fakemanager.New()
	pl, cs, pod := newGlue(m), framework.NewCycleState(), unit.Pod("plain").Obj()
	pl.PreFilter(context.Background(), cs, pod, nil)
	got := statusOf(pl.Filter(context.Background(), cs, pod, framework.NewNodeInfo()))
	if diff := cmp.Diff(status{fwk.UnschedulableAndUnresolvable, "node not found"}, got); diff != "" {
		t.Errorf("Filter (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]string{"PreFilter"}, methods(m.Calls())); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// Reserve records the manager's reservation ID in its own cycle; Unreserve
// of that cycle gives it back, and Unreserve of a cycle whose Reserve never
// ran (another plugin's Reserve failed first) gives back none (0). A clone
// of the cycle state taken before Reserve does not see the ID.
func TestReserveUnreserve(t *testing.T) {
	m := fakemanager.New().ReserveAnswers(42)
	pl, ctx := newGlue(m), context.Background()
	a, b := unit.Pod("a").Obj(), unit.Pod("b").Obj()
	reserved, notReserved := framework.NewCycleState(), framework.NewCycleState()
	before := reserved.Clone()
	if st := pl.Reserve(ctx, reserved, a, "n1"); st != nil {
		t.Fatalf("Reserve: %v", st)
	}
	pl.Unreserve(ctx, reserved, a, "n1")
	pl.Unreserve(ctx, notReserved, b, "n2")
	pl.Unreserve(ctx, before, a, "n1")
	want := []fakemanager.Call{
		{Method: "Reserve", Pod: "ns/a", Node: "n1", Reservation: 42},
		{Method: "Unreserve", Pod: "ns/a", Reservation: 42},
		{Method: "Unreserve", Pod: "ns/b", Reservation: 0},
		{Method: "Unreserve", Pod: "ns/a", Reservation: 0},
	}
	if diff := cmp.Diff(want, m.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
}

// Permit holds a pod as long as the manager says, and no longer once it
// lets the pod through or rejects it.
func TestPermitTimeout(t *testing.T) {
	cases := map[string]struct {
		st       *admission.Status
		wait     time.Duration
		want     *fwk.Status
		wantWait time.Duration
	}{
		"waits for the gang": {
			st: &admission.Status{Code: admission.Wait, Message: "waiting for 1 of 2 gang members"}, wait: 90 * time.Second,
			want: fwk.NewStatus(fwk.Wait, "waiting for 1 of 2 gang members"), wantWait: 90 * time.Second,
		},
		"allowed":  {},
		"rejected": {st: &admission.Status{Code: admission.Unschedulable, Message: "released"}, want: fwk.NewStatus(fwk.Unschedulable, "released")},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().PermitAnswers(tc.st, tc.wait)
			got, wait := newGlue(m).Permit(context.Background(), framework.NewCycleState(), unit.Pod("p").Obj(), "n1")
			checkStatus(t, "Permit", tc.want, got)
			if wait != tc.wantWait {
				t.Errorf("Permit wait %v, want %v", wait, tc.wantWait)
			}
		})
	}
}

// Less orders queued pods by the manager's sort keys, asking with what the
// queue knows of each (priority, queueing time); an entity that is not a
// pod sorts by what the queue knows alone, without asking.
func TestLessBySortKey(t *testing.T) {
	t0 := time.Unix(1000, 0)
	m := fakemanager.New().
		SortKeyOf("ns/urgent", admission.SortKey{Priority: 10, Since: t0.Add(time.Hour), Pod: "urgent"}).
		SortKeyOf("ns/old-1", admission.SortKey{Since: t0, Group: "old", Pod: "old-1"}).
		SortKeyOf("ns/old-0", admission.SortKey{Since: t0, Group: "old", Pod: "old-0"}).
		SortKeyOf("ns/young", admission.SortKey{Since: t0.Add(time.Second), Group: "young", Pod: "young"})
	pl := newGlue(m)
	entities := []fwk.QueuedEntityInfo{
		queued(t, unit.Pod("young").Obj(), t0),
		queued(t, unit.Pod("old-1").Obj(), t0.Add(3*time.Second)),
		queued(t, unit.Pod("urgent").Obj(), t0.Add(2*time.Second)),
		queued(t, unit.Pod("old-0").Obj(), t0.Add(4*time.Second)),
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 10 {
		rng.Shuffle(len(entities), func(i, j int) { entities[i], entities[j] = entities[j], entities[i] })
		sort.SliceStable(entities, func(i, j int) bool { return pl.Less(entities[i], entities[j]) })
		var got []string
		for _, e := range entities {
			got = append(got, queuedName(e))
		}
		if diff := cmp.Diff([]string{"urgent", "old-0", "old-1", "young"}, got); diff != "" {
			t.Fatalf("round %d: order (-want +got):\n%s", round, diff)
		}
	}

	// What the manager is asked with.
	m = fakemanager.New()
	pl = newGlue(m)
	p := unit.Pod("p").Priority(7).Obj()
	pl.Less(queued(t, p, t0), queued(t, p, t0))
	want := fakemanager.Call{Method: "SortKey", Pod: "ns/p", Priority: 7, Queued: t0}
	if diff := cmp.Diff([]fakemanager.Call{want, want}, m.Calls()); diff != "" {
		t.Errorf("SortKey calls (-want +got):\n%s", diff)
	}

	// Not a pod: by priority, then queueing time, asking nothing.
	high, early := notAPod{priority: 5, at: t0.Add(time.Hour)}, notAPod{at: t0}
	late := notAPod{at: t0.Add(time.Minute)}
	if !pl.Less(high, early) || !pl.Less(early, late) || pl.Less(late, early) {
		t.Errorf("entities that are not pods are not ordered by priority, then queueing time")
	}
	if !pl.Less(queued(t, unit.Pod("q").Priority(9).Obj(), t0.Add(time.Hour)), high) {
		t.Errorf("a pod of higher priority does not go before an entity that is not a pod")
	}
	if n := len(m.Calls()); n != 3 {
		t.Errorf("%d calls, want 3 (the pods' keys only)", n)
	}
}

// notAPod is a queued entity that is not a pod (a pod group).
type notAPod struct {
	fwk.QueuedEntityInfo
	priority int32
	at       time.Time
}

func (e notAPod) GetPriority() int32      { return e.priority }
func (e notAPod) GetTimestamp() time.Time { return e.at }
func (e notAPod) Type() fwk.EntityKeyType { return fwk.PodGroupKeyType }

// The queueing hints ask the manager only what they must, and retry a pod
// as its answers say.
func TestHintsOnManager(t *testing.T) {
	assigned := unit.Pod("gone").NodeName("n1").Obj()
	unassigned := unit.Pod("gone").Obj()
	head, other := unit.Pod("head").Obj(), unit.Pod("other").Obj()
	node := func(name string) *corev1.Node { return builders.Node(name).Obj() }
	cases := map[string]struct {
		hint      func(pl *Plugin) (fwk.QueueingHint, error)
		want      fwk.QueueingHint
		wantCalls []string
	}{
		"pod deleted: not a pod": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintPodDeleted(klog.Background(), head, &corev1.Node{}, nil)
			},
			want: fwk.Queue,
		},
		"pod deleted: no object": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintPodDeleted(klog.Background(), head, nil, nil)
			},
			want: fwk.Queue,
		},
		"pod deleted: it was on no node": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintPodDeleted(klog.Background(), head, unassigned, nil)
			},
			want: fwk.QueueSkip,
		},
		"pod deleted: a head waiting for room": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintPodDeleted(klog.Background(), head, assigned, nil)
			},
			want: fwk.Queue, wantCalls: []string{"WaitsForCapacity ns/head"},
		},
		"pod deleted: a pod that does not wait for room": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintPodDeleted(klog.Background(), other, assigned, nil)
			},
			want: fwk.QueueSkip, wantCalls: []string{"WaitsForCapacity ns/other"},
		},
		"node changed: a head waiting for room": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintNodeChanged(klog.Background(), head, nil, node("n9"))
			},
			want: fwk.Queue, wantCalls: []string{"WaitsForCapacity ns/head"},
		},
		"node changed: a node the pod's reservation planned on": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintNodeChanged(klog.Background(), other, nil, node("planned"))
			},
			want: fwk.Queue, wantCalls: []string{"WaitsForCapacity ns/other", "PlansOn ns/other planned"},
		},
		"node changed: another node": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintNodeChanged(klog.Background(), other, nil, node("n9"))
			},
			want: fwk.QueueSkip, wantCalls: []string{"WaitsForCapacity ns/other", "PlansOn ns/other n9"},
		},
		"node changed: not a node": {
			hint: func(pl *Plugin) (fwk.QueueingHint, error) {
				return pl.hintNodeChanged(klog.Background(), other, nil, &corev1.Pod{})
			},
			want: fwk.QueueSkip, wantCalls: []string{"WaitsForCapacity ns/other"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m := fakemanager.New().WaitingForCapacity("ns/head").PlansOnNodes("ns/other", "planned")
			got, err := tc.hint(newGlue(m))
			checkHint(t, name, tc.want, got, err)
			var calls []string
			for _, c := range m.Calls() {
				calls = append(calls, strings.TrimSpace(c.Method+" "+c.Pod+" "+c.Node))
			}
			if diff := cmp.Diff(tc.wantCalls, calls); diff != "" {
				t.Errorf("calls (-want +got):\n%s", diff)
			}
		})
	}
}

// Every event a plugin registers has a queueing hint: an event without
// one would retry every pod the plugin rejected.
func TestEventsToRegister(t *testing.T) {
	m := fakemanager.New()
	cases := map[string]struct {
		plugin fwk.EnqueueExtensions
		want   []fwk.ClusterEvent
	}{
		// Heads waiting for room: see Plugin.EventsToRegister.
		"MultisliceGang": {plugin: newGlue(m), want: []fwk.ClusterEvent{
			{Resource: fwk.AssignedPod, ActionType: fwk.Delete},
			{Resource: fwk.Node, ActionType: fwk.Add | fwk.UpdateNodeLabel | fwk.UpdateNodeAllocatable | fwk.UpdateNodeTaint | fwk.UpdateNodeCondition},
			{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel},
		}},
		// No capacity events: the queue would ask about every gated pod.
		"MultisliceGate": {plugin: &Gate{m: m}, want: []fwk.ClusterEvent{
			{Resource: fwk.TargetPod, ActionType: fwk.UpdatePodLabel},
		}},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			events, err := tc.plugin.EventsToRegister(context.Background())
			if err != nil {
				t.Fatalf("EventsToRegister: %v", err)
			}
			var got []fwk.ClusterEvent
			for _, e := range events {
				if e.QueueingHintFn == nil {
					t.Errorf("%v has no queueing hint", e.Event)
				}
				got = append(got, e.Event)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
	if calls := m.Calls(); len(calls) != 0 {
		t.Errorf("registering events asked the manager %v", methods(calls))
	}
}

// glueHandle is the framework handle the factories are given: a profile's
// name, no snapshot read until a cycle runs.
type glueHandle struct {
	fwk.Handle
	profile string
}

func (h glueHandle) ProfileName() string { return h.profile }

// registrar records what the factories register.
type registrar struct {
	attached []admission.Settings
	gates    []string
	err      error
}

func (r *registrar) Attach(_ fwk.Handle, set admission.Settings) error {
	r.attached = append(r.attached, set)
	return r.err
}
func (r *registrar) AttachGate(profile string) { r.gates = append(r.gates, profile) }

// The factories register the profile's settings and timeouts with the
// runtime and the manager; a registrar's refusal is the factory's error.
func TestFactory(t *testing.T) {
	args := &runtime.Unknown{Raw: []byte(`{"permitTimeoutSeconds": 90, "followerTimeoutSeconds": 30, "defaultDomainKey": "pool"}`)}
	m, reg := fakemanager.New(), &registrar{}
	h := glueHandle{profile: "p1"}
	pl, err := Factory(m, reg)(context.Background(), args, h)
	if err != nil {
		t.Fatalf("Factory: %v", err)
	}
	if pl.Name() != Name {
		t.Errorf("name %q, want %q", pl.Name(), Name)
	}
	gate, err := GateFactory(m, reg)(context.Background(), nil, h)
	if err != nil || gate.Name() != GateName {
		t.Fatalf("GateFactory = %v, %v", gate, err)
	}
	want := []fakemanager.Call{{Method: "AddProfile", Profile: admission.Profile{Name: "p1", PermitTimeout: 90 * time.Second, FollowerTimeout: 30 * time.Second}}}
	if diff := cmp.Diff(want, m.Calls()); diff != "" {
		t.Errorf("calls (-want +got):\n%s", diff)
	}
	if len(reg.attached) != 1 || reg.attached[0].DefaultDomainKey != "pool" || !cmp.Equal(reg.gates, []string{"p1"}) {
		t.Errorf("registered %+v and gates %v, want the profile's settings and its gate", reg.attached, reg.gates)
	}

	refused := &registrar{err: fmt.Errorf("profiles disagree")}
	if _, err := Factory(fakemanager.New(), refused)(context.Background(), args, h); err == nil {
		t.Errorf("Factory succeeded although the registrar refused the profile")
	}
	if _, err := Factory(fakemanager.New(), &registrar{})(context.Background(), &runtime.Unknown{Raw: []byte(`{"nope": 1}`)}, h); err == nil {
		t.Errorf("Factory accepted unknown args")
	}
}
