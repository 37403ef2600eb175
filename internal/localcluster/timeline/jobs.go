package timeline

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Plain batch/v1 Jobs are workloads of their own (a JobSet's child Jobs
// are told through their JobSet): a queued Job is created suspended, the
// scheduler starts it, its pods wait for quota and for the capacity its
// ProvisioningRequest brings, and then run on the provisioned nodes.

// jobState is what was last reported of a Job.
type jobState struct {
	// pods is how many pods the Job runs at once (its parallelism).
	pods      int32
	suspended bool
	// started: it was seen running (not suspended) at least once.
	started bool
	// running: all its pods were reported running since it last started.
	running bool
	ended   string
}

// Job reports a Job's creation, its starting, suspension and end. Jobs a
// JobSet owns are left to the JobSet's lines.
func (t *Timeline) Job(job *batchv1.Job) {
	if job.Labels[jobsetv1alpha2.JobSetNameKey] != "" {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	key := job.Namespace + "/" + job.Name
	subject := "job " + job.Name
	suspended := job.Spec.Suspend != nil && *job.Spec.Suspend
	s, known := t.jobs[key]
	if !known {
		s = &jobState{suspended: suspended, started: !suspended}
		t.jobs[key] = s
		state := "created"
		if suspended {
			state = "created suspended"
		}
		t.emit(subject, "%s: %s", state, describeJob(job))
	}
	s.pods = 1
	if job.Spec.Parallelism != nil {
		s.pods = *job.Spec.Parallelism
	}
	switch {
	case suspended == s.suspended:
	case !suspended:
		s.suspended, s.started, s.running = false, true, false
		by := ""
		if _, ok := job.Annotations[wellknown.UnsuspendedAnnotation]; ok {
			by = " by multislice-scheduler"
		}
		t.emit(subject, "unsuspended%s: the Job controller creates its pods, which wait for quota and placement", by)
	default:
		s.suspended, s.running = true, false
		t.emit(subject, "suspended: the Job controller removes its pods")
	}
	for _, c := range job.Status.Conditions {
		if c.Status != corev1.ConditionTrue || string(c.Type) == s.ended {
			continue
		}
		switch c.Type {
		case batchv1.JobComplete:
			s.ended = string(c.Type)
			t.emit(subject, "completed: %d of %d pods succeeded", job.Status.Succeeded, completions(job))
		case batchv1.JobFailed:
			s.ended = string(c.Type)
			t.emit(subject, "failed%s", reasonSuffix(c.Reason, c.Message))
		}
	}
}

// JobDeleted forgets a Job.
func (t *Timeline) JobDeleted(job *batchv1.Job) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.jobs, job.Namespace+"/"+job.Name)
}

func completions(job *batchv1.Job) int32 {
	if job.Spec.Completions != nil {
		return *job.Spec.Completions
	}
	return 1
}

// describeJob: "2 pods × 2 nvidia.com/gpu, node pool gpu-train, LocalQueue
// dws-local-queue, maxRunDurationSeconds 600, scheduler
// multislice-scheduler".
func describeJob(job *batchv1.Job) string {
	pods := int32(1)
	if job.Spec.Parallelism != nil {
		pods = *job.Spec.Parallelism
	}
	spec := &job.Spec.Template.Spec
	s := plural(int(pods), "pod")
	if acc := acceleratorsPerPod(spec); acc != "" {
		s += " × " + acc
	}
	if pool := spec.NodeSelector[wellknown.NodePoolLabel]; pool != "" {
		s += ", node pool " + pool
	}
	if q := wellknown.QueueName(job.Labels, job.Annotations); q != "" {
		s += ", LocalQueue " + q
	}
	if v := job.Annotations[wellknown.ProvReqAnnotationPrefix+wellknown.MaxRunDurationSecondsParameter]; v != "" {
		s += ", " + wellknown.MaxRunDurationSecondsParameter + " " + v
	}
	if spec.SchedulerName != "" {
		s += ", scheduler " + spec.SchedulerName
	}
	return s
}

