package chaos

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// withGPUFleet adds GPU hosts gpu-b<i>-s<j>-h<k> (2 blocks × 2 subblocks ×
// 2 hosts, pool GPUPool) and the soak's GPU queue with its LocalQueue.
func (b *worldBuilder) withGPUFleet() *worldBuilder {
	for bl := range 2 {
		for sb := range 2 {
			for h := range 2 {
				name := fmt.Sprintf("gpu-b%d-s%d-h%d", bl, sb, h)
				b.w.Nodes[name] = &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{
					wellknown.NodePoolLabel: GPUPool, corev1.LabelHostname: name,
					wellknown.GCETopologyBlockLabel:    fmt.Sprintf("b%d", bl),
					wellknown.GCETopologySubblockLabel: fmt.Sprintf("b%d-s%d", bl, sb),
				}}}
			}
		}
	}
	_, cqs, lqs := QueueObjects(testNS)
	for _, cq := range cqs {
		if cq.Name == QueueGPU {
			b.w.ClusterQueues[cq.Name] = cq
		}
	}
	for _, lq := range lqs {
		if lq.Name == QueueGPU {
			b.w.LocalQueues[lq.Namespace+"/"+lq.Name] = lq
		}
	}
	return b
}

// gpus makes it a pod of n GPUs (and no TPU chips).
func (b *podBuilder) gpus(n int64) *podBuilder {
	b.p.Spec.Containers[0].Resources.Limits = corev1.ResourceList{wellknown.ResourceGPU: *resource.NewQuantity(n, resource.DecimalSI)}
	return b
}

// asks gives it its template's topology annotations (key, value pairs).
func (b *podBuilder) asks(kv ...string) *podBuilder {
	if b.p.Annotations == nil {
		b.p.Annotations = map[string]string{}
	}
	for i := 0; i+1 < len(kv); i += 2 {
		b.p.Annotations[kv[i]] = kv[i+1]
	}
	return b
}

// index gives it its Job's completion index.
func (b *podBuilder) index(i int) *podBuilder {
	b.p.Labels[wellknown.JobCompletionIndexLabel] = fmt.Sprint(i)
	return b
}

func TestCheckTopology(t *testing.T) {
	subblock := []string{wellknown.RequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel}
	sliced := []string{wellknown.RequiredTopologyAnnotation, wellknown.GCETopologyBlockLabel,
		wellknown.SliceRequiredTopologyAnnotation, wellknown.GCETopologySubblockLabel, wellknown.SliceSizeAnnotation, "2"}
	jobPod := func(name string, i int, node string, kv ...string) *podBuilder {
		return pod(fmt.Sprintf("%s-%d", name, i)).ofJob(name).index(i).gpus(8).asks(kv...).on(node)
	}
	for name, tc := range map[string]struct {
		pods []*podBuilder
		want string // the violations' keys
		says string // the first violation's message contains it
	}{
		"a required subblock kept": {pods: []*podBuilder{
			jobPod("a", 0, "gpu-b0-s0-h0", subblock...), jobPod("a", 1, "gpu-b0-s0-h1", subblock...)}},
		"a required subblock split": {pods: []*podBuilder{
			jobPod("a", 0, "gpu-b0-s0-h0", subblock...), jobPod("a", 1, "gpu-b0-s1-h0", subblock...)},
			want: "topology Job chaos/a|pod set a",
			says: "pod set a of Job chaos/a requires one cloud.google.com/gce-topology-subblock and spans 2: b0-s0: a-0; b0-s1: a-1"},
		"two workloads in two subblocks": {pods: []*podBuilder{
			jobPod("a", 0, "gpu-b0-s0-h0", subblock...), jobPod("b", 0, "gpu-b0-s1-h0", subblock...)}},
		"a pod gone or not bound does not count": {pods: []*podBuilder{
			jobPod("a", 0, "gpu-b0-s0-h0", subblock...), jobPod("a", 1, "gpu-b0-s1-h0", subblock...).deleting(),
			pod("a-2").ofJob("a").index(2).gpus(8).asks(subblock...)}},
		"attempts of a JobSet are apart": {pods: []*podBuilder{
			pod("js-a0").ofJobSet("js", 0, 0).index(0).gpus(8).asks(subblock...).on("gpu-b0-s0-h0"),
			pod("js-a1").ofJobSet("js", 1, 0).index(0).gpus(8).asks(subblock...).on("gpu-b1-s0-h0")}},
		"slices each in a subblock of one block": {pods: []*podBuilder{
			jobPod("s", 0, "gpu-b1-s0-h0", sliced...), jobPod("s", 1, "gpu-b1-s0-h1", sliced...),
			jobPod("s", 2, "gpu-b1-s1-h0", sliced...), jobPod("s", 3, "gpu-b1-s1-h1", sliced...)}},
		"a slice split": {pods: []*podBuilder{
			jobPod("s", 0, "gpu-b1-s0-h0", sliced...), jobPod("s", 1, "gpu-b1-s1-h1", sliced...)},
			want: "topology Job chaos/s|slice 0 of Job s",
			says: "slice 0 of Job s of Job chaos/s requires one cloud.google.com/gce-topology-subblock and spans 2"},
		"slices over two blocks": {pods: []*podBuilder{
			jobPod("s", 0, "gpu-b0-s0-h0", sliced...), jobPod("s", 1, "gpu-b0-s0-h1", sliced...),
			jobPod("s", 2, "gpu-b1-s1-h0", sliced...), jobPod("s", 3, "gpu-b1-s1-h1", sliced...)},
			want: "topology Job chaos/s|pod set s",
			says: "requires one cloud.google.com/gce-topology-block and spans 2"},
		"preferred is no promise": {pods: []*podBuilder{
			jobPod("p", 0, "gpu-b0-s0-h0", wellknown.PreferredTopologyAnnotation, wellknown.GCETopologySubblockLabel),
			jobPod("p", 1, "gpu-b1-s1-h0", wellknown.PreferredTopologyAnnotation, wellknown.GCETopologySubblockLabel)}},
	} {
		t.Run(name, func(t *testing.T) {
			vs := CheckTopology(world().withGPUFleet().pods(tc.pods...).obj())
			var got []string
			for _, v := range vs {
				got = append(got, v.Key)
			}
			if strings.Join(got, "\n") != tc.want {
				t.Fatalf("violations:\n%s\nwant keys %q", keys(vs), tc.want)
			}
			if tc.says != "" && !strings.Contains(vs[0].Message, tc.says) {
				t.Errorf("message %q, want it to say %q", vs[0].Message, tc.says)
			}
		})
	}
}

