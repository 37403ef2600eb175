package state_test

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const checkName = "dws-prov"

// withCheck is withQueue whose ClusterQueue lists a provisioning check
// retried once after 1 minute.
func withCheck(f *fixture, chips int64) *fixture {
	withQueue(f, chips, quota.BestEffortFIFO)
	f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
		Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000, AdmissionChecks: []string{checkName},
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: chips * 1000}},
	})
	f.s.Feed().SetAdmissionCheck(checkName, &provisioning.Check{Name: checkName, Class: wellknown.QueuedProvisioningClass,
		Parameters: map[string]string{wellknown.MaxRunDurationSecondsParameter: "3600"},
		Retry:      provisioning.Retry{Limit: 1, Base: time.Minute, Max: time.Hour}})
	return f
}

// zonedPools are two v5e 2x4 pools in one zone: provisioned capacity is
// placed in one zone.
func zonedPools() []*corev1.Node {
	var out []*corev1.Node
	for _, name := range []string{"pool-0", "pool-1"} {
		out = append(out, builders.V5ePool(name).Zone("us-west4-a").Build()...)
	}
	return out
}

// reserveForCheck runs the head through the gate: it reserves quota
// alone and waits, gated, for its capacity.
func reserveForCheck(t *testing.T, f *fixture, h *corev1.Pod) string {
	t.Helper()
	out := admission.PreEnqueue(f.s, h, 0)
	if out.Pass || !out.ProvisioningReserved || out.Event.Reason != "QuotaReserved" {
		t.Fatalf("PreEnqueue(head) = %+v, want quota reserved", out)
	}
	return out.Message
}

