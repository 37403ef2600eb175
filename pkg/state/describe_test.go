package state_test

import (
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestDescribePlacement(t *testing.T) {
	required := &workload.TopologyRequest{Mode: workload.TopologyRequired, Level: gpuSubblock}
	model := &workload.Workload{Slices: []workload.Slice{
		{Name: "a", Pods: 2}, {Name: "b", Pods: 3, Topology: required}, {Name: "c", Pods: 4},
	}}
	subblock := map[string]string{gpuBlock: "b0", gpuSubblock: "b0-s1"}
	cases := []struct {
		name   string
		slices map[int]*state.SliceReservation
		want   string
	}{
		{name: "a whole domain", slices: map[int]*state.SliceReservation{
			0: {DomainKey: wellknown.NodePoolLabel, Domain: "pool-1"}},
			want: "reserved slice 0 (a) on gke-nodepool=pool-1"},
		{name: "a slice placed by topology names its domain", slices: map[int]*state.SliceReservation{
			1: {NodeLabels: subblock}},
			want: "reserved slice 1 (b) in gce-topology-block=b0,gce-topology-subblock=b0-s1"},
		{name: "the others are counted", slices: map[int]*state.SliceReservation{
			0: {}, 1: {NodeLabels: subblock}, 2: {}},
			want: "reserved slice 1 (b) in gce-topology-block=b0,gce-topology-subblock=b0-s1, 6 pods of 2 unconfined slices"},
		{name: "flavor labels alone do not make a topology domain", slices: map[int]*state.SliceReservation{
			2: {NodeLabels: map[string]string{wellknown.TPUAcceleratorLabel: "v5e"}}},
			want: "reserved 4 pods of 1 unconfined slice"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if got := state.DescribePlacement(model, &state.Reservation{Slices: tc.slices}); got != tc.want {
				t.Errorf("got  %q\nwant %q", got, tc.want)
			}
		})
	}
}