// The GPU queue's usage is checked in GPUs, against its nvidia.com/gpu
// quota (96).
func TestCheckQuotaCountsGPUs(t *testing.T) {
	var pods []*podBuilder
	for i := range 13 {
		pods = append(pods, pod(fmt.Sprintf("g-%d", i)).ofJob("g").queue(QueueGPU).gpus(8).on(fmt.Sprintf("gpu-b%d-s%d-h%d", i/4%2, i/2%2, i%2)))
	}
	w := world().withGPUFleet().jobs(job("g", 13, QueueGPU)).pods(pods[:12]...).obj()
	if vs := only(WithinQuota, CheckQuota(w)); len(vs) != 0 {
		t.Fatalf("96 GPUs of 96: %v", vs)
	}
	w.SetPod(pods[12].obj(), t0)
	vs := only(WithinQuota, CheckQuota(w))
	if len(vs) != 1 || !strings.Contains(vs[0].Message, "uses 104 nvidia.com/gpu of flavor h100, more than the 96 it may") {
		t.Errorf("104 GPUs of 96: %v", vs)
	}
}

// Every GPU workload the generator draws is one the scheduler reads as
// asked: its template's topology annotations parse (a slice size dividing
// the pod set), a required subblock holds the pod set, slices only in the
// queue (whose flavor's Topology has the block level), and it asks for
// GPUs only, on the GPU fleet.
func TestGeneratedGPUWorkloads(t *testing.T) {
	g := &generator{namespace: testNS, scheduler: testSched}
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[string]int{}
	for range 300 {
		s := gpuShapeOf(rng)
		job, js := g.gpuWorkload("gpu", s)
		var spec *batchv1.JobSpec
		switch {
		case s.queue == QueueGPU && job != nil && js == nil:
			spec = &job.Spec
			if !*job.Spec.Suspend || wellknown.QueueName(job.Labels, nil) != QueueGPU {
				t.Fatalf("queued GPU Job %+v", job.ObjectMeta)
			}
		case s.queue == "" && job == nil && js != nil:
			spec = &js.Spec.ReplicatedJobs[0].Template.Spec
			if js.Annotations[wellknown.ExclusiveTopologyAnnotation] != "" || JobSetOwner(js).DomainKey != "" {
				t.Fatalf("GPU JobSet confined: %+v", js.ObjectMeta)
			}
		default:
			t.Fatalf("shape %s made Job %v, JobSet %v", s, job != nil, js != nil)
		}
		pods := *spec.Parallelism
		r, err := workload.TopologyRequestOf(spec.Template.Annotations, pods)
		if err != nil || r == nil {
			t.Fatalf("%s: request %v, %v", s, r, err)
		}
		seen[r.String()]++
		if r.Mode == workload.TopologyRequired && r.Level == wellknown.GCETopologySubblockLabel && int(pods)*s.gpus > HostsPerSubblock*GPUsPerHost {
			t.Errorf("%s: %d pods of %d GPUs required in a subblock of %d GPUs", s, pods, s.gpus, HostsPerSubblock*GPUsPerHost)
		}
		if r.SliceLevel != "" && s.queue == "" {
			t.Errorf("%s: slices outside the queue", s)
		}
		podSpec := spec.Template.Spec
		if limits := podSpec.Containers[0].Resources.Limits; len(limits) != 1 || limits.Name(wellknown.ResourceGPU, "").Value() != int64(s.gpus) ||
			podSpec.NodeSelector[wellknown.NodePoolLabel] != GPUPool || *spec.CompletionMode != batchv1.IndexedCompletion {
			t.Errorf("%s: pod spec %+v", s, podSpec)
		}
	}
	if len(seen) < 3 {
		t.Errorf("the generator drew only %v", seen)
	}
}