func TestProvisioningCheckReservesQuotaThenPlacesOnProvisioned(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	pods := f.addGang(queued("js", 2, 0))
	h := head(t, f, pods)
	admits(t, f, pods, true, "")
	if msg := reserveForCheck(t, f, h); !strings.Contains(msg, "jobset-js-dws-prov-1") {
		t.Errorf("message %q does not name the request", msg)
	}
	if tpuCharged(f, "js") != 16 {
		t.Fatalf("charged %d chips, want 16 held for the provisioning", tpuCharged(f, "js"))
	}
	if _, ok := f.reservationOf(jsKey("js"), h); ok {
		t.Fatal("a quota-only reservation placed nodes")
	}
	if cq := f.s.Reports().QueueReport().ClusterQueues["cluster-queue"]; cq.Reserving != 1 || cq.Admitted != 0 {
		t.Errorf("while provisioning, the ClusterQueue reports %d reserving, %d admitted; want 1, 0", cq.Reserving, cq.Admitted)
	}
	// Pods wait, gated, while the request is not provisioned.
	// Its QuotaReserved event told that: holding them records no event.
	if v := f.admit(h); !v.Wait || v.QueueReason != "WaitingForProvisioning" || !v.QueueReasonTold {
		t.Fatalf("Admit while provisioning = %+v, want WaitingForProvisioning, told", v)
	}
	tasks := f.s.Upkeep().ProvisioningTasks()
	if len(tasks) != 1 || tasks[0].Request != "jobset-js-dws-prov-1" || tasks[0].Attempt != 1 || len(tasks[0].Slices) != 2 {
		t.Fatalf("tasks = %+v", tasks)
	}
	// The status writer creates the Workload object that will own the
	// request from this report, the one QueueReport gives it.
	waiting := f.s.Reports().CheckWaitingReports()
	if len(waiting) != 1 || waiting[0].Key != jsKey("js") || waiting[0].Check == nil || waiting[0].Check.State != "Pending" || waiting[0].Charge == nil {
		t.Fatalf("CheckWaitingReports = %+v, want js's, pending, with its charge", waiting)
	}
	for _, r := range f.s.Reports().QueueReport().Workloads {
		if r.Key == jsKey("js") && (r.ClusterQueue != waiting[0].ClusterQueue || r.Queue != waiting[0].Queue || r.Ref != waiting[0].Ref) {
			t.Errorf("CheckWaitingReports says %+v, QueueReport %+v", waiting[0], r)
		}
	}
	// Each new reason for the wait activates the head, whose pods the
	// gate then holds again with it; the same reason does not.
	if acts := f.s.Upkeep().ProvisioningCreated(jsKey("js"), 1); len(acts.Activate) != 1 {
		t.Fatalf("request created: activates %v, want the head", acts.Activate)
	}
	if acts := f.s.Upkeep().ProvisioningCreated(jsKey("js"), 1); len(acts.Activate) != 0 {
		t.Fatalf("request created twice: activates %v", acts.Activate)
	}
	// The ProvisioningRequested event tells of the request, and a request
	// no provisioner accepted yet says nothing more.
	if v := admission.Admit(f.s, h); !v.Wait || !strings.Contains(v.Message, "request created") || !v.QueueReasonTold {
		t.Fatalf("after the request is created, the head's wait = %+v, want it told", v)
	}
	notAccepted := state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Pending, Message: provisioning.NotAccepted}
	if acts, _ := f.s.Upkeep().ObserveProvisioning(notAccepted); len(acts.Activate) != 1 {
		t.Fatalf("not accepted yet: activates %v, want the head", acts.Activate)
	}
	if v := admission.Admit(f.s, h); !v.Wait || !strings.Contains(v.Message, provisioning.NotAccepted) || !v.QueueReasonTold {
		t.Fatalf("while no provisioner accepted the request, the head's wait = %+v, want it told", v)
	}
	if out := admission.PreEnqueue(f.s, h, time.Minute); out.Pass || out.Event.Reason != "" || out.Hold.Reason != state.ReasonWaitingForProvisioning {
		t.Fatalf("PreEnqueue = %+v, want the head held for its request, with no event", out)
	}
	if len(f.s.Upkeep().ProvisioningTasks()) != 0 {
		t.Fatal("a created request is a task again")
	}
	accepted := state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Pending, Message: "accepted by the provisioner"}
	if acts, _ := f.s.Upkeep().ObserveProvisioning(accepted); len(acts.Activate) != 1 {
		t.Fatalf("accepted: activates %v, want the head", acts.Activate)
	}
	if acts, _ := f.s.Upkeep().ObserveProvisioning(accepted); len(acts.Activate) != 0 {
		t.Fatalf("accepted again: activates %v", acts.Activate)
	}
	// The provisioner's word is new: the gate records it as an event.
	if v := admission.Admit(f.s, h); !v.Wait || !strings.Contains(v.Message, "accepted by the provisioner") || v.QueueReasonTold {
		t.Fatalf("the head's wait = %+v, want the request's latest word, not told yet", v)
	}
	if out := admission.PreEnqueue(f.s, h, time.Minute); out.Pass || out.Event.Reason != state.ReasonWaitingForProvisioning || out.Hold != out.Event {
		t.Fatalf("PreEnqueue = %+v, want the head held for its request, with the provisioner's word as an event", out)
	} else if out.QueueRejection != state.ReasonWaitingForProvisioning {
		// Its ClusterQueue's admission check keeps it waiting: that counts.
		t.Errorf("PreEnqueue counts queue rejection %q, want %s", out.QueueRejection, state.ReasonWaitingForProvisioning)
	}
	// Nothing settles the quota away while the capacity is provisioned.
	f.clock.Step(5 * time.Minute)
	f.s.Upkeep().Expire()
	if tpuCharged(f, "js") != 16 {
		t.Fatal("the held quota was released while provisioning")
	}
	acts, evict := f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Provisioned})
	if len(evict) != 0 || len(acts.Activate) == 0 {
		t.Fatalf("Provisioned: acts %+v, evict %v", acts, evict)
	}
	if waiting := f.s.Reports().CheckWaitingReports(); len(waiting) != 0 {
		t.Errorf("once provisioned, CheckWaitingReports = %+v, want none", waiting)
	}
	admits(t, f, pods, true, "")
	if cq := f.s.Reports().QueueReport().ClusterQueues["cluster-queue"]; cq.Reserving != 1 || cq.Admitted != 1 {
		t.Errorf("once provisioned, the ClusterQueue reports %d reserving, %d admitted; want 1, 1", cq.Reserving, cq.Admitted)
	}
	if k := f.snapshot(jsKey("js")).AtomicKey; k != wellknown.ZoneLabel {
		t.Errorf("a provisioned workload plans with atomic key %q, want the zone", k)
	}

	if out := admission.PreEnqueue(f.s, h, 0); !out.Pass || out.ProvisioningReserved {
		t.Fatalf("a provisioned workload reserved quota again: %+v", out)
	}
	f.commit(jsKey("js"))
	if tpuCharged(f, "js") != 16 {
		t.Fatalf("placing charged %d chips, want the 16 held", tpuCharged(f, "js"))
	}
	placeAll(f, pods)
	if got := f.obs.admissions(); len(got) != 1 || got[0] != "cluster-queue" {
		t.Errorf("admissions measured %v, want one in cluster-queue", got)
	}
}

