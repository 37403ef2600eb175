package admission_test

import (
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// BenchmarkPlanTopology is one topology-aware gang's decision (Plan) on
// its own, as the GPU fleet grows: nodes of 8 nvidia.com/gpu, 16 to a
// subblock and 16 subblocks to a block (GKE's block, subblock and host
// labels; the flavor's levels block → subblock → hostname), every other
// subblock partly held by another workload (12 of its 16 hosts with 6 of
// 8 GPUs used: 56 GPUs free), the rest free. The gangs, one JobSet pod
// set each, charged to a ClusterQueue whose flavor names the topology:
//
//   - pods=4: 4 pods of 8 GPUs (whole hosts), required in one subblock;
//     the tightest is a partly held subblock, whose 4 free hosts take it.
//   - pods=64: 8 Jobs of 8 pods of 1 GPU, required in one subblock; the
//     partly held subblocks (56 GPUs) are passed over for a free one.
//   - pods=1000: 125 Jobs of 8 pods of 1 GPU, required in one block.
//
// It is measured on the admission package's snapshot, not one taken from
// state.State: for a topology pod set (a slice confined to no domain key)
// State hands a full snapshot, every node of the cluster, which is what
// this one is; what State's copy costs is another O(nodes) term, apart
// (BenchmarkSnapshotAndPlan in pkg/state measures it for confined gangs).
//
// "fresh" is the decision on a snapshot Plan has not read yet: the
// topology tree (Snapshot.Trees) and the nodes' qualifiers
// (Snapshot.Qualifiers) are built in the op, as after a node's labels
// changed. "memoised" reuses them: State hands a snapshot of every node
// the trees its index keeps across decisions (built once, dropped when a
// node's labels change), and preemption's simulations on one snapshot
// share both; the qualifiers are still built once per snapshot, which
// "memoised" leaves out.
// Besides ns/op it reports ns/pod (ns/op over the gang's pods) and ns/node
// (ns/op over the fleet's nodes). `make bench` runs it.
func BenchmarkPlanTopology(b *testing.B) {
	gangs := []struct {
		pods, perJob int
		gpus         string
		level        string
	}{
		{pods: 4, perJob: 4, gpus: "8", level: subblock},
		{pods: 64, perJob: 8, gpus: "1", level: subblock},
		{pods: 1000, perJob: 8, gpus: "1", level: block},
	}
	for _, nodes := range []int{1000, 5000, 15000} {
		b.Run(fmt.Sprintf("nodes=%d", nodes), func(b *testing.B) {
			s := topoFleet(nodes)
			for _, g := range gangs {
				pod := spec().Request(wellknown.ResourceGPU, g.gpus)
				w := jobSetModel("new").slices(g.pods/g.perJob, g.perJob, "", 0, pod).obj()
				r := workload.TopologyRequest{Mode: workload.TopologyRequired, Level: g.level}
				for i := range w.Slices {
					w.Slices[i].ReplicatedJob = "workers"
					w.Slices[i].Topology = &r
				}
				s.self(w, all(w, pod)...).gpuQueue(gpuFlavor())
				sn := s.sn
				checkTopologyPlan(b, sn, g.pods, g.level)
				b.Run(fmt.Sprintf("pods=%d", g.pods), func(b *testing.B) {
					for _, fresh := range []bool{true, false} {
						name := "memoised"
						if fresh {
							name = "fresh"
						}
						b.Run(name, func(b *testing.B) {
							if _, fail := admission.Plan(sn); fail != nil {
								b.Fatal(fail.Message)
							}
							b.ReportAllocs()
							b.ResetTimer()
							for range b.N {
								if fresh {
									sn.Trees, sn.Qualifiers = nil, nil
								}
								if _, fail := admission.Plan(sn); fail != nil {
									b.Fatal(fail.Message)
								}
							}
							op := float64(b.Elapsed().Nanoseconds()) / float64(b.N)
							b.ReportMetric(op/float64(g.pods), "ns/pod")
							b.ReportMetric(op/float64(nodes), "ns/node")
						})
					}
				})
			}
		})
	}
}

// topoFleet is a snapshot of nodes GPU nodes, node i host i%16 of
// subblock i/16%16 of block i/256 (the last block, and its last subblock,
// may be partial), named and labelled as gpuFleet's; every odd subblock
// partly held by a workload of its own (see BenchmarkPlanTopology).
func topoFleet(nodes int) *snap {
	const hosts, subblocks = 16, 16
	s := snapshot()
	for i := range nodes {
		b, sb, h := i/(hosts*subblocks), i/hosts%subblocks, i%hosts
		name := fmt.Sprintf("b%d-s%d-h%d", b, sb, h)
		s.add(builders.Node(name).GPU("nvidia-h100-80gb", 8).
			Label(corev1.LabelHostname, name).Label("node-group", "gpu").
			Label(block, fmt.Sprintf("b%d", b)).Label(subblock, fmt.Sprintf("s%d", sb)).
			Label(wellknown.GCETopologyHostLabel, name).Obj())
		if sb%2 == 0 || h >= 12 {
			continue
		}
		holder := other(fmt.Sprintf("run-b%d-s%d", b, sb))
		if s.sn.Workloads[holder.Key] == nil {
			held := jobSetModel(holder.Key.Name).slices(12, 1, "", 0, spec().Request(wellknown.ResourceGPU, "6")).obj()
			s.sn.Workloads[holder.Key] = &state.WorkloadView{Key: holder.Key, Holder: holder, Model: held}
		}
		s.gpus(name, 6)
		s.sn.Nodes[name].Holders = map[workload.Holder]int{holder: 1}
	}
	return s
}

// checkTopologyPlan fails b unless the snapshot's gang plans whole, every
// pod in one domain of level.
func checkTopologyPlan(b *testing.B, sn *state.Snapshot, pods int, level string) {
	b.Helper()
	r, fail := admission.Plan(sn)
	if fail != nil {
		b.Fatal(fail.Message)
	}
	placed, domains := 0, map[string]bool{}
	for _, sr := range r.Slices {
		for _, sl := range sr.Slots {
			placed += sl.Count
			l := sn.Nodes[sl.Node].Node.Labels()
			domains[l[block]+"/"+l[level]] = true
		}
	}
	if placed != pods || len(domains) != 1 {
		b.Fatalf("%d of %d pods placed, in %v; want all in one %s", placed, pods, domains, level)
	}
}
