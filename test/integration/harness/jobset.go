package harness

import (
	"context"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// PodCreation is how a JobSet's pods come to exist.
type PodCreation int

const (
	// AllAtOnce: every pod exists from the start, as without JobSet's
	// webhook or under its node-selector strategy.
	AllAtOnce PodCreation = iota
	// Staged emulates JobSet's pod webhook: every JobSet pod is labelled with
	// its priority; under exclusive placement each Job's leader (completion
	// index 0) is created first with a required affinity to its own Job and
	// anti-affinity to other Jobs of its priority, and the other pods are
	// created only once their leader is bound, pinned to its domain.
	Staged
)

func (m PodCreation) String() string {
	if m == Staged {
		return "staged"
	}
	return "all-at-once"
}

// JobSets creates JobSets and, in place of the JobSet and Job controllers,
// their pods.
type JobSets struct {
	cp     *ControlPlane
	client jobsetclient.Interface
	mode   PodCreation

	mu      sync.Mutex
	pending map[string][]*corev1.Pod // leader pod key -> its followers
}

// NewJobSets returns a JobSet emulator; in Staged mode it watches leaders
// and creates followers until the test ends.
func (cp *ControlPlane) NewJobSets(t testing.TB, mode PodCreation) *JobSets {
	j := &JobSets{cp: cp, client: jobsetclient.NewForConfigOrDie(cp.Config), mode: mode, pending: map[string][]*corev1.Pod{}}
	if mode == Staged {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			j.releaseFollowers(ctx)
		}()
		t.Cleanup(func() { cancel(); <-done })
	}
	return j
}

// Create creates the JobSet and its pods, and returns the JobSet.
func (j *JobSets) Create(t testing.TB, js *jobsetv1alpha2.JobSet) *jobsetv1alpha2.JobSet {
	t.Helper()
	created := j.CreateObject(t, js)
	for _, pod := range builders.PodsOf(created, 0) {
		j.CreatePod(t, pod)
	}
	return created
}

// CreateObject creates only the JobSet object; its pods are the caller's.
func (j *JobSets) CreateObject(t testing.TB, js *jobsetv1alpha2.JobSet) *jobsetv1alpha2.JobSet {
	t.Helper()
	created, err := j.client.JobsetV1alpha2().JobSets(js.Namespace).Create(t.Context(), js, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("create JobSet %s/%s: %v", js.Namespace, js.Name, err)
	}
	return created
}