// acceleratorsPerPod sums the GPUs and TPUs a pod's containers ask for:
// "2 nvidia.com/gpu".
func acceleratorsPerPod(spec *corev1.PodSpec) string {
	sums := map[corev1.ResourceName]*resource.Quantity{}
	for _, c := range spec.Containers {
		for _, name := range []corev1.ResourceName{wellknown.ResourceGPU, wellknown.ResourceTPU} {
			q, ok := c.Resources.Limits[name]
			if !ok {
				q, ok = c.Resources.Requests[name]
			}
			if !ok {
				continue
			}
			if sums[name] == nil {
				sums[name] = &resource.Quantity{}
			}
			sums[name].Add(q)
		}
	}
	var parts []string
	for _, name := range slices.Sorted(maps.Keys(sums)) {
		parts = append(parts, sums[name].String()+" "+string(name))
	}
	return strings.Join(parts, ", ")
}

// jobOfPod names the Job a pod outside any JobSet belongs to ("" for
// none).
func jobOfPod(p *corev1.Pod) string {
	if p.Labels[jobsetv1alpha2.JobSetNameKey] != "" {
		return ""
	}
	if j := p.Labels[wellknown.JobNameLabel]; j != "" {
		return j
	}
	return p.Labels[wellknown.LegacyJobNameLabel]
}

// placement describes a node for a bound line: "pool NODEPOOL_NAME, zone
// us-central1-b", or "" for a node the timeline does not know.
func (t *Timeline) placement(node string) string {
	n := t.nodes[node]
	if n == nil {
		return ""
	}
	var parts []string
	if pool := n.Labels[wellknown.NodePoolLabel]; pool != "" {
		parts = append(parts, "pool "+pool)
	}
	if zone := n.Labels[wellknown.ZoneLabel]; zone != "" {
		parts = append(parts, "zone "+zone)
	}
	return strings.Join(parts, ", ")
}

// jobPodBound reports a Job's pod bound to a node, with the pool and zone
// the node is in and the ProvisioningRequest the pod consumes.
func (t *Timeline) jobPodBound(p *corev1.Pod, subject string) {
	line := fmt.Sprintf("pod %s bound to %s", p.Name, p.Spec.NodeName)
	if where := t.placement(p.Spec.NodeName); where != "" {
		line += " (" + where + ")"
	}
	line += " by " + schedulerOf(p)
	if req := consumedRequest(p); req != "" {
		line += ", consuming ProvisioningRequest " + req
	}
	t.emit(subject, "%s", line)
}

func consumedRequest(p *corev1.Pod) string {
	if r := p.Annotations[wellknown.ConsumeProvisioningRequestAnnotation]; r != "" {
		return r
	}
	return p.Annotations[wellknown.DeprecatedConsumeProvisioningRequestAnnotation]
}

// jobRunning reports a Job once all the pods it runs at once are Running,
// with the pools and zones they run in: a workload placed in one zone
// shows one.
func (t *Timeline) jobRunning(ns, job, subject string) {
	s := t.jobs[ns+"/"+job]
	if s == nil || s.running {
		return
	}
	var running int32
	var pools, zones []string
	for _, ps := range t.pods {
		if ps.namespace != ns || ps.job != job || ps.phase != corev1.PodRunning {
			continue
		}
		running++
		pools = appendUnique(pools, t.poolOf(ps.node))
		if n := t.nodes[ps.node]; n != nil {
			zones = appendUnique(zones, n.Labels[wellknown.ZoneLabel])
		}
	}
	if running < s.pods {
		return
	}
	s.running = true
	slices.Sort(pools)
	slices.Sort(zones)
	where := ""
	if len(pools) > 0 {
		where = ", on pool " + strings.Join(pools, ", ")
	}
	switch len(zones) {
	case 0:
	case 1:
		where += " in zone " + zones[0]
	default:
		where += " in zones " + strings.Join(zones, ", ")
	}
	t.emit(subject, "all %s running%s", plural(int(running), "pod"), where)
}
