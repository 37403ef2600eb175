package placement_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestNodeFactsAllows(t *testing.T) {
	pool := wellknown.NodePoolLabel
	jobset := func(name string) workload.Key {
		return workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: name}
	}
	a, b, c := jobset("a"), jobset("b"), jobset("c")
	ownA := workload.Holder{Key: a, UID: "a-uid"}
	heldBy := func(ref string, holders ...workload.Holder) placement.Few[placement.HeldDomain] {
		return placement.FewOf(placement.HeldDomain{Ref: topology.DomainRef{Key: pool, Value: ref}, Holders: placement.FewOf(holders...)})
	}
	tpu := func(n int64) workload.Resources { return workload.Resources{"google.com/tpu": n} }
	for name, tc := range map[string]struct {
		facts placement.NodeFacts
		// free is what the node has left (nil: the rule must not ask).
		free   workload.Resources
		want   string
		wantOK bool
	}{
		"nothing on the node": {wantOK: true},
		"a domain reserved for another slice": {
			facts: placement.NodeFacts{Reserved: placement.ReservedSlice{Key: b, Slice: 1, DomainKey: pool, Domain: "pool-1"}},
			want:  "node is in " + pool + "=pool-1, reserved for slice 1 of JobSet ns/b",
		},
		"a reservation is checked before a claim": {
			facts: placement.NodeFacts{
				Reserved: placement.ReservedSlice{Key: b, DomainKey: pool, Domain: "pool-1"},
				Claim:    placement.NodeClaim{By: c},
			},
			want: "node is in " + pool + "=pool-1, reserved for slice 0 of JobSet ns/b",
		},
		"a node a preemption keeps": {
			facts: placement.NodeFacts{Claim: placement.NodeClaim{By: b, Kind: placement.PreemptionClaim}},
			want:  "node is kept for JobSet ns/b, which preempted the workload that ran here",
		},
		"a node a restart keeps": {
			facts: placement.NodeFacts{Claim: placement.NodeClaim{By: b, Kind: placement.RestartClaim}},
			want:  "node is kept for JobSet ns/b, which ran here and is restarting",
		},
		"a node a migration keeps": {
			facts: placement.NodeFacts{Claim: placement.NodeClaim{By: b, Kind: placement.MigrationClaim}},
			want:  "node is kept for JobSet ns/b, whose pods move here off nodes being recycled",
		},
		"room others planned leaves enough": {
			facts: placement.NodeFacts{Request: tpu(4), Outstanding: map[workload.Key]workload.Resources{b: tpu(4)}},
			free:  tpu(8), wantOK: true,
		},
		"room others planned leaves too little, the first of them named": {
			facts: placement.NodeFacts{Request: tpu(4), Outstanding: map[workload.Key]workload.Resources{c: tpu(2), b: tpu(4)}},
			free:  tpu(8),
			want:  "the room left on the node is reserved for JobSet ns/b",
		},
		"a domain another workload holds, for a plain pod": {
			facts: placement.NodeFacts{Held: heldBy("pool-1", workload.Holder{Key: b, UID: "b-uid"})},
			want:  "node is in gke-nodepool=pool-1, held by JobSet ns/b",
		},
		"a domain its own workload holds": {
			facts:  placement.NodeFacts{Own: ownA, Held: heldBy("pool-1", ownA)},
			wantOK: true,
		},
		"a domain a deleted object of the same name holds": {
			facts: placement.NodeFacts{Own: ownA, Held: heldBy("pool-1", workload.Holder{Key: a, UID: "old-uid"})},
			want:  "gke-nodepool=pool-1 is held by pods of a deleted JobSet ns/a of the same name (uid old-uid)",
		},
		"a node outside its slice's reserved domain": {
			facts: placement.NodeFacts{
				Own:    ownA,
				Bounds: placement.SliceBounds{DomainKey: pool, Domain: "pool-1"},
				Labels: map[string]string{pool: "pool-2"},
			},
			want: "node is in gke-nodepool=pool-2, not in gke-nodepool=pool-1, where its slice is reserved",
		},
		"a node inside its slice's reserved domain": {
			facts: placement.NodeFacts{
				Own:    ownA,
				Bounds: placement.SliceBounds{DomainKey: pool, Domain: "pool-1"},
				Labels: map[string]string{pool: "pool-1"},
			},
			wantOK: true,
		},
		"a confined slice on a node with no domain label": {
			facts: placement.NodeFacts{Own: ownA, Confined: placement.ConfinedDomain{Key: pool}},
			want:  "node has no gke-nodepool label: the pod's slice must stay in one such domain",
		},
		"a confined slice in a domain another workload runs in on another node": {
			facts: placement.NodeFacts{Own: ownA, Confined: placement.ConfinedDomain{
				Key: pool, Value: "pool-1", Labelled: true,
				Holders: placement.FewOf(ownA, workload.Holder{Key: b, UID: "b-uid"}),
			}},
			want: "node is in gke-nodepool=pool-1, held by JobSet ns/b",
		},
		"a confined slice in a domain only it runs in": {
			facts: placement.NodeFacts{Own: ownA, Confined: placement.ConfinedDomain{
				Key: pool, Value: "pool-1", Labelled: true,
				Holders: placement.FewOf(ownA),
			}},
			wantOK: true,
		},
	} {
		t.Run(name, func(t *testing.T) {
			asked := false
			ok, why := tc.facts.Allows(func() workload.Resources {
				asked = true
				return tc.free
			})
			if ok != tc.wantOK || why != tc.want {
				t.Errorf("Allows() = %v %q, want %v %q", ok, why, tc.wantOK, tc.want)
			}
			if asked && tc.free == nil {
				t.Errorf("Allows() asked for the node's free room, which only matters when others planned room on it")
			}
		})
	}
}
