package chaos

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Priority classes of manifests/examples/priorityclasses.yaml.
var priorityClasses = []string{"low-priority-job", "high-priority-job"}

// GeneratedLabel marks the workloads the generator created; it manages
// only those.
const GeneratedLabel = "localcluster.multislice-scheduler.io/chaos"

// generated selects them.
var generated = metav1.ListOptions{LabelSelector: GeneratedLabel}

// generatorPeriod is how often the generator looks at what runs and tops
// it up.
const generatorPeriod = 3 * time.Second

// generator keeps a random mix of workloads of the scheduler in flight:
// JobSets of 1–3 exclusive TPU slices, confined PodGroups and batch Jobs,
// and GPU workloads asking for a topology (gpu.go), each of a random
// priority, about half of them queued, and deletes some at random. Workloads that finished are deleted to keep the namespace
// small.
type generator struct {
	namespace string
	scheduler string
	rng       *rand.Rand
	kube      kubernetes.Interface
	jobsets   jobsetclient.Interface
	groups    schedclient.Interface
	stats     *Stats
	logf      func(format string, args ...any)

	// minLive and maxLive bound the target of workloads in flight, drawn
	// anew every targetPeriod.
	minLive, maxLive int
	target           int
	targetAt         time.Time
	seq              int
	// groupEnds is when each running PodGroup ends (its pods run until
	// deleted), drawn once all its pods run.
	groupEnds map[string]time.Time
}

const targetPeriod = time.Minute

// podGroupSettle is how long a new PodGroup may lack pods: the generator
// creates them one by one after the group.
const podGroupSettle = 10 * time.Second

