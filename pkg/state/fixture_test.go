package state_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
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

func pgKey(name string) workload.Key {
	return workload.Key{Source: workload.SourcePodGroup, Namespace: unit.Namespace, Name: name}
}

// stagedLeader is the leader of Job job of js as JobSet's webhook admits
// it under exclusive placement: with a required affinity to its own Job,
// its followers to be created once it is bound.
func stagedLeader(js *jobsetv1alpha2.JobSet, job int) *corev1.Pod {
	p := builders.Member(js, job, 0).Obj()
	builders.JobSetPodWebhook(p, nil)
	return p
}

// fixture is a State on a fake clock, both workload APIs served, fed by
// the helpers below as the informers would feed it.
type fixture struct {
	t     testing.TB
	s     *state.State
	clock *testingclock.FakeClock
	obs   *observer
	// pods are the pods fed to the state, by UID, and placed where each
	// is bound or assumed, as the scheduler's own cache has them.
	pods   map[types.UID]*corev1.Pod
	placed map[types.UID]string
	nodes  map[string]*corev1.Node
}

func newFixture(t testing.TB, nodes ...*corev1.Node) *fixture {
	t.Helper()
	return newFixtureWith(t, state.Options{}, nodes...)
}

// newFixtureWith is newFixture with opts (its clock, rejection memory and
// observer are the fixture's).
func newFixtureWith(t testing.TB, opts state.Options, nodes ...*corev1.Node) *fixture {
	t.Helper()
	clk := testingclock.NewFakeClock(builders.Epoch)
	obs := &observer{}
	opts.Clock, opts.RejectionMemory, opts.Observer = clk, 5*time.Minute, obs
	f := &fixture{
		t: t, clock: clk, obs: obs,
		s:      state.New(opts),
		pods:   map[types.UID]*corev1.Pod{},
		placed: map[types.UID]string{},
		nodes:  map[string]*corev1.Node{},
	}
	f.s.AddScheduler(unit.Scheduler)
	f.s.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	f.s.Feed().SetAPI(workload.SourcePodGroup, state.APIServed)
	f.s.Feed().SetAPI(state.QueueAPI, state.APIServed)
	f.addNodes(nodes...)
	return f
}

func (f *fixture) addNodes(nodes ...*corev1.Node) state.Actions {
	var acts state.Actions
	for _, n := range nodes {
		f.nodes[n.Name] = n
		merge(&acts, f.s.Feed().UpsertNode(n))
	}
	return acts
}

// addJobSet feeds a JobSet as its informer would.
func (f *fixture) addJobSet(js *jobsetv1alpha2.JobSet) state.Actions {
	f.t.Helper()
	w, err := workload.FromJobSet(js, f.s.DefaultDomainKey())
	if err != nil {
		f.t.Fatalf("FromJobSet: %v", err)
	}
	return f.act(f.s.Feed().UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID}))
}

// addGang feeds js and then its pods, pending, and returns the pods.
func (f *fixture) addGang(js *jobsetv1alpha2.JobSet) []*corev1.Pod {
	f.addJobSet(js)
	all := builders.Members(js)
	f.addPods(all...)
	return all
}

// addRunning feeds js and then its pods, bound and running, the i-th on
// nodes[i], and returns the pods.
func (f *fixture) addRunning(js *jobsetv1alpha2.JobSet, nodes ...string) []*corev1.Pod {
	f.addJobSet(js)
	running := builders.MembersOn(js, nodes...)
	f.addPods(running...)
	return running
}

// addPodGroup feeds a PodGroup as its informer would (no template).
func (f *fixture) addPodGroup(pg *schedv1alpha1.PodGroup) state.Actions {
	f.t.Helper()
	w, err := workload.FromPodGroup(pg, nil, f.s.DefaultDomainKey())
	if err != nil {
		f.t.Fatalf("FromPodGroup: %v", err)
	}
	return f.act(f.s.Feed().UpsertSource(pgKey(pg.Name), w, nil, corev1.ObjectReference{Kind: "PodGroup", Namespace: pg.Namespace, Name: pg.Name, UID: pg.UID}))
}

