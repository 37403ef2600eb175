package state_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/utils/ptr"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

func jobKey(name string) workload.Key {
	return workload.Key{Source: workload.SourceJob, Namespace: unit.Namespace, Name: name}
}

// queuedJob is a running indexed Job of pods pods in multislice-queue,
// confined to a v5e 2x4 pool, created minute m after the epoch, with UID
// <name>-uid.
func queuedJob(name string, pods int32, m int) *batchv1.Job {
	return &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: unit.Namespace, Name: name, UID: types.UID(name + "-uid"),
			Labels:            map[string]string{wellknown.QueueNameLabel: "multislice-queue"},
			Annotations:       map[string]string{wellknown.DomainKeyAnnotation: wellknown.NodePoolLabel},
			CreationTimestamp: metav1.NewTime(builders.Epoch.Add(time.Duration(m) * time.Minute))},
		Spec: batchv1.JobSpec{
			Parallelism: ptr.To(pods), Completions: ptr.To(pods), Suspend: ptr.To(false),
			CompletionMode: ptr.To(batchv1.IndexedCompletion),
		},
	}
}

// jobPodsOf are the pods the Job controller creates for job, each asking
// for a v5e host's 4 chips and carrying the queue label the scheduler
// copies into the template when it unsuspends the Job.
func jobPodsOf(job *batchv1.Job) []*corev1.Pod {
	var out []*corev1.Pod
	for i := range int(*job.Spec.Parallelism) {
		out = append(out, unit.Pod(fmt.Sprintf("%s-%d", job.Name, i)).TPU("4").
			NodeSelector(wellknown.TPUAcceleratorLabel, builders.V5e).
			NodeSelector(wellknown.TPUTopologyLabel, "2x4").
			Label(wellknown.QueueNameLabel, "multislice-queue").
			Label(wellknown.JobNameLabel, job.Name).
			Label(wellknown.JobControllerUIDLabel, string(job.UID)).
			Label(wellknown.JobCompletionIndexLabel, fmt.Sprint(i)).
			UID(string(job.UID)+"/"+fmt.Sprint(i)).Created(job.CreationTimestamp.Time).Obj())
	}
	return out
}

// withJobs is the fixture with the Job API served as well.
func withJobs(f *fixture) *fixture {
	f.s.Feed().SetAPI(workload.SourceJob, state.APIServed)
	return f
}

// addJob feeds a Job as the feed's Job informer would.
func (f *fixture) addJob(job *batchv1.Job) state.Actions {
	f.t.Helper()
	w, err := workload.FromJob(job, f.s.DefaultDomainKey())
	if err != nil {
		f.t.Fatalf("FromJob: %v", err)
	}
	return f.act(f.s.Feed().UpsertSource(jobKey(job.Name), w, nil, corev1.ObjectReference{Kind: "Job", APIVersion: "batch/v1", Namespace: job.Namespace, Name: job.Name, UID: job.UID}))
}

func jobCharged(f *fixture, name string) int64 {
	c := chargeOf(f.t, f.s, jobKey(name))
	if c == nil {
		return 0
	}
	return c.Usage[quota.FlavorResource{Flavor: v5eFlavor, Resource: wellknown.ResourceTPU}] / 1000
}

func TestJobVerdicts(t *testing.T) {
	job := queuedJob("a", 2, 0)
	pods := jobPodsOf(job)
	cases := map[string]struct {
		setup     func(f *fixture) *corev1.Pod
		jobAPI    bool
		want      verdict
		wantMsg   string
		wantJobOf bool
	}{
		"Job API not known yet": {
			setup: func(f *fixture) *corev1.Pod {
				f.addPods(pods...)
				return pods[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting to learn whether the Job API is served",
		},
		"Job not observed yet": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				f.addPods(pods...)
				return pods[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for Job ns/a to be observed",
		},
		"1 of 2 pods": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				f.addJob(job)
				f.addPods(pods[0])
				return pods[0]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for 1 of 2 pods of Job ns/a to be created",
		},
		"every pod: the head goes, through its queue": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				f.addJob(job)
				f.addPods(pods...)
				return pods[0]
			},
			want: verdict{Gang: true}, wantJobOf: true,
		},
		"every pod: the other waits for the head": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				f.addJob(job)
				f.addPods(pods...)
				return pods[1]
			},
			want: verdict{Gang: true, Wait: true}, wantMsg: "waiting for a-0 to find room for Job ns/a",
		},
		"suspended Job": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				suspended := job.DeepCopy()
				suspended.Spec.Suspend = ptr.To(true)
				f.addJob(suspended)
				f.addPods(pods...)
				return pods[0]
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "Job ns/a is finished, suspended or being deleted",
		},
		"pod of a deleted Job of the same name": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				recreated := job.DeepCopy()
				recreated.UID = "a-uid-2"
				f.addJob(recreated)
				f.addPods(pods...)
				return pods[0]
			},
			want: verdict{Gang: true, Unresolvable: true}, wantMsg: "belongs to a deleted Job ns/a of the same name",
		},
		"pod of a Job that names no queue: plain": {
			jobAPI: true,
			setup: func(f *fixture) *corev1.Pod {
				p := builders.Relabelled(pods[0], wellknown.QueueNameLabel, "")
				f.addPods(p)
				return p
			},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			f := withQueue(newFixture(t, builders.V5ePools(2)...), 16, quota.BestEffortFIFO)
			if tc.jobAPI {
				withJobs(f)
			}
			v := f.admit(tc.setup(f))
			if got := (verdict{v.Gang, v.Wait, v.Unresolvable}); got != tc.want {
				t.Fatalf("verdict = %+v (%q), want %+v", got, v.Message, tc.want)
			}
			if !strings.Contains(v.Message, tc.wantMsg) {
				t.Errorf("message %q, want it to contain %q", v.Message, tc.wantMsg)
			}
			if tc.wantJobOf && (v.Member.Key != jobKey("a") || v.Member.RestartAttempt != 0) {
				t.Errorf("member = %+v, want Job ns/a at attempt 0", v.Member)
			}
		})
	}
}

