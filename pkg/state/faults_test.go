package state_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The failures of a scheduler that treated its memory as the truth, each
// reduced to the state transitions that caused it: quota usage must follow
// what the API shows (pods on nodes), whatever order events come in.

// A gang whose member never reached Reserve (an in-tree PreFilter rejected
// it) times out in Permit; its reserved siblings are rejected and
// unreserved afterwards. Nothing of it is on a node then, so nothing of it
// may stay charged.
func TestTimedOutGangGivesItsQuotaBack(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	pods := f.addGang(queued("stuck", 2, 0))
	id, _, _ := f.commit(jsKey("stuck"))
	for _, p := range pods[:3] {
		f.reserve(p)
	}
	if got := tpuCharged(f, "stuck"); got != 16 {
		t.Fatalf("charged %d while reserved, want 16", got)
	}
	f.clock.Step(2 * time.Minute)
	acts := f.s.Upkeep().Expire()
	if len(acts.Reject) != 3 {
		t.Fatalf("expiry rejected %d waiting members, want 3", len(acts.Reject))
	}
	// The framework rejects them now: each is unreserved.
	for _, p := range pods[:3] {
		f.unreserve(p, id)
	}
	if got := tpuCharged(f, "stuck"); got != 0 {
		t.Errorf("a gang with nothing on a node is still charged %d chips", got)
	}
	admits(t, f, f.addGang(queued("next", 2, 1)), true, "")
}

// Deleting a JobSet (as kubectl does, owner first) leaves its pods running
// through their grace period: its quota is used until they are gone.
func TestQuotaFollowsPodsUntilTheyAreGone(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	js := queued("running", 1, 0)
	pods := f.addRunning(js, "pool-1-node-0", "pool-1-node-1")
	if got := tpuCharged(f, "running"); got != 8 {
		t.Fatalf("running workload charged %d, want 8", got)
	}
	next := f.addGang(queued("next", 1, 1))

	// The JobSet is being deleted, then gone; its pods terminate.
	deleting := js.DeepCopy()
	deleting.DeletionTimestamp = &metav1.Time{Time: f.clock.Now()}
	f.addJobSet(deleting)
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("owner being deleted: charged %d, want 8 while its pods run", got)
	}
	f.s.Feed().DeleteSource(jsKey("running"))
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("owner gone: charged %d, want 8 while its pods run", got)
	}
	for _, p := range pods {
		f.addPods(terminating(p, f.clock.Now()))
	}
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("pods terminating: charged %d, want 8 until they are gone", got)
	}
	admits(t, f, next, false, quota.ReasonQuotaExceeded)
	var acts state.Actions
	for _, p := range pods {
		merge(&acts, f.deletePod(p))
	}
	if got := tpuCharged(f, "running"); got != 0 {
		t.Errorf("pods gone: still charged %d", got)
	}
	admits(t, f, next, true, "")
}

// A scheduler (re)started while a flavor of the queue is missing cannot
// tell which flavor a running workload uses; once the flavor is back, the
// running workload is charged before anything else is admitted.
func TestRunningWorkloadChargedOnceItsFlavorIsBack(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	f.s.Feed().DeleteFlavor(v5eFlavor)
	f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	next := f.addGang(queued("next", 1, 1))
	admits(t, f, next, false, quota.ReasonFlavorNotFound)

	f.act(f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
		wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}}))
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("running workload charged %d once its flavor is back, want 8", got)
	}
	admits(t, f, next, false, quota.ReasonQuotaExceeded)
}

// Workloads that ran as plain gangs while the queue API was not served
// are charged once it is, before anything is admitted.
func TestRunningWorkloadChargedWhenTheQueueAPIArrives(t *testing.T) {
	f := newFixture(t, builders.V5ePools(4)...)
	f.s.Feed().SetAPI(state.QueueAPI, state.APINotServed)
	f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	next := f.addGang(queued("next", 1, 1))

	f.act(f.s.Feed().SetAPI(state.QueueAPI, state.APIServed))
	withQueue(f, 8, quota.BestEffortFIFO)
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("running workload charged %d once the queue API is served, want 8", got)
	}
	admits(t, f, next, false, quota.ReasonQuotaExceeded)
}