// addPods feeds pods (adds or updates) and returns what the state asked for.
func (f *fixture) addPods(pods ...*corev1.Pod) state.Actions {
	var acts state.Actions
	for _, p := range pods {
		f.pods[p.UID] = p
		switch {
		case p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed:
			delete(f.placed, p.UID)
		case p.Spec.NodeName != "":
			f.placed[p.UID] = p.Spec.NodeName
		}
		merge(&acts, f.act(f.s.Feed().UpsertPod(p)))
	}
	return acts
}

// deletePod feeds the deletion of pod in its last observed form.
func (f *fixture) deletePod(p *corev1.Pod) state.Actions {
	delete(f.pods, p.UID)
	delete(f.placed, p.UID)
	return f.act(f.s.Feed().DeletePod(p))
}

// unreserve runs Unreserve for pod reserved under id.
func (f *fixture) unreserve(p *corev1.Pod, id uint64) state.Actions {
	if f.pods[p.UID].Spec.NodeName == "" {
		delete(f.placed, p.UID)
	}
	return f.act(f.s.Unreserve(p, id))
}

// bind feeds the binding of pod to node.
func (f *fixture) bind(p *corev1.Pod, node string) state.Actions {
	return f.addPods(builders.Bound(p, node))
}

// requested is what the pods the state places on node request, assumed
// ones included, as the scheduler's snapshot counts it.
func (f *fixture) requested(node string) (workload.Resources, bool) {
	if _, ok := f.nodes[node]; !ok {
		return nil, false
	}
	out := workload.Resources{}
	for uid, n := range f.placed {
		if n != node {
			continue
		}
		for name, v := range workload.PodRequests(&f.pods[uid].Spec) {
			out[name] += v
		}
	}
	return out, true
}

// free is what node has left.
func (f *fixture) free(node string) func() workload.Resources {
	return func() workload.Resources {
		req, _ := f.requested(node)
		return workload.FromList(f.nodes[node].Status.Allocatable).Sub(req)
	}
}

// admit is whether p may enter the active queue, with its queue's
// verdict taken, as PreEnqueue asks it.
func (f *fixture) admit(p *corev1.Pod) state.Verdict { return admission.Admit(f.s, p) }

// permit is pod's Permit as the scheduler decides it.
func (f *fixture) permit(p *corev1.Pod) state.PermitResult { return admission.Permit(f.s, p) }

func (f *fixture) snapshot(key workload.Key) *state.Snapshot { return f.s.Snapshot(key, f.requested) }

// plan plans key's workload on a fresh snapshot, as PreFilter does.
//
// Every plan is also made on the snapshot for planning (SnapshotForPlan),
// which PreFilter reads first: where the full snapshot plans, it must make
// the same plan, and where the full one fails, so must it; but for a
// snapshot of the roomiest domains (Roomy), which may fail where every
// node plans, PreFilter's plan then made on every node.
func (f *fixture) plan(key workload.Key) (*state.Reservation, *placement.Failure) {
	f.t.Helper()
	r, fail := admission.Plan(f.snapshot(key))
	lean := f.s.SnapshotForPlan(key, f.requested)
	lr, lfail := admission.Plan(lean)
	if lfail != nil && lean.Roomy() {
		// PreFilter plans again on every node (FullPlan): what it decides
		// is the full snapshot's plan.
		lr, lfail = r, fail
	}
	switch {
	case fail == nil && lfail != nil:
		f.t.Errorf("plan %s: the snapshot for planning (%d domains elided) fails where the full one plans: %v", key, elided(lean), lfail)
	case fail != nil && lfail == nil:
		f.t.Errorf("plan %s: the snapshot for planning plans where the full one fails (%v)", key, fail)
	case fail == nil && !reflect.DeepEqual(r, lr):
		f.t.Errorf("plan %s: the snapshot for planning plans otherwise:\nfull: %+v\nfor planning: %+v", key, describe(r), describe(lr))
	}
	return r, fail
}

