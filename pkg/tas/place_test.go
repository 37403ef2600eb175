package tas

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/topology"
)

// Levels of a fleet: block, subblock, host.
const (
	block    = 0
	subblock = 1
	host     = 2
)

func required(pods int32, level int) Request {
	return Request{Pods: pods, Mode: Required, Level: level, SliceSize: 1, SliceLevel: host}
}

func preferred(pods int32, level int) Request {
	return Request{Pods: pods, Mode: Preferred, Level: level, SliceSize: 1, SliceLevel: host}
}

func unconstrained(pods int32) Request {
	return Request{Pods: pods, Mode: Unconstrained, SliceSize: 1, SliceLevel: host}
}

// sliced makes r a request of slices of size pods, each within one domain
// of level.
func sliced(r Request, size int32, level int) Request {
	r.SliceSize, r.SliceLevel = size, level
	return r
}

// graded is 2 blocks × 4 subblocks × 4 hosts whose subblocks take 16, 12,
// 8, 4 (b0) and 8, 0, 0, 0 (b1) pods, evenly over their hosts.
func graded() *fleetB {
	return fleet(2, 4, 4).
		free(4, "b0-s0").free(3, "b0-s1").free(2, "b0-s2").free(1, "b0-s3").
		free(2, "b1-s0")
}

// blocks is 3 blocks × 2 subblocks × 2 hosts whose blocks take 8, 12 and 6
// pods (b2: 2 in s0, 4 in s1).
func blocks() *fleetB {
	return fleet(3, 2, 2).free(2, "b0").free(3, "b1").free(1, "b2-s0").free(2, "b2-s1")
}

// ragged is 1 block × 4 subblocks × 4 hosts whose subblocks take 3, 5, 3 and
// 8 pods: 0, 1, 0 and 2 slices of 4.
func ragged() *fleetB {
	return fleet(1, 4, 4).
		hosts("b0-s0", 1, 1, 1).hosts("b0-s1", 2, 2, 1).hosts("b0-s2", 1, 1, 1).hosts("b0-s3", 4, 4)
}