func TestProvisioningFailureRetriesThenRejects(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	pods := f.addGang(queued("js", 1, 0))
	h := head(t, f, pods)
	reserveForCheck(t, f, h)
	f.s.Upkeep().ProvisioningCreated(jsKey("js"), 1)
	acts, _ := f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Failed, Message: "no capacity"})
	if tpuCharged(f, "js") != 0 {
		t.Fatal("a failed request kept its quota")
	}
	if len(acts.Events) != 1 || acts.Events[0].Reason != "ProvisioningRetry" {
		t.Fatalf("events %+v", acts.Events)
	}
	if v := f.admit(h); !v.Wait || v.QueueReason != "WaitingForRetry" {
		t.Fatalf("Admit in backoff = %+v", v)
	}
	f.clock.Step(time.Minute)
	if acts := f.s.Upkeep().Expire(); len(acts.Activate) == 0 {
		t.Fatal("the end of the backoff activated nothing")
	}
	admits(t, f, pods, true, "")
	if msg := reserveForCheck(t, f, h); !strings.Contains(msg, "jobset-js-dws-prov-2") {
		t.Fatalf("retry %q is not attempt 2", msg)
	}
	// A stale update of attempt 1 changes nothing.
	f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Provisioned})
	if v := f.admit(h); !v.Wait {
		t.Fatal("attempt 1's update let attempt 2 through")
	}
	f.s.Upkeep().ProvisioningCreated(jsKey("js"), 2)
	acts, _ = f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 2, Outcome: provisioning.BookingExpired, Message: "not used in time"})
	if len(acts.Events) != 1 || acts.Events[0].Reason != "ProvisioningRejected" {
		t.Fatalf("events %+v", acts.Events)
	}
	f.clock.Step(time.Hour)
	f.s.Upkeep().Expire()
	if v := f.admit(h); !v.Wait || v.QueueReason != "ProvisioningRejected" || !strings.Contains(v.Message, "no retries left") {
		t.Fatalf("Admit once rejected = %+v", v)
	}
}

func TestCapacityRevokedEvictsWholeAndRequeues(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	js := queued("js", 1, 0)
	pods := provisioned(t, f, js)
	f.commit(jsKey("js"))
	placeAll(f, pods)
	// BookingExpired once placed is the autoscaler's normal bookkeeping.
	if acts, evict := f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.BookingExpired}); len(evict) != 0 || !acts.Empty() {
		t.Fatalf("BookingExpired after placement acted: %+v %v", acts, evict)
	}
	acts, evict := f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.CapacityRevoked, Message: "VMs reclaimed"})
	if len(evict) != len(pods) || len(acts.Events) != 1 || acts.Events[0].Reason != "CapacityRevoked" {
		t.Fatalf("CapacityRevoked: evict %v, events %+v", evict, acts.Events)
	}
}

func TestMissingCheckKeepsTheWorkloadWaiting(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	f.s.Feed().SetAdmissionCheck(checkName, nil)
	pods := f.addGang(queued("js", 1, 0))
	v := f.admit(head(t, f, pods))
	if !v.Wait || v.QueueReason != "AdmissionCheckNotReady" || !strings.Contains(v.Message, "AdmissionCheck dws-prov") {
		t.Fatalf("Admit = %+v", v)
	}
	rep := f.s.Reports().QueueReport()
	if len(rep.Workloads) != 1 || rep.Workloads[0].Problem == nil || rep.Workloads[0].Problem.Reason != "AdmissionCheckNotReady" {
		t.Fatalf("the Workload does not say why it waits: %+v", rep.Workloads)
	}
	f.s.Feed().SetAdmissionCheck(checkName, &provisioning.Check{Name: checkName, Problem: "ProvisioningRequestConfig dws-config, named by AdmissionCheck dws-prov, not found"})
	if v := f.admit(head(t, f, pods)); !v.Wait || !strings.Contains(v.Message, "dws-config") {
		t.Fatalf("Admit = %+v", v)
	}
}

