package state_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// BenchmarkTopologyDecision is one topology-aware gang's decision in
// PreFilter (the state's snapshot for planning, then the plan), as the GPU
// fleet grows: hosts of 8 GPUs, 16 to a subblock and 16 subblocks to a
// block (GKE's labels; the queue's flavor names the Topology block →
// subblock → host), every other subblock partly held (12 of its 16 hosts
// with 6 GPUs used), and gangs queued as JobSets with
// podset-required-topology:
//
//   - pods=4: 4 pods of 8 GPUs in one subblock;
//   - pods=64: 8 Jobs of 8 pods of 1 GPU in one subblock;
//   - pods=1000: 125 Jobs of 8 pods of 1 GPU in one block.
//
// "roomiest" is the decision PreFilter makes: on the snapshot of the few
// domains whose free room could take the gang (Snapshot.Roomy). "every
// node" is the same decision on a snapshot of the whole fleet, as it was
// made before the state kept each domain's room, and as PreFilter makes
// it when a plan on the roomiest domains fails. Besides ns/op it reports
// ns/node (over the fleet's hosts) and nodes/op (the nodes the snapshot
// copied). `make bench` runs it.
func BenchmarkTopologyDecision(b *testing.B) {
	gangs := []struct {
		pods, perJob int32
		gpus, level  string
	}{
		{pods: 4, perJob: 4, gpus: "8", level: gpuSubblock},
		{pods: 64, perJob: 8, gpus: "1", level: gpuSubblock},
		{pods: 1000, perJob: 8, gpus: "1", level: gpuBlock},
	}
	for _, hosts := range []int{1000, 5000, 15000} {
		b.Run(fmt.Sprintf("nodes=%d", hosts), func(b *testing.B) {
			f := gpuFleet(b, hosts)
			requested := indexedRequested(f)
			for _, g := range gangs {
				name := fmt.Sprintf("tas-%d", g.pods)
				js := unit.JobSet(name).Unconfined().
					Annotation(wellknown.QueueNameLabel, "gpu-queue").
					Pod(func(p *builders.PodBuilder) {
						p.NoNodeSelector().NoRequests().Request(wellknown.ResourceGPU, g.gpus).
							Annotation(wellknown.RequiredTopologyAnnotation, g.level)
					}).
					ReplicatedJob("workers", g.pods/g.perJob, g.perJob).Obj()
				f.addGang(js)
				for _, mode := range []struct {
					name     string
					snapshot func(workload.Key, state.Requested) *state.Snapshot
				}{{"roomiest", f.s.SnapshotForPlan}, {"every-node", f.s.Snapshot}} {
					b.Run(fmt.Sprintf("pods=%d/%s", g.pods, mode.name), func(b *testing.B) {
						var copied int
						b.ReportAllocs()
						for range b.N {
							sn := mode.snapshot(jsKey(name), requested)
							if _, fail := admission.Plan(sn); fail != nil {
								b.Fatal(fail.Message)
							}
							copied = len(sn.Nodes)
						}
						op := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
						b.ReportMetric(op/float64(hosts), "ns/node")
						b.ReportMetric(float64(copied), "nodes/op")
					})
				}
			}
		})
	}
}

// gpuFleet is a fixture of hosts GPU hosts, host i%16 of subblock
// i/16%16 of block i/256, every odd subblock with 12 of its hosts running
// a pod of 6 GPUs, and queue gpu-queue whose flavor names the Topology
// block → subblock → host.
func gpuFleet(tb testing.TB, hosts int) *fixture {
	tb.Helper()
	var nodes []*corev1.Node
	var held []string
	for i := range hosts {
		name := fmt.Sprintf("b%d-s%d-h%d", i/256, i/16%16, i%16)
		nodes = append(nodes, builders.Node(name).GPU("nvidia-h100-80gb", 8).Label(corev1.LabelHostname, name).
			Label(gpuBlock, fmt.Sprintf("b%d", i/256)).Label(gpuSubblock, fmt.Sprintf("b%d-s%d", i/256, i/16%16)).Obj())
		if i/16%2 == 1 && i%16 < 12 {
			held = append(held, name)
		}
	}
	f := withGPUQueue(newFixture(tb, nodes...), int64(hosts)*8)
	for i := 0; i < len(held); i += 12 {
		running(f, fmt.Sprintf("held-%d", i/12), "6", held[i:i+12]...)
	}
	return f
}

// withGPUQueue is the fixture with flavor h100, whose Topology "gpus" is
// block → subblock → host, ClusterQueue cluster-queue of gpus
// nvidia.com/gpu in it, and LocalQueue gpu-queue in the tests' namespace.
func withGPUQueue(f *fixture, gpus int64) *fixture {
	f.act(f.s.Feed().SetFlavor(&quota.Flavor{Name: "h100", Topology: "gpus",
		TopologyLevels: []string{gpuBlock, gpuSubblock, corev1.LabelHostname}}))
	f.act(f.s.Feed().SetClusterQueue(&quota.ClusterQueue{
		Name: "cluster-queue", Strategy: quota.BestEffortFIFO, FairWeight: 1000,
		Groups: []quota.Group{{Covered: []corev1.ResourceName{wellknown.ResourceGPU}, Flavors: []string{"h100"}}},
		Quotas: map[quota.FlavorResource]quota.Limit{{Flavor: "h100", Resource: wellknown.ResourceGPU}: {Nominal: gpus * 1000}},
	}))
	f.act(f.s.Feed().SetLocalQueue(&quota.LocalQueue{Namespace: unit.Namespace, Name: "gpu-queue", ClusterQueue: "cluster-queue"}))
	return f
}
