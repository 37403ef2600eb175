package cache

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

const sched = "multislice-scheduler"

// fixture is a cache with pools of 2 nodes × 4 chips and JobSet helpers.
type fixture struct {
	t     *testing.T
	c     *Cache
	clock *testingclock.FakeClock
	nodes []NodeState
}

func newFixture(t *testing.T, pools int) *fixture {
	clk := testingclock.NewFakeClock(time.Unix(1000, 0))
	f := &fixture{t: t, clock: clk, c: New(Options{Clock: clk, PermitTimeout: time.Minute, FollowerTimeout: time.Minute, SchedulerName: sched})}
	f.c.SetAPIServed(workload.SourceJobSet, true)
	for p := 1; p <= pools; p++ {
		for n := range 2 {
			f.nodes = append(f.nodes, NodeState{Node: &corev1.Node{
				ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("pool-%d-node-%d", p, n), Labels: map[string]string{wellknown.NodePoolLabel: fmt.Sprintf("pool-%d", p)}},
				Status: corev1.NodeStatus{
					Allocatable: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4"), corev1.ResourcePods: resource.MustParse("110")},
					Conditions:  []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue}},
				},
			}, Requested: workload.Resources{}})
		}
	}
	return f
}

func key(name string) workload.Key {
	return workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}
}

// jobset registers a JobSet of slices × 2 pods × 4 chips confined to pools.
func (f *fixture) jobset(name string, slices int) {
	tmpl := &corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
		Requests: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")}}}}}
	w := &workload.Workload{Key: key(name), UID: types.UID(name), Created: f.clock.Now()}
	for i := range slices {
		w.Slices = append(w.Slices, workload.Slice{Index: i, Name: fmt.Sprintf("%s-%d", name, i), Pods: 2,
			Request: workload.PodRequests(tmpl), Template: tmpl, DomainKey: wellknown.NodePoolLabel})
	}
	f.c.UpsertSource(key(name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: name})
}

func (f *fixture) pod(js string, slice, index int, staged bool) *corev1.Pod {
	p := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprintf("%s-%d-%d", js, slice, index), UID: types.UID(fmt.Sprintf("%s-%d-%d", js, slice, index)),
			Labels: map[string]string{
				wellknown.JobSetNameLabel: js, wellknown.JobGlobalIndexLabel: strconv.Itoa(slice),
				wellknown.JobCompletionIndexLabel: strconv.Itoa(index), wellknown.JobKeyLabel: fmt.Sprintf("%s-%d", js, slice),
			},
			Annotations: map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel},
		},
		Spec: corev1.PodSpec{SchedulerName: sched, Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
			Requests: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")}}}}},
	}
	if staged && index == 0 {
		p.Spec.Affinity = &corev1.Affinity{PodAffinity: &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
			TopologyKey:   wellknown.NodePoolLabel,
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{wellknown.JobKeyLabel: p.Labels[wellknown.JobKeyLabel]}},
		}}}}
	}
	return p
}

// pods creates every pod (or only leaders when staged) of a JobSet in the cache.
func (f *fixture) pods(js string, slices int, staged bool) []*corev1.Pod {
	var out []*corev1.Pod
	for s := range slices {
		for i := range 2 {
			if staged && i > 0 {
				continue
			}
			p := f.pod(js, s, i, staged)
			f.c.UpsertPod(p)
			out = append(out, p)
		}
	}
	return out
}

// place runs a pod through PreFilter, picks the first free allowed node,
// and Reserve + Permit, as one scheduling cycle would.
func (f *fixture) place(p *corev1.Pod) (PlanResult, PermitResult, string) {
	res := f.c.Plan(p, func() []NodeState { return f.nodes })
	if !res.Gang || res.Failure != nil || res.Wait || res.Unresolvable {
		return res, PermitResult{}, ""
	}
	used := map[string]bool{}
	for _, e := range f.c.pods {
		if e.nodeName != "" {
			used[e.nodeName] = true
		}
	}
	for _, n := range f.nodes {
		if (res.Nodes != nil && !res.Nodes.Has(n.Node.Name)) || used[n.Node.Name] {
			continue
		}
		if ok, _ := f.c.Allowed(p, n.Node); !ok {
			continue
		}
		f.c.Reserve(p, n.Node.Name)
		return res, f.c.Permit(p), n.Node.Name
	}
	return res, PermitResult{}, ""
}

