package cli

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

const (
	gpu      = wellknown.ResourceGPU
	block    = wellknown.GCETopologyBlockLabel
	subblock = wellknown.GCETopologySubblockLabel
	hostname = corev1.LabelHostname
)

// gpuCluster is the GPU fleet gpu-h100 of 2 blocks (b0, b1) of 2 subblocks
// (s0, s1 in b0; s2, s3 in b1) of 4 hosts of 8 GPUs, named
// b<i>-s<j>-h<k>, arranged by Topology gke-gpu, which ResourceFlavor h100
// names, quota of ClusterQueue gpu-cq (LocalQueue ns/gpu-queue). Plain
// pods take the whole of hosts b0-s0-h0 and b0-s0-h1: subblock b0/s0 has
// two free hosts, the others four.
func gpuCluster() Cluster {
	var ns []*corev1.Node
	for b := range 2 {
		for s := 2 * b; s < 2*b+2; s++ {
			for h := range 4 {
				ns = append(ns, builders.Node(fmt.Sprintf("b%d-s%d-h%d", b, s, h)).GPU("nvidia-h100-80gb", 8).
					Label(wellknown.NodePoolLabel, "gpu-h100").
					Label(block, fmt.Sprintf("b%d", b)).Label(subblock, fmt.Sprintf("s%d", s)).Obj())
			}
		}
	}
	h100 := builders.ResourceFlavor("h100", wellknown.NodePoolLabel, "gpu-h100")
	h100.Spec.TopologyName = "gke-gpu"
	return Cluster{
		Now:   now,
		Nodes: ns,
		Pods: []*corev1.Pod{
			unit.Pod("busy-0").Request(gpu, "8").Running("b0-s0-h0").Obj(),
			unit.Pod("busy-1").Request(gpu, "8").Running("b0-s0-h1").Obj(),
		},
		Topologies:      []*multislicev1alpha1.Topology{builders.Topology("gke-gpu", block, subblock, hostname)},
		ResourceFlavors: []*multislicev1alpha1.ResourceFlavor{h100},
		ClusterQueues:   []*multislicev1alpha1.ClusterQueue{builders.ClusterQueue("gpu-cq").Quota("h100", gpu, "128").Obj()},
		LocalQueues:     []*multislicev1alpha1.LocalQueue{builders.LocalQueue("ns", "gpu-queue", "gpu-cq")},
	}
}

// gpuJobSet is JobSet ns/name of replicas Jobs of pods pods asking for a
// whole host's 8 GPUs each, its pod template annotated with kv (key, value
// pairs).
func gpuJobSet(name string, replicas, pods int32, kv ...string) *jobsetv1alpha2.JobSet {
	return builders.JobSet("ns", name).UID(name+"-uid").Created(builders.Epoch).
		Pod(func(p *builders.PodBuilder) {
			p.Scheduler(unit.Scheduler).NoRequests().Request(gpu, "8")
			for i := 0; i+1 < len(kv); i += 2 {
				p.Annotation(kv[i], kv[i+1])
			}
		}).
		ReplicatedJob("workers", replicas, pods).Obj()
}

// queued adds JobSet js to c with its Workload object in ns/gpu-queue,
// one pod set per Job, edited by edit (Waiting, Admitted).
func queued(c *Cluster, js *jobsetv1alpha2.JobSet, edit func(*builders.WorkloadBuilder) *builders.WorkloadBuilder) {
	wl := builders.Workload(KindJobSet, "ns", js.Name, "gpu-queue")
	rj := js.Spec.ReplicatedJobs[0]
	for i := range rj.Replicas {
		wl.PodSet(fmt.Sprintf("%s-%s-%d", js.Name, rj.Name, i), *rj.Template.Spec.Parallelism, gpu, "8", "")
	}
	c.JobSets = append(c.JobSets, js)
	c.Workloads = append(c.Workloads, edit(wl).Obj())
}

func waitingForQuota(wl *builders.WorkloadBuilder) *builders.WorkloadBuilder {
	return wl.Waiting("QuotaExceeded", "insufficient quota in ClusterQueue gpu-cq")
}

