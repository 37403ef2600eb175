package multislicegang

import (
	"context"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	"k8s.io/kubernetes/pkg/scheduler/framework"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// unit builds the tests' objects: in its namespace, pods of its scheduler.
var unit = builders.Unit{Namespace: "ns", Scheduler: "multislice-scheduler"}

func jsKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: unit.Namespace, Name: name}
}

// poolNodes names the nodes of a pool of builders.V5ePools.
func poolNodes(pool string) []string { return builders.V5ePool(pool).NodeNames() }

// fixture is a plugin on the real engine and state with a fake clock, no
// framework handle, and both workload APIs served.
//
// The tests on it are end to end: they check what the engine decides
// behind the Manager interface, which a fake manager (glue_test.go) can
// only echo — plans and the nodes they leave a pod (TestPreFilter), which
// reservations keep which pods out (TestFilter), what PostFilter does with
// the candidates of a real Cycle, whose fields only the engine can set
// (TestPostFilter), queue charges (alone_test.go), a reservation's
// lifecycle through Reserve, Permit and Unreserve (permit_test.go), the
// memoised queue order (queuesort_test.go) and whom the hints and the gate
// let through (enqueue_test.go). Each extension point's mapping of the
// manager's answers is tested on the fake. It plays the scheduler's part: the pods
// it placed (bound or reserved) are what the cycle's snapshot counts.
type fixture struct {
	t     *testing.T
	clock *testingclock.FakeClock
	st    *state.State
	pl    *Plugin
	gate  *Gate
	nodes map[string]*corev1.Node
	// placed are the pods on nodes, as the scheduler's cache has them.
	placed map[types.UID]*corev1.Pod
	// snapshots counts the requests read from the scheduler's snapshot:
	// a plan reads them, reusing a reservation or a failure does not.
	snapshots int
	// cycles holds each pod's current scheduling cycle.
	cycles map[types.UID]fwk.CycleState
	// fed are the pods fed to the state and not deleted.
	fed map[types.UID]*corev1.Pod
}

func newFixture(t *testing.T, nodes ...*corev1.Node) *fixture {
	t.Helper()
	clk := testingclock.NewFakeClock(builders.Epoch)
	st := state.New(state.Options{Clock: clk})
	st.AddScheduler(unit.Scheduler)
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	st.Feed().SetAPI(workload.SourcePodGroup, state.APIServed)
	f := &fixture{
		t: t, clock: clk, st: st,
		nodes:  map[string]*corev1.Node{},
		placed: map[types.UID]*corev1.Pod{},
		cycles: map[types.UID]fwk.CycleState{},
		fed:    map[types.UID]*corev1.Pod{},
	}
	eng := admission.NewEngine(st, fakeRuntime{}, nopNotifier{}, Name)
	eng.AddProfile(admission.Profile{Name: unit.Scheduler, PermitTimeout: permitTimeout, FollowerTimeout: permitTimeout})
	f.pl = &Plugin{m: eng, nodes: fixtureNodes{f}}
	f.pl.nodeInfo = func(name string) fwk.NodeInfo {
		if f.nodes[name] == nil {
			return nil
		}
		return f.nodeInfo(name)
	}
	f.gate = &Gate{m: eng}
	for _, n := range nodes {
		f.nodes[n.Name] = n
		st.Feed().UpsertNode(n)
	}
	return f
}

// permitTimeout is the profile's permit and follower timeout.
const permitTimeout = time.Minute

// fixtureNodes is the fixture's snapshot of nodes, as the scheduler's
// cache holds them.
type fixtureNodes struct{ f *fixture }

func (n fixtureNodes) Requested(node string) (workload.Resources, bool) { return n.f.requested(node) }

func (n fixtureNodes) Fits(node string, request workload.Resources) (bool, bool) {
	if n.f.nodes[node] == nil {
		return false, false
	}
	return true, nodeinfo.HasRoom(n.f.nodeInfo(node), request)
}

