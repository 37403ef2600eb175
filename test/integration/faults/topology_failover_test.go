package faults_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// gpuSubblockJobSet is JobSet default/name in LocalQueue gpu-queue: one
// Job of 4 pods of 4 GPUs that requires one subblock.
func gpuSubblockJobSet(name string) *jobsetv1alpha2.JobSet {
	return builders.JobSet("default", name).Unconfined().
		Annotation(wellknown.QueueNameLabel, "gpu-queue").
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(app.Name).NoRequests().Request(wellknown.ResourceGPU, "4").
				Annotation(wellknown.RequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel)
		}).
		ReplicatedJob("workers", 1, 4).Obj()
}

// subblocksOf waits until want pods of JobSet default/name are bound and
// returns the subblocks their nodes are in.
func subblocksOf(t *testing.T, cp *harness.ControlPlane, name string, want int) map[string]bool {
	t.Helper()
	var subs map[string]bool
	bound := 0
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, harness.WaitTimeout, true, func(ctx context.Context) (bool, error) {
		pods, err := cp.Client.CoreV1().Pods("default").List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
		if err != nil {
			return false, nil
		}
		subs, bound = map[string]bool{}, 0
		for _, p := range pods.Items {
			if p.Spec.NodeName == "" || p.DeletionTimestamp != nil {
				continue
			}
			node, err := cp.Client.CoreV1().Nodes().Get(ctx, p.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				return false, nil
			}
			subs[node.Labels[wellknown.GCETopologySubblockLabel]] = true
			bound++
		}
		return bound == want, nil
	})
	if err != nil {
		t.Fatalf("JobSet %s: %d of %d pods bound", name, bound, want)
	}
	return subs
}

// A gang that requires one subblock is half bound when the leader dies:
// the new leader, from what the API shows, binds the rest in the subblock
// its first pods are in, charges the queue once, and places the next gang
// in another subblock with room for it — not the one a pod outside the
// queue left too small, nor the first gang's.
func TestTopologyGangHalfBoundSurvivesAFailover(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.InstallQueueCRDs(t)
	cp.CreateFromFile(t, "test/integration/quota/testdata/gpu-topology.yaml")
	cp.CreateFromFile(t, "test/integration/quota/testdata/gpu-queue.yaml")
	for b := range 2 {
		for s := range 2 {
			for h := range 2 {
				name := fmt.Sprintf("b%d-s%d-h%d", b, s, h)
				cp.CreateNode(t, builders.Node(name).GPU("nvidia-h100-80gb", 8).
					Label(corev1.LabelHostname, name).Label("node-group", "gpu").
					Label(wellknown.GCETopologyBlockLabel, fmt.Sprintf("b%d", b)).
					Label(wellknown.GCETopologySubblockLabel, fmt.Sprintf("b%d-s%d", b, s)).Obj())
			}
		}
	}
	// 4 GPUs of b0-s0 are taken: 12 are left there, too few for 16.
	cp.CreatePod(t, builders.Pod("default", "squatter").NoRequests().Request(wellknown.ResourceGPU, "4").NodeName("b0-s0-h0").Obj())
	fp := cp.StartFaultProxy(t)
	replicas := startPair(t, cp, fp, schedulerConfig(t, map[string]any{"permitTimeoutSeconds": 30}))
	jobsets := cp.NewJobSets(t, harness.AllAtOnce)

	js := jobsets.CreateObject(t, gpuSubblockJobSet("first"))
	pods := builders.PodsOf(js, 0)
	slow := pods[3].Name
	fp.SetRules(harness.FaultRule{Name: "slow", Match: namedBinds(slow), Hold: true})
	for _, p := range pods {
		jobsets.CreatePod(t, p)
	}
	first := subblocksOf(t, cp, "first", 3)
	fp.WaitHeld(t, "slow", 1)
	replicas.failover(t, cp)
	fp.SetRules()

	if got := subblocksOf(t, cp, "first", 4); len(got) != 1 || got["b0-s0"] || !sameKeys(got, first) {
		t.Errorf("the first gang landed in subblocks %v (its first 3 pods in %v), want all 4 in one, not b0-s0", got, first)
	}
	jobsets.Create(t, gpuSubblockJobSet("second"))
	second := subblocksOf(t, cp, "second", 4)
	if len(second) != 1 || second["b0-s0"] || sameKeys(second, first) {
		t.Errorf("the second gang landed in subblocks %v, want one of its own (the first's is %v), not b0-s0", second, first)
	}
	cp.Queues().WaitResourceInUse(t, "gpu-cluster-queue", wellknown.ResourceGPU, 32)
}

// sameKeys reports whether a and b hold the same keys.
func sameKeys(a, b map[string]bool) bool {
	if len(a) != len(b) {
		return false
	}
	for k := range a {
		if !b[k] {
			return false
		}
	}
	return true
}