func TestMaximumRunDurationEndsTheWorkload(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	js := queued("js", 1, 0)
	pods := provisioned(t, f, js)
	f.commit(jsKey("js"))
	placeAll(f, pods)
	f.clock.Step(59 * time.Minute)
	if acts := f.s.Upkeep().Expire(); len(acts.Expired) != 0 {
		t.Fatalf("expired early: %+v", acts.Expired)
	}
	f.clock.Step(time.Minute)
	acts := f.s.Upkeep().Expire()
	if len(acts.Expired) != 1 || acts.Expired[0].Limit != time.Hour || len(acts.Expired[0].Pods) != len(pods) {
		t.Fatalf("Expired = %+v", acts.Expired)
	}
	if f.s.RunExpiredAt(jsKey("js")).IsZero() {
		t.Error("the expiry was not recorded")
	}
	if acts := f.s.Upkeep().Expire(); len(acts.Expired) != 0 {
		t.Fatal("expired twice")
	}
}

// provisioned feeds js, reserves its quota for the check, and reports its
// first request created and provisioned; it returns js's pods.
func provisioned(t *testing.T, f *fixture, js *jobsetv1alpha2.JobSet) []*corev1.Pod {
	t.Helper()
	pods := f.addGang(js)
	reserveForCheck(t, f, head(t, f, pods))
	f.s.Upkeep().ProvisioningCreated(jsKey(js.Name), 1)
	f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey(js.Name), Attempt: 1, Outcome: provisioning.Provisioned})
	return pods
}

// placeAll runs Reserve and Permit for every pod of a committed gang, and
// binds them.
func placeAll(f *fixture, pods []*corev1.Pod) {
	for _, p := range pods {
		f.reserve(p)
	}
	for _, p := range pods {
		f.permit(p)
	}
	for _, p := range pods {
		f.bind(p, f.placed[p.UID])
	}
}

// A ClusterQueue's maxRunDurationSeconds bounds its workloads that say
// nothing themselves; a workload's own annotation wins.
func TestClusterQueueMaximumRunDuration(t *testing.T) {
	for name, tc := range map[string]struct {
		annotation string
		want       time.Duration
	}{
		"queue default":  {want: 30 * time.Minute},
		"own annotation": {annotation: "600", want: 10 * time.Minute},
	} {
		t.Run(name, func(t *testing.T) {
			f := withQueue(newFixture(t, builders.V5ePools(2)...), 24, quota.BestEffortFIFO)
			f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
				Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000, MaxRunDuration: 30 * time.Minute,
				Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
				Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: 24000}},
			})
			js := queued("js", 1, 0)
			if tc.annotation != "" {
				js.Annotations[wellknown.ProvReqAnnotationPrefix+wellknown.MaxRunDurationSecondsParameter] = tc.annotation
			}
			pods := f.addGang(js)
			f.commit(jsKey("js"))
			placeAll(f, pods)
			f.clock.Step(tc.want - time.Second)
			if acts := f.s.Upkeep().Expire(); len(acts.Expired) != 0 {
				t.Fatalf("expired before %s", tc.want)
			}
			f.clock.Step(time.Second)
			if acts := f.s.Upkeep().Expire(); len(acts.Expired) != 1 || acts.Expired[0].Limit != tc.want {
				t.Fatalf("Expired = %+v, want one with limit %s", acts.Expired, tc.want)
			}
		})
	}
}

// With podSetUpdates, the request's details name the provisioned capacity:
// the workload is placed there and nowhere else.
func TestProvisionedNodeSelector(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	pods := f.addGang(queued("js", 1, 0))
	reserveForCheck(t, f, head(t, f, pods))
	f.s.Upkeep().ProvisioningCreated(jsKey("js"), 1)
	f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.Provisioned,
		NodeSelector: provisioning.Selector{wellknown.NodePoolLabel: {"pool-1"}}})
	if got := domains(f.mustPlan(jsKey("js"))); got[0] != "pool-1" {
		t.Fatalf("placed on %v, want the provisioned pool-1 (pool-0 is free too)", got)
	}
}