func TestWhyTopology(t *testing.T) {
	gke := func(now *TopologyPicture, placed ...TopologyDomainPods) TopologyTree {
		return TopologyTree{Flavor: "h100", Topology: "gke-gpu", Levels: []string{block, subblock, hostname}, At: subblock, Placed: placed, Now: now}
	}
	requiredSubblock := []string{wellknown.RequiredTopologyAnnotation, subblock}
	cases := map[string]struct {
		edit func(*Cluster)
		kind string // of the workload explained; "": a JobSet
		name string
		want []TopologyExplanation
		// printed is the Topology section; nil: no section.
		printed []string
	}{
		"a required subblock that fits, waiting for quota": {
			edit: func(c *Cluster) {
				queued(c, gpuJobSet("small", 1, 4, requiredSubblock...), waitingForQuota)
				c.Pods = append(c.Pods, builders.Members(c.JobSets[0])...)
			},
			name: "small",
			want: []TopologyExplanation{{PodSet: "workers", Pods: 4, PerPod: "nvidia.com/gpu=8", Mode: ModeRequired, Level: subblock,
				Trees: []TopologyTree{gke(&TopologyPicture{Domains: 4, Largest: 4, Fitting: 3, Total: 14, FitsIn: []string{"b0/s1"}})}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set workers: required gce-topology-subblock; 4 pods, each nvidia.com/gpu=8",
				"    levels: Topology gke-gpu of flavor h100: gce-topology-block > gce-topology-subblock > kubernetes.io/hostname",
				"    now: 4 gce-topology-subblock domains, 3 of them take all 4 pods; the largest free one takes 4",
				"    fits now in b0/s1, where the scheduler would place it",
			},
		},
		"a required subblock placed: the subblock its pods are on": {
			edit: func(c *Cluster) {
				js := gpuJobSet("small", 1, 4, requiredSubblock...)
				queued(c, js, func(wl *builders.WorkloadBuilder) *builders.WorkloadBuilder { return wl.Admitted("gpu-cq", "h100") })
				c.Pods = append(c.Pods, builders.MembersOn(js, "b1-s3-h0", "b1-s3-h1", "b1-s3-h2", "b1-s3-h3")...)
			},
			name: "small",
			want: []TopologyExplanation{{PodSet: "workers", Pods: 4, PerPod: "nvidia.com/gpu=8", Mode: ModeRequired, Level: subblock,
				Trees: []TopologyTree{gke(nil, TopologyDomainPods{Domain: "b1/s3", Pods: 4})}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set workers: required gce-topology-subblock; 4 pods, each nvidia.com/gpu=8",
				"    levels: Topology gke-gpu of flavor h100: gce-topology-block > gce-topology-subblock > kubernetes.io/hostname",
				"    placed in gce-topology-subblock b1/s3 (4 pods)",
			},
		},
		"a required subblock that waits: the largest free one takes fewer": {
			edit: func(c *Cluster) {
				queued(c, gpuJobSet("big", 1, 6, requiredSubblock...), func(wl *builders.WorkloadBuilder) *builders.WorkloadBuilder {
					return wl.Waiting("WaitingForDomains", "pod set workers: needs 6 pods in one cloud.google.com/gce-topology-subblock")
				})
			},
			name: "big",
			want: []TopologyExplanation{{PodSet: "workers", Pods: 6, PerPod: "nvidia.com/gpu=8", Mode: ModeRequired, Level: subblock,
				Trees: []TopologyTree{gke(&TopologyPicture{Domains: 4, Largest: 4, Total: 14,
					Message: "pod set workers: needs 6 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 4 (4 tried); each pod asks for 8 nvidia.com/gpu"})}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set workers: required gce-topology-subblock; 6 pods, each nvidia.com/gpu=8",
				"    levels: Topology gke-gpu of flavor h100: gce-topology-block > gce-topology-subblock > kubernetes.io/hostname",
				"    now: 4 gce-topology-subblock domains, 0 of them take all 6 pods; the largest free one takes 4",
				"    placement: pod set workers: needs 6 pods in one cloud.google.com/gce-topology-subblock; the largest free one takes 4 (4 tried); each pod asks for 8 nvidia.com/gpu",
			},
		},
		// Of no queue, it is placed by the levels it names above the
		// host: subblocks s1, s2 and s3 take a slice each, s0 none.
		"a sliced pod set of no queue: slices spread over subblocks": {
			edit: func(c *Cluster) {
				js := gpuJobSet("sliced", 2, 4, wellknown.SliceRequiredTopologyAnnotation, subblock, wellknown.SliceSizeAnnotation, "4")
				c.JobSets = append(c.JobSets, js)
				c.Pods = append(c.Pods, builders.Members(js)...)
			},
			name: "sliced",
			want: []TopologyExplanation{{PodSet: "workers", Pods: 8, PerPod: "nvidia.com/gpu=8", Mode: ModeSliced, SliceLevel: subblock, SliceSize: 4,
				Trees: []TopologyTree{{Levels: []string{subblock, hostname}, At: subblock,
					Now: &TopologyPicture{Domains: 4, Largest: 4, Total: 12, FitsIn: []string{"s1", "s2"}}}}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set workers: sliced: slices of 4 pods, each in one gce-topology-subblock; 8 pods, each nvidia.com/gpu=8",
				"    levels: unqueued: gce-topology-subblock above kubernetes.io/hostname",
				"    now: 4 gce-topology-subblock domains, 0 of them take all 8 pods; the largest free one takes 4; together they take 12",
				"    fits now in s1, s2, where the scheduler would place it",
			},
		},
		"a flavor naming a Topology that does not exist": {
			edit: func(c *Cluster) {
				c.Topologies = nil
				queued(c, gpuJobSet("small", 1, 4, requiredSubblock...), waitingForQuota)
			},
			name: "small",
			want: []TopologyExplanation{{PodSet: "workers", Pods: 4, PerPod: "nvidia.com/gpu=8", Mode: ModeRequired, Level: subblock,
				Trees: []TopologyTree{{Flavor: "h100", Topology: "gke-gpu",
					Problem: `ResourceFlavor h100 names Topology "gke-gpu", which does not exist: create it, or fix spec.topologyName`}}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set workers: required gce-topology-subblock; 4 pods, each nvidia.com/gpu=8",
				`    levels: Topology gke-gpu of flavor h100: ResourceFlavor h100 names Topology "gke-gpu", which does not exist: create it, or fix spec.topologyName`,
			},
		},
		// A LeaderWorkerSet group's pod set is the group, asking what
		// its leader's template asks; of no queue, by the level above
		// the host.
		"a LeaderWorkerSet group placed: the subblock its pods are on": {
			edit: func(c *Cluster) {
				for w := range 4 {
					c.Pods = append(c.Pods, lwsGroupPod(w, 4, fmt.Sprintf("b1-s2-h%d", w), requiredSubblock...))
				}
			},
			kind: KindLeaderWorkerSet,
			name: "serve-0",
			want: []TopologyExplanation{{PodSet: "serve-0", Pods: 4, PerPod: "nvidia.com/gpu=8", Mode: ModeRequired, Level: subblock,
				Trees: []TopologyTree{{Levels: []string{subblock, hostname}, At: subblock, Placed: []TopologyDomainPods{{Domain: "s2", Pods: 4}}}}}},
			printed: []string{
				"Topology (pod sets placed in a tree of levels):",
				"  pod set serve-0: required gce-topology-subblock; 4 pods, each nvidia.com/gpu=8",
				"    levels: unqueued: gce-topology-subblock above kubernetes.io/hostname",
				"    placed in gce-topology-subblock s2 (4 pods)",
			},
		},
		"a workload without topology: no section": {
			edit: func(c *Cluster) {
				queued(c, gpuJobSet("plain", 1, 4), waitingForQuota)
			},
			name: "plain",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			c := gpuCluster()
			tc.edit(&c)
			kind := tc.kind
			if kind == "" {
				kind = KindJobSet
			}
			e := Why(&c, WorkloadRef{kind, "ns", tc.name})
			if e.Invalid != "" {
				t.Fatalf("invalid: %s", e.Invalid)
			}
			if diff := cmp.Diff(tc.want, e.Topology); diff != "" {
				t.Errorf("Topology (-want +got):\n%s", diff)
			}
			var b bytes.Buffer
			if err := PrintWhy(&b, e, c.Now, false); err != nil {
				t.Fatal(err)
			}
			got := topologySection(trimLines(b.String()))
			if tc.printed == nil {
				if got != "" {
					t.Errorf("why prints a Topology section for a workload without topology:\n%s", got)
				}
				return
			}
			if want := lines(tc.printed...); got != want {
				t.Errorf("why prints\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// topologySection is the Topology section of why's output, up to the
// blank line that ends it ("": none).
func topologySection(out string) string {
	i := strings.Index(out, "\nTopology (")
	if i < 0 {
		return ""
	}
	s := out[i+1:]
	if j := strings.Index(s, "\n\n"); j >= 0 {
		s = s[:j+1]
	}
	return s
}

// lwsGroupPod is pod worker of group 0 of LeaderWorkerSet serve, of size
// pods of 8 GPUs, running on node, its template annotated with kv.
func lwsGroupPod(worker, size int, node string, kv ...string) *corev1.Pod {
	name := "serve-0"
	if worker > 0 {
		name = fmt.Sprintf("serve-0-%d", worker)
	}
	b := unit.Pod(name).Request(gpu, "8").Running(node).
		Label(wellknown.LWSNameLabel, "serve").Label(wellknown.LWSGroupIndexLabel, "0").
		Label(wellknown.LWSWorkerIndexLabel, fmt.Sprint(worker)).Label(wellknown.LWSGroupKeyLabel, "serve-0-key").
		Annotation(wellknown.LWSSizeAnnotation, fmt.Sprint(size))
	for i := 0; i+1 < len(kv); i += 2 {
		b.Annotation(kv[i], kv[i+1])
	}
	return b.Obj()
}
