package lifetimes_test

import (
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// poolNode is node i of flex-start pool "a" of machine type machine.
func poolNode(machine string, i int) *corev1.Node {
	return builders.NodePool("a").Nodes(4).GPU(gpuModel, 1).
		Label(wellknown.ComputeClassLabel, class).Label(wellknown.FlexStartLabel, "true").
		Label(corev1.LabelInstanceTypeStable, machine).Node(i)
}

// Seed 001's node recycling, on the real apiserver: a slice runs on the
// two nodes of flex-start pool a, whose class recycles them 5 s after
// their creation. GKE adds a replacement to the pool for each and cordons
// each old node once its own replacement is Ready. While only one
// replacement is there the slice stays (it would not fit whole on nodes
// that last); once both are, the scheduler evicts both of its pods through
// the Eviction API (DisruptionTarget, reason EvictionByEvictionAPI) and
// says so on the JobSet, and the pods the Job recreates run on the
// replacements.
func TestRecycledSliceMovesWholeToItsReplacements(t *testing.T) {
	e := start(t)
	kubelet := e.cp.StartKubelet(t, 0)
	e.createClass(t, 600, 595)
	e.cp.CreateNode(t, poolNode("g2-standard-24", 0))
	e.cp.CreateNode(t, poolNode("g2-standard-24", 1))
	created := time.Now()
	js := e.jobsets.CreateObject(t, e.jobSet("train", nil).ReplicatedJob("slice", 1, 2).Obj())
	pods := builders.PodsOf(js, 0)
	var names []string
	for _, p := range pods {
		names = append(names, p.Name)
		e.cp.CreatePod(t, builders.Edit(p).OwnedByJob().Obj())
	}
	e.cp.CheckBoundInPool(t, e.ns, "a", names...)
	time.Sleep(time.Until(created.Add(6 * time.Second))) // past the recycling start

	ofTrain := harness.OfJobSet(e.ns, "train", -1)
	e.cp.CreateNode(t, poolNode("g2-standard-48", 2))
	e.cp.CordonNode(t, "a-node-0")
	kubelet.ExpectNoDisruption(t, "one replacement Ready, the other old node still recycling: the slice stays whole", ofTrain, 4*time.Second)

	e.cp.CreateNode(t, poolNode("g2-standard-48", 3))
	e.cp.CordonNode(t, "a-node-1")
	kubelet.WaitTerminated(t, "both replacements Ready: the slice moves", ofTrain, 2, nil)
	for _, p := range kubelet.Disrupted(ofTrain) {
		if c := harness.DisruptionTargetOf(p); c.Reason != "EvictionByEvictionAPI" {
			t.Errorf("pod %s: DisruptionTarget reason %q, want EvictionByEvictionAPI (evicted through the Eviction API)", p.Name, c.Reason)
		}
	}
	if got := len(kubelet.Disrupted(ofTrain)); got != 2 {
		t.Errorf("%d pods marked DisruptionTarget, want the slice's 2", got)
	}
	note := e.cp.WaitForWorkloadEvent(t, e.ns, "train", controllers.ReasonMigrating)
	t.Logf("Migrating: %s", note)

	// The Job controller recreates the pods.
	for _, p := range pods {
		e.cp.CreatePod(t, builders.Edit(p).OwnedByJob().Obj())
	}
	var nodes []string
	for _, name := range names {
		nodes = append(nodes, e.cp.WaitForPodBound(t, e.ns, name).Spec.NodeName)
	}
	slices.Sort(nodes)
	if !slices.Equal(nodes, []string{"a-node-2", "a-node-3"}) {
		t.Errorf("the recreated slice runs on %v, want the replacements a-node-2, a-node-3", nodes)
	}
}
