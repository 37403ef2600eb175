package state_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const v5eFlavor = "vlp-24"

// withQueue is the fixture with seed 002's queues: flavor vlp-24 for the
// v5e 2x4 nodes, ClusterQueue cluster-queue with nominalQuota chips of
// google.com/tpu, LocalQueue multislice-queue in the tests' namespace.
func withQueue(f *fixture, chips int64, strategy quota.Strategy) *fixture {
	f.act(f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
		wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}}))
	f.act(f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
		Name: "cluster-queue", Strategy: strategy, FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}},
	}))
	f.act(f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "multislice-queue", ClusterQueue: "cluster-queue"}))
	return f
}

// queued is a JobSet of slices 2x4 slices in multislice-queue, created
// minute m after the epoch.
func queued(name string, slices int32, m int) *jobsetv1alpha2.JobSet {
	return unit.JobSet(name).Created(builders.Epoch.Add(time.Duration(m)*time.Minute)).
		Annotation(wellknown.QueueNameLabel, "multislice-queue").ReplicatedJob("slice", slices, 2).Obj()
}

func head(t *testing.T, f *fixture, pods []*corev1.Pod) *corev1.Pod {
	t.Helper()
	for _, p := range pods {
		if f.s.IsWaitingHead(p) {
			return p
		}
	}
	t.Fatalf("no head among %v", podNames(pods...))
	return nil
}

// admits checks whether the head of pods passes PreEnqueue, and with which
// queue reason it waits otherwise.
func admits(t *testing.T, f *fixture, pods []*corev1.Pod, want bool, reason string) {
	t.Helper()
	v := f.admit(head(t, f, pods))
	if v.Wait == want || (!want && v.QueueReason != reason) {
		t.Fatalf("Admit(head of %s) = %+v, want admitted=%v (reason %q)", pods[0].Labels[wellknown.JobSetNameLabel], v, want, reason)
	}
}

func tpuCharged(f *fixture, name string) int64 {
	c := chargeOf(f.t, f.s, jsKey(name))
	if c == nil {
		return 0
	}
	return c.Usage[quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}] / 1000
}

// Re-delivering a queue object whose model did not change (the status the
// scheduler writes comes back as an update) wakes nothing; a change wakes
// the workloads its queue holds.
func TestUnchangedQueueObjectsWakeNothing(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 8, quota.BestEffortFIFO)
	f.addGang(queued("running", 1, 0))
	f.commit(jsKey("running"))
	waiting := f.addGang(queued("waiting", 1, 1))
	admits(t, f, waiting, false, quota.ReasonQuotaExceeded)
	cq := func(chips int64) *quota.ClusterQueue {
		return &quota.ClusterQueue{
			Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
			Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
			Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}},
		}
	}
	unchanged := map[string]func() state.Actions{
		"ClusterQueue": func() state.Actions { return f.s.Feed().SetClusterQueue(cq(8)) },
		"LocalQueue": func() state.Actions {
			return f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "multislice-queue", ClusterQueue: "cluster-queue"})
		},
		"ResourceFlavor": func() state.Actions {
			return f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
				wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}})
		},
	}
	for kind, set := range unchanged {
		if acts := set(); len(acts.Activate) != 0 {
			t.Errorf("an unchanged %s activated %v", kind, names(acts.Activate))
		}
	}
	acts := f.s.Feed().SetClusterQueue(cq(16))
	if h := head(t, f, waiting); !slices.Contains(names(acts.Activate), h.Name) {
		t.Errorf("raising the quota activated %v, not the waiting head %s", names(acts.Activate), h.Name)
	}
}

