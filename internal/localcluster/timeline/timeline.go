// Package timeline turns what happens to JobSets and Jobs, their pods,
// their queues, their ProvisioningRequests and the node pools into a
// readable, timestamped story: which workload was admitted and placed
// where, when, and why the others wait.
//
// Timeline itself only interprets objects handed to it, so it is tested
// without a cluster; Watch feeds it from informers.
package timeline

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Timeline writes one line per noteworthy change. It is safe for
// concurrent use.
type Timeline struct {
	mu    sync.Mutex
	out   io.Writer
	start time.Time
	now   func() time.Time

	nodes map[string]*corev1.Node // by name
	pools map[string]faults.Health
	// adding holds the pools that appeared while not Healthy: their first
	// Healthy is reported as the pool's addition, not as a recovery.
	adding    map[string]bool
	jobsets   map[string]*jobsetState   // by namespace/name
	pods      map[string]*podState      // by namespace/name
	held      map[string]bool           // Job names whose followers the webhook held back
	workloads map[string]*workloadState // Workload objects by namespace/name
	queues    map[string]string         // ClusterQueue name → its last reported line
	jobs      map[string]*jobState      // Jobs outside JobSets, by namespace/name
	// told holds the events already reported, by the key reported
	// (see provisioning.go), so that an event's updates and restatements
	// are not reported again.
	told map[string]bool
}

type jobsetState struct {
	restarts int32
	terminal string
	running  bool
	// podsPerSlice and replicas are the parallelism and replica count of
	// each replicated job.
	podsPerSlice map[string]int32
	replicas     map[string]int32
}

type podState struct {
	namespace, jobset, slice string
	// job is the Job of a pod outside any JobSet.
	job string

	node  string
	phase corev1.PodPhase
	// waiting is the normalized reason the pod was last reported waiting for.
	waiting string
}

// New returns a timeline that writes to out, with times relative to now.
func New(out io.Writer) *Timeline {
	return newWithClock(out, time.Now)
}

func newWithClock(out io.Writer, now func() time.Time) *Timeline {
	return &Timeline{
		out: out, start: now(), now: now,
		nodes: map[string]*corev1.Node{}, pools: map[string]faults.Health{}, adding: map[string]bool{},
		jobsets: map[string]*jobsetState{}, pods: map[string]*podState{}, held: map[string]bool{},
		workloads: map[string]*workloadState{}, queues: map[string]string{},
		jobs: map[string]*jobState{}, told: map[string]bool{},
	}
}

// Note writes a line of the caller's own, e.g. a demo step.
func (t *Timeline) Note(subject, format string, args ...any) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.emit(subject, format, args...)
}

func (t *Timeline) emit(subject, format string, args ...any) {
	at := t.now().Sub(t.start).Seconds()
	fmt.Fprintf(t.out, "%7.1fs  %-34s %s\n", at, subject, fmt.Sprintf(format, args...))
}

// Node records a node and reports changes of its pool's health.
func (t *Timeline) Node(n *corev1.Node) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.nodes[n.Name] = n
	t.updatePool(n.Labels[wellknown.NodePoolLabel])
}

// NodeDeleted forgets a node.
func (t *Timeline) NodeDeleted(n *corev1.Node) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.nodes, n.Name)
	t.updatePool(n.Labels[wellknown.NodePoolLabel])
}

func (t *Timeline) updatePool(pool string) {
	if pool == "" {
		return
	}
	var nodes []*corev1.Node
	for _, n := range t.nodes {
		if n.Labels[wellknown.NodePoolLabel] == pool {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		if _, known := t.pools[pool]; known {
			delete(t.pools, pool)
			delete(t.adding, pool)
			t.emit("pool "+pool, "removed")
		}
		return
	}
	h, _ := faults.PoolHealth(nodes)
	old, known := t.pools[pool]
	t.pools[pool] = h
	switch {
	case !known:
		// Pools already there when the timeline starts are Healthy; new
		// ones start NotReady.
		if h != faults.Healthy {
			t.adding[pool] = true
		}
	case t.adding[pool]:
		if h == faults.Healthy {
			delete(t.adding, pool)
			t.emit("pool "+pool, "added: %s%s, Ready", plural(len(nodes), "node"), inZones(nodes))
		}
	case old != h:
		t.emit("pool "+pool, "%s → %s", old, h)
	}
}

// inZones: " in us-central1-a" for nodes of one zone; "" when they have
// no zone label.
func inZones(nodes []*corev1.Node) string {
	var zones []string
	for _, n := range nodes {
		zones = appendUnique(zones, n.Labels[wellknown.ZoneLabel])
	}
	sort.Strings(zones)
	if len(zones) == 0 {
		return ""
	}
	return " in " + strings.Join(zones, ", ")
}

func (t *Timeline) poolOf(node string) string {
	if n := t.nodes[node]; n != nil {
		return n.Labels[wellknown.NodePoolLabel]
	}
	return ""
}

// JobSet reports a JobSet's creation, restarts and end.
func (t *Timeline) JobSet(js *jobsetv1alpha2.JobSet) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := js.Namespace + "/" + js.Name
	s, known := t.jobsets[key]
	if !known {
		s = &jobsetState{podsPerSlice: map[string]int32{}, replicas: map[string]int32{}}
		t.jobsets[key] = s
		t.emit(js.Name, "created: %s", describeJobSet(js))
	}
	for _, rj := range js.Spec.ReplicatedJobs {
		p := int32(1)
		if rj.Template.Spec.Parallelism != nil {
			p = *rj.Template.Spec.Parallelism
		}
		s.podsPerSlice[rj.Name] = p
		s.replicas[rj.Name] = rj.Replicas
	}
	if js.Status.Restarts > s.restarts {
		s.restarts = js.Status.Restarts
		s.running = false
		t.emit(js.Name, "restarted by the JobSet controller (restart %d)%s", js.Status.Restarts, failureReason(js))
	}
	if js.Status.TerminalState != "" && js.Status.TerminalState != s.terminal {
		s.terminal = js.Status.TerminalState
		t.emit(js.Name, "%s", js.Status.TerminalState)
	}
}

