package workload

import (
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// job is a running Job ns/train of parallelism pods asking for one GPU
// each, in LocalQueue lq; edits change it further.
func job(parallelism int32, edits ...func(*batchv1.Job)) *batchv1.Job {
	j := &batchv1.Job{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "train", UID: "job-uid",
			Labels:            map[string]string{wellknown.QueueNameLabel: "lq"},
			Annotations:       map[string]string{},
			CreationTimestamp: metav1.NewTime(time.Unix(100, 0))},
		Spec: batchv1.JobSpec{
			Parallelism: ptr(parallelism),
			Suspend:     ptr(false),
			Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "c",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
					wellknown.ResourceGPU: resource.MustParse("1"),
				}},
			}}}},
		},
	}
	for _, e := range edits {
		e(j)
	}
	return j
}

func completions(n int32) func(*batchv1.Job) {
	return func(j *batchv1.Job) { j.Spec.Completions = ptr(n) }
}

func succeeded(n int32) func(*batchv1.Job) {
	return func(j *batchv1.Job) { j.Status.Succeeded = n }
}

func annotated(key, value string) func(*batchv1.Job) {
	return func(j *batchv1.Job) { j.Annotations[key] = value }
}

func jobCondition(typ batchv1.JobConditionType) func(*batchv1.Job) {
	return func(j *batchv1.Job) {
		j.Status.Conditions = append(j.Status.Conditions, batchv1.JobCondition{Type: typ, Status: corev1.ConditionTrue})
	}
}

