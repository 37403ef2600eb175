package quota_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

const (
	blockLabel    = wellknown.GCETopologyBlockLabel
	subblockLabel = wellknown.GCETopologySubblockLabel
)

// startGPUFleet starts the scheduler over 2 blocks × 2 subblocks × 2
// hosts of 8 GPUs, labelled as GKE labels them, their Topology
// (testdata/gpu-topology.yaml) and a queue whose flavor names it
// (testdata/gpu-queue.yaml).
func startGPUFleet(t *testing.T) *env {
	t.Helper()
	e := start(t, 0, "test/integration/quota/testdata/gpu-topology.yaml", "test/integration/quota/testdata/gpu-queue.yaml")
	for b := range 2 {
		for s := range 2 {
			for h := range 2 {
				name := fmt.Sprintf("b%d-s%d-h%d", b, s, h)
				e.cp.CreateNode(t, builders.Node(name).GPU("nvidia-h100-80gb", 8).
					Label(corev1.LabelHostname, name).Label("node-group", "gpu").
					Label(blockLabel, fmt.Sprintf("b%d", b)).Label(subblockLabel, fmt.Sprintf("b%d-s%d", b, s)).Obj())
			}
		}
	}
	return e
}

// gpuJobSet is a JobSet in the GPU queue of replicas Jobs of parallelism
// pods asking gpus GPUs each, its pod template annotated as given.
func gpuJobSet(name string, replicas, parallelism int32, gpus string, annotations ...string) *jobsetv1alpha2.JobSet {
	return builders.JobSet("default", name).Unconfined().
		Annotation(wellknown.QueueNameLabel, "gpu-queue").
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, gpus)
			for i := 0; i+1 < len(annotations); i += 2 {
				p.Annotation(annotations[i], annotations[i+1])
			}
		}).
		ReplicatedJob("workers", replicas, parallelism).Obj()
}

// domainsOf waits until want pods of the JobSet are bound, and returns per
// Job index the set of values of label on their nodes.
func (e *env) domainsOf(t *testing.T, name string, want int, label string) map[string]map[string]bool {
	t.Helper()
	var out map[string]map[string]bool
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pods, err := e.cp.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
		if err != nil {
			return false, nil
		}
		out = map[string]map[string]bool{}
		bound := 0
		for _, p := range pods.Items {
			if p.Spec.NodeName == "" {
				continue
			}
			node, err := e.cp.Client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			bound++
			job := p.Labels[wellknown.JobGlobalIndexLabel]
			if out[job] == nil {
				out[job] = map[string]bool{}
			}
			out[job][node.Labels[label]] = true
		}
		return bound == want, nil
	})
	if err != nil {
		t.Fatalf("JobSet %s: %d pods never all bound: %v (so far %v)", name, want, err, out)
	}
	return out
}

func union(by map[string]map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, vs := range by {
		for v := range vs {
			out[v] = true
		}
	}
	return out
}