// Seed 002 with quota as the binding constraint: six pools, 24 chips of
// quota. The 3-slice JobSet takes it all; the 1- and 2-slice ones wait,
// gated, and go together once it finishes.
func TestQuotaAdmitsInTurn(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, quota.BestEffortFIFO)
	js3, js1, js2 := queued("js3", 3, 0), queued("js1", 1, 1), queued("js2", 2, 2)
	p3 := f.addGang(js3)
	admits(t, f, p3, true, "")
	f.commit(jsKey("js3"))
	if got := tpuCharged(f, "js3"); got != 24 {
		t.Fatalf("js3 charged %d chips, want 24", got)
	}
	p1, p2 := f.addGang(js1), f.addGang(js2)
	admits(t, f, p1, false, quota.ReasonQuotaExceeded)
	admits(t, f, p2, false, quota.ReasonQuotaExceeded)
	if v := f.admit(head(t, f, p1)); !strings.Contains(v.Message, "8 requested, 0 available") {
		t.Errorf("message %q does not say what is short", v.Message)
	}
	// Binding does not release the charge; finishing does.
	for _, p := range p3 {
		f.reserve(p)
	}
	for _, p := range p3 {
		f.bind(p, f.placed[p.UID])
	}
	if got := tpuCharged(f, "js3"); got != 24 {
		t.Fatalf("js3 charged %d chips once bound, want 24", got)
	}
	// Its pods succeed (the scheduler's informer reports them gone), then
	// its owner reports it complete: the charge goes with the last pod.
	var acts state.Actions
	for _, p := range p3 {
		merge(&acts, f.deletePod(builders.InPhase(builders.Bound(p, f.placed[p.UID]), corev1.PodSucceeded)))
	}
	done := js3.DeepCopy()
	done.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	merge(&acts, f.addJobSet(done))
	if got := tpuCharged(f, "js3"); got != 0 {
		t.Fatalf("finished js3 still charged %d chips", got)
	}
	woken := strings.Join(names(acts.Activate), ",")
	for _, h := range []*corev1.Pod{head(t, f, p1), head(t, f, p2)} {
		if !strings.Contains(woken, h.Name) {
			t.Errorf("releasing quota did not activate %s (activated %s)", h.Name, woken)
		}
	}
	admits(t, f, p1, true, "")
	admits(t, f, p2, true, "")
	f.commit(jsKey("js1"))
	f.commit(jsKey("js2"))
	if tpuCharged(f, "js1") != 8 || tpuCharged(f, "js2") != 16 {
		t.Fatalf("charged js1 %d, js2 %d; want 8 and 16", tpuCharged(f, "js1"), tpuCharged(f, "js2"))
	}
}

// Released quota wakes, in queue order, every waiting workload it can
// admit and none it cannot: a shape that did not fit is not tried again in
// the same wake, yet a smaller shape behind it still is.
func TestReleaseWakesWhatFits(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, quota.BestEffortFIFO)
	running := queued("running", 3, 0)
	f.addGang(running)
	f.commit(jsKey("running"))
	pods := map[string][]*corev1.Pod{}
	for _, js := range []*jobsetv1alpha2.JobSet{queued("big1", 2, 1), queued("big2", 2, 2), queued("big3", 2, 3), queued("small", 1, 4)} {
		pods[js.Name] = f.addGang(js)
		admits(t, f, pods[js.Name], false, quota.ReasonQuotaExceeded)
	}
	done := running.DeepCopy()
	done.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	woken := strings.Join(names(f.addJobSet(done).Activate), ",")
	for name, want := range map[string]bool{"big1": true, "big2": false, "big3": false, "small": true} {
		h := head(t, f, pods[name])
		if got := strings.Contains(woken, h.Name); got != want {
			t.Errorf("%s woken = %v, want %v (woken: %s)", name, got, want, woken)
		}
	}
}