func TestFromJob(t *testing.T) {
	// state is the part of a Job's workload that says whether it runs.
	type state struct {
		Finished, Failed, Suspended bool
		QueueName, AtomicKey        string
	}
	running := state{QueueName: "lq"}
	cases := map[string]struct {
		job        *batchv1.Job
		defaultKey string
		want       []sliceShape
		wantState  state
		wantErr    string
	}{
		"parallelism pods, unconfined": {
			job:       job(4),
			want:      []sliceShape{{0, "train", 4, ""}},
			wantState: running,
		},
		"no parallelism: one pod": {
			job:       job(1, func(j *batchv1.Job) { j.Spec.Parallelism = nil }),
			want:      []sliceShape{{0, "train", 1, ""}},
			wantState: running,
		},
		"completions cap parallelism": {
			job:       job(4, completions(2)),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: running,
		},
		"succeeded pods are not asked for again": {
			job:       job(4, completions(6), succeeded(3)),
			want:      []sliceShape{{0, "train", 3, ""}},
			wantState: running,
		},
		"all completions reached, not finished yet: still one pod": {
			job:       job(2, completions(2), succeeded(2)),
			want:      []sliceShape{{0, "train", 1, ""}},
			wantState: running,
		},
		"succeeded does not cap a Job without completions": {
			job:       job(4, succeeded(3)),
			want:      []sliceShape{{0, "train", 4, ""}},
			wantState: running,
		},
		"JobSet's exclusive-topology annotation confines": {
			job:       job(2, annotated(wellknown.ExclusiveTopologyAnnotation, wellknown.NodePoolLabel)),
			want:      []sliceShape{{0, "train", 2, wellknown.NodePoolLabel}},
			wantState: running,
		},
		"our annotation confines": {
			job:       job(2, annotated(wellknown.DomainKeyAnnotation, wellknown.NodePoolLabel)),
			want:      []sliceShape{{0, "train", 2, wellknown.NodePoolLabel}},
			wantState: running,
		},
		"both annotations naming the same key": {
			job: job(2, annotated(wellknown.DomainKeyAnnotation, wellknown.NodePoolLabel),
				annotated(wellknown.ExclusiveTopologyAnnotation, wellknown.NodePoolLabel)),
			want:      []sliceShape{{0, "train", 2, wellknown.NodePoolLabel}},
			wantState: running,
		},
		"default domain key": {
			job:        job(2),
			defaultKey: wellknown.NodePoolLabel,
			want:       []sliceShape{{0, "train", 2, wellknown.NodePoolLabel}},
			wantState:  running,
		},
		"a named key wins over the default": {
			job:        job(2, annotated(wellknown.DomainKeyAnnotation, wellknown.ZoneLabel)),
			defaultKey: wellknown.NodePoolLabel,
			want:       []sliceShape{{0, "train", 2, wellknown.ZoneLabel}},
			wantState:  running,
		},
		"atomic topology": {
			job:       job(2, annotated(wellknown.AtomicTopologyAnnotation, wellknown.ZoneLabel)),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: state{QueueName: "lq", AtomicKey: wellknown.ZoneLabel},
		},
		"queue named by annotation": {
			job: job(1, func(j *batchv1.Job) {
				j.Labels = nil
				j.Annotations[wellknown.QueueNameLabel] = "other"
			}),
			want:      []sliceShape{{0, "train", 1, ""}},
			wantState: state{QueueName: "other"},
		},
		"queue named by the pod template only": {
			job: job(1, func(j *batchv1.Job) {
				j.Labels = nil
				j.Spec.Template.Labels = map[string]string{wellknown.QueueNameLabel: "tmpl"}
			}),
			want:      []sliceShape{{0, "train", 1, ""}},
			wantState: state{QueueName: "tmpl"},
		},
		"suspended": {
			job:       job(2, func(j *batchv1.Job) { j.Spec.Suspend = ptr(true) }),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: state{Finished: true, Suspended: true, QueueName: "lq"},
		},
		"scaled to parallelism 0: runs nothing, as if suspended": {
			job:       job(0),
			want:      []sliceShape{{0, "train", 1, ""}},
			wantState: state{Finished: true, Suspended: true, QueueName: "lq"},
		},
		"complete": {
			job:       job(2, jobCondition(batchv1.JobComplete)),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: state{Finished: true, QueueName: "lq"},
		},
		"failed": {
			job:       job(2, jobCondition(batchv1.JobFailed)),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: state{Finished: true, Failed: true, QueueName: "lq"},
		},
		"a condition that is not true does not finish it": {
			job: job(2, func(j *batchv1.Job) {
				j.Status.Conditions = []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionFalse}}
			}),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: running,
		},
		"being deleted": {
			job:       job(2, func(j *batchv1.Job) { j.DeletionTimestamp = ptr(metav1.NewTime(time.Unix(200, 0))) }),
			want:      []sliceShape{{0, "train", 2, ""}},
			wantState: state{Finished: true, QueueName: "lq"},
		},
		"malformed exclusive-topology": {
			job:     job(2, annotated(wellknown.ExclusiveTopologyAnnotation, "bad key!")),
			wantErr: "metadata.annotations[alpha.jobset.sigs.k8s.io/exclusive-topology]",
		},
		"malformed domain key of ours": {
			job:     job(2, annotated(wellknown.DomainKeyAnnotation, "bad key!")),
			wantErr: "metadata.annotations[multislice-scheduler.io/exclusive-topology]",
		},
		"two different domain keys": {
			job: job(2, annotated(wellknown.DomainKeyAnnotation, wellknown.ZoneLabel),
				annotated(wellknown.ExclusiveTopologyAnnotation, wellknown.NodePoolLabel)),
			wantErr: "name one domain key",
		},
		"malformed atomic topology": {
			job:     job(2, annotated(wellknown.AtomicTopologyAnnotation, "")),
			wantErr: "metadata.annotations[multislice-scheduler.io/atomic-topology]",
		},
		"negative parallelism": {
			job:     job(-1),
			wantErr: "Job ns/train: spec.parallelism: must be positive, got -1",
		},
		// Caught by FuzzFromJob: the completions at fault were reported as
		// spec.parallelism; any parallelism was accepted; a request too
		// large to count wrapped to nothing.
		"negative completions": {
			job:     job(2, completions(-1)),
			wantErr: "Job ns/train: spec.completions: must be positive, got -1",
		},
		"more pods than a slice may have": {
			job:     job(1 << 30),
			wantErr: "Job ns/train: spec.parallelism: 1073741824 pods at once are more than one slice may have (1000000)",
		},
		"a request too large to count": {
			job: job(1, func(j *batchv1.Job) {
				j.Spec.Template.Spec.Containers[0].Resources.Requests[corev1.ResourceMemory] = resource.MustParse("1e30")
			}),
			wantErr: "Job ns/train: spec.template.spec: its pods ask for 1e30 of memory each, more than can be counted",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			w, err := FromJob(tc.job, tc.defaultKey)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err = %v, want it to say %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, shapes(w)); diff != "" {
				t.Errorf("slices (-want +got):\n%s", diff)
			}
			got := state{w.Finished, w.Failed, w.Suspended, w.QueueName, w.AtomicKey}
			if diff := cmp.Diff(tc.wantState, got); diff != "" {
				t.Errorf("state (-want +got):\n%s", diff)
			}
			wantKey := Key{Source: SourceJob, Namespace: "ns", Name: "train"}
			if w.Key != wantKey || w.UID != "job-uid" || !w.Created.Equal(time.Unix(100, 0)) || w.RestartAttempt != 0 || w.Groups != 1 {
				t.Errorf("identity = %v %s %v attempt %d groups %d", w.Key, w.UID, w.Created, w.RestartAttempt, w.Groups)
			}
			if got := w.Slices[0].Request[wellknown.ResourceGPU]; got != 1000 {
				t.Errorf("per-pod GPU request = %d milli, want 1000", got)
			}
			if w.Slices[0].Template == &tc.job.Spec.Template.Spec {
				t.Error("the slice shares the Job's template instead of a copy")
			}
		})
	}
}

