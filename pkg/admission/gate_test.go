package admission_test

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// gateCycle is a fluent builder of the copies the gate decides on: pod
// "m-<slice>" of slice slice of JobSet ns/js, a gang of two slices of two
// pods, observed and complete.
type gateCycle struct{ c state.PodCycle }

func newGateCycle(slice int) *gateCycle {
	key := workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "js"}
	model := &workload.Workload{Slices: []workload.Slice{{Pods: 2}, {Pods: 2}}}
	uid := types.UID("m-" + string(rune('0'+slice)))
	return &gateCycle{c: state.PodCycle{
		Indexed: true,
		API:     state.APIServed,
		Pod: &state.Pod{UID: uid, Namespace: "ns", Name: string(uid), Gang: true,
			Member: workload.Member{Key: key, Slice: slice}},
		Workload: &state.WorkloadFacts{Key: key, Observed: true, Model: model, Complete: true,
			Active: []int{0, 1}, ActivePods: 4},
	}}
}

func (g *gateCycle) notIndexed() *gateCycle { g.c.Indexed = false; return g }
func (g *gateCycle) missing(slices, pods int) *gateCycle {
	g.c.Workload.Complete = false
	g.c.Workload.MissingSlices, g.c.Workload.MissingPods = slices, pods
	return g
}

// composite makes the model a CompositePodGroup's with children of its
// slices but the last missing ones.
func (g *gateCycle) composite(missing int) *gateCycle {
	m := *g.c.Workload.Model
	m.Children = map[workload.Key]int{}
	for i := range len(m.Slices) - missing {
		m.Children[workload.Key{Source: workload.SourceInTreePodGroup, Namespace: "ns", Name: fmt.Sprint("g", i)}] = i
	}
	g.c.Workload.Model = &m
	return g
}
func (g *gateCycle) head(name string, failure string) *gateCycle {
	g.c.Workload.Head, g.c.Workload.HeadName, g.c.Workload.HeadValid = types.UID(name), name, true
	if failure != "" {
		g.c.Workload.Failure = &placement.Failure{Message: failure}
	}
	return g
}
func (g *gateCycle) reserved(slices ...int) *gateCycle {
	r := &state.Reservation{Slices: map[int]*state.SliceReservation{}}
	for _, i := range slices {
		r.Slices[i] = &state.SliceReservation{}
	}
	g.c.Reservation = r
	return g
}
func (g *gateCycle) check(cw state.CheckWait) *gateCycle { g.c.Check = &cw; return g }
func (g *gateCycle) queue() *gateCycle {
	g.c.Queue = &state.QueueRound{Key: g.c.Workload.Key}
	return g
}
func (g *gateCycle) api(s state.APIStatus) *gateCycle { g.c.API = s; return g }
func (g *gateCycle) value() state.PodCycle            { return g.c }

func TestDecideGate(t *testing.T) {
	for name, tc := range map[string]struct {
		cycle      state.PodCycle
		behindHead bool
		wantWait   bool
		wantMsg    string
		wantQueue  bool
		wantRecord *quota.Problem
	}{
		"a plain pod passes": {
			cycle:      state.PodCycle{Indexed: true, Pod: &state.Pod{Name: "plain"}},
			behindHead: true,
		},
		"a member of an API not known yet waits": {
			cycle:      newGateCycle(0).api(state.APIUnknown).value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting to learn whether the JobSet API is served",
		},
		"a member not indexed yet waits for the scheduler, behind its head": {
			cycle:      newGateCycle(0).notIndexed().value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for the scheduler to observe pod ns/m-0",
		},
		"a member not indexed yet of an active slice may plan in a cycle": {
			cycle: newGateCycle(0).notIndexed().value(),
		},
		"a member of a reserved slice passes": {
			cycle:      newGateCycle(1).head("m-0", "").reserved(1).value(),
			behindHead: true,
		},
		"a member of an incomplete gang waits for the rest": {
			cycle:      newGateCycle(0).missing(1, 2).value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for 2 of 4 pods of JobSet ns/js to be created",
		},
		// Gated before its informer event, it is counted missing; the
		// message says what else the gang waits for, since the pod is not
		// tried again while members are missing.
		"a member not indexed yet of an incomplete gang says the others it waits for": {
			cycle:      newGateCycle(0).missing(1, 2).notIndexed().value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for 1 of 4 pods of JobSet ns/js to be created",
		},
		"the last member not indexed yet waits for the scheduler": {
			cycle:      newGateCycle(0).missing(1, 1).notIndexed().value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for the scheduler to observe pod ns/m-0",
		},
		"a member of a composite waits for its groups not created yet": {
			cycle:      newGateCycle(0).missing(1, 1).composite(1).notIndexed().value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for 1 of 2 PodGroups of JobSet ns/js to be created",
		},
		"a member behind a valid head waits for it, with the head's failure": {
			cycle:      newGateCycle(1).head("m-0", "no room").value(),
			behindHead: true, wantWait: true,
			wantMsg: "waiting for m-0 to find room for JobSet ns/js: no room",
		},
		"in a cycle a member does not wait behind its head": {
			cycle: newGateCycle(1).head("m-0", "").value(),
		},
		"the head waits for its provisioning check, and the workload shows it": {
			cycle: newGateCycle(0).head("m-0", "").check(state.CheckWait{
				Reason: state.ReasonWaitingForProvisioning, Message: "waiting for ProvisioningRequest x", Told: true,
			}).value(),
			behindHead: true, wantWait: true,
			wantMsg:    "waiting for ProvisioningRequest x",
			wantRecord: &quota.Problem{Reason: state.ReasonWaitingForProvisioning, Message: "waiting for ProvisioningRequest x"},
		},
		"the head of a queued workload asks its queue": {
			cycle:      newGateCycle(0).head("m-0", "").queue().value(),
			behindHead: true, wantQueue: true,
		},
	} {
		t.Run(name, func(t *testing.T) {
			v, record := admission.DecideGate(tc.cycle, tc.behindHead)
			if v.Wait != tc.wantWait || v.Message != tc.wantMsg {
				t.Errorf("DecideGate() wait %v %q, want %v %q", v.Wait, v.Message, tc.wantWait, tc.wantMsg)
			}
			if (v.Queue != nil) != tc.wantQueue {
				t.Errorf("DecideGate() asks the queue: %v, want %v", v.Queue != nil, tc.wantQueue)
			}
			switch {
			case (record == nil) != (tc.wantRecord == nil):
				t.Errorf("DecideGate() records %v, want %v", record, tc.wantRecord)
			case record != nil && *record != *tc.wantRecord:
				t.Errorf("DecideGate() records %+v, want %+v", *record, *tc.wantRecord)
			}
		})
	}
}
