package admission_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	testingclock "k8s.io/utils/clock/testing"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
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
	st.Feed().SetAPI(workload.SourceJobSet, state.APIServed)
	for _, n := range builders.V5ePools(3) {
		if strings.HasPrefix(n.Name, "pool-1-") {
			n.Spec.Unschedulable = true // failed
		}
		st.Feed().UpsertNode(n)
	}
	low := prefilterUnit.JobSet("low").Pod(func(b *builders.PodBuilder) { b.Priority(1) }).ReplicatedJob("slice", 2, 2).Obj()
	lowModel, err := workload.FromJobSet(low, "")
	if err != nil {
		t.Fatal(err)
	}
	st.Feed().UpsertSource(workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "low"}, lowModel, nil, corev1.ObjectReference{Kind: "JobSet", Namespace: "ns", Name: "low", UID: low.UID})
	for _, p := range builders.MembersOn(low, "pool-2-node-0", "pool-2-node-1", "pool-3-node-0", "pool-3-node-1") {
		st.Feed().UpsertPod(p)
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
	never := head.DeepCopy()
	never.Spec.PreemptionPolicy = ptr.To(corev1.PreemptNever)
	if out := eng.PreemptOutcome(ctx, never, planned, nothingRequested); out.Step != admission.NoVictims || len(out.Victims) != 0 || !strings.Contains(out.Message, "preemptionPolicy is Never") {
		t.Errorf("the head, its preemptionPolicy Never: %+v, want it to evict no one", out)
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

// PreemptFor decides on values alone (State.Preemption's copy): who may
// preempt, and whether an earlier preemption is still under way.
func TestPreemptForOnValues(t *testing.T) {
	now := builders.Epoch
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "high"}
	member := state.Verdict{Gang: true, Member: workload.Member{Key: key}}
	waitingForRoom := &placement.Failure{Message: "no free domain"}
	for _, tc := range []struct {
		name      string
		verdict   state.Verdict
		facts     state.PreemptionFacts
		wantStep  admission.PreemptionStep
		wantTry   bool
		wantMsg   string
		wantApply *state.Decision
	}{{
		name:    "the head whose plan wants domains chooses victims",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom},
		wantTry: true,
	}, {
		name:    "the head whose plan wants quota chooses victims",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: &placement.Failure{Reason: quota.ReasonQuotaExceeded}},
		wantTry: true,
	}, {
		name:    "a member that waits does not preempt",
		verdict: state.Verdict{Gang: true, Wait: true, Member: workload.Member{Key: key}},
		facts:   state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom},
	}, {
		name:    "a queued plain pod does not preempt",
		verdict: state.Verdict{Gang: true, Member: workload.Member{Key: workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}}},
		facts:   state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom},
	}, {
		name:    "a workload placed whole does not preempt",
		verdict: member, facts: state.PreemptionFacts{Now: now, PlacedWhole: true, HeadFailure: waitingForRoom},
	}, {
		name:    "not the head (no failure of its own) does not preempt",
		verdict: member, facts: state.PreemptionFacts{Now: now},
	}, {
		name:    "a plan that can never fit does not preempt",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: &placement.Failure{Unresolvable: true}},
	}, {
		name:    "a plan that waits for an admission check does not preempt",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: &placement.Failure{Reason: "AdmissionCheckPending"}},
	}, {
		name:    "pods whose preemptionPolicy is Never do not preempt",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom, NeverPreempts: true},
		wantStep: admission.NoVictims, wantMsg: "preemptionPolicy is Never",
		wantApply: &state.Decision{Key: key, NoVictims: true},
	}, {
		name:    "victims still on their nodes: wait for them",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom,
			Claim: &state.ClaimFacts{Left: []workload.Key{{Source: workload.SourceJobSet, Namespace: "ns", Name: "low"}}}},
		wantStep: admission.Underway, wantMsg: "waiting for preempted JobSet ns/low to terminate",
	}, {
		name:    "victims just found gone: wait, and record when",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom, Claim: &state.ClaimFacts{}},
		wantStep: admission.Underway, wantMsg: "waiting for their room to show",
		wantApply: &state.Decision{Key: key, VictimsGone: now},
	}, {
		name:    "victims gone a moment ago: the scheduler's snapshot may still show them",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom, Claim: &state.ClaimFacts{Gone: now.Add(-5 * time.Second)}},
		wantStep: admission.Underway, wantMsg: "waiting for their room to show",
	}, {
		name:    "victims gone long since: preempt again",
		verdict: member, facts: state.PreemptionFacts{Now: now, HeadFailure: waitingForRoom, Claim: &state.ClaimFacts{Gone: now.Add(-time.Minute)}},
		wantTry: true,
	}} {
		t.Run(tc.name, func(t *testing.T) {
			out, try := admission.PreemptFor(tc.verdict, &tc.facts)
			if out.Step != tc.wantStep || try != tc.wantTry || !strings.Contains(out.Message, tc.wantMsg) {
				t.Errorf("PreemptFor = %v, %v, %q; want %v, %v, %q", out.Step, try, out.Message, tc.wantStep, tc.wantTry, tc.wantMsg)
			}
			if diff := cmp.Diff(tc.wantApply, out.Apply); diff != "" {
				t.Errorf("decision to apply (-want +got):\n%s", diff)
			}
		})
	}
}