func elided(sn *state.Snapshot) int {
	n := 0
	for _, values := range sn.Elided {
		n += len(values)
	}
	return n
}

// describe renders a reservation's slices for a failure message.
func describe(r *state.Reservation) string {
	var b strings.Builder
	for _, i := range slices.Sorted(maps.Keys(r.Slices)) {
		fmt.Fprintf(&b, "slice %d: %+v; ", i, *r.Slices[i])
	}
	return b.String()
}

// reservationOf is the reservation of key's workload as a scheduling cycle
// of its member p reads it (State.Cycle): what PreFilter decides on.
func (f *fixture) reservationOf(key workload.Key, p *corev1.Pod) (state.Reservation, bool) {
	f.t.Helper()
	c := f.s.Cycle(p, f.requested)
	if c.Pod == nil || !c.Pod.Gang || c.Pod.MemberErr != nil || c.Pod.Member.Key != key {
		f.t.Fatalf("pod %s is not a known member of %s", p.Name, key)
	}
	if c.Reservation == nil {
		return state.Reservation{}, false
	}
	return *c.Reservation, true
}

// cachedFailure is the failure a scheduling cycle of p reports without
// planning again (nil: it plans, or p's workload holds a reservation): its
// workload's last plan failed at the cycle's generation, and p is not the
// head the workload plans through.
func (f *fixture) cachedFailure(p *corev1.Pod) *placement.Failure {
	f.t.Helper()
	c := f.s.Cycle(p, f.requested)
	if c.Workload == nil || c.Plan != nil || c.Reservation != nil || c.Workload.Failure == nil || c.Workload.FailGen != c.Generation {
		return nil
	}
	return c.Workload.Failure
}

// heldNodes are, sorted, the nodes a scheduling cycle of p, a member of a
// workload that runs whole, keeps it to (nil: none; PodCycle.HeldNodes).
func (f *fixture) heldNodes(p *corev1.Pod) []string {
	f.t.Helper()
	c := f.s.Cycle(p, f.requested)
	if c.Workload == nil || !c.Workload.PlacedWhole {
		f.t.Fatalf("%s's workload does not run whole", p.Name)
	}
	if c.HeldNodes == nil {
		return nil
	}
	return slices.Sorted(slices.Values(c.HeldNodes))
}

// mustPlan plans key's workload as plan does, and fails the test if it
// cannot.
func (f *fixture) mustPlan(key workload.Key) *state.Reservation {
	f.t.Helper()
	r, fail := f.plan(key)
	if fail != nil {
		f.t.Fatalf("plan %s: %v", key, fail)
	}
	return r
}

// commit plans and commits key's workload with a one-minute permit
// timeout and follower timeout.
func (f *fixture) commit(key workload.Key) (uint64, *state.Reservation, state.Actions) {
	f.t.Helper()
	r := f.mustPlan(key)
	r.FollowerTimeout = time.Minute
	applied := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute})
	id, acts, err := applied.Reservation, applied.Actions, applied.Refused
	if err != nil {
		f.t.Fatalf("commit %s: %v", key, err)
	}
	return id, r, f.act(acts)
}

// reserve runs Reserve for pod on the first node its reservation offers
// that no reserved or placed pod of the fixture uses yet.
func (f *fixture) reserve(p *corev1.Pod) (uint64, string) {
	f.t.Helper()
	nodes, ok := f.s.Reports().MemberNodes(p)
	if !ok {
		f.t.Fatalf("pod %s has no reservation", p.Name)
	}
	used := map[string]bool{}
	for uid, n := range f.placed {
		if uid != p.UID {
			used[n] = true
		}
	}
	for _, n := range sortedSet(nodes) {
		if used[n] {
			continue
		}
		f.pods[p.UID] = p
		f.placed[p.UID] = n
		return f.s.Reserve(p, n), n
	}
	f.t.Fatalf("no node left for %s among %v", p.Name, sortedSet(nodes))
	return 0, ""
}