// A wake counts what it wakes against the quota. A workload it woke whose
// plan then fails on domains takes none of it: the quota it was counted
// for goes to the workloads behind it at once (nothing else would wake
// them: quota not taken is never released), and wakes pass it by while
// it waits for room.
func TestAWokenWorkloadThatCannotBePlacedLeavesTheQuotaToOthers(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(3)...), 16, quota.BestEffortFIFO)
	running := queued("running", 2, 0)
	f.addGang(running)
	f.commit(jsKey("running"))
	f.addRunning(unit.JobSet("squatter").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
	big, small := f.addGang(queued("big", 2, 1)), f.addGang(queued("small", 1, 2))
	admits(t, f, big, false, quota.ReasonQuotaExceeded)
	admits(t, f, small, false, quota.ReasonQuotaExceeded)

	done := running.DeepCopy()
	done.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	woken := names(f.addJobSet(done).Activate)
	if !slices.Contains(woken, head(t, f, big).Name) || slices.Contains(woken, head(t, f, small).Name) {
		t.Fatalf("the release woke %v, want big's head alone (it takes the 16 chips)", woken)
	}
	// Another scheduler's pods take pool-1 before big plans: big no
	// longer fits its domains.
	f.addRunning(unit.JobSet("other").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")
	admits(t, f, big, true, "")
	sn := f.snapshot(jsKey("big"))
	if _, fail := admission.Plan(sn); fail == nil {
		t.Fatal("big planned on one free pool")
	} else {
		acts := f.act(f.s.Apply(state.Decision{Key: jsKey("big"), Pod: head(t, f, big).UID, Failed: fail, Generation: sn.Generation}).Actions)
		if got := names(acts.Activate); !slices.Contains(got, head(t, f, small).Name) {
			t.Errorf("big's failed plan woke %v, not small, which fits the quota and pool-2", got)
		}
	}
	admits(t, f, small, true, "")
	round, _ := f.s.WakeRound("cluster-queue")
	for _, w := range round.Queues["cluster-queue"] {
		if w.Key == jsKey("big") {
			t.Errorf("a wake still counts big, which waits for domains, against the quota")
		}
	}
}

// A gang whose member another plugin rejects holds nothing and waits for
// that member: a wake passes it by, so the quota it released goes to the
// workload behind it rather than to its rejected member's next cycle.
func TestAGangWaitingForItsMemberLeavesTheQuotaToOthers(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	stuck := f.addGang(queued("stuck", 2, 0))
	id, _, _ := f.commit(jsKey("stuck"))
	for _, p := range stuck[:3] {
		f.reserve(p)
	}
	fits := f.addGang(queued("fits", 1, 1))
	admits(t, f, fits, false, quota.ReasonQuotaExceeded)

	acts := f.act(f.s.Apply(state.Decision{Pod: stuck[3].UID, Rejected: &state.Rejection{Unschedulable: "VolumeBinding: persistentvolumeclaim \"missing\" not found"}}).Actions)
	for _, p := range stuck[:3] {
		merge(&acts, f.unreserve(p, id))
	}
	if got := names(acts.Activate); !slices.Contains(got, head(t, f, fits).Name) {
		t.Errorf("the released quota woke %v, not fits", got)
	}
	admits(t, f, fits, true, "")
}

// A plan that raced with another admission fails to commit rather than
// over-admit.
func TestQuotaTakenMeanwhileFailsTheCommit(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 16, quota.BestEffortFIFO)
	f.addGang(queued("a", 2, 0))
	f.addGang(queued("b", 2, 1))
	ra := f.mustPlan(jsKey("a"))
	rb := f.mustPlan(jsKey("b"))
	if err := f.s.Apply(state.Decision{Reserve: ra, PermitTimeout: time.Minute}).Refused; err != nil {
		t.Fatal(err)
	}
	// b's plan was made before a's commit; move it off a's pools so only
	// the quota conflicts.
	for i, to := range map[int]string{0: "pool-5", 1: "pool-6"} {
		sr := rb.Slices[i]
		for j := range sr.Slots {
			sr.Slots[j].Node = strings.Replace(sr.Slots[j].Node, sr.Domain+"-", to+"-", 1)
		}
		sr.Domain = to
	}
	if err := f.s.Apply(state.Decision{Reserve: rb, PermitTimeout: time.Minute}).Refused; err == nil || !strings.Contains(err.Error(), "quota") {
		t.Fatalf("second commit: %v, want a quota error", err)
	}
}

// A plan made before the workload was found running (charged from its
// pods, as after a restart) is refused at commit rather than charged a
// second time.
func TestAdmittedMeanwhileFailsTheCommit(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 32, quota.BestEffortFIFO)
	pods := f.addGang(queued("a", 2, 0))
	r := f.mustPlan(jsKey("a"))
	for i, p := range pods {
		f.bind(p, fmt.Sprintf("pool-%d-node-%d", i/4+3, i%4))
	}
	if got := tpuCharged(f, "a"); got != 16 {
		t.Fatalf("workload found running charged %d, want 16", got)
	}
	if err := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err == nil || !strings.Contains(err.Error(), "admitted meanwhile") {
		t.Fatalf("commit of the stale plan: %v, want it refused as admitted meanwhile", err)
	}
	if got := tpuCharged(f, "a"); got != 16 {
		t.Errorf("after the refused commit charged %d, want 16", got)
	}
}

// StrictFIFO: a head that does not fit keeps smaller workloads behind it
// waiting; BestEffortFIFO lets them by.
func TestStrategies(t *testing.T) {
	for _, tc := range []struct {
		strategy quota.Strategy
		small    bool
	}{{quota.StrictFIFO, false}, {quota.BestEffortFIFO, true}} {
		t.Run(string(tc.strategy), func(t *testing.T) {
			f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, tc.strategy)
			f.addGang(queued("running", 2, 0))
			f.commit(jsKey("running"))
			big := f.addGang(queued("big", 2, 1))
			small := f.addGang(queued("small", 1, 2))
			admits(t, f, big, false, quota.ReasonQuotaExceeded)
			reason := ""
			if !tc.small {
				reason = quota.ReasonWaitingInQueue
			}
			admits(t, f, small, tc.small, reason)
		})
	}
}

