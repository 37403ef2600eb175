package planner

import (
	"github.com/multislice-scheduler/multislice-scheduler/pkg/placement"

	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestAtomicFailure(t *testing.T) {
	const zone = "topology.kubernetes.io/zone"
	waiting := &placement.Failure{Message: "waiting for 1 more domains matching x (2 exist, 1 free)"}
	tooFew := &placement.Failure{Unresolvable: true, Message: "2 slices need 2 domains matching x, only 1 exist"}
	quotaShort := &placement.Failure{Reason: "QuotaExceeded", Message: "insufficient quota in ClusterQueue cq: flavor f (…)"}
	quotaNever := &placement.Failure{Reason: "ExceedsMaximumQuota", Unresolvable: true, Message: "the workload asks for more than ClusterQueue cq can ever admit"}
	at := func(v string, f *placement.Failure) ValueFailure { return ValueFailure{Value: v, Failure: f} }
	cases := []struct {
		name string
		// key is the atomic key; zone when empty.
		key    string
		slices int
		pinned string
		tried  []ValueFailure
		want   *placement.Failure
	}{
		{
			name: "no value at all", slices: 2,
			want: &placement.Failure{Unresolvable: true, Message: "no node it may use has the label " + zone + ", and all 2 slices must land within one " + zone},
		},
		{
			name: "every value too small: unresolvable, one reason for both", slices: 2,
			tried: []ValueFailure{at("us-a", tooFew), at("us-b", tooFew)},
			want:  &placement.Failure{Unresolvable: true, Message: "no " + zone + " has room for all 2 slices: us-a, us-b: " + tooFew.Message},
		},
		{
			name: "one value could fit later: it waits", slices: 2,
			tried: []ValueFailure{at("us-a", waiting), at("us-b", tooFew)},
			want:  &placement.Failure{Message: "no " + zone + " has room for all 2 slices: us-a: " + waiting.Message + "; us-b: " + tooFew.Message},
		},
		{
			name: "one slice", slices: 1,
			tried: []ValueFailure{at("us-a", tooFew)},
			want:  &placement.Failure{Unresolvable: true, Message: "no " + zone + " has room for its slice: us-a: " + tooFew.Message},
		},
		{
			name: "the same quota shortage everywhere: the quota's message", slices: 2,
			tried: []ValueFailure{at("us-a", quotaShort), at("us-b", quotaShort)},
			want:  quotaShort,
		},
		{
			name: "quota that can never suffice anywhere", slices: 2,
			tried: []ValueFailure{at("us-a", quotaNever), at("us-b", quotaNever)},
			want:  quotaNever,
		},
		{
			name: "quota short where it could ever fit: the quota reason", slices: 2,
			tried: []ValueFailure{at("us-a", quotaNever), at("us-b", quotaShort)},
			want: &placement.Failure{Reason: "QuotaExceeded",
				Message: "no " + zone + " has room for all 2 slices: us-a: " + quotaNever.Message + "; us-b: " + quotaShort.Message},
		},
		{
			name: "quota short in one value, domains busy in another: waiting for domains", slices: 2,
			tried: []ValueFailure{at("us-a", quotaShort), at("us-b", waiting)},
			want:  &placement.Failure{Message: "no " + zone + " has room for all 2 slices: us-a: " + quotaShort.Message + "; us-b: " + waiting.Message},
		},
		{
			name: "quota that never suffices in one value, domains busy in another", slices: 2,
			tried: []ValueFailure{at("us-a", quotaNever), at("us-b", waiting)},
			want:  &placement.Failure{Message: "no " + zone + " has room for all 2 slices: us-a: " + quotaNever.Message + "; us-b: " + waiting.Message},
		},
		{
			name: "pinned", slices: 2, pinned: "us-a",
			tried: []ValueFailure{at("us-a", waiting)},
			want:  &placement.Failure{Message: zone + "=us-a, where the workload already runs, has no room for all 2 slices: " + waiting.Message},
		},
		{
			name: "pinned to a value that never fits", slices: 2, pinned: "us-a",
			tried: []ValueFailure{at("us-a", tooFew)},
			want:  &placement.Failure{Unresolvable: true, Message: zone + "=us-a, where the workload already runs, has no room for all 2 slices: " + tooFew.Message},
		},
		{
			name: "many values and reasons: the first ones tried", slices: 2,
			tried: []ValueFailure{
				at("z1", waiting), at("z2", tooFew), at("z3", tooFew), at("z4", tooFew), at("z5", tooFew), at("z6", waiting),
				at("z7", &placement.Failure{Message: "third"}), at("z8", &placement.Failure{Message: "fourth"}), at("z9", &placement.Failure{Message: "fifth"}),
			},
			want: &placement.Failure{Message: "no " + zone + " has room for all 2 slices: z1, z6: " + waiting.Message +
				"; z2, z3, z4 and 1 more: " + tooFew.Message + "; z7: third; 2 more for other reasons"},
		},
		{
			name: "GKE labels are shortened", key: "cloud.google.com/gke-nodepool", slices: 2,
			tried: []ValueFailure{at("pool-1", tooFew)},
			want:  &placement.Failure{Unresolvable: true, Message: "no gke-nodepool has room for all 2 slices: pool-1: " + tooFew.Message},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			key := tc.key
			if key == "" {
				key = zone
			}
			got := AtomicFailure(key, tc.slices, tc.pinned, tc.tried)
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("AtomicFailure (-want +got):\n%s", diff)
			}
		})
	}
}