// A JobSet scaled down while its committed reservation's pods bind must
// not take the state down; the reservation of the old shape ends.
func TestScaledDownWhileReserved(t *testing.T) {
	f, all := gang(t)
	f.commit(jsKey("a"))
	for _, p := range all {
		f.reserve(p)
	}
	if res := f.permit(all[3]); !res.Allow {
		t.Fatalf("Permit = %+v, want the gang let through", res)
	}
	f.addJobSet(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	for _, p := range all {
		f.bind(p, f.placed[p.UID])
	}
	f.permit(all[0])
	f.s.Reports().QueueReport()
	if _, held := f.reservationOf(jsKey("a"), all[0]); held {
		t.Errorf("the reservation of the old shape is still held")
	}
}

// A node relabelled out of a reserved domain (into another pool) is no
// longer the reservation's: the slice must not follow it there.
func TestNodeRelabelledOutOfAReservedDomain(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	// b runs in pool-3.
	f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	f.commit(jsKey("a"))
	r, _ := f.reservationOf(jsKey("a"), all[0])
	pool := r.Slices[0].Domain
	f.reserve(all[0])
	f.reserve(all[1])
	if res := f.permit(all[1]); !res.Allow {
		t.Fatalf("Permit = %+v", res)
	}
	// all[0] binds; all[1]'s bind fails and it is retried, while the node
	// it was reserved on moves to pool-3.
	f.bind(all[0], f.placed[all[0].UID])
	moved := f.placed[all[1].UID]
	f.unreserve(all[1], 0)
	relabelled := f.nodes[moved].DeepCopy()
	relabelled.Labels[wellknown.NodePoolLabel] = "pool-3"
	f.addNodes(relabelled)
	if nodes, ok := f.s.Reports().MemberNodes(all[1]); ok && nodes.Has(moved) {
		t.Errorf("member still offered %s, now in pool-3, for its slice in %s", moved, pool)
	}
	if ok, _ := nodeAllowed(f.s, all[1], moved, f.free(moved)); ok {
		t.Errorf("Check lets a pod of a's slice (in %s) onto %s, now in pool-3 held by b", pool, moved)
	}
}

// A node relabelled, with a running slice on it, into a pool another
// workload's slice holds puts two workloads in one pool: both are told.
// A node relabelled into a free pool, or with nothing on it, shares
// nothing.
func TestNodeRelabelledUnderRunningPods(t *testing.T) {
	cases := map[string]struct {
		// node is relabelled into pool-3.
		node string
		want []string
	}{
		"with a's pods, into b's pool": {node: "pool-1-node-1", want: []string{
			"JobSet ns/a: DomainShared: node pool-1-node-1, running pods of JobSet ns/a, was relabelled into gke-nodepool=pool-3, which JobSet ns/b holds: the two workloads now share that domain; move one of them, or the node back",
			"JobSet ns/b: DomainShared: node pool-1-node-1, running pods of JobSet ns/a, was relabelled into gke-nodepool=pool-3, which JobSet ns/b holds: the two workloads now share that domain; move one of them, or the node back",
		}},
		"with nothing on it, into b's pool": {node: "pool-2-node-0"},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(3)...)
			f.addRunning(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj(), "pool-1-node-0", "pool-1-node-1")
			f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
			relabelled := f.nodes[tc.node].DeepCopy()
			relabelled.Labels[wellknown.NodePoolLabel] = "pool-3"
			acts := f.addNodes(relabelled)
			var got []string
			for _, e := range acts.Events {
				if e.Reason == state.ReasonDomainShared {
					if !e.Warning {
						t.Errorf("%s is not a Warning", e.Reason)
					}
					got = append(got, e.Ref.Kind+" "+e.Ref.Namespace+"/"+e.Ref.Name+": "+e.Reason+": "+e.Message)
				}
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// A node relabelled into a pool another workload holds while a slice's
// pod is being bound to it (assumed, not running) shares nothing yet: the
// bind may still fail, and no DomainShared warning is given for it; once
// the bind is confirmed, the two share the pool and both are told.
func TestNodeRelabelledUnderABindingPodWarnsOfNothing(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	f.addRunning(unit.JobSet("b").ReplicatedJob("slice", 1, 2).Obj(), "pool-3-node-0", "pool-3-node-1")
	all := f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
	f.commit(jsKey("a"))
	_, node := f.reserve(all[0])
	f.reserve(all[1])
	if res := f.permit(all[1]); !res.Allow {
		t.Fatalf("Permit = %+v", res)
	}
	relabelled := f.nodes[node].DeepCopy()
	relabelled.Labels[wellknown.NodePoolLabel] = "pool-3"
	for _, e := range f.addNodes(relabelled).Events {
		if e.Reason == state.ReasonDomainShared {
			t.Errorf("%s/%s told %s while its pod was only being bound: %s", e.Ref.Kind, e.Ref.Name, e.Reason, e.Message)
		}
	}
	// The bind succeeds after all: now the two share pool-3, and both
	// are told.
	var told []string
	for _, e := range f.bind(all[0], node).Events {
		if e.Reason == state.ReasonDomainShared && e.Warning {
			told = append(told, e.Ref.Name)
		}
	}
	if want := []string{"a", "b"}; !slices.Equal(told, want) {
		t.Errorf("after the bind succeeded, DomainShared told %v, want %v", told, want)
	}
}

// terminating is pod as the informer delivers it once deleted with a grace
// period.
func terminating(p *corev1.Pod, at time.Time) *corev1.Pod {
	out := p.DeepCopy()
	out.DeletionTimestamp = &metav1.Time{Time: at}
	return out
}

// A member another plugin rejects before the plan sees it (a missing
// PersistentVolumeClaim) releases its gang's reservation and quota at
// once, and becomes the head: the gang plans again only through it.
func TestMemberUnschedulableReleasesTheGang(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	pods := f.addGang(queued("stuck", 2, 0))
	id, _, _ := f.commit(jsKey("stuck"))
	for _, p := range pods[:3] {
		f.reserve(p)
	}
	acts := f.s.Apply(state.Decision{Pod: pods[3].UID, Rejected: &state.Rejection{Unschedulable: "VolumeBinding: persistentvolumeclaim \"missing\" not found"}}).Actions
	if len(acts.Reject) != 3 {
		t.Errorf("rejected %d reserved members, want 3", len(acts.Reject))
	}
	if _, held := f.reservationOf(jsKey("stuck"), pods[0]); held {
		t.Fatal("the reservation is still held")
	}
	for _, p := range pods[:3] {
		f.unreserve(p, id)
	}
	if got := tpuCharged(f, "stuck"); got != 0 {
		t.Errorf("still charged %d chips", got)
	}
	if !f.s.IsWaitingHead(pods[3]) {
		t.Errorf("the unschedulable member is not the gang's head")
	}
	for _, p := range pods[:3] {
		if v := f.admit(p); !v.Wait {
			t.Errorf("member %s passes the gate while the gang waits for %s", p.Name, pods[3].Name)
		}
	}
	if len(acts.Events) != 1 || acts.Events[0].Reason != state.ReasonMemberUnschedulable {
		t.Errorf("events %+v, want one %s", acts.Events, state.ReasonMemberUnschedulable)
	}
	rep := f.s.Reports().QueueReport()
	for _, w := range rep.Workloads {
		if w.Key == jsKey("stuck") && (w.Problem == nil || w.Problem.Reason != state.ReasonMemberUnschedulable) {
			t.Errorf("stuck's problem = %+v, want %s", w.Problem, state.ReasonMemberUnschedulable)
		}
	}
}

// A quota-managed gang's members wait in Permit until its admission is
// recorded on its Workload object; then all of them may bind at once.
func TestAdmissionIsRecordedBeforeAnyPodBinds(t *testing.T) {
	f := withQueue(newFixtureWith(t, state.Options{RecordAdmissions: true}, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	pods := f.addGang(queued("gang", 2, 0))
	id, _, _ := f.commit(jsKey("gang"))
	for _, p := range pods {
		f.reserve(p)
	}
	res := f.permit(pods[3])
	if res.Allow || res.Wait <= 0 || res.Record != id || res.Key != jsKey("gang") {
		t.Fatalf("Permit of the last member = %+v, want it to wait for reservation %d's record", res, id)
	}
	if again := f.permit(pods[0]); again.Allow || again.Record != 0 {
		t.Errorf("Permit while recording = %+v, want a wait and no second record", again)
	}
	rep, ok := f.s.Reports().PendingRecord(jsKey("gang"), id)
	if !ok || rep.Charge == nil || rep.ClusterQueue != "cluster-queue" || len(rep.Domains) != 2 {
		t.Fatalf("PendingRecord = %+v, %v; want the admission to record", rep, ok)
	}
	if got := rep.Charge.Slices[0][quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}]; got != 8000 {
		t.Errorf("slice 0 records %d milli-chips, want 8000", got)
	}
	done := f.s.Upkeep().AdmissionRecorded(jsKey("gang"), id)
	if len(done.AllowWaiting) != 4 || done.Committed == "" {
		t.Fatalf("AdmissionRecorded = %+v, want all 4 members let through", done)
	}
	if _, ok := f.s.Reports().PendingRecord(jsKey("gang"), id); ok {
		t.Error("still pending a record once recorded")
	}
	if res := f.permit(pods[1]); !res.Allow {
		t.Errorf("Permit once recorded = %+v", res)
	}
}

// A reservation released while its admission is being written lets
// nothing through when the write completes.
func TestRecordOfAReleasedReservationLetsNothingThrough(t *testing.T) {
	f := withQueue(newFixtureWith(t, state.Options{RecordAdmissions: true}, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	pods := f.addGang(queued("gang", 1, 0))
	id, _, _ := f.commit(jsKey("gang"))
	for _, p := range pods {
		f.reserve(p)
	}
	if res := f.permit(pods[1]); res.Record != id {
		t.Fatalf("Permit = %+v", res)
	}
	f.clock.Step(2 * time.Minute)
	f.s.Upkeep().Expire()
	if _, ok := f.s.Reports().PendingRecord(jsKey("gang"), id); ok {
		t.Error("a released reservation still pending a record")
	}
	if done := f.s.Upkeep().AdmissionRecorded(jsKey("gang"), id); done.Allow || len(done.AllowWaiting) != 0 {
		t.Errorf("AdmissionRecorded after release = %+v, want nothing", done)
	}
}

// A workload found running after a restart is charged as its Workload
// object records, even while its queue cannot be resolved (its flavor is
// gone): the successor counts it before admitting anything.
func TestRunningWorkloadChargedAsRecorded(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	f.s.Feed().DeleteFlavor(v5eFlavor)
	fr := quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}
	f.s.Feed().SetRecordedAdmission(jsKey("running"), &state.RecordedAdmission{OwnerUID: "running-uid",
		Charge: quota.FromSlices("cluster-queue", map[int]quota.Usage{0: {fr: 8000}})})
	f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	if got := tpuCharged(f, "running"); got != 8 {
		t.Fatalf("charged %d chips, want 8 as recorded", got)
	}
	// A record of a deleted object of the same name is not this one's.
	f.s.Feed().SetRecordedAdmission(jsKey("other"), &state.RecordedAdmission{OwnerUID: "old-uid",
		Charge: quota.FromSlices("cluster-queue", map[int]quota.Usage{0: {fr: 8000}})})
	f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
		wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}})
	f.addRunning(queued("other", 1, 1), "pool-2-node-0", "pool-2-node-1")
	if got := tpuCharged(f, "other"); got != 8 {
		t.Errorf("other charged %d chips, want 8 from its nodes' flavor", got)
	}
}

// Reconcile finds pods on nodes the state does not see there, and running
// workloads their queue cannot count, only when the difference persists.
func TestReconcileReportsWhatPersists(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	f.s.Feed().DeleteLocalQueue(unit.Namespace, "multislice-queue")
	running := f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	pending := f.addGang(unit.JobSet("late").ReplicatedJob("slice", 1, 2).Obj())
	api := append(running, builders.Bound(pending[0], "pool-2-node-0"))

	if found, _ := f.s.Upkeep().Reconcile(api); len(found) != 0 {
		t.Fatalf("first reconcile reported %+v", found)
	}
	found, _ := f.s.Upkeep().Reconcile(api)
	kinds := map[string]state.DriftKind{}
	for _, d := range found {
		kinds[d.Key.Name] = d.Kind
	}
	if kinds["running"] != state.DriftUncharged || kinds["late"] != state.DriftStaleView || len(found) != 2 {
		t.Fatalf("second reconcile = %+v, want running uncharged (its LocalQueue is gone) and late's bound pod unseen", found)
	}
	// The LocalQueue back, the running workload is charged: no drift left
	// once the state sees late's pod bound too.
	f.act(f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "multislice-queue", ClusterQueue: "cluster-queue"}))
	f.addPods(api[2])
	f.s.Upkeep().Reconcile(api)
	if found, _ := f.s.Upkeep().Reconcile(api); len(found) != 0 {
		t.Errorf("after the fixes: %+v", found)
	}
}

