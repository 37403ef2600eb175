package tas

import (
	"testing"

	gocmp "github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestPodSetRequest(t *testing.T) {
	tree := fleet(1, 1, 1).tree()
	cases := map[string]struct {
		r    workload.TopologyRequest
		pods int32
		want Request
	}{
		"required subblock": {
			r: workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblockKey}, pods: 6,
			want: Request{Pods: 6, Mode: Required, Level: subblock, SliceSize: 1, SliceLevel: host},
		},
		"preferred block, slices of 4 in a subblock": {
			r:    workload.TopologyRequest{Mode: workload.TopologyPreferred, Level: blockKey, SliceLevel: subblockKey, SliceSize: 4},
			pods: 8, want: Request{Pods: 8, Mode: Preferred, Level: block, SliceSize: 4, SliceLevel: subblock},
		},
		"slices alone are unconstrained": {
			r:    workload.TopologyRequest{Mode: workload.TopologyUnconstrained, SliceLevel: subblockKey, SliceSize: 4},
			pods: 8, want: Request{Pods: 8, Mode: Unconstrained, SliceSize: 4, SliceLevel: subblock},
		},
		"pods left that are not whole slices go pod by pod": {
			r:    workload.TopologyRequest{Mode: workload.TopologyRequired, Level: blockKey, SliceLevel: subblockKey, SliceSize: 4},
			pods: 3, want: Request{Pods: 3, Mode: Required, Level: block, SliceSize: 1, SliceLevel: host},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := gocmp.Diff(tc.want, PodSetRequest(&tc.r, tree, tc.pods)); diff != "" {
				t.Errorf("PodSetRequest (-want +got):\n%s", diff)
			}
		})
	}
}

func TestQueuelessLevels(t *testing.T) {
	for _, tc := range []struct {
		r    workload.TopologyRequest
		want []string
	}{
		{workload.TopologyRequest{Mode: workload.TopologyRequired, Level: subblockKey}, []string{subblockKey, hostnameKey}},
		{workload.TopologyRequest{Mode: workload.TopologyRequired, Level: blockKey, SliceLevel: subblockKey, SliceSize: 2}, []string{blockKey, subblockKey, hostnameKey}},
		{workload.TopologyRequest{Mode: workload.TopologyRequired, Level: hostnameKey}, []string{hostnameKey}},
		{workload.TopologyRequest{Mode: workload.TopologyUnconstrained}, []string{hostnameKey}},
	} {
		if got := QueuelessLevels(&tc.r); !gocmp.Equal(got, tc.want) {
			t.Errorf("QueuelessLevels(%s) = %v, want %v", &tc.r, got, tc.want)
		}
	}
}

// Takes counts each domain as Place does: what Place's failure calls the
// largest is the most of them, and a domain taking all the pods is one
// Place could choose.
func TestTakes(t *testing.T) {
	cases := map[string]struct {
		fleet *fleetB
		req   Request
		lvl   int
		want  []int32
	}{
		"subblocks, pods": {fleet: graded(), req: required(20, subblock), lvl: subblock,
			want: []int32{16, 12, 8, 4, 8, 0, 0, 0}},
		"subblocks, whole slices of 4 pods": {fleet: ragged(), req: sliced(unconstrained(8), 4, subblock), lvl: subblock,
			want: []int32{0, 4, 0, 8}},
		"blocks sum their subblocks' slices": {fleet: ragged(), req: sliced(required(8, block), 4, subblock), lvl: block,
			want: []int32{12}},
		"hosts below the slice level count pods": {fleet: ragged(), req: sliced(unconstrained(8), 4, subblock), lvl: host,
			want: []int32{1, 1, 1, 0, 2, 2, 1, 0, 1, 1, 1, 0, 4, 4, 0, 0}},
		"a level out of range":  {fleet: graded(), req: required(4, subblock), lvl: 3},
		"an invalid request":    {fleet: graded(), req: Request{Pods: 4, Mode: Required, Level: subblock}, lvl: subblock},
		"no pods is no request": {fleet: graded(), req: required(0, subblock), lvl: subblock},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			tree := tc.fleet.tree()
			got := Takes(tree, tc.fleet.fits, tc.req, tc.lvl)
			if diff := gocmp.Diff(tc.want, got); diff != "" {
				t.Fatalf("Takes (-want +got):\n%s", diff)
			}
			if got == nil {
				return
			}
			if len(got) != len(tree.Domains(tc.lvl)) {
				t.Errorf("%d counts for %d domains", len(got), len(tree.Domains(tc.lvl)))
			}
			if tc.req.Mode == Required && tc.lvl == tc.req.Level {
				_, f := Place(tree, tc.fleet.fits, tc.req)
				if most := slicesMax(got); f != nil && f.Largest != most {
					t.Errorf("Place says the largest takes %d, Takes %d", f.Largest, most)
				}
			}
		})
	}
}

func slicesMax(v []int32) int32 {
	var m int32
	for _, x := range v {
		m = max(m, x)
	}
	return m
}

func TestInResources(t *testing.T) {
	gpu := workload.Resources{"nvidia.com/gpu": 4000, "cpu": 500}
	if got, want := InResources("needs 6 pods", gpu), "needs 6 pods; each pod asks for 4 nvidia.com/gpu"; got != want {
		t.Errorf("InResources = %q, want %q", got, want)
	}
	if got := InResources("needs 6 pods", workload.Resources{"cpu": 500}); got != "needs 6 pods" {
		t.Errorf("InResources without an accelerator = %q", got)
	}
	if got := PodsIn(workload.Resources{"nvidia.com/gpu": 8000}, gpu, 10); got != 0 {
		t.Errorf("PodsIn without cpu = %d, want 0", got)
	}
	if got := PodsIn(workload.Resources{"nvidia.com/gpu": 8000, "cpu": 4000}, gpu, 10); got != 2 {
		t.Errorf("PodsIn = %d, want 2", got)
	}
	if got := PodsIn(workload.Resources{}, workload.Resources{}, 3); got != 3 {
		t.Errorf("PodsIn of a request of nothing = %d, want 3", got)
	}
}