// The quota check of the plan: a workload asking for more than the queue
// can ever admit fails without waiting for domains.
func TestPlanChargesTheQueue(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 16, quota.BestEffortFIFO)
	f.addGang(queued("huge", 3, 0))
	_, fail := f.plan(jsKey("huge"))
	if fail == nil || fail.Reason != quota.ReasonExceedsQuotaForever || !fail.Unresolvable {
		t.Fatalf("plan = %+v, want an unresolvable quota failure", fail)
	}
	f.addGang(queued("fits", 2, 1))
	r := f.mustPlan(jsKey("fits"))
	if r.Charge == nil || r.Charge.ClusterQueue != "cluster-queue" {
		t.Fatalf("reservation charge %+v", r.Charge)
	}
}

// A workload whose queue objects are missing waits with a reason, and is
// woken when they appear.
func TestMissingQueueObjects(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	pods := f.addGang(queued("a", 1, 0))
	admits(t, f, pods, false, quota.ReasonLocalQueueNotFound)
	f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "multislice-queue", ClusterQueue: "cluster-queue"})
	admits(t, f, pods, false, quota.ReasonClusterQueueNotFound)
	acts := withQueue(f, 8, quota.BestEffortFIFO).s.Feed().SetNamespace(unit.Namespace, nil)
	if !strings.Contains(strings.Join(names(acts.Activate), ","), head(t, f, pods).Name) {
		t.Errorf("a queue change did not activate the waiting head")
	}
	admits(t, f, pods, true, "")
}

// A workload found running (the scheduler restarted) is charged to the
// flavor of its nodes, so the quota it uses is not admitted twice.
func TestRunningWorkloadIsCharged(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 16, quota.BestEffortFIFO)
	js := queued("running", 2, 0)
	f.addRunning(js, "pool-1-node-0", "pool-1-node-1", "pool-2-node-0", "pool-2-node-1")
	if got := tpuCharged(f, "running"); got != 16 {
		t.Fatalf("running workload charged %d, want 16", got)
	}
	admits(t, f, f.addGang(queued("next", 1, 1)), false, quota.ReasonQuotaExceeded)
}

// Queue names are ignored while the queue API is not served (a cluster
// without our CRDs, perhaps running Kueue); while it is unknown, queued
// workloads wait.
func TestQueueAPIServedOrNot(t *testing.T) {
	f := newFixture(t, builders.V5ePools(2)...)
	f.s.Feed().SetAPI(state.QueueAPI, state.APIUnknown)
	pods := f.addGang(queued("a", 1, 0))
	admits(t, f, pods, false, quota.ReasonQueueAPIUnknown)
	acts := f.s.Feed().SetAPI(state.QueueAPI, state.APINotServed)
	if !strings.Contains(strings.Join(names(acts.Activate), ","), head(t, f, pods).Name) {
		t.Errorf("learning the API is not served did not activate the waiting head")
	}
	admits(t, f, pods, true, "")
	if r := f.mustPlan(jsKey("a")); r.Charge != nil {
		t.Errorf("charged %+v without a queue API", r.Charge)
	}
}