// A scheduler that takes over while a workload's capacity is being
// provisioned resumes its check from the Workload object: charged as
// recorded, at the latest request's attempt, without reserving anew.
func TestProvisioningCheckResumedFromItsWorkloadObject(t *testing.T) {
	f := withCheck(newFixture(t, zonedPools()...), 24)
	pods := f.addGang(queued("js", 2, 0))
	fr := quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}
	f.s.Feed().SetRecordedAdmission(jsKey("js"), &state.RecordedAdmission{OwnerUID: "js-uid", Check: checkName, CheckState: "Pending",
		Charge: quota.FromSlices("cluster-queue", map[int]quota.Usage{0: {fr: 8000}, 1: {fr: 8000}})})
	h := head(t, f, pods)
	if out := admission.PreEnqueue(f.s, h, 0); out.Pass || !strings.Contains(out.Message, "resuming") {
		t.Fatalf("PreEnqueue(head) before the check is resumed = %+v, want it to wait", out)
	}
	if got := f.s.Reports().ChecksToRestore(); len(got) != 1 || got[0].Key != jsKey("js") || got[0].Check != checkName {
		t.Fatalf("ChecksToRestore = %+v", got)
	}
	acts := f.s.Upkeep().RestoreCheck(jsKey("js"), 3)
	if names(acts.Activate)[0] != h.Name {
		t.Errorf("resuming activated %v, want the head %s", names(acts.Activate), h.Name)
	}
	if got := tpuCharged(f, "js"); got != 16 {
		t.Errorf("charged %d chips, want 16 as recorded", got)
	}
	if tasks := f.s.Upkeep().ProvisioningTasks(); len(tasks) != 0 {
		t.Errorf("tasks = %+v; the request exists", tasks)
	}
	reqs := f.s.Reports().ProvisioningRequests()
	if len(reqs) != 1 || reqs[0].Request != "jobset-js-dws-prov-3" {
		t.Fatalf("requests read = %+v, want attempt 3's", reqs)
	}
	f.s.Upkeep().ObserveProvisioning(state.ProvisioningUpdate{Key: jsKey("js"), Attempt: 3, Outcome: provisioning.Provisioned})
	admits(t, f, pods, true, "")
	if len(f.s.Reports().ChecksToRestore()) != 0 {
		t.Error("still to restore once resumed")
	}
}