// A pod set that requires one subblock lands whole in one, never split
// over two, and passes over a subblock another pod has made too small;
// one larger than any subblock waits, none of its pods bound, saying what
// it needs and the most any subblock takes.
func TestTopologyRequiredSubblockIsNeverSplit(t *testing.T) {
	e := startGPUFleet(t)
	// A pod outside the queue takes 4 GPUs of b0-s0: 12 are left there.
	e.cp.CreatePod(t, builders.Pod("default", "squatter").NoRequests().Request(wellknown.ResourceGPU, "4").NodeName("b0-s0-h0").Obj())

	e.jobsets.Create(t, gpuJobSet("sub", 1, 4, "4", wellknown.RequiredTopologyAnnotation, subblockLabel))
	got := union(e.domainsOf(t, "sub", 4, subblockLabel))
	if len(got) != 1 || got["b0-s0"] {
		t.Errorf("4 pods of 4 GPUs requiring one subblock landed in subblocks %v, want one that is not b0-s0", got)
	}
	// In rank order: completion indexes 0 and 1 share a host, 2 and 3 the
	// other.
	pods, err := e.cp.Client.CoreV1().Pods("default").List(t.Context(), metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=sub"})
	if err != nil {
		t.Fatal(err)
	}
	nodeOf := map[string]string{}
	for _, p := range pods.Items {
		nodeOf[p.Labels[wellknown.JobCompletionIndexLabel]] = p.Spec.NodeName
	}
	if nodeOf["0"] != nodeOf["1"] || nodeOf["2"] != nodeOf["3"] || nodeOf["0"] == nodeOf["2"] {
		t.Errorf("pods by completion index on %v, want 0 and 1 on one host, 2 and 3 on another", nodeOf)
	}

	// 24 GPUs in one subblock of 16: no subblock will ever do.
	big := e.jobsets.Create(t, gpuJobSet("big", 1, 6, "4", wellknown.RequiredTopologyAnnotation, subblockLabel))
	e.cp.ExpectNoneBound(t, "default", "big", 2*time.Second)
	c := e.cp.WaitForPodConditionSaying(t, "default", builders.PodsOf(big, 0)[0].Name, corev1.PodScheduled, corev1.ConditionFalse, "in one "+subblockLabel)
	if !strings.Contains(c.Message, "needs 6 pods in one "+subblockLabel+"; the largest free one takes 4") ||
		!strings.Contains(c.Message, "each pod asks for 4 nvidia.com/gpu") {
		t.Errorf("the waiting pod says %q, want what it needs and the largest free subblock", c.Message)
	}
	// No subblock could ever hold it: its Workload says so, and is not
	// admitted.
	wl := e.waitWorkload(t, "default", "big", "Unplaceable", condition(multislicev1alpha1.WorkloadQuotaReserved, metav1.ConditionFalse, "Unplaceable"))
	if c := findCondition(wl, multislicev1alpha1.WorkloadQuotaReserved); !strings.Contains(c.Message, "in one "+subblockLabel) {
		t.Errorf("QuotaReserved message %q does not say which level", c.Message)
	}
}

// Slices of a pod set that requires one block each land in one subblock
// of that block: two Jobs of 2 pods × 8 GPUs fill the block's two
// subblocks, one Job each.
func TestTopologySlicesOfARequiredBlock(t *testing.T) {
	e := startGPUFleet(t)
	e.jobsets.Create(t, gpuJobSet("sliced", 2, 2, "8",
		wellknown.RequiredTopologyAnnotation, blockLabel,
		wellknown.SliceRequiredTopologyAnnotation, subblockLabel,
		wellknown.SliceSizeAnnotation, "2"))
	bySub := e.domainsOf(t, "sliced", 4, subblockLabel)
	byBlock := e.domainsOf(t, "sliced", 4, blockLabel)
	if len(union(byBlock)) != 1 {
		t.Errorf("the pod set spans blocks %v, want one", union(byBlock))
	}
	for job, subs := range bySub {
		if len(subs) != 1 {
			t.Errorf("Job %s spans subblocks %v, want one", job, subs)
		}
	}
	if len(union(bySub)) != 2 {
		t.Errorf("the two Jobs share subblocks %v, want one each", union(bySub))
	}
}

// A pod set that prefers one subblock but is larger than any climbs to the
// block: 3 pods of 8 GPUs fill a subblock and one host of the other
// subblock of the same block, and a second such set takes the other block
// rather than the host left free beside the first.
func TestTopologyPreferredPacksIntoABlock(t *testing.T) {
	e := startGPUFleet(t)
	e.jobsets.Create(t, gpuJobSet("first", 1, 3, "8", wellknown.PreferredTopologyAnnotation, subblockLabel))
	first := union(e.domainsOf(t, "first", 3, blockLabel))
	if len(first) != 1 {
		t.Fatalf("3 pods preferring one subblock span blocks %v, want one block", first)
	}
	e.jobsets.Create(t, gpuJobSet("second", 1, 3, "8", wellknown.PreferredTopologyAnnotation, subblockLabel))
	second := union(e.domainsOf(t, "second", 3, blockLabel))
	if len(second) != 1 {
		t.Fatalf("the second set spans blocks %v, want one block", second)
	}
	for b := range first {
		if second[b] {
			t.Errorf("both sets share block %s; the second fits whole in the other block", b)
		}
	}
}

// A flavor naming a Topology not created yet: a pod set asking for a
// topology waits, its pods saying which Topology is missing, and is placed
// once the Topology is created (the flavor is fed again with its levels).
func TestTopologyCreatedAfterItsFlavor(t *testing.T) {
	e := start(t, 0)
	for s := range 2 {
		for h := range 2 {
			name := fmt.Sprintf("s%d-h%d", s, h)
			e.cp.CreateNode(t, builders.Node(name).GPU("nvidia-h100-80gb", 8).
				Label(corev1.LabelHostname, name).Label("node-group", "gpu").
				Label(blockLabel, "b0").Label(subblockLabel, fmt.Sprintf("s%d", s)).Obj())
		}
	}
	// The queue before its Topology.
	objs := e.cp.CreateFromFile(t, "test/integration/quota/testdata/gpu-queue.yaml")
	if len(objs) != 3 {
		t.Fatalf("created %d objects, want the flavor, ClusterQueue and LocalQueue", len(objs))
	}
	js := e.jobsets.Create(t, gpuJobSet("waits", 1, 2, "8", wellknown.RequiredTopologyAnnotation, subblockLabel))
	e.cp.WaitForPodConditionSaying(t, "default", builders.PodsOf(js, 0)[0].Name, corev1.PodScheduled, corev1.ConditionFalse,
		`ResourceFlavor h100 names Topology "gke-default", which does not exist`)
	e.cp.ExpectNoneBound(t, "default", "waits", time.Second)

	e.cp.CreateFromFile(t, "test/integration/quota/testdata/gpu-topology.yaml")
	if subs := union(e.domainsOf(t, "waits", 2, subblockLabel)); len(subs) != 1 {
		t.Errorf("placed in subblocks %v, want one", subs)
	}
}

// A leader and its workers in one group (podset-group-name) land in one
// subblock: the workers alone would take b0-s0, the tightest (a pod
// outside the queue holds 4 of its GPUs), but the leader's whole host is
// not left there beside them, so the group goes whole to another subblock.
func TestTopologyGroupKeepsTheLeaderWithItsWorkers(t *testing.T) {
	e := startGPUFleet(t)
	e.cp.CreatePod(t, builders.Pod("default", "squatter").NoRequests().Request(wellknown.ResourceGPU, "4").NodeName("b0-s0-h0").Obj())
	team := func(gpus string) func(*builders.PodBuilder) {
		return func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, gpus).
				Annotation(wellknown.RequiredTopologyAnnotation, subblockLabel).
				Annotation(wellknown.PodSetGroupNameAnnotation, "team")
		}
	}
	e.jobsets.Create(t, builders.JobSet("default", "team").Unconfined().
		Annotation(wellknown.QueueNameLabel, "gpu-queue").
		Pod(team("8")).ReplicatedJob("leader", 1, 1).
		Pod(team("4")).ReplicatedJob("workers", 1, 2).Obj())
	got := union(e.domainsOf(t, "team", 3, subblockLabel))
	if len(got) != 1 || got["b0-s0"] {
		t.Errorf("the leader and its 2 workers landed in subblocks %v, want one subblock other than b0-s0", got)
	}
}
