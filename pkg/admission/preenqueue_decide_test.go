package admission_test

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/provisioning"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// chipsOf is a queue's quota decision for a workload of one slice asking
// for chips, on a book where used chips of the queue are charged already.
func chipsOf(cq *quota.ClusterQueue, used, chips int64) *state.QuotaDecision {
	book := quota.NewBook()
	book.SetFlavor(&quota.Flavor{Name: "v5e", NodeLabels: map[string]string{"pool": "v5e"}})
	book.SetClusterQueue(cq)
	if used > 0 {
		book.Charge(workload.Key{Source: workload.SourceJobSet, Namespace: "default", Name: "running"},
			&quota.Charge{ClusterQueue: cq.Name, Usage: quota.Usage{{Flavor: "v5e", Resource: chip}: used * 1000}})
	}
	return &state.QuotaDecision{ClusterQueue: cq, View: book.View(),
		Needs: []quota.Need{{Count: 1, Request: workload.Resources{chip: chips * 1000}}}}
}

// queueOf is the round of a queue of 16 chips, used chips charged, on
// which the head of g's workload asks for chips.
func (g *gateCycle) queueOf(used, chips int64) *gateCycle {
	q := chipsOf(chipQueue("cq", "", 16, quota.BestEffortFIFO), used, chips)
	key := g.c.Workload.Key
	g.c.Queue = &state.QueueRound{Key: key, View: q.View, Now: roundStart, Starvation: time.Hour,
		Candidates: []state.QueueCandidate{{Place: quota.Candidate{Key: key, ClusterQueue: "cq", Created: roundStart},
			ClusterQueue: q.ClusterQueue, Needs: q.Needs}}}
	return g
}

// checkQuota is the round of a head whose queue runs check "prov" it has
// not passed, the next request its attempt 2.
func (g *gateCycle) checkQuota(used, chips int64) *gateCycle {
	g.c.CheckQuota = &state.CheckRound{Quota: chipsOf(chipQueue("cq", "", 16, quota.BestEffortFIFO), used, chips),
		Key: g.c.Workload.Key, Check: "prov", Attempt: 2}
	return g
}

func (g *gateCycle) checkRound(r state.CheckRound) *gateCycle { g.c.CheckQuota = &r; return g }

func (g *gateCycle) pending(names ...string) *gateCycle {
	for _, n := range names {
		g.c.Pending = append(g.c.Pending, state.PodRef{Namespace: "ns", Name: n, UID: types.UID(n)})
	}
	return g
}

// plainQueued is a queued plain pod, a workload of its own, whose quota
// round asks for chips of a queue of 16 with used charged.
func plainQueued(used, chips int64) *gateCycle {
	key := workload.Key{Source: workload.SourcePod, Namespace: "ns", Name: "p"}
	q := chipsOf(chipQueue("cq", "", 16, quota.BestEffortFIFO), used, chips)
	return &gateCycle{c: state.PodCycle{
		Indexed: true,
		API:     state.APIServed,
		Pod:     &state.Pod{UID: "p", Namespace: "ns", Name: "p", Gang: true, Member: workload.Member{Key: key}},
		Workload: &state.WorkloadFacts{Key: key, Observed: true, Model: &workload.Workload{UID: "p-uid", Slices: []workload.Slice{{Pods: 1}}},
			Complete: true, Active: []int{0}, ActivePods: 1},
		Alone: &state.AloneRound{Holder: workload.Holder{Key: key, UID: "p-uid"}, Quota: q,
			Flavors: []state.FlavorCapacity{{Flavor: &quota.Flavor{Name: "v5e", NodeLabels: map[string]string{"pool": "v5e"}},
				Nodes: 2, NodeNames: []string{"n-0", "n-1"}, HoldsOne: true}}},
	}}
}

