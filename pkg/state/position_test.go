package state_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// The report gives each waiting workload its place in its ClusterQueue
// and in its LocalQueue, in admission order, and each queue its head, all
// bounded to the first PendingHeadLimit; a workload holding quota has no
// place.
func TestQueueReportPositions(t *testing.T) {
	f := withQueue(newFixture(t, builders.V5ePools(1)...), 8, quota.BestEffortFIFO)
	f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "other-queue", ClusterQueue: "cluster-queue"})
	// running holds the quota; w00…w13 wait, created in that order, the
	// odd ones in other-queue.
	f.addRunning(queued("running", 1, 0), "pool-1-node-0", "pool-1-node-1")
	for i := range 14 {
		js := queued(fmt.Sprintf("w%02d", i), 1, i+1)
		if i%2 == 1 {
			js.Annotations[wellknown.QueueNameLabel] = "other-queue"
		}
		f.addGang(js)
	}
	rep := f.s.Reports().QueueReport()

	got := map[string]state.QueuePosition{}
	for _, wr := range rep.Workloads {
		if wr.Position != nil {
			got[wr.Key.Name] = *wr.Position
		} else if wr.Key.Name != "running" && wr.Key.Name < "w10" {
			t.Errorf("%s has no position", wr.Key.Name)
		}
		if wr.Key.Name == "running" && wr.Position != nil {
			t.Errorf("the admitted workload has position %+v", *wr.Position)
		}
	}
	want := map[string]state.QueuePosition{}
	for i := range 14 {
		p := state.QueuePosition{LocalQueue: i/2 + 1}
		if i < state.PendingHeadLimit {
			p.ClusterQueue = i + 1
		}
		want[fmt.Sprintf("w%02d", i)] = p
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("positions (-want +got):\n%s", diff)
	}
	head := func(keys []workload.Key) []string {
		var out []string
		for _, k := range keys {
			out = append(out, k.Name)
		}
		return out
	}
	cqHead := head(rep.ClusterQueues["cluster-queue"].Head)
	if len(cqHead) != state.PendingHeadLimit || cqHead[0] != "w00" || !slices.IsSorted(cqHead) {
		t.Errorf("ClusterQueue head %v, want w00…w09", cqHead)
	}
	if got := head(rep.LocalQueues[unit.Namespace+"/other-queue"].Head); !slices.Equal(got, []string{"w01", "w03", "w05", "w07", "w09", "w11", "w13"}) {
		t.Errorf("other-queue head %v", got)
	}
}
