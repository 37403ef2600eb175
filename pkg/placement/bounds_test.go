package placement_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func TestSliceBoundsExcludes(t *testing.T) {
	pool := wellknown.NodePoolLabel
	inPool1 := placement.SliceBounds{DomainKey: pool, Domain: "pool-1"}
	// v5e is the labels of the slice's flavor, and of the nodes of that
	// flavor but for their pool.
	v5e := map[string]string{wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice", wellknown.TPUTopologyLabel: "2x4"}
	flavor := v5e
	// with is base with label k set to v.
	with := func(base map[string]string, k, v string) map[string]string {
		out := map[string]string{k: v}
		for bk, bv := range base {
			if bk != k {
				out[bk] = bv
			}
		}
		return out
	}
	for name, tc := range map[string]struct {
		bounds placement.SliceBounds
		labels map[string]string
		want   string
	}{
		"a node of the reserved domain": {
			bounds: inPool1, labels: with(v5e, pool, "pool-1"),
		},
		"a node relabelled into another domain": {
			bounds: inPool1, labels: with(v5e, pool, "pool-3"),
			want: "node is in gke-nodepool=pool-3, not in gke-nodepool=pool-1, where its slice is reserved",
		},
		"a node whose domain label was removed": {
			bounds: inPool1, labels: v5e,
			want: "node has no gke-nodepool label, and its slice is reserved in gke-nodepool=pool-1",
		},
		"an unconfined slice: any domain": {
			bounds: placement.SliceBounds{}, labels: with(v5e, pool, "pool-3"),
		},
		"a domain key without a domain bounds nothing": {
			bounds: placement.SliceBounds{DomainKey: pool}, labels: v5e,
		},
		"a node of the slice's flavors": {
			bounds: placement.SliceBounds{NodeLabels: flavor}, labels: with(v5e, pool, "pool-2"),
		},
		"a node relabelled out of the slice's flavors": {
			bounds: placement.SliceBounds{NodeLabels: flavor}, labels: with(v5e, wellknown.TPUTopologyLabel, "4x4"),
			want: "node is not of a flavor its slice's quota was charged to",
		},
		"a node that lost a flavor label": {
			bounds: placement.SliceBounds{NodeLabels: flavor}, labels: map[string]string{wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice"},
			want: "node is not of a flavor its slice's quota was charged to",
		},
		"the domain is checked before the flavors": {
			bounds: placement.SliceBounds{DomainKey: pool, Domain: "pool-1", NodeLabels: flavor},
			labels: map[string]string{pool: "pool-2"},
			want:   "node is in gke-nodepool=pool-2, not in gke-nodepool=pool-1, where its slice is reserved",
		},
		"a node without labels": {
			bounds: inPool1,
			want:   "node has no gke-nodepool label, and its slice is reserved in gke-nodepool=pool-1",
		},
	} {
		t.Run(name, func(t *testing.T) {
			if got := tc.bounds.Excludes(tc.labels); got != tc.want {
				t.Errorf("Excludes = %q, want %q", got, tc.want)
			}
		})
	}
}
