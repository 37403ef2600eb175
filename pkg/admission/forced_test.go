package admission_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

func TestForcedCharge(t *testing.T) {
	// Two flavors in one group, told apart by the pool label of their
	// nodes; 8 chips of nominal quota on each.
	cq := &quota.ClusterQueue{Name: "cq", FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{chip}, Flavors: []string{"spot", "reserved"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{
			{Flavor: "spot", Resource: chip}: {Nominal: 8000}, {Flavor: "reserved", Resource: chip}: {Nominal: 8000}}}
	round := func(used int64, labels map[int]map[string]string, slices ...int64) state.RunningCharge {
		b := quota.NewBook()
		b.SetFlavor(&quota.Flavor{Name: "spot", NodeLabels: map[string]string{"pool": "spot"}})
		b.SetFlavor(&quota.Flavor{Name: "reserved", NodeLabels: map[string]string{"pool": "reserved"}})
		b.SetClusterQueue(cq)
		if used > 0 {
			b.Charge(workload.Key{Name: "other"}, &quota.Charge{ClusterQueue: "cq", Usage: quota.Usage{{Flavor: "spot", Resource: chip}: used * 1000}})
		}
		rc := state.RunningCharge{Key: workload.Key{Name: "running"}, ClusterQueue: cq, View: b.View(), NodeLabels: labels}
		for i, chips := range slices {
			rc.Needs = append(rc.Needs, quota.Need{Slice: i, Count: 1, Request: workload.Resources{chip: chips * 1000}})
		}
		return rc
	}
	onPool := func(pools ...string) map[int]map[string]string {
		out := map[int]map[string]string{}
		for i, p := range pools {
			if p != "" {
				out[i] = map[string]string{"pool": p}
			}
		}
		return out
	}
	cases := []struct {
		name string
		rc   state.RunningCharge
		// want is each slice's flavor of chips.
		want map[int]string
		// wantUsage is what the queue is charged, per flavor, in chips.
		wantUsage map[string]int64
	}{
		{name: "each slice to the flavor of its nodes", rc: round(0, onPool("reserved", "spot"), 4, 4),
			want: map[int]string{0: "reserved", 1: "spot"}, wantUsage: map[string]int64{"reserved": 4, "spot": 4}},
		{name: "whether or not the quota has room: it runs already", rc: round(8, onPool("spot"), 8),
			want: map[int]string{0: "spot"}, wantUsage: map[string]int64{"spot": 8}},
		{name: "a slice with no pod on a node: the group's first flavor", rc: round(0, onPool("reserved", ""), 4, 4),
			want: map[int]string{0: "reserved", 1: "spot"}, wantUsage: map[string]int64{"reserved": 4, "spot": 4}},
		{name: "nodes no flavor admits: the group's first flavor", rc: round(0, onPool("elsewhere"), 4),
			want: map[int]string{0: "spot"}, wantUsage: map[string]int64{"spot": 4}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := admission.ForcedCharge(tc.rc)
			if c == nil || c.ClusterQueue != "cq" {
				t.Fatalf("ForcedCharge = %+v, want a charge to cq", c)
			}
			got := map[int]string{}
			for i, fl := range c.Flavors {
				got[i] = fl[chip]
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("flavors (-want +got):\n%s", diff)
			}
			usage := map[string]int64{}
			for fr, v := range c.Usage {
				usage[fr.Flavor] += v / 1000
			}
			if diff := cmp.Diff(tc.wantUsage, usage); diff != "" {
				t.Errorf("usage (-want +got):\n%s", diff)
			}
			if tc.rc.Needs[0].Compatible != nil {
				t.Errorf("ForcedCharge changed the copy's needs")
			}
		})
	}
	if c := admission.ForcedCharge(state.RunningCharge{}); c != nil {
		t.Errorf("ForcedCharge of an empty copy = %+v, want nil", c)
	}
}
