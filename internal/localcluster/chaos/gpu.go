package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// gpuShape is a GPU workload's pod set: pods of gpus GPUs each, placed in
// the fleet's topology as its pod template's Kueue annotations ask.
type gpuShape struct {
	shape
	pods, gpus  int
	annotations map[string]string
	asks        string // for the log
}

// gpuShapeOf draws a GPU pod set: 2–6 pods of 4 or 8 GPUs, required in
// one subblock when they fit in one (else preferred there), preferred in
// one subblock, or (queued only) required in one block in slices of 2
// pods, each slice in one subblock. Half are queued in QueueGPU; the
// others are JobSets of no queue (a plain Job of no queue is not a gang,
// and its pods are placed one by one).
func gpuShapeOf(rng *rand.Rand) gpuShape {
	s := shapeOf(rng)
	s.queue, s.suspend = "", false
	if rng.IntN(2) == 0 {
		s.queue, s.suspend = QueueGPU, true
	}
	g := gpuShape{shape: s, pods: 2 + rng.IntN(5), gpus: 4 << rng.IntN(2), annotations: map[string]string{}}
	fitsSubblock := g.pods*g.gpus <= HostsPerSubblock*GPUsPerHost
	switch r := rng.IntN(3); {
	case r == 0 && fitsSubblock:
		g.annotations[wellknown.RequiredTopologyAnnotation] = wellknown.GCETopologySubblockLabel
		g.asks = "required subblock"
	case r == 2 && s.queue != "":
		g.pods += g.pods % 2
		g.annotations[wellknown.RequiredTopologyAnnotation] = wellknown.GCETopologyBlockLabel
		g.annotations[wellknown.SliceRequiredTopologyAnnotation] = wellknown.GCETopologySubblockLabel
		g.annotations[wellknown.SliceSizeAnnotation] = "2"
		g.asks = "required block, slices of 2 in a subblock"
	default:
		g.annotations[wellknown.PreferredTopologyAnnotation] = wellknown.GCETopologySubblockLabel
		g.asks = "preferred subblock"
	}
	return g
}

func (g gpuShape) String() string {
	return fmt.Sprintf("%d pods of %d GPUs, %s, %s", g.pods, g.gpus, g.asks, g.shape)
}

// createGPU creates one GPU workload (gpuWorkload).
func (g *generator) createGPU(ctx context.Context, name string, s gpuShape) error {
	job, js := g.gpuWorkload(name, s)
	if job != nil {
		if _, err := g.kube.BatchV1().Jobs(g.namespace).Create(ctx, job, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create Job %s: %w", name, err)
		}
		g.stats.Add("GPU Jobs created", 1)
		g.logf("created GPU Job %s: %s", name, s)
		return nil
	}
	if _, err := g.jobsets.JobsetV1alpha2().JobSets(g.namespace).Create(ctx, js, metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create JobSet %s: %w", name, err)
	}
	g.stats.Add("GPU JobSets created", 1)
	g.logf("created GPU JobSet %s: %s", name, s)
	return nil
}

// gpuWorkload is a GPU workload of shape s: a suspended Indexed Job in
// QueueGPU when s is queued, else an unconfined JobSet of one such Job,
// restarted up to 5 times.
func (g *generator) gpuWorkload(name string, s gpuShape) (*batchv1.Job, *jobsetv1alpha2.JobSet) {
	pods := int32(s.pods)
	spec := batchv1.JobSpec{
		Parallelism: ptr.To(pods), Completions: ptr.To(pods), BackoffLimit: ptr.To[int32](0),
		CompletionMode: ptr.To(batchv1.IndexedCompletion),
		Template: corev1.PodTemplateSpec{
			ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{localcluster.RunTimeAnnotation: s.runTime.String()}},
			Spec:       g.gpuPodSpec(s),
		},
	}
	for k, v := range s.annotations {
		spec.Template.Annotations[k] = v
	}
	if s.queue != "" {
		spec.Suspend = ptr.To(true)
		return &batchv1.Job{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: g.namespace, Labels: labels(s.shape)}, Spec: spec}, nil
	}
	return nil, &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: g.namespace, Labels: labels(s.shape)},
		Spec: jobsetv1alpha2.JobSetSpec{
			FailurePolicy: &jobsetv1alpha2.FailurePolicy{MaxRestarts: 5},
			ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
				Name: "workers", Replicas: 1, Template: batchv1.JobTemplateSpec{Spec: spec},
			}},
		},
	}
}

// gpuPodSpec is a GPU pod of the scheduler on the GPU fleet: s.gpus GPUs
// and nothing else (a resource no queue covers would make queued
// workloads inadmissible), tolerating the GPU nodes' taint.
func (g *generator) gpuPodSpec(s gpuShape) corev1.PodSpec {
	return corev1.PodSpec{
		SchedulerName:                 g.scheduler,
		PriorityClassName:             s.priority,
		RestartPolicy:                 corev1.RestartPolicyNever,
		NodeSelector:                  map[string]string{wellknown.NodePoolLabel: GPUPool},
		Tolerations:                   []corev1.Toleration{gpuToleration},
		TerminationGracePeriodSeconds: ptr.To[int64](5),
		Containers: []corev1.Container{{
			Name: "train", Image: "registry.k8s.io/pause:3.10",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
				wellknown.ResourceGPU: *resource.NewQuantity(int64(s.gpus), resource.DecimalSI),
			}},
		}},
	}
}