// The report behind queue and Workload statuses and the queue metrics.
func TestQueueReport(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, quota.BestEffortFIFO)
	f.addGang(queued("js3", 3, 0))
	f.commit(jsKey("js3"))
	p1 := f.addGang(queued("js1", 1, 1))
	admits(t, f, p1, false, quota.ReasonQuotaExceeded)
	f.addGang(unit.JobSet("unqueued").ReplicatedJob("slice", 1, 2).Obj())
	f.addGang(unit.JobSet("others").Annotation(wellknown.QueueNameLabel, "multislice-queue").
		Pod(func(p *builders.PodBuilder) { p.Scheduler("default-scheduler") }).ReplicatedJob("slice", 1, 2).Obj())

	rep := f.s.Reports().QueueReport()
	cq := rep.ClusterQueues["cluster-queue"]
	fr := quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}
	if cq == nil || !cq.Known || cq.Pending != 1 || cq.Admitted != 1 || cq.Usage[fr] != 24000 || len(cq.Borrowed) != 0 {
		t.Fatalf("ClusterQueue report %+v", cq)
	}
	lq := rep.LocalQueues[unit.Namespace+"/multislice-queue"]
	if lq == nil || lq.Pending != 1 || lq.Admitted != 1 || lq.Usage[fr] != 24000 || lq.ClusterQueue != "cluster-queue" {
		t.Fatalf("LocalQueue report %+v", lq)
	}
	if len(rep.Workloads) != 2 {
		t.Fatalf("reported %d workloads, want the 2 queued ones of this scheduler", len(rep.Workloads))
	}
	for _, w := range rep.Workloads {
		switch w.Key.Name {
		case "js3":
			if w.Charge == nil || len(w.Domains) != 3 || w.Problem != nil || w.ClusterQueue != "cluster-queue" {
				t.Errorf("js3: %+v", w)
			}
		case "js1":
			if w.Charge != nil || w.Problem == nil || w.Problem.Reason != quota.ReasonQuotaExceeded {
				t.Errorf("js1: %+v", w)
			}
		}
	}
}

// A plain pod naming a LocalQueue is a workload of its own: admitted
// through its queue, charged for its requests, released when it ends.
func TestQueuedPlainPodIsAWorkload(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(2)...), 8, quota.BestEffortFIFO)
	pod := func(name string) *corev1.Pod {
		return unit.Pod(name).TPU("4").Label(wellknown.QueueNameLabel, "multislice-queue").
			NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).Obj()
	}
	a, b, c := pod("a"), pod("b"), pod("c")
	f.addPods(a, b)
	key := func(p *corev1.Pod) workload.Key {
		return workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: p.Name}
	}
	for _, p := range []*corev1.Pod{a, b} {
		if v := f.admit(p); !v.Gang || v.Wait {
			t.Fatalf("Admit(%s) = %+v, want an admissible workload", p.Name, v)
		}
		f.commit(key(p))
	}
	f.addPods(c)
	if v := f.admit(c); !v.Wait || v.QueueReason != quota.ReasonQuotaExceeded {
		t.Fatalf("Admit(c) = %+v, want a wait for quota", v)
	}
	f.reserve(a)
	f.bind(a, f.placed[a.UID])
	acts := f.deletePod(a)
	if chargeOf(f.t, f.s, key(a)) != nil {
		t.Fatalf("a deleted pod is still charged")
	}
	if !slices.Contains(names(acts.Activate), "c") {
		t.Errorf("freeing a's quota did not activate c (activated %v)", names(acts.Activate))
	}
	if v := f.admit(c); v.Wait {
		t.Fatalf("Admit(c) = %+v after a ended", v)
	}
}

// The default LocalQueue manages workloads naming none, in the namespaces
// that have it; elsewhere they are not quota-managed.
func TestDefaultLocalQueue(t *testing.T) {
	clk := testingclock.NewFakeClock(builders.Epoch)
	f := newFixture(t, builders.V5ePools(2)...)
	f.s = state.New(state.Options{Clock: clk, DefaultLocalQueue: "multislice-queue"})
	f.s.AddScheduler(unit.Scheduler)
	for _, src := range []workload.Source{workload.SourceJobSet, workload.SourcePodGroup, state.QueueAPI} {
		f.s.Feed().SetAPI(src, state.APIServed)
	}
	f.addNodes(builders.V5ePools(2)...)
	pods := f.addGang(unit.JobSet("unnamed").ReplicatedJob("slice", 1, 2).Obj())
	if r := f.mustPlan(jsKey("unnamed")); r.Charge != nil {
		t.Fatalf("charged %+v in a namespace without the default LocalQueue", r.Charge)
	}
	withQueue(f, 0, quota.BestEffortFIFO)
	admits(t, f, pods, false, quota.ReasonExceedsQuotaForever)
}