// The provisioner reclaims the nodes at the end of the maximum run, a
// moment before the workload's own deadline: that ends the workload (its
// owner suspended), with no new request for it, until its owner is seen
// suspended.
func TestRevocationAtTheEndOfTheRunEndsTheWorkload(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	js := queued("js", 1, 0)
	pods := provisioned(t, f, js)
	f.clock.Step(time.Second)
	f.commit(jsKey("js"))
	placeAll(f, pods)
	f.clock.Step(59*time.Minute + 59*time.Second) // an hour after provisioning, a second before the deadline
	acts, evict := f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 1, Outcome: provisioning.CapacityRevoked, Message: "maxRunDurationSeconds passed"})
	if len(evict) != 0 || len(acts.Expired) != 1 || acts.Expired[0].Limit != time.Hour {
		t.Fatalf("revocation at the end of the run: evict %v, expired %+v", evict, acts.Expired)
	}
	// Its pods go; a replacement must not provision anew.
	for _, p := range pods {
		f.deletePod(p)
	}
	again := builders.Members(js)
	f.addPods(again...)
	if out := admission.PreEnqueue(f.s, head(t, f, again), 0); out.Pass || out.ProvisioningReserved || out.Hold.Reason != "MaximumRunDurationExceeded" {
		t.Fatalf("a workload ended at its maximum run reserved quota again: %+v", out)
	}
	if len(f.s.Upkeep().ProvisioningTasks()) != 0 {
		t.Fatal("a new request is to be made for an ended workload")
	}
	// Once its owner is seen suspended, a user may start it again.
	suspended := js.DeepCopy()
	suspended.Spec.Suspend = ptr.To(true)
	f.addJobSet(suspended)
	f.addJobSet(js)
	if v := f.admit(head(t, f, again)); v.QueueReason == "MaximumRunDurationExceeded" {
		t.Fatalf("restarted by its user, it is still held: %+v", v)
	}
}

// Apply refuses quota for a provisioning check decided on a copy the
// state moved away from: another decision reserved it first, or another
// attempt of the check started.
func TestApplyRefusesACheckReservationThatMoved(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	pods := f.addGang(queued("js", 2, 0))
	h := head(t, f, pods)
	c := f.s.Gate(h, state.GateAsks{BehindHead: true})
	r := c.CheckQuota
	if r == nil || r.Quota == nil || r.Attempt != 1 {
		t.Fatalf("Gate(head).CheckQuota = %+v, want the quota to reserve for attempt 1", r)
	}
	charge, problem := r.Quota.View.Assign(r.Quota.ClusterQueue, r.Quota.Needs, nil)
	if problem != nil {
		t.Fatal(problem)
	}
	stale := state.Decision{Key: r.Key, CheckQuota: &state.CheckReservation{Check: r.Check, Attempt: r.Attempt + 1, Charge: charge}}
	if a := f.s.Apply(stale); a.Refused == nil || !strings.Contains(a.Refused.Error(), "moved on meanwhile") {
		t.Fatalf("Apply(a reservation for another attempt) refused %v, want it refused", a.Refused)
	}
	d := state.Decision{Key: r.Key, CheckQuota: &state.CheckReservation{Check: r.Check, Attempt: r.Attempt, Charge: charge}}
	if a := f.s.Apply(d); a.Refused != nil {
		t.Fatalf("Apply(the reservation decided) refused: %v", a.Refused)
	}
	if tpuCharged(f, "js") != 16 {
		t.Fatalf("charged %d chips, want 16 held for the provisioning", tpuCharged(f, "js"))
	}
	if a := f.s.Apply(d); a.Refused == nil || !strings.Contains(a.Refused.Error(), "admitted meanwhile") {
		t.Fatalf("Apply(the same reservation again) refused %v, want it refused", a.Refused)
	}
	if tpuCharged(f, "js") != 16 {
		t.Fatalf("charged %d chips after a refusal, want 16", tpuCharged(f, "js"))
	}
}
