package harness

import (
	"context"
	"crypto/sha1"
	"encoding/hex"
	"fmt"
	"maps"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// PodCreation is how a JobSet's pods come to exist.
type PodCreation int

const (
	// AllAtOnce: every pod exists from the start, as without JobSet's
	// webhook or under its node-selector strategy.
	AllAtOnce PodCreation = iota
	// Staged emulates JobSet's exclusive-placement webhook: each Job's
	// leader (completion index 0) is created first with a required affinity
	// to its own Job and anti-affinity to other Jobs; the other pods are
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
	for _, pod := range PodsOf(created, 0) {
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

// CreatePod creates one pod of a JobSet as the configured mode would.
func (j *JobSets) CreatePod(t testing.TB, pod *corev1.Pod) {
	t.Helper()
	leader := pod.Labels[wellknown.JobCompletionIndexLabel] == "0"
	exclusive := pod.Annotations[wellknown.ExclusiveTopologyAnnotation]
	if j.mode == Staged && exclusive != "" {
		if !leader {
			j.mu.Lock()
			lk := leaderKey(pod)
			j.pending[lk] = append(j.pending[lk], pod)
			j.mu.Unlock()
			return
		}
		injectWebhookAffinity(pod, exclusive)
	}
	j.cp.CreatePod(t, pod)
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
			leader, err := j.cp.Client.CoreV1().Pods(ns).Get(ctx, leaderName(followers[0]), metav1.GetOptions{})
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
			j.mu.Lock()
			delete(j.pending, k)
			j.mu.Unlock()
		}
		return false, nil
	})
}

// PodsOf returns the pods the JobSet and Job controllers would create for
// one restart attempt: per Job, parallelism pods with JobSet's labels and
// annotations and the Job controller's completion index.
func PodsOf(js *jobsetv1alpha2.JobSet, attempt int32) []*corev1.Pod {
	var pods []*corev1.Pod
	global := 0
	for _, rj := range js.Spec.ReplicatedJobs {
		parallelism := int32(1)
		if p := rj.Template.Spec.Parallelism; p != nil {
			parallelism = *p
		}
		for ji := int32(0); ji < rj.Replicas; ji++ {
			jobName := fmt.Sprintf("%s-%s-%d", js.Name, rj.Name, ji)
			sum := sha1.Sum([]byte(js.Namespace + "/" + jobName))
			for ci := int32(0); ci < parallelism; ci++ {
				tmpl := rj.Template.Spec.Template
				labels := maps.Clone(tmpl.Labels)
				if labels == nil {
					labels = map[string]string{}
				}
				maps.Copy(labels, map[string]string{
					wellknown.JobSetNameLabel:            js.Name,
					wellknown.JobSetUIDLabel:             string(js.UID),
					jobsetv1alpha2.ReplicatedJobNameKey:  rj.Name,
					jobsetv1alpha2.JobIndexKey:           strconv.Itoa(int(ji)),
					wellknown.JobGlobalIndexLabel:        strconv.Itoa(global),
					wellknown.RestartAttemptLabel:        strconv.Itoa(int(attempt)),
					wellknown.JobKeyLabel:                hex.EncodeToString(sum[:]),
					wellknown.JobCompletionIndexLabel:    strconv.Itoa(int(ci)),
					"batch.kubernetes.io/job-name":       jobName,
					jobsetv1alpha2.ReplicatedJobReplicas: strconv.Itoa(int(rj.Replicas)),
				})
				annotations := maps.Clone(tmpl.Annotations)
				if annotations == nil {
					annotations = map[string]string{}
				}
				for _, src := range []map[string]string{js.Annotations, rj.Template.Annotations} {
					if v, ok := src[wellknown.ExclusiveTopologyAnnotation]; ok {
						annotations[wellknown.ExclusiveTopologyAnnotation] = v
					}
				}
				pods = append(pods, &corev1.Pod{
					ObjectMeta: metav1.ObjectMeta{
						Namespace:   js.Namespace,
						Name:        fmt.Sprintf("%s-%d-a%d", jobName, ci, attempt),
						Labels:      labels,
						Annotations: annotations,
					},
					Spec: *tmpl.Spec.DeepCopy(),
				})
			}
			global++
		}
	}
	return pods
}

func leaderKey(pod *corev1.Pod) string {
	return pod.Namespace + "/" + leaderName(pod)
}

// leaderName is the name PodsOf gives the pod's Job leader.
func leaderName(pod *corev1.Pod) string {
	return fmt.Sprintf("%s-0-a%s", pod.Labels["batch.kubernetes.io/job-name"], pod.Labels[wellknown.RestartAttemptLabel])
}

// injectWebhookAffinity does what JobSet's pod webhook does to a leader.
func injectWebhookAffinity(pod *corev1.Pod, topologyKey string) {
	if pod.Spec.Affinity == nil {
		pod.Spec.Affinity = &corev1.Affinity{}
	}
	pod.Spec.Affinity.PodAffinity = &corev1.PodAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey: topologyKey,
		LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{{
			Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpIn, Values: []string{pod.Labels[wellknown.JobKeyLabel]},
		}}},
	}}}
	pod.Spec.Affinity.PodAntiAffinity = &corev1.PodAntiAffinity{RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{
		TopologyKey: topologyKey,
		LabelSelector: &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpExists},
			{Key: wellknown.JobKeyLabel, Operator: metav1.LabelSelectorOpNotIn, Values: []string{pod.Labels[wellknown.JobKeyLabel]}},
		}},
	}}}
}
