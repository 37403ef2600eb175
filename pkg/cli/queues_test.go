package cli

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/utils/ptr"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const tpu = wellknown.ResourceTPU

func qty(s string) resource.Quantity { return resource.MustParse(s) }

func TestQueues(t *testing.T) {
	cases := map[string]struct {
		cluster Cluster
		want    []Queue
	}{
		"seed 002: one flavor, usage and counts from the status": {
			cluster: Cluster{
				ClusterQueues: []*multislicev1alpha1.ClusterQueue{
					builders.ClusterQueue("cluster-queue").Quota("vlp-24", tpu, "24").Usage("vlp-24", tpu, "16", "0").Counts(1, 0, 1).Obj(),
				},
				LocalQueues: []*multislicev1alpha1.LocalQueue{builders.LocalQueue("default", "multislice-queue", "cluster-queue")},
				Workloads: []*multislicev1alpha1.Workload{
					builders.Workload(KindJobSet, "default", "train", "multislice-queue").PodSet("train-slice-0", 2, tpu, "4", wellknown.NodePoolLabel).
						PodSet("train-slice-1", 2, tpu, "4", wellknown.NodePoolLabel).Admitted("cluster-queue", "vlp-24", "pool-1", "pool-2").Obj(),
					builders.Workload(KindJobSet, "default", "next", "multislice-queue").PodSet("next-slice-0", 2, tpu, "4", wellknown.NodePoolLabel).
						Waiting("QuotaExceeded", "insufficient quota").Obj(),
				},
			},
			want: []Queue{{
				Name: "cluster-queue", Strategy: "BestEffortFIFO", Active: true, Pending: 1, Admitted: 1,
				LocalQueues: []string{"default/multislice-queue"},
				Flavors: []Flavor{{Name: "vlp-24", Workloads: 1, Resources: []FlavorResource{
					{Name: string(tpu), Nominal: qty("24"), InUse: qty("16"), Borrowed: qty("0")},
				}}},
			}},
		},
		"a cohort: limits, borrowing, two flavors, an inactive queue": {
			cluster: Cluster{
				ClusterQueues: []*multislicev1alpha1.ClusterQueue{
					builders.ClusterQueue("b-team").Cohort("all").Quota("v6e", tpu, "16").Limits("", "8").Inactive("FlavorNotFound", "ResourceFlavor v6e does not exist").Obj(),
					builders.ClusterQueue("a-team").Cohort("all").Strategy(multislicev1alpha1.StrictFIFO).
						Quota("v5e", tpu, "8").Limits("8", "").Quota("v6e", tpu, "32").
						Usage("v5e", tpu, "12", "4").Counts(3, 1, 2).Obj(),
				},
			},
			want: []Queue{
				{
					Name: "a-team", Cohort: "all", Strategy: "StrictFIFO", Active: true, Pending: 3, Reserving: 1, Admitted: 2,
					Flavors: []Flavor{
						{Name: "v5e", Resources: []FlavorResource{{Name: string(tpu), Nominal: qty("8"), BorrowingLimit: ptr.To(qty("8")), InUse: qty("12"), Borrowed: qty("4")}}},
						{Name: "v6e", Resources: []FlavorResource{{Name: string(tpu), Nominal: qty("32")}}},
					},
				},
				{
					Name: "b-team", Cohort: "all", Strategy: "BestEffortFIFO", Inactive: "FlavorNotFound: ResourceFlavor v6e does not exist",
					Flavors: []Flavor{{Name: "v6e", Resources: []FlavorResource{{Name: string(tpu), Nominal: qty("16"), LendingLimit: ptr.To(qty("8"))}}}},
				},
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			if diff := cmp.Diff(tc.want, Queues(&tc.cluster)); diff != "" {
				t.Errorf("Queues (-want +got):\n%s", diff)
			}
		})
	}
}