func (f *fixture) bind(p *corev1.Pod, node string) {
	b := p.DeepCopy()
	b.Spec.NodeName = node
	f.c.UpsertPod(b)
}

func TestAdmit(t *testing.T) {
	cases := map[string]struct {
		setup    func(f *fixture) *corev1.Pod
		wantGang bool
		wantWait bool
		wantUnr  bool
		wantMsg  string
	}{
		"plain pod": {setup: func(f *fixture) *corev1.Pod {
			return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "plain", Namespace: "ns"}}
		}},
		"JobSet not yet observed": {setup: func(f *fixture) *corev1.Pod { return f.pod("a", 0, 0, false) },
			wantGang: true, wantWait: true, wantMsg: "waiting for JobSet ns/a to be observed"},
		"JobSet API not served: plain": {setup: func(f *fixture) *corev1.Pod {
			f.c.SetAPIServed(workload.SourceJobSet, false)
			return f.pod("a", 0, 0, false)
		}},
		"some pods missing": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 2)
			f.c.UpsertPod(f.pod("a", 0, 0, false))
			return f.pod("a", 1, 0, false)
		}, wantGang: true, wantWait: true, wantMsg: "waiting for 2 of 4 pods of JobSet ns/a to be created"},
		"all pods present": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 2)
			return f.pods("a", 2, false)[0]
		}, wantGang: true},
		"staged: leaders suffice": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 2)
			return f.pods("a", 2, true)[1]
		}, wantGang: true},
		"staged: a leader missing": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 3)
			f.c.UpsertPod(f.pod("a", 0, 0, true))
			return f.pod("a", 1, 0, true)
		}, wantGang: true, wantWait: true, wantMsg: "waiting for the first pod of 1 of 3 Jobs"},
		"stale restart attempt": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 1)
			w, _, ref, _ := f.c.Source(key("a"))
			w.RestartAttempt = 2
			f.c.UpsertSource(key("a"), w, nil, ref)
			return f.pod("a", 0, 0, false)
		}, wantGang: true, wantUnr: true, wantMsg: "restart attempt 0 of JobSet ns/a, which is at attempt 2"},
		"index beyond the JobSet": {setup: func(f *fixture) *corev1.Pod {
			f.jobset("a", 1)
			return f.pod("a", 5, 0, false)
		}, wantGang: true, wantUnr: true, wantMsg: "names Job index 5, but JobSet ns/a has 1 Jobs"},
		"malformed JobSet": {setup: func(f *fixture) *corev1.Pod {
			f.c.UpsertSource(key("a"), nil, fmt.Errorf("JobSet ns/a: spec: broken"), corev1.ObjectReference{})
			return f.pod("a", 0, 0, false)
		}, wantGang: true, wantUnr: true, wantMsg: "spec: broken"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, 3)
			v := f.c.Admit(tc.setup(f))
			if v.Gang != tc.wantGang || v.Wait != tc.wantWait || v.Unresolvable != tc.wantUnr {
				t.Fatalf("verdict = %+v, want gang=%v wait=%v unresolvable=%v", v, tc.wantGang, tc.wantWait, tc.wantUnr)
			}
			if !strings.Contains(v.Message, tc.wantMsg) {
				t.Errorf("message %q does not contain %q", v.Message, tc.wantMsg)
			}
		})
	}
}

func TestGangIsAllOrNothingAcrossCompetingWorkloads(t *testing.T) {
	f := newFixture(t, 3)
	f.jobset("a", 2)
	f.jobset("b", 2)
	pa := f.pods("a", 2, false)
	pb := f.pods("b", 2, false)

	// a's first pod reserves two pools for a; b then finds one pool free.
	res, permit, _ := f.place(pa[0])
	if res.Placed == "" || permit.Wait <= 0 {
		t.Fatalf("first member: placed=%q permit=%+v", res.Placed, permit)
	}
	res, _, _ = f.place(pb[0])
	if res.Failure == nil || res.Failure.Unresolvable || !strings.Contains(res.Failure.Message, "waiting for 1 more domains matching any node (3 exist, 1 free)") {
		t.Fatalf("b: %+v", res.Failure)
	}
	// The rest of a's members complete the gate; the last lets all through.
	for _, p := range pa[1:3] {
		if _, permit, _ := f.place(p); permit.Wait <= 0 {
			t.Fatalf("%s: permit %+v", p.Name, permit)
		}
	}
	_, permit, _ = f.place(pa[3])
	if !permit.Allow || len(permit.AllowWaiting) != 3 || permit.Committed == "" {
		t.Fatalf("last member: %+v", permit)
	}
	for _, p := range pa {
		e := f.c.pods[p.UID]
		f.bind(p, e.nodeName)
	}
	if _, held := f.c.ReservationOf(key("a")); held {
		t.Error("reservation kept after every pod bound")
	}
	// Bound pods still hold a's pools against b.
	res, _, _ = f.place(pb[0])
	if res.Failure == nil {
		t.Fatal("b placed into pools held by a's bound pods")
	}
}