// domains maps each slice of a reservation to its domain.
func domains(r *state.Reservation) map[int]string {
	out := map[int]string{}
	for i, sr := range r.Slices {
		out[i] = sr.Domain
	}
	return out
}

// act resolves what the state reports as the leader's effects layer does
// (feed's Runtime.Act) before the test reads it: workloads found running
// with no record are charged as admission.ForcedCharge decides, then the
// heads admission.Wake picks in the cohorts where quota was released are
// activated.
func (f *fixture) act(acts state.Actions) state.Actions {
	controllers.ChargeRunning(f.s, acts.Uncharged)
	acts.Uncharged = nil
	admission.WakeAll(&acts, f.s.WakeRound)
	return acts
}

func merge(a *state.Actions, o state.Actions) {
	a.Activate = append(a.Activate, o.Activate...)
	a.Reject = append(a.Reject, o.Reject...)
	a.Events = append(a.Events, o.Events...)
	if o.Reason != "" {
		a.Reason = o.Reason
	}
}

// names lists the activated pods' names, sorted (duplicates kept).
func names(refs []state.PodRef) []string {
	out := make([]string, 0, len(refs))
	for _, r := range refs {
		out = append(out, r.Name)
	}
	slices.Sort(out)
	return out
}

func podNames(pods ...*corev1.Pod) []string {
	out := make([]string, 0, len(pods))
	for _, p := range pods {
		out = append(out, p.Name)
	}
	slices.Sort(out)
	return out
}

func uids(pods ...*corev1.Pod) []types.UID {
	out := make([]types.UID, 0, len(pods))
	for _, p := range pods {
		out = append(out, p.UID)
	}
	slices.Sort(out)
	return out
}

func sortedSet[T interface{ UnsortedList() []string }](s T) []string {
	out := s.UnsortedList()
	slices.Sort(out)
	return out
}

// observer records what the state measures.
type observer struct {
	mu       sync.Mutex
	released []state.ReleaseReason
	placed   []time.Duration
	admitted []string
}

func (o *observer) ReservationsActive(int) {}
func (o *observer) ReservationReleased(r state.ReleaseReason) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.released = append(o.released, r)
}
func (o *observer) GangPlaced(d time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.placed = append(o.placed, d)
}
func (o *observer) GangsWaiting(int, int) {}
func (o *observer) WorkloadAdmitted(cq string, _ time.Duration) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.admitted = append(o.admitted, cq)
}

func (o *observer) admissions() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.admitted)
}

func (o *observer) releases() []state.ReleaseReason {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.released)
}

func (o *observer) placements() []time.Duration {
	o.mu.Lock()
	defer o.mu.Unlock()
	return slices.Clone(o.placed)
}

// chargeOf is what key's workload is charged, as a plan or a preemption
// reads it (Snapshot; nil: not charged). When it reads none, no charge may
// hide elsewhere either: each ClusterQueue's usage in the queue report (the
// status of queue objects) must be what the charges it shows add up to.
func chargeOf(t testing.TB, s *state.State, key workload.Key) *quota.Charge {
	t.Helper()
	noPods := func(string) (workload.Resources, bool) { return nil, false }
	if v := s.Snapshot(key, noPods).Workloads[key]; v != nil && v.Charge != nil {
		return v.Charge
	}
	rep := s.Reports().QueueReport()
	shown := map[string]quota.Usage{}
	for _, wr := range rep.Workloads {
		if wr.Charge == nil {
			continue
		}
		if wr.Key == key {
			t.Fatalf("the queue report shows %s charged %v, a plan reads it uncharged", key, wr.Charge.Usage)
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
	return nil
}

// nodeAllowed asks the Filter rule of pod on node as the scheduler does:
// the state's facts, then the rule on them.
func nodeAllowed(s *state.State, pod *corev1.Pod, node string, free func() workload.Resources) (bool, string) {
	return s.NodeFacts(pod, node).Allows(free)
}