// A workload whose pods ended gives its quota back at once, is not taken
// for a pending one while its owner has yet to report it finished, and is
// reported finished (though none of its pods remain) once it is.
func TestEndedWorkloadIsNeverPendingAgain(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(2)...), 8, quota.BestEffortFIFO)
	js := queued("done", 1, 0)
	pods := f.addGang(js)
	f.commit(jsKey("done"))
	for _, p := range pods {
		f.reserve(p)
	}
	if res := f.permit(pods[len(pods)-1]); !res.Allow {
		t.Fatalf("Permit = %+v", res)
	}
	for _, p := range pods {
		f.bind(p, f.placed[p.UID])
	}
	for _, p := range pods {
		f.deletePod(p) // succeeded pods arrive as deletions
	}
	if tpuCharged(f, "done") != 0 {
		t.Fatalf("quota kept after the pods ended")
	}
	rep := f.s.Reports().QueueReport()
	if cq := rep.ClusterQueues["cluster-queue"]; cq.Pending != 0 || cq.Admitted != 0 {
		t.Errorf("ClusterQueue report %+v, want neither pending nor admitted", cq)
	}
	if len(rep.Workloads) != 1 || !rep.Workloads[0].Ended || rep.Workloads[0].Problem != nil {
		t.Fatalf("workloads %+v, want done, ended", rep.Workloads)
	}
	completed := js.DeepCopy()
	completed.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	f.addJobSet(completed)
	rep = f.s.Reports().QueueReport()
	if len(rep.Workloads) != 1 || !rep.Workloads[0].Model.Finished || rep.Workloads[0].Ended {
		t.Fatalf("workloads %+v, want done, finished", rep.Workloads)
	}
}

// A queued plain pod is admitted on quota alone, kept by NodeAllowed on the
// nodes of the flavor it is charged to, and gives its quota back at once
// when no node fits it.
func TestPlainPodAdmittedAlone(t *testing.T) {
	gpu := builders.NodePool("gpu").Nodes(1).GPU("nvidia-h100-80gb", 8).Build()
	v5e := builders.V5ePools(1)
	f := withQueue(newFixture(t, append(v5e, gpu...)...), 8, quota.BestEffortFIFO)
	pod := unit.Pod("p").TPU("4").Label(wellknown.QueueNameLabel, "multislice-queue").Obj()
	f.addPods(pod)
	key := workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: "p"}
	names, fail, _ := admission.AdmitAlone(f.s, pod, time.Minute)
	if fail != nil {
		t.Fatalf("AdmitAlone: %v", fail)
	}
	wantNames := []string{v5e[0].Name, v5e[1].Name}
	if !slices.Equal(names, wantNames) {
		t.Errorf("AdmitAlone's flavor nodes = %v, want %v", names, wantNames)
	}
	if c := chargeOf(f.t, f.s, key); c == nil {
		t.Fatalf("not charged")
	}
	if ok, _ := nodeAllowed(f.s, pod, "pool-1-node-0", f.free("pool-1-node-0")); !ok {
		t.Errorf("Check refused a node of the pod's flavor")
	}
	if ok, why := nodeAllowed(f.s, pod, gpu[0].Name, f.free(gpu[0].Name)); ok || !strings.Contains(why, "flavor") {
		t.Errorf("Check on a node of no charged flavor = %v, %q", ok, why)
	}
	// Again: idempotent while the reservation lives.
	again, fail, _ := admission.AdmitAlone(f.s, pod, time.Minute)
	if fail != nil {
		t.Fatalf("second AdmitAlone: %v", fail)
	}
	if !slices.Equal(again, wantNames) {
		t.Errorf("second AdmitAlone's flavor nodes = %v, want %v", again, wantNames)
	}
	// A node that joins the flavor is a candidate from then on.
	joined := builders.V5ePools(2)[2]
	f.s.Feed().UpsertNode(joined)
	if got, _, _ := admission.AdmitAlone(f.s, pod, time.Minute); !slices.Equal(got, append(wantNames, joined.Name)) {
		t.Errorf("AdmitAlone's flavor nodes after %s joined = %v", joined.Name, got)
	}
	f.s.Apply(state.Decision{Pod: pod.UID, Rejected: &state.Rejection{Alone: "no node fits the pod"}})
	if chargeOf(f.t, f.s, key) != nil {
		t.Errorf("quota kept after no node fitted")
	}
}

