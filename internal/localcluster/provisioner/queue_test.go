package provisioner

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestSchedule(t *testing.T) {
	t0 := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
	cand := func(name string, created, nodes int, zones ...string) Candidate {
		if len(zones) == 0 {
			zones = bothZones
		}
		return Candidate{
			Ref:     Ref{Namespace: "default", Name: name},
			Created: t0.Add(time.Duration(created) * time.Second),
			Demand:  Demand{PodSets: []PodSetDemand{{Pods: nodes, PodsPerNode: 1, Nodes: nodes}}, Nodes: nodes, Zones: zones},
		}
	}
	withProblem := func(c Candidate, p Problem) Candidate {
		c.Problem = &p
		return c
	}
	provision := func(name, zone string, nodes int) Decision {
		return Decision{Ref: Ref{"default", name}, Action: Provision, Zone: zone, Reason: ReasonProvisioned,
			Message: "provisioned " + plural(nodes, "node") + " in " + zone}
	}
	wait := func(name, reason, message string) Decision {
		return Decision{Ref: Ref{"default", name}, Action: Wait, Reason: reason, Message: message}
	}
	fail := func(name, reason, message string) Decision {
		return Decision{Ref: Ref{"default", name}, Action: Fail, Reason: reason, Message: message}
	}

	tests := map[string]struct {
		cands []Candidate
		used  map[string]int
		want  []Decision
	}{
		"one node goes to the zone it fills best": {
			cands: []Candidate{cand("r", 0, 1)},
			want:  []Decision{provision("r", "us-central1-b", 1)},
		},
		"two nodes only fit the larger zone": {
			cands: []Candidate{cand("r", 0, 2)},
			want:  []Decision{provision("r", "us-central1-a", 2)},
		},
		"creation order, not input order; capacity taken is gone for the next": {
			cands: []Candidate{cand("third", 3, 1), cand("first", 1, 1), cand("second", 2, 1), cand("fourth", 4, 1)},
			want: []Decision{
				provision("first", "us-central1-b", 1),
				provision("second", "us-central1-a", 1),
				provision("third", "us-central1-a", 1),
				wait("fourth", ReasonNotProvisioned, "waiting for 1 node in one zone (pod set 0: 1 pod, 1 per node): us-central1-a has 0 of 2 free, us-central1-b has 0 of 1 free"),
			},
		},
		"same creation time: by name": {
			cands: []Candidate{cand("b", 0, 1), cand("a", 0, 1)},
			want:  []Decision{provision("a", "us-central1-b", 1), provision("b", "us-central1-a", 1)},
		},
		"FIFO: the head that does not fit holds back a smaller one that would": {
			cands: []Candidate{cand("big", 0, 2), cand("small", 1, 1)},
			used:  map[string]int{"us-central1-a": 1},
			want: []Decision{
				wait("big", ReasonNotProvisioned, "waiting for 2 nodes in one zone (pod set 0: 2 pods, 1 per node): us-central1-a has 1 of 2 free, us-central1-b has 1 of 1 free"),
				wait("small", ReasonNotProvisioned, "queued behind default/big, which waits for 2 nodes in one zone"),
			},
		},
		"a request no zone can hold fails at once and holds nobody back": {
			cands: []Candidate{cand("huge", 0, 3), cand("small", 1, 1)},
			want: []Decision{
				fail("huge", ReasonExceedsZoneCapacity, "needs 3 nodes in one zone (pod set 0: 3 pods, 1 per node); the largest zone it may use, us-central1-a, holds 2 nodes"),
				provision("small", "us-central1-b", 1),
			},
		},
		"a zone-pinned request waits for its zone though another has room": {
			cands: []Candidate{cand("pinned", 0, 1, "us-central1-a")},
			used:  map[string]int{"us-central1-a": 2},
			want:  []Decision{wait("pinned", ReasonNotProvisioned, "waiting for 1 node in one zone (pod set 0: 1 pod, 1 per node): us-central1-a has 0 of 2 free")},
		},
		"pinned to the small zone, too large for it": {
			cands: []Candidate{cand("pinned", 0, 2, "us-central1-b")},
			want:  []Decision{fail("pinned", ReasonExceedsZoneCapacity, "needs 2 nodes in one zone (pod set 0: 2 pods, 1 per node); the largest zone it may use, us-central1-b, holds 1 node")},
		},
		"problems: a missing template waits without blocking, a bad request fails": {
			cands: []Candidate{
				withProblem(cand("no-template", 0, 0), Problem{Reason: ReasonPodTemplateNotFound, Message: "waiting for PodTemplate t in namespace default", Wait: true}),
				withProblem(cand("bad", 1, 0), Problem{Reason: ReasonInvalidRequest, Message: "spec.podSets: at least one pod set is required"}),
				cand("ok", 2, 1),
			},
			want: []Decision{
				wait("no-template", ReasonPodTemplateNotFound, "waiting for PodTemplate t in namespace default"),
				fail("bad", ReasonInvalidRequest, "spec.podSets: at least one pod set is required"),
				provision("ok", "us-central1-b", 1),
			},
		},
		"used beyond the maximum (the zone shrank in the file) counts as none free": {
			cands: []Candidate{cand("r", 0, 1, "us-central1-b")},
			used:  map[string]int{"us-central1-b": 3},
			want:  []Decision{wait("r", ReasonNotProvisioned, "waiting for 1 node in one zone (pod set 0: 1 pod, 1 per node): us-central1-b has 0 of 1 free")},
		},
	}
	for name, tc := range tests {
		t.Run(name, func(t *testing.T) {
			used := map[string]int{}
			for k, v := range tc.used {
				used[k] = v
			}
			got := Schedule(tc.cands, testConfig().Zones, used)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("decisions (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.used, used, cmp.Transformer("nilEmpty", func(m map[string]int) map[string]int {
				if len(m) == 0 {
					return nil
				}
				return m
			})); diff != "" {
				t.Errorf("Schedule changed used:\n%s", diff)
			}
		})
	}
}

func TestCandidateFinal(t *testing.T) {
	zones := testConfig().Zones
	tests := map[string]struct {
		cand Candidate
		want bool
	}{
		"fits somewhere":    {Candidate{Demand: Demand{Nodes: 2, Zones: bothZones}}, false},
		"too large":         {Candidate{Demand: Demand{Nodes: 3, Zones: bothZones}}, true},
		"too large for pin": {Candidate{Demand: Demand{Nodes: 2, Zones: []string{"us-central1-b"}}}, true},
		"waiting problem":   {Candidate{Problem: &Problem{Reason: ReasonPodTemplateNotFound, Wait: true}}, false},
		"final problem":     {Candidate{Problem: &Problem{Reason: ReasonNotSatisfiable}}, true},
	}
	for name, tc := range tests {
		if got := tc.cand.Final(zones); got != tc.want {
			t.Errorf("%s: Final = %v, want %v", name, got, tc.want)
		}
	}
}