func TestUnreserveBeforeGateReleasesAndRejectsTheGang(t *testing.T) {
	f := newFixture(t, 3)
	f.jobset("a", 1)
	f.jobset("b", 3)
	pa := f.pods("a", 1, false)
	f.pods("b", 3, false)
	f.place(pa[0])
	// b waits for domains.
	if res, _, _ := f.place(f.pod("b", 0, 0, false)); res.Failure == nil {
		t.Fatal("b placed with a's pool reserved")
	}
	acts := f.c.Unreserve(pa[0])
	if _, held := f.c.ReservationOf(key("a")); held {
		t.Fatal("reservation survived a member's failure before the gate")
	}
	if len(acts.Reject) != 0 {
		t.Errorf("rejects %v: the failing pod itself is not waiting", acts.Reject)
	}
	if len(acts.Activate) != 6 {
		t.Errorf("activates %d pods, want b's 6", len(acts.Activate))
	}
}

func TestStagedGateIsTheLeadersAndFollowersJoinTheReservation(t *testing.T) {
	f := newFixture(t, 2)
	f.jobset("a", 2)
	leaders := f.pods("a", 2, true)
	f.place(leaders[0])
	_, permit, _ := f.place(leaders[1])
	if !permit.Allow || len(permit.AllowWaiting) != 1 {
		t.Fatalf("second leader: %+v", permit)
	}
	for _, p := range leaders {
		f.bind(p, f.c.pods[p.UID].nodeName)
	}
	r, held := f.c.ReservationOf(key("a"))
	if !held || !r.Committed || !r.Staged {
		t.Fatalf("reservation after leaders bound: %+v held=%v", r, held)
	}
	// A follower arrives pinned to nothing in particular: it is admitted at
	// once and limited to its slice's pool.
	follower := f.pod("a", 1, 1, true)
	f.c.UpsertPod(follower)
	if v := f.c.Admit(follower); v.Wait || v.Unresolvable {
		t.Fatalf("follower not admitted: %+v", v)
	}
	res, permit, node := f.place(follower)
	if !permit.Allow || !strings.HasPrefix(node, "pool-"+r.Domains[1][len("pool-"):]) {
		t.Fatalf("follower: nodes %v permit %+v node %s", res.Nodes, permit, node)
	}
}

func TestExpiry(t *testing.T) {
	f := newFixture(t, 2)
	f.jobset("a", 1)
	pa := f.pods("a", 1, false)
	f.place(pa[0])
	f.clock.Step(30 * time.Second)
	if acts := f.c.Expire(); len(acts.Reject) != 0 {
		t.Fatal("released before the deadline")
	}
	f.clock.Step(31 * time.Second)
	acts := f.c.Expire()
	if len(acts.Reject) != 1 || acts.Reject[0] != pa[0].UID || !strings.Contains(acts.Reason, "were not all reserved in time") {
		t.Fatalf("expiry: %+v", acts)
	}
	if _, held := f.c.ReservationOf(key("a")); held {
		t.Fatal("reservation kept after expiry")
	}
}

func TestPlainPodsStayOutOfReservedDomains(t *testing.T) {
	f := newFixture(t, 1)
	f.jobset("a", 1)
	f.place(f.pods("a", 1, false)[0])
	plain := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "plain"}}
	ok, reason := f.c.Allowed(plain, f.nodes[1].Node)
	if ok || !strings.Contains(reason, "reserved for slice 0 of JobSet ns/a") {
		t.Fatalf("Allowed = %v %q", ok, reason)
	}
}

