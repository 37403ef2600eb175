package cli

import (
	"testing"

	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
)

func TestPreemptionPolicy(t *testing.T) {
	type pol = multislicev1alpha1.ClusterQueuePreemption
	for _, tc := range []struct {
		name string
		p    *pol
		want string
	}{
		{"none given", nil, "withinClusterQueue: Never, reclaimWithinCohort: Never"},
		{"the CRD's defaults", &pol{WithinClusterQueue: "Never", ReclaimWithinCohort: "Never", ForceFit: "LowerPriority"},
			"withinClusterQueue: Never, reclaimWithinCohort: Never"},
		{"every policy", &pol{WithinClusterQueue: "LowerPriority", ReclaimWithinCohort: "Any",
			BorrowWithinCohort: &multislicev1alpha1.BorrowWithinCohort{Policy: "LowerPriority", MaxPriorityThreshold: ptr.To[int32](100)},
			ReclaimOutOfCohort: &multislicev1alpha1.ReclaimOutOfCohort{Enable: true}, ForceFit: "LowerPriorityWithinCohort"},
			"withinClusterQueue: LowerPriority, reclaimWithinCohort: Any, borrowWithinCohort: LowerPriority (up to priority 100), reclaimOutOfCohort: enabled, forceFit: LowerPriorityWithinCohort"},
		{"force-fit off", &pol{ForceFit: "Never"}, "withinClusterQueue: Never, reclaimWithinCohort: Never, forceFit: Never"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			cq := &multislicev1alpha1.ClusterQueue{Spec: multislicev1alpha1.ClusterQueueSpec{Preemption: tc.p}}
			if got := preemptionPolicy(cq); got != tc.want {
				t.Errorf("preemptionPolicy = %q, want %q", got, tc.want)
			}
		})
	}
}