func TestPlace(t *testing.T) {
	cases := []struct {
		name  string
		fleet *fleetB
		req   Request
		want  outcome
	}{
		// Required.
		{
			name: "required fits the tightest subblock", fleet: graded(), req: required(8, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s2"}, Nodes: "b0-s2-h0:2 b0-s2-h1:2 b0-s2-h2:2 b0-s2-h3:2"},
		},
		{
			name: "required takes an exact fit", fleet: graded(), req: required(12, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s1"}, Nodes: "b0-s1-h0:3 b0-s1-h1:3 b0-s1-h2:3 b0-s1-h3:3"},
		},
		{
			name: "required: equally tight subblocks go by path; hosts fill largest first", fleet: graded(), req: required(5, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s2"}, Nodes: "b0-s2-h0:2 b0-s2-h1:2 b0-s2-h2:1"},
		},
		{
			name: "required fails with the largest subblock and the number tried", fleet: graded(), req: required(20, subblock),
			want: outcome{Failure: &Failure{Level: subblock, Tried: 8, Needed: 20, Largest: 16,
				Message: "needs 20 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 16 (8 tried)"}},
		},
		{
			name: "required block: fewest subblocks, the last one the tightest that completes it", fleet: graded(), req: required(20, block),
			want: outcome{Level: block, Domains: []string{"b0"},
				Nodes: "b0-s0-h0:4 b0-s0-h1:4 b0-s0-h2:4 b0-s0-h3:4 b0-s3-h0:1 b0-s3-h1:1 b0-s3-h2:1 b0-s3-h3:1"},
		},
		{
			name: "zero and negative fits take nothing", fleet: fleet(1, 1, 3).hosts("b0-s0", -5, 0, 3), req: required(3, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s0"}, Nodes: "b0-s0-h2:3"},
		},
		{
			name: "an empty tree fails", fleet: fleet(0, 0, 0), req: required(1, subblock),
			want: outcome{Failure: &Failure{Level: subblock, Needed: 1,
				Message: "needs 1 pod in one cloud.google.com/gce-topology-subblock; the topology has no node carrying every level's label"}},
		},

		// Preferred.
		{
			name: "preferred fits at its level", fleet: graded(), req: preferred(3, host),
			want: outcome{Level: host, Domains: []string{"b0/s1/b0-s1-h0"}, Nodes: "b0-s1-h0:3"},
		},
		{
			name: "preferred climbs host → subblock", fleet: graded(), req: preferred(8, host),
			want: outcome{Level: subblock, Domains: []string{"b0/s2"}, Nodes: "b0-s2-h0:2 b0-s2-h1:2 b0-s2-h2:2 b0-s2-h3:2"},
		},
		{
			name: "preferred climbs subblock → block", fleet: graded(), req: preferred(20, subblock),
			want: outcome{Level: block, Domains: []string{"b0"},
				Nodes: "b0-s0-h0:4 b0-s0-h1:4 b0-s0-h2:4 b0-s0-h3:4 b0-s3-h0:1 b0-s3-h1:1 b0-s3-h2:1 b0-s3-h3:1"},
		},
		{
			name:  "preferred spreads over the fewest blocks, largest first, the last the tightest that completes it",
			fleet: blocks(), req: preferred(16, block),
			want: outcome{Level: -1, Domains: []string{"b1", "b2"},
				Nodes: "b1-s0-h0:3 b1-s0-h1:3 b1-s1-h0:3 b1-s1-h1:3 b2-s1-h0:2 b2-s1-h1:2"},
		},
		{
			name: "preferred fails only when the whole tree lacks room", fleet: blocks(), req: preferred(30, subblock),
			want: outcome{Failure: &Failure{Level: subblock, Tried: 3, Needed: 30, Largest: 26,
				Message: "needs 30 pods, preferably in one cloud.google.com/gce-topology-subblock; the whole topology takes 26 (3 cloud.google.com/gce-topology-block tried)"}},
		},

		// Unconstrained.
		{
			name: "unconstrained packs onto the tightest host that takes it", fleet: blocks(), req: unconstrained(2),
			want: outcome{Level: host, Domains: []string{"b0/s0/b0-s0-h0"}, Nodes: "b0-s0-h0:2"},
		},
		{
			name: "unconstrained packs into the tightest subblock when no host takes it", fleet: blocks(), req: unconstrained(5),
			want: outcome{Level: subblock, Domains: []string{"b1/s0"}, Nodes: "b1-s0-h0:3 b1-s0-h1:2"},
		},
		{
			name: "unconstrained spreads when no block takes it", fleet: blocks(), req: Request{Pods: 16, Mode: Unconstrained, Level: 99, SliceSize: 1, SliceLevel: host},
			want: outcome{Level: -1, Domains: []string{"b1", "b2"},
				Nodes: "b1-s0-h0:3 b1-s0-h1:3 b1-s1-h0:3 b1-s1-h1:3 b2-s1-h0:2 b2-s1-h1:2"},
		},
		{
			name: "unconstrained fails when the whole tree lacks room", fleet: blocks(), req: unconstrained(27),
			want: outcome{Failure: &Failure{Level: host, Tried: 3, Needed: 27, Largest: 26,
				Message: "needs 27 pods; the whole topology takes 26 (3 cloud.google.com/gce-topology-block tried)"}},
		},

		// Slices.
		{
			name: "slices each inside one subblock: whole slices only", fleet: ragged(), req: sliced(required(12, block), 4, subblock),
			want: outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s1-h0:2 b0-s1-h1:2 b0-s3-h0:4 b0-s3-h1:4"},
		},
		{
			name: "slices: all or none though the pods would fit", fleet: ragged(), req: sliced(required(16, block), 4, subblock),
			want: outcome{Failure: &Failure{Level: block, Tried: 1, Needed: 16, Largest: 12,
				Message: "needs 4 slices of 4 pods in one cloud.google.com/gce-topology-block, each slice in one cloud.google.com/gce-topology-subblock; the largest free one takes 3 slices (1 tried)"}},
		},
		{
			name: "slices at the required level: tightest subblock by slices", fleet: ragged(), req: sliced(required(8, subblock), 4, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s3"}, Nodes: "b0-s3-h0:4 b0-s3-h1:4"},
		},
		{
			name: "preferred slices climb to the block", fleet: ragged(), req: sliced(preferred(12, subblock), 4, subblock),
			want: outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s1-h0:2 b0-s1-h1:2 b0-s3-h0:4 b0-s3-h1:4"},
		},
		{
			name: "unconstrained slices start at the slice level", fleet: ragged(), req: sliced(unconstrained(4), 4, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s1"}, Nodes: "b0-s1-h0:2 b0-s1-h1:2"},
		},
		{
			name: "unconstrained slices fail on whole slices", fleet: ragged(), req: sliced(unconstrained(16), 4, subblock),
			want: outcome{Failure: &Failure{Level: subblock, Tried: 1, Needed: 16, Largest: 12,
				Message: "needs 4 slices of 4 pods, each slice in one cloud.google.com/gce-topology-subblock; the whole topology takes 3 slices (1 cloud.google.com/gce-topology-block tried)"}},
		},

		// Rank order.
		{
			name: "rank order: an 8-pod set on one host", fleet: fleet(1, 2, 4).free(8), req: required(8, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s0"}, Nodes: "b0-s0-h0:8"},
		},
		{
			name: "rank order: consecutive hosts of one subblock", fleet: fleet(1, 2, 4).free(8), req: required(24, block),
			want: outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s0-h0:8 b0-s0-h1:8 b0-s0-h2:8"},
		},
		{
			name: "rank order: a whole subblock before the next", fleet: fleet(1, 2, 4).free(8), req: required(40, block),
			want: outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s0-h0:8 b0-s0-h1:8 b0-s0-h2:8 b0-s0-h3:8 b0-s1-h0:8"},
		},
		{
			name: "rank order follows the path, not the order hosts were chosen", fleet: fleet(1, 1, 4).hosts("b0-s0", 2, 8, 4, 8), req: required(10, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s0"}, Nodes: "b0-s0-h0:2 b0-s0-h1:8"},
		},

		// Shared domains.
		{
			name:  "non-exclusive: a partly used subblock takes a small set before an empty one",
			fleet: fleet(1, 3, 4).free(8).hosts("b0-s1", 8, 0, 8, 0), req: required(16, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s1"}, Nodes: "b0-s1-h0:8 b0-s1-h2:8"},
		},
		{
			name:  "non-exclusive: a partly used host takes what fits beside the others",
			fleet: fleet(1, 1, 3).hosts("b0-s0", 8, 3, 8), req: unconstrained(3),
			want: outcome{Level: host, Domains: []string{"b0/s0/b0-s0-h1"}, Nodes: "b0-s0-h1:3"},
		},

		// Tree shapes.
		{
			name: "nodes missing a level label are ignored",
			fleet: fleet(1, 2, 2).free(1).
				node("no-subblock", 100, blockKey, "b0", hostKey, "no-subblock").
				node("no-host", 100, blockKey, "b0", subblockKey, "s0"),
			req: required(3, subblock),
			want: outcome{Failure: &Failure{Level: subblock, Tried: 2, Needed: 3, Largest: 2,
				Message: "needs 3 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 2 (2 tried)"}},
		},
		{
			name:  "nodes missing a level label are not placed on",
			fleet: fleet(1, 2, 2).free(1).node("no-subblock", 100, blockKey, "b0", hostKey, "no-subblock"), req: unconstrained(4),
			want: outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s0-h0:1 b0-s0-h1:1 b0-s1-h0:1 b0-s1-h1:1"},
		},
		{
			name:  "a leaf of several nodes fills them in name order",
			fleet: fleet(1, 2, 3).levelsOf(blockKey, subblockKey).hosts("b0-s0", 2, 5, 1).hosts("b0-s1", 4, 4, 4),
			req:   Request{Pods: 6, Mode: Required, Level: subblock, SliceSize: 1, SliceLevel: subblock},
			want:  outcome{Level: subblock, Domains: []string{"b0/s0"}, Nodes: "b0-s0-h0:2 b0-s0-h1:4"},
		},
		{
			name:  "slices at a last level of several nodes",
			fleet: fleet(1, 2, 3).levelsOf(blockKey, subblockKey).hosts("b0-s0", 2, 5, 1).hosts("b0-s1", 4, 4, 4),
			req:   Request{Pods: 9, Mode: Required, Level: block, SliceSize: 3, SliceLevel: subblock},
			want:  outcome{Level: block, Domains: []string{"b0"}, Nodes: "b0-s1-h0:4 b0-s1-h1:4 b0-s1-h2:1"},
		},
		{
			name:  "hostname as the last level",
			fleet: fleet(1, 2, 2).levelsOf(blockKey, subblockKey, hostnameKey).free(1).free(2, "b0-s1-h1"), req: required(3, subblock),
			want: outcome{Level: subblock, Domains: []string{"b0/s1"}, Nodes: "b0-s1-h0:1 b0-s1-h1:2"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tr, fit := tc.fleet.tree(), tc.fleet.fits
			p, f := Place(tr, fit, tc.req)
			if diff := gocmp.Diff(tc.want, outcomeOf(p, f)); diff != "" {
				t.Errorf("Place (-want +got):\n%s", diff)
			}
			if f == nil {
				check(t, tr, fit, tc.req, p)
			}
		})
	}
}

func TestPlaceInvalid(t *testing.T) {
	tr := graded().tree()
	cases := []struct {
		name string
		tree *topology.Tree
		req  Request
		want string
	}{
		{"no tree", nil, required(1, block), "invalid request: the topology has no levels"},
		{"no levels", &topology.Tree{}, required(1, block), "invalid request: the topology has no levels"},
		{"no mode", tr, Request{Pods: 1, SliceSize: 1, SliceLevel: host}, "invalid request: unknown mode Mode(0)"},
		{"unknown mode", tr, Request{Pods: 1, Mode: 7, SliceSize: 1, SliceLevel: host}, "invalid request: unknown mode Mode(7)"},
		{"no pods", tr, required(0, block), "invalid request: 0 pods; a pod set has at least 1"},
		{"negative pods", tr, required(-3, block), "invalid request: -3 pods; a pod set has at least 1"},
		{"no slice size", tr, sliced(required(4, block), 0, host), "invalid request: slice size 0; a slice has at least 1 pod"},
		{"slice size does not divide", tr, sliced(required(8, block), 3, host), "invalid request: slice size 3 does not divide 8 pods"},
		{"slice size above pods", tr, sliced(required(2, block), 4, host), "invalid request: slice size 4 does not divide 2 pods"},
		{"slice level below the tree", tr, sliced(required(4, block), 1, 3), "invalid request: slice level 3 is not one of the topology's 3 levels"},
		{"negative slice level", tr, sliced(unconstrained(4), 1, -1), "invalid request: slice level -1 is not one of the topology's 3 levels"},
		{"level below the tree", tr, required(4, 3), "invalid request: level 3 is not one of the topology's 3 levels"},
		{"negative level", tr, preferred(4, -1), "invalid request: level -1 is not one of the topology's 3 levels"},
		{"slice level above the level", tr, sliced(required(4, host), 2, subblock),
			"invalid request: slice level cloud.google.com/gce-topology-subblock is above the pod set's level cloud.google.com/gce-topology-host"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p, f := Place(tc.tree, graded().fits, tc.req)
			if f == nil {
				t.Fatalf("placed %+v, want a failure", p)
			}
			want := &Failure{Level: tc.req.Level, Needed: tc.req.Pods, Message: tc.want}
			if diff := gocmp.Diff(want, f); diff != "" {
				t.Errorf("failure (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlaceLeavesInputsAlone checks that Place is a function of its
// inputs: it changes neither, and the same inputs give the same placement.
func TestPlaceLeavesInputsAlone(t *testing.T) {
	f := graded()
	tr := f.tree()
	before := outcomeOf(Place(tr, f.fits, required(20, block)))
	fits := len(f.fits)
	for range 3 {
		if diff := gocmp.Diff(before, outcomeOf(Place(tr, f.fits, required(20, block)))); diff != "" {
			t.Fatalf("placement changed between calls (-first +later):\n%s", diff)
		}
	}
	if len(f.fits) != fits || f.fits["b0-s0-h0"] != 4 {
		t.Errorf("fit changed: %v", f.fits)
	}
	if got := len(tr.Domains(host)); got != 32 {
		t.Errorf("tree changed: %d hosts", got)
	}
}