func (g *generator) run(ctx context.Context) {
	t := time.NewTicker(generatorPeriod)
	defer t.Stop()
	for {
		g.step(ctx)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// step cleans up what finished, deletes a workload at random now and
// then, and creates workloads until the target is in flight.
func (g *generator) step(ctx context.Context) {
	now := time.Now()
	if g.targetAt.IsZero() || now.Sub(g.targetAt) > targetPeriod {
		g.target = g.minLive + g.rng.IntN(g.maxLive-g.minLive+1)
		g.targetAt = now
	}
	live, err := g.census(ctx, now)
	if err != nil {
		if ctx.Err() == nil {
			g.logf("generator: %v", err)
		}
		return
	}
	// About one random deletion every 30 s.
	if len(live) > 0 && g.rng.Float64() < float64(generatorPeriod)/float64(30*time.Second) {
		i := g.rng.IntN(len(live))
		victim := live[i]
		if err := g.delete(ctx, victim); err == nil {
			g.stats.Add(victim.kind+"s deleted at random", 1)
			g.logf("deleted %s %s at random", victim.kind, victim.name)
			live = append(live[:i:i], live[i+1:]...)
		}
	}
	// At most two a step, so that arrivals spread out.
	for n := 0; len(live)+n < g.target && n < 2; n++ {
		if err := g.create(ctx); err != nil && ctx.Err() == nil {
			g.logf("generator: %v", err)
		}
	}
}

// workloadRef is a workload the generator created.
type workloadRef struct{ kind, name string }

// census lists the generator's workloads, deletes the finished ones and
// returns those still in flight.
func (g *generator) census(ctx context.Context, now time.Time) ([]workloadRef, error) {
	var live []workloadRef
	jsList, err := g.jobsets.JobsetV1alpha2().JobSets(g.namespace).List(ctx, generated)
	if err != nil {
		return nil, err
	}
	for i := range jsList.Items {
		js := &jsList.Items[i]
		ref := workloadRef{"JobSet", js.Name}
		switch {
		case js.DeletionTimestamp != nil:
		case JobSetFinished(js):
			outcome := "completed"
			if js.Status.TerminalState == string(jobsetv1alpha2.JobSetFailed) {
				outcome = "failed"
			}
			if g.delete(ctx, ref) == nil {
				g.stats.Add("JobSets "+outcome, 1)
			}
		default:
			live = append(live, ref)
		}
	}
	jobs, err := g.kube.BatchV1().Jobs(g.namespace).List(ctx, metav1.ListOptions{LabelSelector: GeneratedLabel + ",!" + wellknown.JobSetNameLabel})
	if err != nil {
		return nil, err
	}
	for i := range jobs.Items {
		job := &jobs.Items[i]
		ref := workloadRef{"Job", job.Name}
		switch {
		case job.DeletionTimestamp != nil:
		case job.Status.CompletionTime != nil || jobFailed(job.Status.Conditions):
			outcome := "completed"
			if jobFailed(job.Status.Conditions) {
				outcome = "failed"
			}
			if g.delete(ctx, ref) == nil {
				g.stats.Add("Jobs "+outcome, 1)
			}
		default:
			live = append(live, ref)
		}
	}
	groups, err := g.groups.SchedulingV1alpha1().PodGroups(g.namespace).List(ctx, generated)
	if err != nil {
		return nil, err
	}
	pods, err := g.kube.CoreV1().Pods(g.namespace).List(ctx, metav1.ListOptions{LabelSelector: GeneratedLabel + "," + wellknown.PodGroupLabel})
	if err != nil {
		return nil, err
	}
	running, existing := map[string]int{}, map[string]int{}
	for _, p := range pods.Items {
		if !Live(&p) {
			continue
		}
		existing[p.Labels[wellknown.PodGroupLabel]]++
		if p.Status.Phase == corev1.PodRunning {
			running[p.Labels[wellknown.PodGroupLabel]]++
		}
	}
	for i := range groups.Items {
		pg := &groups.Items[i]
		ref := workloadRef{"PodGroup", pg.Name}
		if pg.DeletionTimestamp != nil {
			continue
		}
		end, ending := g.groupEnds[pg.Name]
		switch {
		case ending && now.After(end):
			if g.delete(ctx, ref) == nil {
				g.stats.Add("PodGroups completed", 1)
			}
			continue
		case existing[pg.Name] < int(pg.Spec.MinMember) && now.Sub(pg.CreationTimestamp.Time) > podGroupSettle:
			// Its pods were evicted (a pool failed, or it was preempted):
			// nothing recreates bare pods, so it is over.
			if g.delete(ctx, ref) == nil {
				g.stats.Add("PodGroups failed", 1)
			}
			continue
		case !ending && running[pg.Name] >= int(pg.Spec.MinMember):
			g.groupEnds[pg.Name] = now.Add(runTime(g.rng))
		}
		live = append(live, ref)
	}
	return live, nil
}

// delete deletes a workload with its dependents.
func (g *generator) delete(ctx context.Context, ref workloadRef) error {
	opts := metav1.DeleteOptions{PropagationPolicy: ptr.To(metav1.DeletePropagationBackground)}
	var err error
	switch ref.kind {
	case "JobSet":
		err = g.jobsets.JobsetV1alpha2().JobSets(g.namespace).Delete(ctx, ref.name, opts)
	case "Job":
		err = g.kube.BatchV1().Jobs(g.namespace).Delete(ctx, ref.name, opts)
	case "PodGroup":
		delete(g.groupEnds, ref.name)
		err = g.groups.SchedulingV1alpha1().PodGroups(g.namespace).Delete(ctx, ref.name, opts)
		if err == nil || apierrors.IsNotFound(err) {
			// Its pods go with it (owner references); deleting them too
			// does not wait for the garbage collector.
			err = g.kube.CoreV1().Pods(g.namespace).DeleteCollection(ctx, opts, metav1.ListOptions{LabelSelector: wellknown.PodGroupLabel + "=" + ref.name})
		}
	}
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}

// create creates one random workload: a TPU JobSet (45 %), a PodGroup
// (15 %), a batch Job (15 %) or a GPU workload placed by topology (25 %).
func (g *generator) create(ctx context.Context) error {
	g.seq++
	s := shapeOf(g.rng)
	switch r := g.rng.Float64(); {
	case r >= 0.75:
		return g.createGPU(ctx, fmt.Sprintf("gpu-%03d", g.seq), gpuShapeOf(g.rng))
	case r < 0.45:
		js := g.jobSet(fmt.Sprintf("js-%03d", g.seq), s)
		if _, err := g.jobsets.JobsetV1alpha2().JobSets(g.namespace).Create(ctx, js, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create JobSet %s: %w", js.Name, err)
		}
		g.stats.Add("JobSets created", 1)
		g.logf("created JobSet %s: %d slices of %d %s pods, %s", js.Name, s.slices, s.accel.PodsPer, s.accel.Flavor, s)
	case r < 0.6:
		// One slice; bare pods are not suspended.
		s.slices, s.suspend = 1, false
		pg, pods := g.podGroup(fmt.Sprintf("pg-%03d", g.seq), s)
		created, err := g.groups.SchedulingV1alpha1().PodGroups(g.namespace).Create(ctx, pg, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create PodGroup %s: %w", pg.Name, err)
		}
		g.stats.Add("PodGroups created", 1)
		for _, p := range pods {
			p.OwnerReferences = []metav1.OwnerReference{{APIVersion: schedv1alpha1.SchemeGroupVersion.String(), Kind: "PodGroup", Name: created.Name, UID: created.UID}}
			if _, err := g.kube.CoreV1().Pods(g.namespace).Create(ctx, p, metav1.CreateOptions{}); err != nil {
				// A group short of members would wait for ever: drop it.
				_ = g.delete(ctx, workloadRef{"PodGroup", pg.Name})
				return fmt.Errorf("create pod %s of PodGroup %s: %w", p.Name, pg.Name, err)
			}
		}
		g.logf("created PodGroup %s: %d %s pods, %s", pg.Name, s.accel.PodsPer, s.accel.Flavor, s)
	default:
		// 1 or 2 pods; a queued Job is created suspended.
		s.slices = 1 + (s.slices-1)%2
		s.suspend = s.queue != ""
		job := g.job(fmt.Sprintf("job-%03d", g.seq), s)
		if _, err := g.kube.BatchV1().Jobs(g.namespace).Create(ctx, job, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create Job %s: %w", job.Name, err)
		}
		g.stats.Add("Jobs created", 1)
		g.logf("created Job %s: %d %s pods, %s", job.Name, s.slices, s.accel.Flavor, s)
	}
	return nil
}

// shape is the random part of a workload.
type shape struct {
	accel    Accelerator
	slices   int // JobSets: 1–3; Jobs: 1–2 pods
	priority string
	queue    string // "" for half of them
	suspend  bool   // queued JobSets and Jobs only
	runTime  time.Duration
}

func (s shape) String() string {
	q := "not queued"
	if s.queue != "" {
		q = "LocalQueue " + s.queue
		if s.suspend {
			q += ", created suspended"
		}
	}
	return fmt.Sprintf("%s, %s, runs %s", s.priority, q, s.runTime)
}

func shapeOf(rng *rand.Rand) shape {
	s := shape{accel: V5e, slices: 1 + rng.IntN(3), priority: priorityClasses[rng.IntN(len(priorityClasses))], runTime: runTime(rng)}
	if rng.IntN(2) == 0 {
		s.accel = V6e
	}
	switch rng.IntN(4) {
	case 0:
		s.queue = QueueA
	case 1:
		s.queue = QueueB
	}
	s.suspend = s.queue != "" && rng.IntN(2) == 0
	return s
}

// runTime is a pod run time of 20–120 s.
func runTime(rng *rand.Rand) time.Duration {
	return time.Duration(20+rng.IntN(101)) * time.Second
}

// podSpec is a TPU pod of the scheduler: 4 chips of a shape's accelerator
// and nothing else (a resource no queue covers would make queued
// workloads inadmissible).
func (g *generator) podSpec(s shape, restart corev1.RestartPolicy) corev1.PodSpec {
	return corev1.PodSpec{
		SchedulerName:     g.scheduler,
		PriorityClassName: s.priority,
		RestartPolicy:     restart,
		NodeSelector: map[string]string{
			wellknown.TPUAcceleratorLabel: s.accel.Accelerator,
			wellknown.TPUTopologyLabel:    s.accel.Topology,
		},
		TerminationGracePeriodSeconds: ptr.To[int64](5),
		Containers: []corev1.Container{{
			Name: "train", Image: "registry.k8s.io/pause:3.10",
			Resources: corev1.ResourceRequirements{Limits: corev1.ResourceList{
				wellknown.ResourceTPU: *resource.NewQuantity(ChipsPerPod, resource.DecimalSI),
			}},
		}},
	}
}

// labels are a generated workload's: GeneratedLabel, and its queue's name
// if it has one.
func labels(s shape) map[string]string {
	l := map[string]string{GeneratedLabel: "generated"}
	if s.queue != "" {
		l[wellknown.QueueNameLabel] = s.queue
	}
	return l
}

// jobSet is a JobSet of s.slices exclusive slices, each a Job of one
// slice's pods, restarted up to 5 times when a pod fails.
func (g *generator) jobSet(name string, s shape) *jobsetv1alpha2.JobSet {
	pods := int32(s.accel.PodsPer)
	return &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: g.namespace, Labels: labels(s),
			Annotations: map[string]string{wellknown.ExclusiveTopologyAnnotation: wellknown.NodePoolLabel},
		},
		Spec: jobsetv1alpha2.JobSetSpec{
			Suspend:       ptr.To(s.suspend),
			FailurePolicy: &jobsetv1alpha2.FailurePolicy{MaxRestarts: 5},
			ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
				Name: "slice", Replicas: int32(s.slices),
				Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
					Parallelism: ptr.To(pods), Completions: ptr.To(pods), BackoffLimit: ptr.To[int32](0),
					Template: corev1.PodTemplateSpec{
						ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{localcluster.RunTimeAnnotation: s.runTime.String()}},
						Spec:       g.podSpec(s, corev1.RestartPolicyNever),
					},
				}},
			}},
		},
	}
}