// A queued plain pod that no node of a flavor could hold, even empty, is
// not charged to that flavor: to another flavor that can hold it, or, when
// none can, to nothing, and it is unplaceable until the nodes change.
func TestPlainPodChargedOnlyWhereANodeCanHoldIt(t *testing.T) {
	big := builders.NodePool("big").Nodes(1).TPU(builders.V5e, "2x4", 8).Label("size", "big").Build()
	bigFlavor := &quota.Flavor{Name: "big", NodeLabels: map[string]string{"size": "big"}}
	cases := map[string]struct {
		// withBig adds flavor big, after vlp-24.
		withBig  bool
		chips    string
		want     string // flavor charged
		wantFail string
	}{
		"a node of the first flavor holds it":       {chips: "4", want: v5eFlavor},
		"only the second flavor's node holds it":    {chips: "8", withBig: true, want: "big"},
		"no node of any flavor holds it":            {chips: "16", withBig: true, wantFail: "more than any node of flavor vlp-24 (4 node(s)), big (1 node(s)) has allocatable"},
		"the only flavor's nodes are all too small": {chips: "8", wantFail: "more than any node of flavor vlp-24 (4 node(s)) has allocatable"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, append(builders.V5ePools(2), big...)...)
			f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4", "size": ""}})
			flavors := []string{v5eFlavor}
			quotas := map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: 64000}}
			if tc.withBig {
				f.s.Feed().SetFlavor(bigFlavor)
				flavors = append(flavors, "big")
				quotas[quota.FlavorResource{Flavor: "big", Resource: wellknown.ResourceTPU}] = quota.Limit{Nominal: 64000}
			}
			f.s.Feed().SetClusterQueue(&quota.ClusterQueue{Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
				Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: flavors}}, Quotas: quotas})
			f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "multislice-queue", ClusterQueue: "cluster-queue"})
			pod := unit.Pod("p").TPU(tc.chips).Label(wellknown.QueueNameLabel, "multislice-queue").Obj()
			f.addPods(pod)
			key := workload.Key{Source: workload.SourcePod, Namespace: unit.Namespace, Name: "p"}

			_, fail, _ := admission.AdmitAlone(f.s, pod, time.Minute)
			if tc.wantFail != "" {
				if fail == nil || fail.Reason != state.ReasonUnplaceable || !fail.Unresolvable || !strings.Contains(fail.Message, tc.wantFail) {
					t.Fatalf("AdmitAlone failure = %+v, want an unresolvable %s saying %q", fail, state.ReasonUnplaceable, tc.wantFail)
				}
				if c := chargeOf(f.t, f.s, key); c != nil {
					t.Errorf("charged %v though no node can hold the pod", c)
				}
				return
			}
			if fail != nil {
				t.Fatalf("AdmitAlone: %v", fail)
			}
			c := chargeOf(f.t, f.s, key)
			if c == nil || c.Flavors[0][wellknown.ResourceTPU] != tc.want {
				t.Errorf("charge = %+v, want flavor %s", c, tc.want)
			}
		})
	}
}

// A queued plain pod is let through Permit at once, with no placement to
// announce: the scheduler's Scheduled event on the pod says where it went.
// A gang's Permit describes its placement.
func TestPermitOfAQueuedPlainPod(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(2)...), 16, quota.BestEffortFIFO)
	pod := unit.Pod("p").TPU("4").Label(wellknown.QueueNameLabel, "multislice-queue").Obj()
	f.addPods(pod)
	if _, fail, _ := admission.AdmitAlone(f.s, pod, time.Minute); fail != nil {
		t.Fatalf("AdmitAlone: %v", fail)
	}
	f.s.Reserve(pod, "pool-1-node-0")
	if res := f.permit(pod); !res.Allow || res.Committed != "" {
		t.Errorf("Permit = %+v, want allowed with no placement to announce", res)
	}

	gang := f.addGang(queued("js", 1, 1))
	f.commit(jsKey("js"))
	for _, p := range gang {
		f.reserve(p)
	}
	if res := f.permit(gang[0]); !res.Allow || !strings.Contains(res.Committed, "slice 0") {
		t.Errorf("the gang's Permit = %+v, want allowed with its placement", res)
	}
}

// Admitting a workload lets go what waited behind it for order alone: the
// next head of a StrictFIFO queue is woken by the admission, with no quota
// released.
func TestAdmissionWakesWhatWaitedBehindIt(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(6)...), 24, quota.StrictFIFO)
	first, second := f.addGang(queued("first", 1, 0)), f.addGang(queued("second", 1, 1))
	admits(t, f, first, true, "")
	admits(t, f, second, false, quota.ReasonWaitingInQueue)
	_, _, acts := f.commit(jsKey("first"))
	if h := head(t, f, second); !slices.Contains(names(acts.Activate), h.Name) {
		t.Fatalf("admitting first activated %v, not %s", names(acts.Activate), h.Name)
	}
	admits(t, f, second, true, "")
}