func TestJobMember(t *testing.T) {
	train := Key{Source: SourceJob, Namespace: "ns", Name: "train"}
	queued := func(labels map[string]string) map[string]string {
		labels[wellknown.QueueNameLabel] = "lq"
		return labels
	}
	cases := map[string]struct {
		labels      map[string]string
		annotations map[string]string
		want        Member
		isMember    bool
		wantErr     string
	}{
		"queued pod of an indexed Job, leader": {
			labels:   queued(map[string]string{wellknown.JobNameLabel: "train", wellknown.JobControllerUIDLabel: "job-uid", wellknown.JobCompletionIndexLabel: "0"}),
			want:     Member{Key: train, Leader: true, HasIndex: true, OwnerUID: "job-uid"},
			isMember: true,
		},
		"queued pod of an indexed Job, follower": {
			labels:   queued(map[string]string{wellknown.JobNameLabel: "train", wellknown.JobControllerUIDLabel: "job-uid", wellknown.JobCompletionIndexLabel: "3"}),
			want:     Member{Key: train, HasIndex: true, Index: 3, OwnerUID: "job-uid"},
			isMember: true,
		},
		"queued pod of a non-indexed Job": {
			labels:   queued(map[string]string{wellknown.JobNameLabel: "train", wellknown.JobControllerUIDLabel: "job-uid"}),
			want:     Member{Key: train, OwnerUID: "job-uid"},
			isMember: true,
		},
		"legacy labels": {
			labels:   queued(map[string]string{wellknown.LegacyJobNameLabel: "train", wellknown.LegacyJobControllerUIDLabel: "old-uid"}),
			want:     Member{Key: train, OwnerUID: "old-uid"},
			isMember: true,
		},
		"queue named by annotation": {
			labels:      map[string]string{wellknown.JobNameLabel: "train"},
			annotations: map[string]string{wellknown.QueueNameLabel: "lq"},
			want:        Member{Key: train},
			isMember:    true,
		},
		"pod of a Job that names no queue: plain": {
			labels: map[string]string{wellknown.JobNameLabel: "train", wellknown.JobControllerUIDLabel: "job-uid"},
		},
		"pod of a JobSet's Job: not the Job's": {
			labels: queued(map[string]string{wellknown.JobNameLabel: "js-slice-0", wellknown.JobSetNameLabel: "js"}),
		},
		"no Job labels": {
			labels: queued(map[string]string{"app": "x"}),
		},
		"empty Job name": {
			labels: queued(map[string]string{wellknown.JobNameLabel: ""}), isMember: true, wantErr: "empty Job name",
		},
		// Caught by FuzzMemberOf: the error named batch.kubernetes.io/job-name.
		"empty legacy Job name": {
			labels: queued(map[string]string{wellknown.LegacyJobNameLabel: ""}), isMember: true, wantErr: "metadata.labels[job-name]: empty Job name",
		},
		"garbage completion index": {
			labels: queued(map[string]string{wellknown.JobNameLabel: "train", wellknown.JobCompletionIndexLabel: "first"}), isMember: true,
			wantErr: "metadata.labels[batch.kubernetes.io/job-completion-index]",
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			p := pod(tc.labels)
			p.Annotations = tc.annotations
			m, isMember, err := JobMember(p)
			checkMember(t, m, isMember, err, tc.want, tc.isMember, tc.wantErr)
		})
	}
}

// MemberOf tries JobSet and PodGroup before the Job, and the Job before
// the pod itself: a queued pod of a Job is no workload of its own.
func TestMemberOfJobPods(t *testing.T) {
	cases := map[string]struct {
		labels map[string]string
		want   Key
	}{
		"queued Job pod: the Job's": {
			labels: map[string]string{wellknown.JobNameLabel: "train", wellknown.QueueNameLabel: "lq"},
			want:   Key{Source: SourceJob, Namespace: "ns", Name: "train"},
		},
		"queued pod of a JobSet's Job: the JobSet's": {
			labels: map[string]string{wellknown.JobNameLabel: "js-slice-0", wellknown.JobSetNameLabel: "js", wellknown.JobGlobalIndexLabel: "0", wellknown.QueueNameLabel: "lq"},
			want:   Key{Source: SourceJobSet, Namespace: "ns", Name: "js"},
		},
		"queued Job pod in a PodGroup: the PodGroup's": {
			labels: map[string]string{wellknown.JobNameLabel: "train", wellknown.PodGroupLabel: "pg", wellknown.QueueNameLabel: "lq"},
			want:   Key{Source: SourcePodGroup, Namespace: "ns", Name: "pg"},
		},
		"queued pod of no Job: its own": {
			labels: map[string]string{wellknown.QueueNameLabel: "lq"},
			want:   Key{Source: SourcePod, Namespace: "ns", Name: "p"},
		},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			m, ok, err := MemberOf(pod(tc.labels))
			if !ok || err != nil {
				t.Fatalf("MemberOf = %+v, %v, %v", m, ok, err)
			}
			if m.Key != tc.want {
				t.Errorf("key = %v, want %v", m.Key, tc.want)
			}
		})
	}
}
