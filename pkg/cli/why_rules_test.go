package cli

import (
	"slices"
	"testing"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// why sizes up domains by the scheduler's own rule (workload.Holder.Blocks):
// the pods of a deleted JobSet of the same name hold their pool against
// the new one, and pods that do not say which object they were created
// for count as the current one's.
func TestExplainDomainsHolderRule(t *testing.T) {
	old := unit.JobSet("train").UID("old-uid").ReplicatedJob("slice", 1, 2).Obj()
	cur := unit.JobSet("train").UID("train-uid").ReplicatedJob("slice", 1, 2).Obj()
	anonymous := builders.MembersOn(cur, "pool-3-node-0", "pool-3-node-1")
	for i := range anonymous {
		anonymous[i] = builders.Edit(anonymous[i]).Label(wellknown.JobSetUIDLabel, "").Obj()
	}
	c := &Cluster{
		Nodes: nodes(builders.V5ePool("pool-1"), builders.V5ePool("pool-2"), builders.V5ePool("pool-3")),
		Pods: slices.Concat(builders.MembersOn(old, "pool-1-node-0", "pool-1-node-1"),
			builders.MembersOn(cur, "pool-2-node-0", "pool-2-node-1"), anonymous),
	}
	own := workload.Holder{Key: workload.Key{Source: workload.SourceJobSet, Namespace: "ns", Name: "train"}, UID: "train-uid"}
	slice := workload.Slice{Name: "slice", Pods: 2, DomainKey: wellknown.NodePoolLabel}
	got := c.explainDomains(own, []workload.Slice{slice})
	if len(got) != 1 {
		t.Fatalf("explainDomains = %+v, want one key", got)
	}
	d := got[0]
	if !slices.Equal(d.Own, []string{"pool-2", "pool-3"}) {
		t.Errorf("own domains %v, want pool-2 and pool-3 (its pods, and pods that do not say)", d.Own)
	}
	if len(d.Held) != 1 || d.Held[0].Domain != "pool-1" || d.Held[0].Holders[0].UID != "old-uid" {
		t.Errorf("held %+v, want pool-1, by the deleted JobSet of the same name", d.Held)
	}
}

// why reads a ClusterQueue with the scheduler's own conversion: one the
// scheduler leaves out (a spec it cannot model) is said to be wrong, and
// where, rather than sized up as if it were served.
func TestExplainQueueReadsClusterQueuesAsTheSchedulerDoes(t *testing.T) {
	tpu := wellknown.ResourceTPU
	cq := builders.ClusterQueue("cluster-queue").Quota("vlp-24", tpu, "24").Obj()
	cq.Spec.Cohort, cq.Spec.CohortName = "a", "b"
	c := &Cluster{
		ClusterQueues:   []*multislicev1alpha1.ClusterQueue{cq},
		LocalQueues:     []*multislicev1alpha1.LocalQueue{builders.LocalQueue("ns", "lq", "cluster-queue")},
		ResourceFlavors: []*multislicev1alpha1.ResourceFlavor{builders.ResourceFlavor("vlp-24", wellknown.TPUAcceleratorLabel, builders.V5e)},
	}
	wl := builders.Workload(KindJobSet, "ns", "train", "lq").PodSet("train-slice-0", 2, tpu, "4", wellknown.NodePoolLabel).Obj()
	q := c.explainQueue(wl, workload.Resources{tpu: 8000}, PendingList{})
	if want := "ClusterQueue cluster-queue: spec.cohortName: cohort (v1beta1's spelling) is set too: set one of them"; q.Problem != want {
		t.Errorf("problem %q, want %q", q.Problem, want)
	}
}
