package timeline

import (
	"github.com/google/go-cmp/cmp"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

type clock struct{ t time.Time }

func (c *clock) now() time.Time { return c.t }

func newTest() (*Timeline, *strings.Builder, *clock) {
	var out strings.Builder
	c := &clock{t: time.Unix(1000, 0)}
	return newWithClock(&out, c.now), &out, c
}

func readyNode(name, pool string, ready bool, failed bool) *corev1.Node {
	status := corev1.ConditionTrue
	if !ready {
		status = corev1.ConditionFalse
	}
	n := &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{wellknown.NodePoolLabel: pool}},
		Status:     corev1.NodeStatus{Conditions: []corev1.NodeCondition{{Type: corev1.NodeReady, Status: status}}},
	}
	if failed {
		n.Spec.Taints = []corev1.Taint{{Key: faults.PoolFailureTaint, Effect: corev1.TaintEffectNoExecute}}
	}
	return n
}

func jobSet(name string, slices, podsPerSlice int32) *jobsetv1alpha2.JobSet {
	return &jobsetv1alpha2.JobSet{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name, Annotations: map[string]string{jobsetv1alpha2.ExclusiveKey: wellknown.NodePoolLabel}},
		Spec: jobsetv1alpha2.JobSetSpec{ReplicatedJobs: []jobsetv1alpha2.ReplicatedJob{{
			Name: "slice", Replicas: slices,
			Template: batchv1.JobTemplateSpec{Spec: batchv1.JobSpec{
				Parallelism: ptr.To(podsPerSlice),
				Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
					SchedulerName: "multislice-scheduler",
					Containers: []corev1.Container{{Name: "c", Resources: corev1.ResourceRequirements{
						Limits: corev1.ResourceList{wellknown.ResourceTPU: resource.MustParse("4")}}}},
				}},
			}},
		}}},
	}
}

func pod(jobset, slice, index, node string, phase corev1.PodPhase) *corev1.Pod {
	return &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: "default", Name: jobset + "-slice-" + slice + "-" + index + "-abcde",
			Labels: map[string]string{
				jobsetv1alpha2.JobSetNameKey: jobset, jobsetv1alpha2.ReplicatedJobNameKey: "slice", jobsetv1alpha2.JobIndexKey: slice,
			},
			Annotations: map[string]string{batchv1.JobCompletionIndexAnnotation: index},
		},
		Spec:   corev1.PodSpec{NodeName: node, SchedulerName: "multislice-scheduler"},
		Status: corev1.PodStatus{Phase: phase},
	}
}

func lines(out *strings.Builder) []string {
	var ls []string
	for _, l := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		if l != "" {
			ls = append(ls, strings.Join(strings.Fields(l), " "))
		}
	}
	return ls
}