func failureReason(js *jobsetv1alpha2.JobSet) string {
	for _, c := range js.Status.Conditions {
		if c.Type == string(jobsetv1alpha2.JobSetFailed) || c.Type == string(jobsetv1alpha2.JobSetSuspended) {
			continue
		}
		if c.Message != "" && strings.Contains(strings.ToLower(c.Reason+c.Message), "fail") {
			return ": " + c.Message
		}
	}
	return ""
}

func describeJobSet(js *jobsetv1alpha2.JobSet) string {
	var parts []string
	var tpus int64
	for _, rj := range js.Spec.ReplicatedJobs {
		pods := int32(1)
		if rj.Template.Spec.Parallelism != nil {
			pods = *rj.Template.Spec.Parallelism
		}
		parts = append(parts, fmt.Sprintf("%d × %s of %d pods", rj.Replicas, rj.Name, pods))
		for _, c := range rj.Template.Spec.Template.Spec.Containers {
			if q, ok := c.Resources.Limits[wellknown.ResourceTPU]; ok {
				tpus += q.Value() * int64(pods) * int64(rj.Replicas)
			}
		}
	}
	s := strings.Join(parts, ", ")
	if tpus > 0 {
		s += fmt.Sprintf(", %d google.com/tpu", tpus)
	}
	if len(js.Spec.ReplicatedJobs) > 0 {
		spec := js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec
		if spec.PriorityClassName != "" {
			s += ", priority " + spec.PriorityClassName
		}
		if spec.SchedulerName != "" {
			s += ", scheduler " + spec.SchedulerName
		}
	}
	if topo := js.Annotations[jobsetv1alpha2.ExclusiveKey]; topo != "" {
		s += ", one " + topo + " per slice"
	}
	return s
}

// sliceSubject names a JobSet pod's slice: "<jobset> <replicatedJob>-<index>".
func sliceSubject(p *corev1.Pod) (subject, jobset, slice string, ok bool) {
	jobset = p.Labels[jobsetv1alpha2.JobSetNameKey]
	if jobset == "" {
		return "pod " + p.Name, "", "", false
	}
	slice = p.Labels[jobsetv1alpha2.ReplicatedJobNameKey] + "-" + p.Labels[jobsetv1alpha2.JobIndexKey]
	return jobset + " " + slice, jobset, slice, true
}

func podIndex(p *corev1.Pod) string {
	if i, ok := p.Annotations[batchv1.JobCompletionIndexAnnotation]; ok {
		return i
	}
	return p.Name
}

