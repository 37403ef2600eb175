package multislicegang

import (
	"strings"
	"testing"

	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// A slice's pods passed Permit; one binds, the other's bind fails while
// the node it was reserved on is relabelled into pool-3, where b runs.
// The scheduler's cache has the new label; the state, fed by its own
// handler of the same informer, has not seen it yet. The retried pod's
// reservation still plans room on that node, but the node has left the
// slice's domain: Filter, which reads the node as the cache has it, keeps
// the pod off it. Once the state sees the move the reservation is gone
// and the slice plans again.
func TestFilterKeepsARetriedPodOffANodeTheCacheSawLeave(t *testing.T) {
	f := newFixture(t, builders.V5ePools(3)...)
	b := unit.JobSet("b").ReplicatedJob("w", 1, 2).Obj()
	f.addJobSet(b)
	f.addPods(builders.MembersOn(b, poolNodes("pool-3")...)...)
	all := f.addGang(unit.JobSet("a").ReplicatedJob("w", 1, 2).Obj())
	var nodes []string
	for _, p := range all {
		node := nodeNames(mustPreFilter(f, p))[0]
		if st := f.reserve(p, node); !st.IsSuccess() {
			t.Fatalf("Reserve %s on %s: %v", p.Name, node, st)
		}
		nodes = append(nodes, node)
	}
	if st, _ := f.permit(all[1]); !st.IsSuccess() {
		t.Fatalf("Permit of the last member: %v", st)
	}
	pool := f.slicePool(jsKey("a"), 0)
	f.addPods(builders.Bound(all[0], nodes[0]))
	f.unreserve(all[1]) // its bind failed

	moved := nodes[1]
	relabelled := f.nodes[moved].DeepCopy()
	relabelled.Labels[wellknown.NodePoolLabel] = "pool-3"
	f.nodes[moved] = relabelled // the cache only

	res := mustPreFilter(f, all[1])
	if got := nodeNames(res); len(got) != 1 || got[0] != moved {
		t.Fatalf("PreFilter offers %v, want the node the state still has in %s (%s)", got, pool, moved)
	}
	st := statusOf(f.filter(all[1], moved))
	if st.Code != fwk.Unschedulable || !strings.Contains(st.Message, "pool-3") {
		t.Errorf("Filter of the retried pod on %s, now in pool-3 where b runs = %+v, want Unschedulable naming pool-3", moved, st)
	}

	f.st.Feed().UpsertNode(relabelled) // the state catches up
	if _, held := heldReservation(t, f, jsKey("a")); held {
		t.Errorf("the reservation of a still holds after %s left %s", moved, pool)
	}
	if _, st := f.preFilter(all[1]); st.IsSuccess() {
		t.Errorf("PreFilter lets the retried pod go on with one node of %s left and pool-3 held by b", pool)
	}
}