func TestJobSetStory(t *testing.T) {
	tl, out, clk := newTest()
	tl.Node(readyNode("a-0", "pool-a", true, false))
	tl.Node(readyNode("b-0", "pool-b", true, false))

	js := jobSet("train", 2, 2)
	tl.JobSet(js)
	clk.t = clk.t.Add(1500 * time.Millisecond)

	waiting := pod("train", "1", "0", "", corev1.PodPending)
	waiting.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Message: "0/2 nodes are available"}}
	tl.Pod(waiting)
	tl.Pod(waiting) // the same reason is reported once
	waiting.Status.Conditions[0].Message = "0/3 nodes are available. preemption: 0/3 nodes are available: 3 Preemption is not helpful"
	tl.Pod(waiting) // nor with other counts
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "Job", Namespace: "default", Name: "train-slice-1"},
		Reason: "FailedCreate", Message: `admission webhook "vpod.kb.io" denied the request: leader pod not yet scheduled, not creating follower pod`})
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "Job", Namespace: "default", Name: "train-slice-1"},
		Reason: "FailedCreate", Message: `admission webhook "vpod.kb.io" denied the request: follower pod node selector for topology domain not found. missing selector: cloud.google.com/gke-nodepool`})

	for _, p := range []*corev1.Pod{
		pod("train", "0", "0", "a-0", corev1.PodPending),
		pod("train", "0", "0", "a-0", corev1.PodRunning),
		pod("train", "0", "1", "a-0", corev1.PodRunning),
		pod("train", "1", "0", "b-0", corev1.PodRunning),
		pod("train", "1", "1", "b-0", corev1.PodRunning),
	} {
		tl.Pod(p)
	}
	js.Status.TerminalState = "Completed"
	tl.JobSet(js)

	want := []string{
		"0.0s train created: 2 × slice of 2 pods, 16 google.com/tpu, scheduler multislice-scheduler, one cloud.google.com/gke-nodepool per slice",
		"1.5s train slice-1 leader pod waits: 0/2 nodes are available",
		"1.5s train slice-1 follower pods wait: the JobSet pod webhook admits them only once the leader pod is scheduled",
		"1.5s train slice-0 leader pod bound to a-0 (pool pool-a) by multislice-scheduler",
		"1.5s train slice-0 pod 1 bound to a-0 (pool pool-a) by multislice-scheduler",
		"1.5s train slice-0 running: 2 pods on pool pool-a",
		"1.5s train slice-1 leader pod bound to b-0 (pool pool-b) by multislice-scheduler",
		"1.5s train slice-1 pod 1 bound to b-0 (pool pool-b) by multislice-scheduler",
		"1.5s train slice-1 running: 2 pods on pool pool-b",
		"1.5s train all 4 pods running, on pools pool-a, pool-b",
		"1.5s train Completed",
	}
	got := lines(out)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestPoolFailureAndRestart(t *testing.T) {
	tl, out, _ := newTest()
	tl.Node(readyNode("a-0", "pool-a", true, false))
	tl.Node(readyNode("a-1", "pool-a", true, false))
	js := jobSet("train", 1, 1)
	tl.JobSet(js)

	tl.Node(readyNode("a-0", "pool-a", true, true))  // a-0 failing, a-1 healthy
	tl.Node(readyNode("a-1", "pool-a", true, true))  // both failing
	tl.Node(readyNode("a-0", "pool-a", false, true)) // still one Ready
	tl.Node(readyNode("a-1", "pool-a", false, true)) // failed
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "train-slice-0-0-xyz12"}, Reason: "TaintManagerEviction",
		Message: "Marking for deletion Pod default/train-slice-0-0-xyz12"})
	// The controller tells an eviction called off by the same reason.
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "Pod", Namespace: "default", Name: "train-slice-1-0-abc34"}, Reason: "TaintManagerEviction",
		Message: "Cancelling deletion of Pod default/train-slice-1-0-abc34"})
	js.Status.Restarts = 1
	tl.JobSet(js)
	tl.JobSet(js) // reported once

	got := strings.Join(lines(out), "\n")
	for _, w := range []string{
		"pool pool-a Healthy → Degraded",
		"pool pool-a Degraded → Failing",
		"pool pool-a Failing → Failed",
		"train slice-0 evicted by the taint eviction controller",
		"train slice-1 eviction by the taint eviction controller called off",
		"train restarted by the JobSet controller (restart 1)",
	} {
		if !strings.Contains(got, w) {
			t.Errorf("timeline lacks %q:\n%s", w, got)
		}
	}
	if strings.Contains(got, "slice-1 evicted") {
		t.Errorf("an eviction called off is told as an eviction:\n%s", got)
	}
	if strings.Count(got, "restarted") != 1 {
		t.Errorf("restart reported more than once:\n%s", got)
	}
}

// The scheduler's whole-workload preemption is told on both workloads.
func TestWorkloadPreemption(t *testing.T) {
	tl, out, _ := newTest()
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "JobSet", Namespace: "default", Name: "high"},
		Reason: "Preempting", Message: "evicting JobSet default/low (priority 1000000) to take slice 0 → pool-b, slice 1 → pool-c"})
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "JobSet", Namespace: "default", Name: "low"},
		Reason: "Preempted", Message: "evicted whole by JobSet default/high (priority 2000000)"})
	got := strings.Join(lines(out), "\n")
	for _, w := range []string{"high", "preempts: evicting JobSet default/low", "low", "preempted: evicted whole by JobSet default/high"} {
		if !strings.Contains(got, w) {
			t.Errorf("timeline lacks %q:\n%s", w, got)
		}
	}
}

// A move off recycled nodes is told on the workload: its wait, the move,
// its pods evicted (an eviction, not a failure of their own), and the
// JobSet running whole again.
func TestWorkloadMigration(t *testing.T) {
	tl, out, _ := newTest()
	tl.Node(readyNode("a-0", "pool-a", true, false))
	tl.Node(readyNode("a-1", "pool-a", true, false))
	tl.JobSet(jobSet("train", 1, 1))
	tl.Pod(pod("train", "0", "0", "a-0", corev1.PodRunning))
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "JobSet", Namespace: "default", Name: "train"},
		Reason: "MigrationWaiting", Message: "slice 0 (train-slice-0) of JobSet default/train should move off node a-0"})
	tl.Event(&corev1.Event{InvolvedObject: corev1.ObjectReference{Kind: "JobSet", Namespace: "default", Name: "train"},
		Reason: "Migrating", Message: "slice 0 (train-slice-0) of JobSet default/train moves whole off node a-0"})
	evicted := pod("train", "0", "0", "a-0", corev1.PodFailed)
	evicted.Status.Conditions = []corev1.PodCondition{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue, Reason: "EvictionByEvictionAPI", Message: "Eviction API: evicting"}}
	tl.Pod(evicted)
	tl.PodDeleted(evicted)
	again := pod("train", "0", "0", "a-1", corev1.PodRunning)
	again.Name += "-2"
	tl.Pod(again)
	want := []string{
		"0.0s train created: 1 × slice of 1 pods, 4 google.com/tpu, scheduler multislice-scheduler, one cloud.google.com/gke-nodepool per slice",
		"0.0s train slice-0 leader pod bound to a-0 (pool pool-a) by multislice-scheduler",
		"0.0s train slice-0 running: 1 pods on pool pool-a",
		"0.0s train all 1 pods running, on pools pool-a",
		"0.0s train waits to move off recycled nodes (MigrationWaiting): slice 0 (train-slice-0) of JobSet default/train should move off node a-0",
		"0.0s train moves off recycled nodes: slice 0 (train-slice-0) of JobSet default/train moves whole off node a-0",
		"0.0s train slice-0 leader pod evicted (EvictionByEvictionAPI: Eviction API: evicting)",
		"0.0s train slice-0 leader pod bound to a-1 (pool pool-a) by multislice-scheduler",
		"0.0s train slice-0 running: 1 pods on pool pool-a",
		"0.0s train all 1 pods running, on pools pool-a",
	}
	if diff := cmp.Diff(want, lines(out)); diff != "" {
		t.Errorf("timeline (-want +got):\n%s", diff)
	}
}