func TestWorkloadChangeReleasesReservation(t *testing.T) {
	f := newFixture(t, 2)
	f.jobset("a", 1)
	p := f.pods("a", 1, false)[0]
	f.place(p)
	w, _, ref, _ := f.c.Source(key("a"))
	restarted := *w
	restarted.RestartAttempt = 1
	acts := f.c.UpsertSource(key("a"), &restarted, nil, ref)
	if _, held := f.c.ReservationOf(key("a")); held {
		t.Fatal("reservation survived a restart")
	}
	if len(acts.Reject) != 1 || acts.Reject[0] != p.UID {
		t.Errorf("rejects %v, want the waiting member", acts.Reject)
	}
	acts = f.c.DeleteSource(key("a"))
	if len(acts.Reject) != 0 {
		t.Errorf("deleting a workload with no reservation rejected %v", acts.Reject)
	}
}

func TestFollowersThatNeverComeReleaseTheirCapacity(t *testing.T) {
	f := newFixture(t, 2)
	f.jobset("a", 1)
	leader := f.pods("a", 1, true)[0]
	if _, permit, node := f.place(leader); !permit.Allow {
		t.Fatalf("leader alone is the staged gate: %+v", permit)
	} else {
		f.bind(leader, node)
	}
	// The follower's host stays reserved: a plain pod may not take it.
	plain := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "plain"}}
	other := f.nodes[1].Node
	if f.c.pods[leader.UID].nodeName == other.Name {
		other = f.nodes[0].Node
	}
	if ok, _ := f.c.Allowed(plain, other); ok {
		t.Fatal("follower capacity not held")
	}
	f.clock.Step(61 * time.Second)
	acts := f.c.Expire()
	if len(acts.Reject) != 0 || !strings.Contains(acts.Reason, "followers did not appear in time") {
		t.Fatalf("expiry: %+v", acts)
	}
	if ok, reason := f.c.Allowed(plain, other); !ok {
		t.Fatalf("capacity still held after the follower timeout: %s", reason)
	}
}

func TestMembersWithoutReservationFitNowhere(t *testing.T) {
	f := newFixture(t, 2)
	f.jobset("a", 1)
	p := f.pods("a", 1, false)[0]
	if ok, reason := f.c.Allowed(p, f.nodes[0].Node); ok || !strings.Contains(reason, "holds no reserved domains") {
		t.Fatalf("Allowed without reservation = %v %q", ok, reason)
	}
	f.place(p)
	if ok, reason := f.c.Allowed(p, f.nodes[0].Node); !ok {
		t.Fatalf("Allowed in its reserved domain = %v %q", ok, reason)
	}
}

// Admission adds tolerations (GKE's accelerator taints) to pods that their
// JobSet template lacks: slices are planned from their pods.
func TestSlicesArePlannedFromTheirPodsNotTheTemplate(t *testing.T) {
	f := newFixture(t, 2)
	taint := corev1.Taint{Key: "google.com/tpu", Value: "present", Effect: corev1.TaintEffectNoSchedule}
	for _, n := range f.nodes {
		n.Node.Spec.Taints = []corev1.Taint{taint}
	}
	f.jobset("a", 2) // template without the toleration
	var pods []*corev1.Pod
	for s := range 2 {
		for i := range 2 {
			p := f.pod("a", s, i, false)
			p.Spec.Tolerations = []corev1.Toleration{{Key: "google.com/tpu", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}}
			f.c.UpsertPod(p)
			pods = append(pods, p)
		}
	}
	res := f.c.Plan(pods[0], func() []NodeState { return f.nodes })
	if res.Failure != nil {
		t.Fatalf("plan failed: %v", res.Failure)
	}
}

func TestExclusionsMatchAllowed(t *testing.T) {
	f := newFixture(t, 3)
	f.jobset("a", 1)
	f.jobset("b", 1)
	f.place(f.pods("a", 1, false)[0])
	var nodes []*corev1.Node
	for _, n := range f.nodes {
		nodes = append(nodes, n.Node)
	}
	plain := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "plain"}}
	for _, p := range []*corev1.Pod{plain, f.pod("a", 0, 1, false), f.pods("b", 1, false)[0]} {
		ex := f.c.Exclusions(p, func() []*corev1.Node { return nodes })
		for _, n := range nodes {
			ok, reason := f.c.Allowed(p, n)
			if got, excluded := ex[n.Name]; excluded == ok || got != reason {
				t.Errorf("%s on %s: Exclusions %q (%v), Allowed %v %q", p.Name, n.Name, got, excluded, ok, reason)
			}
		}
	}
	f.c.Unreserve(f.pod("a", 0, 0, false))
	if ex := f.c.Exclusions(plain, func() []*corev1.Node { return nodes }); ex != nil {
		t.Errorf("plain pod excluded with no reservations: %v", ex)
	}
}