// Pods assumed while their gang waits in Permit are not on nodes as the
// API shows them: no drift.
func TestReconcileIgnoresAssumedPods(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 16, quota.BestEffortFIFO)
	pods := f.addGang(queued("waiting", 2, 0))
	f.commit(jsKey("waiting"))
	for _, p := range pods[:3] {
		f.reserve(p)
	}
	f.s.Upkeep().Reconcile(pods)
	if found, _ := f.s.Upkeep().Reconcile(pods); len(found) != 0 {
		t.Errorf("drift %+v while members are assumed, waiting in Permit", found)
	}
}

// A reservation released between a member's Reserve and its Permit (a
// node failed) leaves its siblings assumed, about to be rejected: the
// member must not bind alone, although the gang looks placed.
func TestPermitAfterTheReservationWasReleased(t *testing.T) {
	f, all := gang(t)
	f.commit(jsKey("a"))
	for _, p := range all {
		f.reserve(p)
	}
	f.addNodes(builders.V5ePool("pool-3").NotReady().Node(0))
	f.addNodes(builders.V5ePool("pool-1").NotReady().Node(0))
	f.addNodes(builders.V5ePool("pool-2").NotReady().Node(0))
	if _, held := f.reservationOf(jsKey("a"), all[0]); held {
		t.Fatal("the reservation survived its nodes failing")
	}
	if res := f.permit(all[3]); res.Allow {
		t.Errorf("Permit let a member bind alone after its reservation was released")
	}
}