// Pod reports a pod's binding, why it waits, and how it ends.
func (t *Timeline) Pod(p *corev1.Pod) {
	t.mu.Lock()
	defer t.mu.Unlock()
	key := p.Namespace + "/" + p.Name
	s, known := t.pods[key]
	if !known {
		s = &podState{}
		t.pods[key] = s
	}
	subject, jobset, slice, inJobSet := sliceSubject(p)
	s.namespace, s.jobset, s.slice = p.Namespace, jobset, slice
	who := "pod " + podIndex(p)
	if podIndex(p) == "0" && inJobSet {
		who = "leader pod"
	}
	if s.job = jobOfPod(p); s.job != "" {
		subject, who = "job "+s.job, "pod "+p.Name
	}

	if p.Spec.NodeName == "" {
		if msg := unschedulableMessage(p); msg != "" {
			// Counts change as other pods come and go; report the pod
			// again only when the kinds of reasons change.
			if key := waitReasons(msg); key != s.waiting {
				s.waiting = key
				t.emit(subject, "%s waits: %s", who, withoutPreemption(msg))
			}
		}
	} else if s.node == "" {
		s.node = p.Spec.NodeName
		if s.job != "" {
			t.jobPodBound(p, subject)
		} else if pool := t.poolOf(p.Spec.NodeName); pool != "" {
			t.emit(subject, "%s bound to %s (pool %s) by %s", who, p.Spec.NodeName, pool, schedulerOf(p))
		} else {
			t.emit(subject, "%s bound to %s by %s", who, p.Spec.NodeName, schedulerOf(p))
		}
	}

	if p.Status.Phase != s.phase {
		s.phase = p.Status.Phase
		switch p.Status.Phase {
		case corev1.PodRunning:
			if inJobSet {
				t.sliceRunning(p.Namespace, jobset, slice, subject)
			} else if s.job != "" {
				t.jobRunning(p.Namespace, s.job, subject)
			}
		case corev1.PodFailed:
			if c := disruptionTarget(p); c != nil {
				// Ended on purpose (an eviction), not by its own failure:
				// its JobSet is told running whole again once it is.
				t.emit(subject, "%s evicted%s", who, reasonSuffix(c.Reason, c.Message))
				if js := t.jobsets[p.Namespace+"/"+jobset]; inJobSet && js != nil {
					js.running = false
				}
				break
			}
			t.emit(subject, "%s failed%s", who, reasonSuffix(p.Status.Reason, p.Status.Message))
		}
	}
}

// disruptionTarget is the pod's DisruptionTarget=True condition (nil: none).
func disruptionTarget(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		if c := &p.Status.Conditions[i]; c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue {
			return c
		}
	}
	return nil
}

// sliceRunning reports a slice, and its JobSet, once all their pods run.
func (t *Timeline) sliceRunning(ns, jobset, slice, subject string) {
	js := t.jobsets[ns+"/"+jobset]
	if js == nil {
		return
	}
	var slicePools, allPools []string
	var sliceRunning, allRunning int32
	for _, ps := range t.pods {
		if ps.namespace != ns || ps.jobset != jobset || ps.phase != corev1.PodRunning {
			continue
		}
		allRunning++
		allPools = appendUnique(allPools, t.poolOf(ps.node))
		if ps.slice == slice {
			sliceRunning++
			slicePools = appendUnique(slicePools, t.poolOf(ps.node))
		}
	}
	if sliceRunning != js.podsPerSlice[replicatedJobOf(slice)] {
		return
	}
	sort.Strings(slicePools)
	t.emit(subject, "running: %d pods on pool %s", sliceRunning, strings.Join(slicePools, ", "))
	if js.running || allRunning != js.expectedPods() {
		return
	}
	js.running = true
	sort.Strings(allPools)
	t.emit(jobset, "all %d pods running, on pools %s", allRunning, strings.Join(allPools, ", "))
}

func replicatedJobOf(slice string) string {
	if i := strings.LastIndex(slice, "-"); i > 0 {
		return slice[:i]
	}
	return slice
}

func (s *jobsetState) expectedPods() int32 {
	var n int32
	for rj, per := range s.podsPerSlice {
		n += per * s.replicas[rj]
	}
	return n
}

// plural: "1 node", "2 nodes".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func appendUnique(s []string, v string) []string {
	if v == "" {
		return s
	}
	for _, x := range s {
		if x == v {
			return s
		}
	}
	return append(s, v)
}

// PodDeleted forgets a pod.
func (t *Timeline) PodDeleted(p *corev1.Pod) {
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.pods, p.Namespace+"/"+p.Name)
}