// podGroup is a PodGroup of one slice confined to its own pool, and its
// pods, which run until deleted.
func (g *generator) podGroup(name string, s shape) (*schedv1alpha1.PodGroup, []*corev1.Pod) {
	pg := &schedv1alpha1.PodGroup{
		ObjectMeta: metav1.ObjectMeta{
			Name: name, Namespace: g.namespace, Labels: labels(s),
			Annotations: map[string]string{wellknown.PodGroupDomainKeyAnnotation: wellknown.NodePoolLabel},
		},
		Spec: schedv1alpha1.PodGroupSpec{MinMember: int32(s.accel.PodsPer)},
	}
	var pods []*corev1.Pod
	for i := range s.accel.PodsPer {
		pods = append(pods, &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("%s-%d", name, i), Namespace: g.namespace,
				Labels: map[string]string{wellknown.PodGroupLabel: name, GeneratedLabel: "generated"},
			},
			Spec: g.podSpec(s, corev1.RestartPolicyAlways),
		})
	}
	return pg, pods
}

// job is a batch Job of s.slices TPU pods, not confined. A queued one is
// created suspended, as Kueue users write it, for the scheduler to start.
func (g *generator) job(name string, s shape) *batchv1.Job {
	pods := int32(s.slices)
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: g.namespace, Labels: labels(s)},
		Spec: batchv1.JobSpec{
			Suspend:     ptr.To(s.suspend),
			Parallelism: ptr.To(pods), Completions: ptr.To(pods), BackoffLimit: ptr.To[int32](0),
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Annotations: map[string]string{localcluster.RunTimeAnnotation: s.runTime.String()}},
				Spec:       g.podSpec(s, corev1.RestartPolicyNever),
			},
		},
	}
}