func TestWaitReasons(t *testing.T) {
	a := "0/25 nodes are available: 1 node(s) didn't match pod anti-affinity rules, 15 node(s) had untolerated taint(s). preemption: 0/25 nodes are available: 22 Preemption is not helpful for scheduling."
	b := "0/25 nodes are available: 12 node(s) had untolerated taint(s), 2 node(s) didn't match pod anti-affinity rules. preemption: 0/25 nodes are available: 20 Preemption is not helpful for scheduling."
	c := "0/25 nodes are available: 12 node(s) had untolerated taint(s). preemption: 0/25 nodes are available: 20 Preemption is not helpful for scheduling."
	if waitReasons(a) != waitReasons(b) {
		t.Errorf("same reasons, different counts: %q != %q", waitReasons(a), waitReasons(b))
	}
	if waitReasons(a) == waitReasons(c) {
		t.Errorf("different reasons compare equal: %q", waitReasons(a))
	}
	if got, want := withoutPreemption(c), "0/25 nodes are available: 12 node(s) had untolerated taint(s)"; got != want {
		t.Errorf("withoutPreemption = %q, want %q", got, want)
	}
}

func TestSubjects(t *testing.T) {
	tests := []struct{ in, job, pod string }{
		{"train-slice-1", "train slice-1", ""},
		{"multislice-2slice-slice-0", "multislice-2slice slice-0", ""},
		{"multislice-2slice-slice-0-1-abcde", "", "multislice-2slice slice-0"},
		{"standalone", "standalone", "pod standalone"},
	}
	for _, tc := range tests {
		if tc.job != "" {
			if got := jobSubject(tc.in); got != tc.job {
				t.Errorf("jobSubject(%q) = %q, want %q", tc.in, got, tc.job)
			}
		}
		if tc.pod != "" {
			if got := podSubject(tc.in); got != tc.pod {
				t.Errorf("podSubject(%q) = %q, want %q", tc.in, got, tc.pod)
			}
		}
	}
}

// Node auto-provisioning's events, once each: a pod's scale-up and a
// node's life.
func TestAutoProvisioningEvents(t *testing.T) {
	tl, out, clk := newTest()
	up := event("e1", "Pod", "flex-inference-slice-0-0-abcde", "TriggeredScaleUp", "pod triggered scale-up: ComputeClass c priority 1 (flex-start g2-standard-24): node pool nap-x, 2 flex-start nodes queued in us-central1-a")
	tl.Event(up)
	up.Count = 2
	tl.Event(up)
	clk.t = clk.t.Add(10 * time.Second)
	tl.Event(event("e2", "Node", "nap-x-0", "AutoProvisioned", "flex-start node of class c, priority 1, in node pool nap-x; ends at 08:05:10, recycled from 08:03:10"))
	clk.t = clk.t.Add(180 * time.Second)
	tl.Event(event("e3", "Node", "nap-x-0", "RecyclingStarted", "node recycling started"))
	tl.Event(event("e4", "Node", "nap-x-0", "Recycled", "replacement nap-x-2 is Ready: the node is cordoned"))
	tl.Event(event("e5", "Node", "nap-x-0", "Deprovisioned", "recycled node removed: drained 30s after its replacement was Ready"))
	tl.Event(event("e6", "Node", "nap-x-0", "NodeNotReady", "not ours"))
	want := []string{
		"0.0s flex-inference slice-0 pod triggered scale-up: ComputeClass c priority 1 (flex-start g2-standard-24): node pool nap-x, 2 flex-start nodes queued in us-central1-a",
		"10.0s node nap-x-0 flex-start node of class c, priority 1, in node pool nap-x; ends at 08:05:10, recycled from 08:03:10",
		"190.0s node nap-x-0 node recycling started",
		"190.0s node nap-x-0 replacement nap-x-2 is Ready: the node is cordoned",
		"190.0s node nap-x-0 recycled node removed: drained 30s after its replacement was Ready",
	}
	if got := lines(out); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("timeline:\n%s\n\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
