package admission_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	testingclock "k8s.io/utils/clock/testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// PreemptFor, after the head's plan failed for want of domains, chooses
// whole workloads to evict and claims their domains; while they go, the
// workload waits instead of preempting again; other members never preempt.
func TestPreemptFor(t *testing.T) {
	st := state.New(state.Options{Clock: testingclock.NewFakeClock(builders.Epoch)})
	st.AddScheduler(prefilterUnit.Scheduler)
	st.SetAPI(workload.SourceJobSet, state.APIServed)
	for _, n := range builders.V5ePools(3) {
		if strings.HasPrefix(n.Name, "pool-1-") {
			n.Spec.Unschedulable = true // failed
		}
		st.UpsertNode(n)
	}
	low := prefilterUnit.JobSet("low").Pod(func(b *builders.PodBuilder) { b.Priority(1) }).ReplicatedJob("slice", 2, 2).Obj()
	lowModel, err := workload.FromJobSet(low, "")
	if err != nil {
		t.Fatal(err)
	}
	st.UpsertSource(workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "low"}, lowModel, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: "low", UID: low.UID})
	for _, p := range builders.MembersOn(low, "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1") {
		st.UpsertPod(p)
	}
	high := addJobSet(t, st, "high", 2, func(b *builders.JobSetBuilder) { b.Pod(func(p *builders.PodBuilder) { p.Priority(100) }) })

	var head *corev1.Pod
	var planned *state.Snapshot
	for _, p := range high {
		if out := prefilter(st, p, func(state.Actions) {}); out.Snapshot != nil {
			head, planned = p, out.Snapshot
			break
		}
	}
	if head == nil {
		t.Fatal("no member of high planned and failed")
	}
	var member *corev1.Pod
	for _, p := range high {
		if p.UID != head.UID {
			member = p
			break
		}
	}
	eng := engineOf(st, func(state.Actions) {})
	ctx := context.Background()
	if out := eng.PreemptOutcome(ctx, member, nil, nothingRequested); out.Step != admission.NotTried {
		t.Errorf("a member other than the head: %+v, want no preemption", out)
	}
	out := eng.PreemptOutcome(ctx, head, planned, nothingRequested)
	if out.Step != admission.Preempting || len(out.Victims) != 1 || out.Victims[0].Key.Name != "low" || len(out.Victims[0].Pods) != 4 ||
		out.Victims[0].Ref.Name != "low" || out.Snapshot == nil || out.Decision == nil || !out.Decision.Capacity {
		t.Fatalf("the head: %+v, want low evicted whole for capacity", out)
	}
	again := eng.PreemptOutcome(ctx, head, nil, nothingRequested)
	if again.Step != admission.Underway || !strings.Contains(again.Message, "waiting for preempted JobSet ns/low to terminate") {
		t.Errorf("while low goes: %+v, want the head waiting for it", again)
	}
}