// requested is what the placed pods on node request.
func (f *fixture) requested(node string) (workload.Resources, bool) {
	f.snapshots++
	if _, ok := f.nodes[node]; !ok {
		return nil, false
	}
	out := workload.Resources{}
	for _, p := range f.placed {
		if p.Spec.NodeName != node {
			continue
		}
		for name, v := range workload.PodRequests(&p.Spec) {
			out[name] += v
		}
	}
	return out, true
}

func (f *fixture) addJobSet(js *jobsetv1alpha2.JobSet) {
	f.t.Helper()
	w, err := workload.FromJobSet(js, "")
	if err != nil {
		f.t.Fatalf("FromJobSet: %v", err)
	}
	f.st.Feed().UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
}

// addGang feeds js, then all its pods pending, and returns the pods.
func (f *fixture) addGang(js *jobsetv1alpha2.JobSet) []*corev1.Pod {
	f.addJobSet(js)
	pods := builders.Members(js)
	f.addPods(pods...)
	return pods
}

// addPods feeds pods as the informer would; pods on a node are placed.
func (f *fixture) addPods(pods ...*corev1.Pod) {
	for _, p := range pods {
		if p.Spec.NodeName != "" {
			f.placed[p.UID] = p
		}
		f.fed[p.UID] = p
		f.st.Feed().UpsertPod(p)
	}
}

// deletePods feeds the deletion of pods as the informer would.
func (f *fixture) deletePods(pods ...*corev1.Pod) {
	for _, p := range pods {
		delete(f.placed, p.UID)
		delete(f.fed, p.UID)
		f.st.Feed().DeletePod(p)
	}
}

// cycle starts a new scheduling cycle for p.
func (f *fixture) cycle(p *corev1.Pod) fwk.CycleState {
	cs := framework.NewCycleState()
	f.cycles[p.UID] = cs
	return cs
}

// preFilter runs PreFilter in a new cycle of p.
func (f *fixture) preFilter(p *corev1.Pod) (*fwk.PreFilterResult, *fwk.Status) {
	return f.pl.PreFilter(context.Background(), f.cycle(p), p, nil)
}

// nodeInfo is node as the scheduler's snapshot has it.
func (f *fixture) nodeInfo(name string) fwk.NodeInfo {
	var pods []*corev1.Pod
	for _, p := range f.placed {
		if p.Spec.NodeName == name {
			pods = append(pods, p)
		}
	}
	ni := framework.NewNodeInfo(pods...)
	ni.SetNode(f.nodes[name])
	return ni
}

func (f *fixture) filter(p *corev1.Pod, node string) *fwk.Status {
	return f.pl.Filter(context.Background(), f.cycles[p.UID], p, f.nodeInfo(node))
}

// reserve runs Reserve for p on node in p's current cycle.
func (f *fixture) reserve(p *corev1.Pod, node string) *fwk.Status {
	f.placed[p.UID] = builders.Assumed(p, node)
	return f.pl.Reserve(context.Background(), f.cycles[p.UID], p, node)
}

func (f *fixture) permit(p *corev1.Pod) (*fwk.Status, time.Duration) {
	return f.pl.Permit(context.Background(), f.cycles[p.UID], p, "")
}

func (f *fixture) unreserve(p *corev1.Pod) {
	delete(f.placed, p.UID)
	f.pl.Unreserve(context.Background(), f.cycles[p.UID], p, "")
}

// slicePool is the pool reserved for slice i of key's reservation ("" for none).
func (f *fixture) slicePool(key workload.Key, i int) string {
	r, ok := heldReservation(f.t, f, key)
	if !ok || r.Slices[i] == nil {
		return ""
	}
	return r.Slices[i].Domain
}

// slotNodes lists, sorted, the nodes with room planned for slice i of
// key's reservation.
func (f *fixture) slotNodes(key workload.Key, i int) []string {
	r, ok := heldReservation(f.t, f, key)
	if !ok || r.Slices[i] == nil {
		return nil
	}
	var out []string
	for _, slot := range r.Slices[i].Slots {
		if slot.Count > 0 && !slices.Contains(out, slot.Node) {
			out = append(out, slot.Node)
		}
	}
	slices.Sort(out)
	return out
}

