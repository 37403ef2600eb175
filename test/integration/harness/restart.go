package harness

import (
	"context"
	"strconv"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/util/retry"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// BlockingRecreate sets the failure policy Hotswap relies on: on any Job
// failure the whole JobSet is restarted, and the new Jobs are created only
// once every pod of the old ones is gone.
func BlockingRecreate(js *jobsetv1alpha2.JobSet, maxRestarts int32) *jobsetv1alpha2.JobSet {
	js.Spec.FailurePolicy = &jobsetv1alpha2.FailurePolicy{
		MaxRestarts:     maxRestarts,
		RestartStrategy: jobsetv1alpha2.BlockingRecreate,
	}
	return js
}

// Restart restarts the JobSet the way JobSet's controller does under
// failurePolicy restartStrategy BlockingRecreate when one of its Jobs
// failed (a pod evicted, or lost with its node):
//
//  1. status.restarts (and restartsCountTowardsMax) goes up by one: the
//     scheduler reads the current attempt from it, and treats pods labelled
//     with an older jobset.sigs.k8s.io/restart-attempt as leftovers;
//  2. every pod of the older attempts is deleted (here with a zero grace
//     period, as the kubelet of a dead or emulated node would finish it),
//     and the restart waits until all are gone — the "blocking" part;
//  3. the pods of the new attempt are created as the Job controller would,
//     through CreatePod, so Staged mode stages them like the first ones.
//
// It returns the JobSet as updated and the new attempt.
func (j *JobSets) Restart(t testing.TB, ns, name string) (*jobsetv1alpha2.JobSet, int32) {
	t.Helper()
	client := j.client.JobsetV1alpha2().JobSets(ns)
	var js *jobsetv1alpha2.JobSet
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		got, err := client.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		got.Status.Restarts++
		got.Status.RestartsCountTowardsMax++
		js, err = client.UpdateStatus(t.Context(), got, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		t.Fatalf("restart JobSet %s/%s: update status.restarts: %v", ns, name, err)
	}
	attempt := js.Status.Restarts

	// Followers of an older attempt still held back (their leader was never
	// bound) are never created: their Jobs are gone.
	j.mu.Lock()
	for k, pods := range j.pending {
		if len(pods) > 0 && pods[0].Namespace == ns && pods[0].Labels[wellknown.JobSetNameLabel] == name &&
			pods[0].Labels[wellknown.RestartAttemptLabel] != strconv.Itoa(int(attempt)) {
			delete(j.pending, k)
		}
	}
	j.mu.Unlock()

	j.deleteOlderAttempts(t, ns, name, attempt)
	j.CreatePods(t, builders.PodsOf(js, attempt))
	return js, attempt
}

// CreateAll creates the JobSet and the pods of its first attempt, as
// Create does but through CreatePods.
func (j *JobSets) CreateAll(t testing.TB, js *jobsetv1alpha2.JobSet) *jobsetv1alpha2.JobSet {
	t.Helper()
	created := j.CreateObject(t, js)
	j.CreatePods(t, builders.PodsOf(created, 0))
	return created
}

// CreatePods creates pods as CreatePod does, except that in Staged mode
// every follower is queued before any leader is created. Created one by
// one, a follower queued after its leader was already bound and released
// with the followers queued so far would never be created: the emulator
// forgets a leader's followers once it has released them.
func (j *JobSets) CreatePods(t testing.TB, pods []*corev1.Pod) {
	t.Helper()
	if j.mode != Staged {
		for _, pod := range pods {
			j.CreatePod(t, pod)
		}
		return
	}
	var now, followers []*corev1.Pod
	for _, pod := range pods {
		pod = pod.DeepCopy()
		builders.JobSetPodWebhook(pod, j.priorityOf(t, pod))
		if waitsForLeader(pod) {
			followers = append(followers, pod)
		} else {
			now = append(now, pod)
		}
	}
	j.mu.Lock()
	for _, pod := range followers {
		lk := leaderKey(pod)
		j.pending[lk] = append(j.pending[lk], pod)
	}
	j.mu.Unlock()
	for _, pod := range now {
		j.cp.CreatePod(t, pod)
	}
}

// deleteOlderAttempts deletes the JobSet's pods of attempts before attempt
// until none is left. It deletes again on every round: in Staged mode a
// follower whose leader had just bound may still be created after the
// first deletion.
func (j *JobSets) deleteOlderAttempts(t testing.TB, ns, name string, attempt int32) {
	t.Helper()
	pods := j.cp.Client.CoreV1().Pods(ns)
	left := 0
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		list, err := pods.List(ctx, metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
		if err != nil {
			return false, nil
		}
		left = 0
		for _, p := range list.Items {
			a, err := strconv.Atoi(p.Labels[wellknown.RestartAttemptLabel])
			if err == nil && int32(a) >= attempt {
				continue
			}
			left++
			err = pods.Delete(ctx, p.Name, metav1.DeleteOptions{
				GracePeriodSeconds: new(int64),
				Preconditions:      &metav1.Preconditions{UID: &p.UID},
			})
			if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
				return false, nil
			}
		}
		return left == 0, nil
	})
	if err != nil {
		t.Fatalf("restart JobSet %s/%s: %d pods of attempts before %d still exist: %v", ns, name, left, attempt, err)
	}
}