// withCohort is the fixture with ClusterQueues a and b (8 chips each) and
// lender (16 chips) in one cohort over flavor vlp-24, and a LocalQueue
// named after each in the tests' namespace.
func withCohort(f *fixture) *fixture {
	f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
		wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}})
	for name, chips := range map[string]int64{"a": 8, "b": 8, "lender": 16} {
		f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
			Name: name, Cohort: "cohort", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
			Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
			Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}},
		})
		f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: name, ClusterQueue: name})
	}
	return f
}

// inQueue is a one-slice JobSet (8 chips) of LocalQueue q created minute m.
func inQueue(name, q string, m int) *jobsetv1alpha2.JobSet {
	return unit.JobSet(name).Created(builders.Epoch.Add(time.Duration(m)*time.Minute)).
		Annotation(wellknown.QueueNameLabel, q).ReplicatedJob("slice", 1, 2).Obj()
}

// Released quota goes to the borrower whose queue's share stays lowest,
// whichever queue comes first by name: waking the other one would have the
// gate hold it back (yielding) while the fairer one, not woken, left the
// quota unused.
func TestReleaseWakesTheFairerBorrower(t *testing.T) {
	f := withCohort(newFixture(t, builders.V5ePools(6)...))
	// a uses 16 (borrows 8), b 8, lender 8 of its 16: the cohort is full.
	for _, js := range []*jobsetv1alpha2.JobSet{inQueue("a1", "a", 0), inQueue("a2", "a", 0), inQueue("b1", "b", 0), inQueue("l1", "lender", 0)} {
		f.addGang(js)
		f.commit(jsKey(js.Name))
	}
	fromA, fromB := f.addGang(inQueue("from-a", "a", 1)), f.addGang(inQueue("from-b", "b", 2))
	admits(t, f, fromA, false, quota.ReasonQuotaExceeded)
	admits(t, f, fromB, false, quota.ReasonQuotaExceeded)

	done := inQueue("l1", "lender", 0)
	done.Status.Conditions = []metav1.Condition{{Type: string(jobsetv1alpha2.JobSetCompleted), Status: metav1.ConditionTrue}}
	woken := names(f.addJobSet(done).Activate)
	if hb, ha := head(t, f, fromB), head(t, f, fromA); !slices.Contains(woken, hb.Name) || slices.Contains(woken, ha.Name) {
		t.Fatalf("8 chips freed woke %v; want from-b's head %s (b would borrow 8) and not from-a's %s (a would borrow 16)", woken, hb.Name, ha.Name)
	}
	admits(t, f, fromB, true, "")

	// Should from-a reach the gate anyway, it yields, and wakes from-b.
	v := f.admit(head(t, f, fromA))
	if v.QueueReason != quota.ReasonYieldingToFairShare || len(v.Wake) != 1 || v.Wake[0].Name != head(t, f, fromB).Name {
		t.Fatalf("Admit(from-a) = %+v, want a yield that wakes from-b's head", v)
	}
}

// AwaitingAdmission says which started workloads still wait to be
// admitted, as the unsuspender's start window counts them: unknown yet,
// seen suspended (the State lagging behind the start), waiting with its
// pods — but not once charged, and not once its pods ran.
func TestAwaitingAdmission(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(2)...), 8, quota.BestEffortFIFO)
	suspended := queued("suspended", 1, 0)
	suspended.Spec.Suspend = ptr.To(true)
	f.addJobSet(suspended)
	waiting := queued("waiting", 1, 1)
	f.addGang(waiting)
	done := queued("done", 1, 2)
	pods := f.addGang(done)
	keys := []workload.Key{jsKey("unknown"), jsKey("suspended"), jsKey("waiting"), jsKey("done")}
	if got, want := f.s.Reports().AwaitingAdmission(keys), []bool{true, true, true, true}; !slices.Equal(got, want) {
		t.Fatalf("before any admission: %v, want %v", got, want)
	}
	f.commit(jsKey("done"))
	if got, want := f.s.Reports().AwaitingAdmission(keys), []bool{true, true, true, false}; !slices.Equal(got, want) {
		t.Fatalf("done charged: %v, want %v", got, want)
	}
	for _, p := range pods {
		f.reserve(p)
	}
	for _, p := range pods {
		f.bind(p, f.placed[p.UID])
	}
	for _, p := range pods {
		f.deletePod(p)
	}
	if got, want := f.s.Reports().AwaitingAdmission(keys), []bool{true, true, true, false}; !slices.Equal(got, want) {
		t.Fatalf("done ran, its quota back: %v, want %v", got, want)
	}
}