// ---- statuses ----

// status is the part of a framework status the tests compare.
type status struct {
	Code    fwk.Code
	Message string
}

func statusOf(s *fwk.Status) status { return status{Code: s.Code(), Message: s.Message()} }

// nodeNames lists a PreFilter result's nodes, sorted (nil for all nodes).
func nodeNames(r *fwk.PreFilterResult) []string {
	if r.AllNodes() {
		return nil
	}
	out := r.NodeNames.UnsortedList()
	slices.Sort(out)
	return out
}

// fakeRuntime stands in for the scheduler's runtime: it leads, and
// carries out and tells nothing (no events sink: events are dropped).
type fakeRuntime struct{}

func (fakeRuntime) Act(context.Context, state.Actions)                                              {}
func (fakeRuntime) Leading() bool                                                                   { return true }
func (fakeRuntime) Evict(context.Context, []state.PodRef, string, string)                           {}
func (fakeRuntime) AllowWaiting(types.UID, string)                                                  {}
func (fakeRuntime) RecordAdmission(context.Context, workload.Key, uint64, func(state.PermitResult)) {}
func (fakeRuntime) PokeProvisioning()                                                               {}
func (fakeRuntime) Held(*corev1.Pod, string, string, bool)                                          {}
func (fakeRuntime) HeldAll([]state.PodRef, string, string, bool)                                    {}
func (fakeRuntime) HeldWaiting(*corev1.Pod, string, string)                                         {}
func (fakeRuntime) Released(*corev1.Pod)                                                            {}

// nopNotifier drops events.
type nopNotifier struct{}

func (nopNotifier) Normal(*corev1.ObjectReference, string, string)               {}
func (nopNotifier) Warn(*corev1.ObjectReference, string, string)                 {}
func (nopNotifier) WarnPod(*corev1.Pod, *corev1.ObjectReference, string, string) {}

// heldReservation is the reservation of key's workload as a scheduling
// cycle of one of its live pods reads it (State.Cycle): what PreFilter
// decides on.
func heldReservation(t testing.TB, f *fixture, key workload.Key) (state.Reservation, bool) {
	t.Helper()
	var pod *corev1.Pod
	for _, p := range f.fed {
		if m, ok, err := workload.MemberOf(p); !ok || err != nil || m.Key != key {
			continue
		}
		if rec, known := f.st.Pod(p.UID); known && !rec.Terminal && (pod == nil || p.Name < pod.Name) {
			pod = p
		}
	}
	if pod == nil {
		t.Fatalf("%s has no live pod to read its reservation through", key)
	}
	c := f.st.Cycle(pod, func(string) (workload.Resources, bool) { return nil, false })
	if c.Reservation == nil {
		return state.Reservation{}, false
	}
	return *c.Reservation, true
}

// reportedCharge is what key's workload is charged as the queue report
// shows it (nil: not charged): the report is what the status of queue and
// Workload objects is written from. No charge may hide from it either:
// each ClusterQueue's usage must be what the charges it shows add up to.
func reportedCharge(t testing.TB, s *state.State, key workload.Key) *quota.Charge {
	t.Helper()
	rep := s.Reports().QueueReport()
	var charge *quota.Charge
	shown := map[string]quota.Usage{}
	for _, wr := range rep.Workloads {
		if wr.Charge == nil {
			continue
		}
		if wr.Key == key {
			charge = wr.Charge
		}
		if shown[wr.Charge.ClusterQueue] == nil {
			shown[wr.Charge.ClusterQueue] = quota.Usage{}
		}
		shown[wr.Charge.ClusterQueue].Add(wr.Charge.Usage)
	}
	for name, cq := range rep.ClusterQueues {
		for fr, used := range cq.Usage {
			if used != shown[name][fr] {
				t.Fatalf("ClusterQueue %s uses %d of %v, its workloads' charges %d: a charge is hidden", name, used, fr, shown[name][fr])
			}
		}
	}
	return charge
}