// A plan is committed only on the cluster it was made for: a node it
// planned on that was relabelled out of its slice's domain or removed, or
// whose room another reservation took, after the snapshot refuses the
// commit, and the workload plans again.
func TestCommitRefusesAPlanTheClusterMovedUnder(t *testing.T) {
	for _, tc := range []struct {
		name  string
		moved func(f *fixture, r *state.Reservation)
		want  string
	}{{
		name: "node relabelled into another pool",
		moved: func(f *fixture, r *state.Reservation) {
			n := f.nodes[r.Slices[0].Slots[0].Node].DeepCopy()
			n.Labels[wellknown.NodePoolLabel] = "pool-9"
			f.addNodes(n)
		},
		want: "was relabelled meanwhile: node is in gke-nodepool=pool-9, not in gke-nodepool=pool-",
	}, {
		name:  "node removed",
		moved: func(f *fixture, r *state.Reservation) { f.s.Feed().DeleteNode(r.Slices[0].Slots[0].Node) },
		want:  "was removed meanwhile",
	}} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t, builders.V5ePools(2)...)
			f.addGang(unit.JobSet("a").ReplicatedJob("slice", 1, 2).Obj())
			r := f.mustPlan(jsKey("a"))
			tc.moved(f, r)
			if err := f.s.Apply(state.Decision{Reserve: r, PermitTimeout: time.Minute}).Refused; err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("commit = %v, want it refused: %q", err, tc.want)
			}
			if f.s.Reservations() != 0 {
				t.Errorf("a refused commit left %d reservation(s)", f.s.Reservations())
			}
		})
	}
	t.Run("room taken by another reservation", func(t *testing.T) {
		f := newFixture(t, builders.V5ePools(1)...)
		for _, name := range []string{"a", "b"} {
			f.addPodGroup(unit.PodGroup(name, 2).Obj())
			f.addPods(unit.Pod(name+"-0").InPodGroup(name).TPU("4").Obj(), unit.Pod(name+"-1").InPodGroup(name).TPU("4").Obj())
		}
		ra, rb := f.mustPlan(pgKey("a")), f.mustPlan(pgKey("b"))
		if err := f.s.Apply(state.Decision{Reserve: ra, PermitTimeout: time.Minute}).Refused; err != nil {
			t.Fatal(err)
		}
		if err := f.s.Apply(state.Decision{Reserve: rb, PermitTimeout: time.Minute}).Refused; err == nil || !strings.Contains(err.Error(), "no room left") {
			t.Fatalf("commit of b, planned on the same nodes before a's commit = %v, want it refused for room", err)
		}
	})
}