// Event reports events that explain waiting or disruption: the JobSet
// webhook holding back follower pods, preemption and eviction, and the
// steps of queued provisioning (provisioning.go).
func (t *Timeline) Event(e *corev1.Event) {
	t.mu.Lock()
	defer t.mu.Unlock()
	obj := e.InvolvedObject
	if t.provisioningEvent(e) || t.autoProvisioningEvent(e) {
		return
	}
	switch {
	case obj.Kind == "Job" && e.Reason == "FailedCreate" && isFollowerRejection(e.Message):
		if !t.held[obj.Namespace+"/"+obj.Name] {
			t.held[obj.Namespace+"/"+obj.Name] = true
			t.emit(jobSubject(obj.Name), "follower pods wait: the JobSet pod webhook admits them only once the leader pod is scheduled")
		}
	case obj.Kind == "Pod" && e.Reason == "Preempted":
		t.emit(podSubject(obj.Name), "preempted: %s", e.Message)
	case obj.Kind == "Pod" && e.Reason == "TaintManagerEviction" && strings.HasPrefix(e.Message, "Cancelling"):
		// The same reason tells an eviction called off: the pod
		// tolerated the taint for a while (not-ready, unreachable), and
		// the taint went first.
		t.emit(podSubject(obj.Name), "eviction by the taint eviction controller called off: the node's taint was removed within the pod's toleration")
	case obj.Kind == "Pod" && e.Reason == "TaintManagerEviction":
		t.emit(podSubject(obj.Name), "evicted by the taint eviction controller (its node pool failed)")
	case (obj.Kind == "JobSet" || obj.Kind == "PodGroup") && e.Reason == "Preempting":
		t.emit(obj.Name, "preempts: %s", e.Message)
	case (obj.Kind == "JobSet" || obj.Kind == "PodGroup") && e.Reason == "Preempted":
		t.emit(obj.Name, "preempted: %s", e.Message)
	case workloadKinds[obj.Kind] && e.Reason == reasonMigrating:
		t.emit(obj.Name, "moves off recycled nodes: %s", e.Message)
	case workloadKinds[obj.Kind] && (e.Reason == reasonMigrationWaiting || e.Reason == reasonMigrationBlocked):
		t.emit(obj.Name, "waits to move off recycled nodes (%s): %s", e.Reason, e.Message)
	}
}

// The scheduler's events on a workload moved off nodes being recycled
// (pkg/controllers' Migrator: ReasonMigrating and the others).
const (
	reasonMigrating        = "Migrating"
	reasonMigrationWaiting = "MigrationWaiting"
	reasonMigrationBlocked = "MigrationBlocked"
)

// workloadKinds are the kinds of the objects the scheduler's events about
// whole workloads are on.
var workloadKinds = map[string]bool{"JobSet": true, "Job": true, "PodGroup": true}

// isFollowerRejection recognizes the JobSet pod webhook refusing a follower
// pod because its leader is not scheduled yet.
func isFollowerRejection(msg string) bool {
	return strings.Contains(msg, "vpod.kb.io") &&
		(strings.Contains(msg, "leader pod not yet scheduled") || strings.Contains(msg, "follower pod node selector"))
}

// jobSubject turns a JobSet child Job name, <jobset>-<rjob>-<index>, into
// the subject used for its pods.
func jobSubject(job string) string {
	i := strings.LastIndex(job, "-")
	if i < 0 {
		return job
	}
	j := strings.LastIndex(job[:i], "-")
	if j < 0 {
		return job
	}
	return job[:j] + " " + job[j+1:]
}

// podSubject does the same for a pod name, <job>-<completion index>-<suffix>.
func podSubject(pod string) string {
	parts := strings.Split(pod, "-")
	if len(parts) < 5 {
		return "pod " + pod
	}
	if _, err := strconv.Atoi(parts[len(parts)-2]); err != nil {
		return "pod " + pod
	}
	return jobSubject(strings.Join(parts[:len(parts)-2], "-"))
}

func unschedulableMessage(p *corev1.Pod) string {
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodScheduled && c.Status == corev1.ConditionFalse && c.Message != "" {
			return c.Message
		}
	}
	return ""
}

// withoutPreemption drops the scheduler's account of why preemption did
// not help, which follows the filter reasons.
func withoutPreemption(msg string) string {
	if i := strings.Index(msg, " preemption: "); i > 0 {
		return strings.TrimSuffix(msg[:i], ".")
	}
	return msg
}

var availablePrefix = regexp.MustCompile(`^\d+/\d+ nodes are available[:.]?\s*`)

// waitReasons reduces a FailedScheduling message to its set of reasons:
// "0/25 nodes are available: 2 node(s) had untolerated taint(s), 7 node(s)
// didn't match ..." becomes "didn't match ...|had untolerated taint(s)".
func waitReasons(msg string) string {
	msg = availablePrefix.ReplaceAllString(withoutPreemption(msg), "")
	var reasons []string
	for _, r := range strings.Split(msg, ", ") {
		r = strings.TrimSpace(r)
		if i := strings.Index(r, " node(s) "); i >= 0 {
			if _, err := strconv.Atoi(r[:i]); err == nil {
				r = r[i+len(" node(s) "):]
			}
		}
		reasons = append(reasons, r)
	}
	sort.Strings(reasons)
	return "reasons:" + strings.Join(reasons, "|")
}

func schedulerOf(p *corev1.Pod) string {
	if p.Spec.SchedulerName == "" {
		return corev1.DefaultSchedulerName
	}
	return p.Spec.SchedulerName
}

func reasonSuffix(reason, message string) string {
	switch {
	case reason != "" && message != "":
		return fmt.Sprintf(" (%s: %s)", reason, message)
	case reason != "":
		return " (" + reason + ")"
	}
	return ""
}