// A queued Job is a gang like any other: its head plans every pod at once
// on a snapshot and is charged to its queue, and a Job that does not fit
// the quota waits gated until the first finishes. Pods that succeeded are
// not asked for again, so a partly completed Job still runs whole.
func TestJobAdmittedThroughQuota(t *testing.T) {
	f := withJobs(withQueue(newFixture(t, builders.V5ePools(2)...), 8, quota.BestEffortFIFO))
	first, second := queuedJob("first", 2, 0), queuedJob("second", 2, 1)
	f.addJob(first)
	firstPods := jobPodsOf(first)
	f.addPods(firstPods...)
	if v := f.admit(head(t, f, firstPods)); v.Wait || !v.Gang {
		t.Fatalf("head of first: %+v", v)
	}
	_, r, _ := f.commit(jobKey("first"))
	if len(r.Slices) != 1 || r.Slices[0].Domain == "" {
		t.Fatalf("reservation %+v, want one slice on a pool", r.Slices)
	}
	if got := jobCharged(f, "first"); got != 8 {
		t.Fatalf("first charged %d chips, want 8", got)
	}

	f.addJob(second)
	secondPods := jobPodsOf(second)
	f.addPods(secondPods...)
	if v := f.admit(head(t, f, secondPods)); !v.Wait || v.QueueReason != quota.ReasonQuotaExceeded {
		t.Fatalf("head of second: %+v, want it waiting for quota", v)
	}

	for _, p := range firstPods {
		f.reserve(p)
	}
	if res := f.permit(firstPods[len(firstPods)-1]); !res.Allow {
		t.Fatalf("Permit of the last member of first: %+v", res)
	}
	for _, p := range firstPods {
		f.bind(p, f.placed[p.UID])
	}
	if !placedWhole(f, jobKey("first")) {
		t.Fatal("first is not placed whole once bound")
	}
	// One pod completes: the Job asks for one pod from now on, still runs
	// whole and keeps its charge.
	f.addPods(builders.InPhase(builders.Bound(firstPods[0], f.placed[firstPods[0].UID]), corev1.PodSucceeded))
	partly := first.DeepCopy()
	partly.Status.Succeeded = 1
	f.addJob(partly)
	if !placedWhole(f, jobKey("first")) {
		t.Error("a partly completed Job is not placed whole")
	}
	if got := jobCharged(f, "first"); got != 8 {
		t.Fatalf("partly completed first charged %d chips, want 8", got)
	}

	// The last pod succeeds (the scheduler's informer reports it gone) and
	// the Job completes: the charge goes with the last pod on a node.
	acts := f.deletePod(builders.InPhase(builders.Bound(firstPods[1], f.placed[firstPods[1].UID]), corev1.PodSucceeded))
	done := partly.DeepCopy()
	done.Status.Succeeded = 2
	done.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobComplete, Status: corev1.ConditionTrue}}
	merge(&acts, f.addJob(done))
	if got := jobCharged(f, "first"); got != 0 {
		t.Fatalf("complete first still charged %d chips", got)
	}
	if h := head(t, f, secondPods); !strings.Contains(strings.Join(names(acts.Activate), ","), h.Name) {
		t.Errorf("releasing quota did not activate %s (activated %v)", h.Name, names(acts.Activate))
	}
	if v := f.admit(head(t, f, secondPods)); v.Wait {
		t.Fatalf("head of second after first completed: %+v", v)
	}
	f.commit(jobKey("second"))
	if got := jobCharged(f, "second"); got != 8 {
		t.Fatalf("second charged %d chips, want 8", got)
	}
}

// Jobs appear in the queue report under their own kind, so their Workload
// objects are named and owned after the Job.
func TestJobQueueReport(t *testing.T) {
	f := withJobs(withQueue(newFixture(t, builders.V5ePools(1)...), 8, quota.BestEffortFIFO))
	job := queuedJob("a", 2, 0)
	f.addJob(job)
	f.addPods(jobPodsOf(job)...)
	f.admit(head(t, f, jobPodsOf(job)))
	rep := f.s.Reports().QueueReport()
	if len(rep.Workloads) != 1 {
		t.Fatalf("report has %d workloads, want the Job's", len(rep.Workloads))
	}
	wr := rep.Workloads[0]
	if wr.Key != jobKey("a") || wr.Ref.Kind != "Job" || wr.Ref.UID != job.UID || wr.Queue != "multislice-queue" || wr.Charge != nil {
		t.Errorf("report = %+v", wr)
	}
	if rep.ClusterQueues["cluster-queue"].Pending != 1 {
		t.Errorf("cluster-queue pending = %d, want 1", rep.ClusterQueues["cluster-queue"].Pending)
	}
}
