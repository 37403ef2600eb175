package state_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/events"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A workload found running with no record of its admission is not charged
// by the state, which cannot tell its flavors without deciding: it reports
// it, and the leader's decision (admission.ForcedCharge on a copy) is
// applied only while what it read still holds.
func TestRunningWorkloadChargedOnlyByTheLeadersDecision(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	js := queued("running", 1, 0)
	w, err := workload.FromJobSet(js, f.s.DefaultDomainKey())
	if err != nil {
		t.Fatal(err)
	}
	// As a standby's informers deliver it: nothing acts on what it reports.
	acts := f.s.Feed().UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
	var uncharged []workload.Key
	for _, p := range builders.MembersOn(js, "pool-1-node-0", "pool-1-node-1") {
		uncharged = append(uncharged, f.s.Feed().UpsertPod(p).Uncharged...)
	}
	uncharged = append(uncharged, acts.Uncharged...)
	if got := tpuCharged(f, "running"); got != 0 {
		t.Fatalf("the state charged %d chips by itself", got)
	}
	if !slices.Contains(uncharged, jsKey("running")) {
		t.Fatalf("the running workload was not reported uncharged (reported %v)", uncharged)
	}
	all := f.s.Upkeep().RunningCharges(nil)
	if len(all) != 1 || all[0].Key != jsKey("running") {
		t.Fatalf("RunningCharges(nil) = %+v, want the running workload's", all)
	}

	// The queue changes between the copy and the write: refused.
	rc := all[0]
	decided := admission.ForcedCharge(rc)
	f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
		Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceTPU}, Flavors: []string{v5eFlavor}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}: {Nominal: 16000}},
	})
	if err := f.s.Upkeep().ChargeRunning(rc, decided); err == nil {
		t.Fatal("a charge decided before the queue changed was applied")
	}
	if got := tpuCharged(f, "running"); got != 0 {
		t.Fatalf("a refused charge left %d chips charged", got)
	}

	// Decided again on a fresh copy, it is applied, once.
	if got := controllers.ChargeRunning(f.s, []workload.Key{jsKey("running"), jsKey("running")}); !got[jsKey("running")] || len(got) != 1 {
		t.Fatalf("ChargeRunning charged %v, want the running workload", got)
	}
	if got := tpuCharged(f, "running"); got != 8 {
		t.Fatalf("charged %d chips, want 8 on its nodes' flavor", got)
	}
	if err := f.s.Upkeep().ChargeRunning(rc, decided); err == nil {
		t.Error("a second charge of a charged workload was applied")
	}
	if got := f.s.Upkeep().RunningCharges(nil); len(got) != 0 {
		t.Errorf("RunningCharges(nil) = %+v after the charge", got)
	}
	if got := f.s.Upkeep().RunningCharges([]workload.Key{jsKey("running")}); len(got) != 0 {
		t.Errorf("a charged workload still has a RunningCharge: %+v", got)
	}
}

// A charge decided on pods running on nodes that are relabelled meanwhile
// is refused: the flavor was chosen from the old labels.
func TestForcedChargeRefusedWhenItsNodesChanged(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	f.s.Feed().DeleteFlavor(v5eFlavor) // keeps it uncharged while it is fed
	f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	f.s.Feed().SetFlavor(&quota.Flavor{Name: v5eFlavor, NodeLabels: map[string]string{
		wellknown.TPUAcceleratorLabel: builders.V5e, wellknown.TPUTopologyLabel: "2x4"}})
	copies := f.s.Upkeep().RunningCharges([]workload.Key{jsKey("running")})
	if len(copies) != 1 {
		t.Fatalf("RunningCharges = %+v, want the running workload's", copies)
	}
	rc := copies[0]
	for _, n := range builders.V5ePools(4) {
		if n.Name == "pool-1-node-0" {
			n = n.DeepCopy()
			n.Labels["relabelled"] = "yes"
			f.s.Feed().UpsertNode(n)
		}
	}
	if err := f.s.Upkeep().ChargeRunning(rc, admission.ForcedCharge(rc)); err == nil {
		t.Fatal("a charge decided on the old labels of its nodes was applied")
	}
	controllers.ChargeAllRunning(f.s)
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("charged %d chips after deciding again, want 8", got)
	}
}

// The usage reconciler finds a running workload nothing charges (the
// leader's decision on what the informers reported was lost), charges it
// as the leader decides on a fresh copy, and says so on its ClusterQueue.
func TestUsageReconcilerChargesAnUnchargedRunningWorkload(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(4)...), 8, quota.BestEffortFIFO)
	js := queued("running", 1, 0)
	w, err := workload.FromJobSet(js, f.s.DefaultDomainKey())
	if err != nil {
		t.Fatal(err)
	}
	// What the feed reports is dropped, as if the replica lost it.
	f.s.Feed().UpsertSource(jsKey(js.Name), w, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: js.Namespace, Name: js.Name, UID: js.UID})
	pods := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, p := range builders.MembersOn(js, "pool-1-node-0", "pool-1-node-1") {
		f.s.Feed().UpsertPod(p)
		if err := pods.Add(p); err != nil {
			t.Fatal(err)
		}
	}
	if got := tpuCharged(f, "running"); got != 0 {
		t.Fatalf("the state charged %d chips by itself", got)
	}

	clk := testingclock.NewFakeClock(time.Now())
	recorder := events.NewFakeRecorder(10)
	var acted []state.Actions
	r := controllers.NewUsageReconciler(f.s, func(_ context.Context, a state.Actions) { acted = append(acted, a) },
		controllers.NewEventSink(recorder, clk), corelisters.NewPodLister(pods), clk, time.Minute)
	// A drift is acted on once two passes in a row find it: the first
	// only suspects it (an informer may be behind).
	r.Reconcile(t.Context())
	if got := tpuCharged(f, "running"); got != 0 {
		t.Fatalf("the first pass charged %d chips; it only suspects a drift", got)
	}
	select {
	case ev := <-recorder.Events:
		t.Errorf("the first pass told a drift it only suspects: %q", ev)
	default:
	}
	r.Reconcile(t.Context())
	if got := tpuCharged(f, "running"); got != 8 {
		t.Fatalf("after the second pass %d chips are charged, want 8", got)
	}
	if len(acted) != 2 || len(acted[1].Uncharged) != 0 {
		t.Errorf("the passes carried out %+v; want two passes with nothing left uncharged", acted)
	}
	select {
	case ev := <-recorder.Events:
		for _, want := range []string{"Warning", "QuotaDrift", "pods of", "corrected"} {
			if !strings.Contains(ev, want) {
				t.Errorf("event %q does not say %q", ev, want)
			}
		}
	default:
		t.Error("no QuotaDrift event on the ClusterQueue")
	}

	// Charged now: a second pass finds nothing.
	r.Reconcile(t.Context())
	select {
	case ev := <-recorder.Events:
		t.Errorf("a second pass found drift again: %q", ev)
	default:
	}
	if got := tpuCharged(f, "running"); got != 8 {
		t.Errorf("after a second pass %d chips are charged, want 8", got)
	}
}