func TestDecidePreEnqueue(t *testing.T) {
	js := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "js"}
	for name, tc := range map[string]struct {
		cycle         state.PodCycle
		permitTimeout time.Duration
		// want is the outcome's pass, hold reason, event reason and
		// message (a part of it).
		wantPass                     bool
		wantHold, wantEvent, wantMsg string
		wantHoldAll                  []string
		wantProvisioning, wantWeak   bool
		wantRejection                string
		wantVerdict                  bool
		wantQueueProblem             string
		wantCheckAttempt             int32
		wantReserveLabels            map[string]string
		wantDecisionTimeout          time.Duration
	}{
		"a plain pod passes, and nothing is written": {
			cycle:    state.PodCycle{Indexed: true, Pod: &state.Pod{Name: "plain"}},
			wantPass: true,
		},
		"a member of an incomplete gang waits, weakly, and nothing is written": {
			cycle:    newGateCycle(0).missing(1, 2).value(),
			wantHold: state.ReasonWaitingForGang, wantMsg: "waiting for 2 of 4 pods of JobSet ns/js to be created", wantWeak: true,
		},
		"a malformed member is blocked, told on the pod": {
			cycle: func() state.PodCycle {
				c := newGateCycle(0).value()
				c.Pod.MemberErr = errors.New("bad label")
				return c
			}(),
			wantHold: state.ReasonGangBlocked, wantEvent: state.ReasonGangBlocked, wantMsg: "bad label",
		},
		"the head waiting for its check holds the gang, and the verdict is recorded": {
			cycle: newGateCycle(0).head("m-0", "").check(state.CheckWait{
				Reason: state.ReasonWaitingForProvisioning, Message: "waiting for ProvisioningRequest x", Told: true,
			}).pending("m-0", "m-1").value(),
			wantHold: state.ReasonWaitingForProvisioning, wantMsg: "waiting for ProvisioningRequest x",
			wantHoldAll: []string{"m-0", "m-1"}, wantRejection: state.ReasonWaitingForProvisioning,
			wantVerdict: true, wantQueueProblem: state.ReasonWaitingForProvisioning,
		},
		"the head its queue has no quota for holds the gang, with the queue's verdict": {
			cycle:    newGateCycle(0).head("m-0", "").queueOf(12, 8).pending("m-0", "m-1").value(),
			wantHold: quota.ReasonQuotaExceeded, wantEvent: quota.ReasonQuotaExceeded, wantMsg: "insufficient quota",
			wantHoldAll: []string{"m-0", "m-1"}, wantRejection: quota.ReasonQuotaExceeded,
			wantVerdict: true, wantQueueProblem: quota.ReasonQuotaExceeded,
		},
		"the head its queue admits passes, and the verdict is cleared": {
			cycle:    newGateCycle(0).head("m-0", "").queueOf(0, 8).value(),
			wantPass: true, wantVerdict: true,
		},
		"the head of a provisioning queue reserves its quota and waits for the request": {
			cycle:    newGateCycle(0).head("m-0", "").queueOf(0, 8).checkQuota(0, 8).value(),
			wantHold: "QuotaReserved", wantEvent: "QuotaReserved",
			wantMsg:          "quota reserved in ClusterQueue cq; waiting for ProvisioningRequest " + provisioning.RequestName(js.ObjectName(), "prov", 2),
			wantProvisioning: true, wantVerdict: true, wantCheckAttempt: 2,
		},
		"the head of a provisioning queue without quota for its check waits, nothing reserved": {
			cycle:    newGateCycle(0).head("m-0", "").checkQuota(12, 8).value(),
			wantHold: quota.ReasonQuotaExceeded, wantEvent: quota.ReasonQuotaExceeded, wantMsg: "insufficient quota",
		},
		"the head whose check names no check this scheduler runs waits for the user": {
			cycle: newGateCycle(0).head("m-0", "").checkRound(state.CheckRound{Message: "not ours",
				Problem: &quota.Problem{Reason: "AdmissionCheckNotReady", Message: "not ours"}}).value(),
			wantHold: "AdmissionCheckNotReady", wantEvent: "AdmissionCheckNotReady", wantMsg: "not ours",
		},
		"the head whose check is being resumed waits for it, nothing reserved anew": {
			cycle:    newGateCycle(0).head("m-0", "").checkRound(state.CheckRound{Message: "resuming the provisioning check"}).value(),
			wantHold: "QuotaReserved", wantEvent: "QuotaReserved", wantMsg: "resuming", wantProvisioning: true,
		},
		"a queued plain pod is charged as it passes, on the nodes of its flavor": {
			cycle: plainQueued(0, 4).value(), permitTimeout: time.Minute,
			wantPass: true, wantReserveLabels: map[string]string{"pool": "v5e"}, wantDecisionTimeout: time.Minute,
		},
		"a queued plain pod is charged in its cycle when the gate does not hold its quota": {
			cycle:    plainQueued(0, 4).value(),
			wantPass: true,
		},
		"a queued plain pod beyond the quota passes uncharged: its cycle says why": {
			cycle: plainQueued(14, 4).value(), permitTimeout: time.Minute,
			wantPass: true,
		},
	} {
		t.Run(name, func(t *testing.T) {
			out, d := admission.DecidePreEnqueue(tc.cycle, tc.permitTimeout)
			if out.Pass != tc.wantPass || out.Hold.Reason != tc.wantHold || out.Event.Reason != tc.wantEvent || !strings.Contains(out.Message, tc.wantMsg) {
				t.Errorf("outcome pass %v, hold %q, event %q, message %q; want %v, %q, %q, %q", out.Pass, out.Hold.Reason, out.Event.Reason, out.Message,
					tc.wantPass, tc.wantHold, tc.wantEvent, tc.wantMsg)
			}
			var holdAll []string
			for _, r := range out.HoldAll {
				holdAll = append(holdAll, r.Name)
			}
			if !slices.Equal(holdAll, tc.wantHoldAll) || out.HoldWeak != tc.wantWeak || out.ProvisioningReserved != tc.wantProvisioning || out.QueueRejection != tc.wantRejection {
				t.Errorf("outcome holds %v (weak %v), provisioning %v, rejection %q; want %v (%v), %v, %q", holdAll, out.HoldWeak, out.ProvisioningReserved, out.QueueRejection,
					tc.wantHoldAll, tc.wantWeak, tc.wantProvisioning, tc.wantRejection)
			}
			var problem string
			if d.QueueProblem != nil {
				problem = d.QueueProblem.Reason
			}
			if d.QueueVerdict != tc.wantVerdict || problem != tc.wantQueueProblem {
				t.Errorf("decision records the queue's verdict %v (%q), want %v (%q)", d.QueueVerdict, problem, tc.wantVerdict, tc.wantQueueProblem)
			}
			switch {
			case (d.CheckQuota != nil) != (tc.wantCheckAttempt != 0):
				t.Errorf("decision reserves for the check %+v, want attempt %d", d.CheckQuota, tc.wantCheckAttempt)
			case d.CheckQuota != nil && (d.CheckQuota.Attempt != tc.wantCheckAttempt || d.CheckQuota.Check != "prov" || d.CheckQuota.Charge == nil || d.Key != js):
				t.Errorf("decision reserves for the check %+v of %v, want attempt %d of prov for %v", d.CheckQuota, d.Key, tc.wantCheckAttempt, js)
			}
			switch r := d.Reserve; {
			case (r != nil) != (tc.wantReserveLabels != nil):
				t.Errorf("decision reserves %+v, want labels %v", r, tc.wantReserveLabels)
			case r != nil && (!maps.Equal(r.Slices[0].NodeLabels, tc.wantReserveLabels) || r.Charge == nil || d.PermitTimeout != tc.wantDecisionTimeout):
				t.Errorf("decision reserves %+v for %v, want labels %v for %v", r.Slices[0], d.PermitTimeout, tc.wantReserveLabels, tc.wantDecisionTimeout)
			}
			if d.Pod != "" || d.Failed != nil {
				t.Errorf("the gate's decision records a failure: %+v", d)
			}
		})
	}
}

// A reservation for a check that Apply refuses, because the state moved
// under it, holds the head with the refusal, and nothing is provisioned.
func TestSettleRefusedCheckQuota(t *testing.T) {
	out, d := admission.DecidePreEnqueue(newGateCycle(0).head("m-0", "").checkQuota(0, 8).value(), 0)
	if d.CheckQuota == nil || !out.ProvisioningReserved {
		t.Fatalf("decided %+v, %+v; want quota reserved for the check", out, d)
	}
	out.Settle(d, state.Applied{Refused: errors.New("JobSet ns/js was admitted meanwhile")})
	if out.Pass || out.ProvisioningReserved || out.Hold.Reason != quota.ReasonQuotaExceeded || out.Event != out.Hold || out.Message != "JobSet ns/js was admitted meanwhile" {
		t.Errorf("after a refusal: %+v, want the head held with it and nothing provisioned", out)
	}
}