// DeleteObject deletes only the JobSet object, as `kubectl delete` does
// first: its pods are left to the caller (no garbage collector runs here).
func (j *JobSets) DeleteObject(t testing.TB, ns, name string) {
	t.Helper()
	if err := j.client.JobsetV1alpha2().JobSets(ns).Delete(t.Context(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatalf("delete JobSet %s/%s: %v", ns, name, err)
	}
}

// CreatePod creates one pod of a JobSet (see builders.PodsOf) as the
// configured mode would. In Staged mode a copy of the pod is first mutated
// as JobSet's webhook would (builders.JobSetPodWebhook), with the priority
// the apiserver resolves for it; a follower under exclusive placement is
// held back until its leader is bound.
func (j *JobSets) CreatePod(t testing.TB, pod *corev1.Pod) {
	t.Helper()
	if j.mode == Staged {
		pod = pod.DeepCopy()
		builders.JobSetPodWebhook(pod, j.priorityOf(t, pod))
		if waitsForLeader(pod) {
			j.mu.Lock()
			lk := leaderKey(pod)
			j.pending[lk] = append(j.pending[lk], pod)
			j.mu.Unlock()
			return
		}
	}
	j.cp.CreatePod(t, pod)
}

// priorityOf is the spec.priority the apiserver's Priority admission gives
// the pod before JobSet's webhook sees it: its own if set, else its
// PriorityClass's value, else the lowest global default class's, else 0.
func (j *JobSets) priorityOf(t testing.TB, pod *corev1.Pod) *int32 {
	t.Helper()
	if pod.Spec.Priority != nil {
		return pod.Spec.Priority
	}
	classes := j.cp.Client.SchedulingV1().PriorityClasses()
	if name := pod.Spec.PriorityClassName; name != "" {
		pc, err := classes.Get(t.Context(), name, metav1.GetOptions{})
		if err != nil {
			t.Fatalf("priority class of pod %s/%s: %v", pod.Namespace, pod.Name, err)
		}
		return &pc.Value
	}
	list, err := classes.List(t.Context(), metav1.ListOptions{})
	if err != nil {
		t.Fatalf("list priority classes: %v", err)
	}
	var priority int32
	found := false
	for _, pc := range list.Items {
		if pc.GlobalDefault && (!found || pc.Value < priority) {
			priority, found = pc.Value, true
		}
	}
	return &priority
}

// waitsForLeader reports whether JobSet's webhook rejects the pod until its
// Job's leader is bound: a follower of a JobSet under exclusive placement
// by affinities (not by node selectors).
func waitsForLeader(pod *corev1.Pod) bool {
	_, jobSetPod := pod.Annotations[jobsetv1alpha2.JobSetNameKey]
	_, exclusive := pod.Annotations[wellknown.ExclusiveTopologyAnnotation]
	_, nodeSelectorStrategy := pod.Annotations[wellknown.NodeSelectorStrategyAnnotation]
	return jobSetPod && exclusive && !nodeSelectorStrategy && !builders.IsJobLeader(pod)
}

// Delete deletes the JobSet and its pods, as garbage collection would.
func (j *JobSets) Delete(t testing.TB, namespace, name string) {
	t.Helper()
	if err := j.client.JobsetV1alpha2().JobSets(namespace).Delete(t.Context(), name, metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}
	j.mu.Lock()
	for k, pods := range j.pending {
		if len(pods) > 0 && pods[0].Namespace == namespace && pods[0].Labels[wellknown.JobSetNameLabel] == name {
			delete(j.pending, k)
		}
	}
	j.mu.Unlock()
	err := j.cp.Client.CoreV1().Pods(namespace).DeleteCollection(t.Context(),
		metav1.DeleteOptions{GracePeriodSeconds: new(int64)},
		metav1.ListOptions{LabelSelector: wellknown.JobSetNameLabel + "=" + name})
	if err != nil {
		t.Fatal(err)
	}
}

// releaseFollowers creates the followers of every bound leader, pinned to
// the leader's domain, as JobSet's webhook lets them through.
func (j *JobSets) releaseFollowers(ctx context.Context) {
	_ = wait.PollUntilContextCancel(ctx, 100*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		j.mu.Lock()
		keys := make([]string, 0, len(j.pending))
		for k := range j.pending {
			keys = append(keys, k)
		}
		j.mu.Unlock()
		for _, k := range keys {
			j.mu.Lock()
			followers := j.pending[k]
			j.mu.Unlock()
			if len(followers) == 0 {
				continue
			}
			ns := followers[0].Namespace
			leader, err := j.cp.Client.CoreV1().Pods(ns).Get(ctx, builders.LeaderPodName(followers[0]), metav1.GetOptions{})
			if err != nil || leader.Spec.NodeName == "" {
				continue
			}
			node, err := j.cp.Client.CoreV1().Nodes().Get(ctx, leader.Spec.NodeName, metav1.GetOptions{})
			if err != nil {
				continue
			}
			topologyKey := followers[0].Annotations[wellknown.ExclusiveTopologyAnnotation]
			for _, f := range followers {
				f = f.DeepCopy()
				if f.Spec.NodeSelector == nil {
					f.Spec.NodeSelector = map[string]string{}
				}
				f.Spec.NodeSelector[topologyKey] = node.Labels[topologyKey]
				_, _ = j.cp.Client.CoreV1().Pods(ns).Create(ctx, f, metav1.CreateOptions{})
			}
			// Followers queued while these were created are released on
			// the next round, not forgotten.
			j.mu.Lock()
			if cur := j.pending[k]; len(cur) > len(followers) {
				j.pending[k] = cur[len(followers):]
			} else {
				delete(j.pending, k)
			}
			j.mu.Unlock()
		}
		return false, nil
	})
}

func leaderKey(pod *corev1.Pod) string {
	return pod.Namespace + "/" + builders.LeaderPodName(pod)
}
