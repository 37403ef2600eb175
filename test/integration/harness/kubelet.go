package harness

import (
	"context"
	"fmt"
	"strconv"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Kubelet stands in for the kubelets of every node in the one part of a
// pod's life these tests need: termination. No kubelet runs in the
// integration tests, so a bound pod deleted gracefully (as the scheduler
// deletes a preemption victim) keeps its deletion timestamp forever and its
// node stays occupied. The emulated kubelet finishes every such deletion
// after its termination delay — the time containers take to stop — with a
// zero grace period, as a kubelet does once the containers are gone.
//
// It also keeps what was seen on the way, so tests can assert on it after
// the pods are gone: every graceful deletion, with the pod as it was when
// the deletion began, and every pod ever marked DisruptionTarget=True.
type Kubelet struct {
	cp    *ControlPlane
	delay time.Duration
	ctx   context.Context
	wg    sync.WaitGroup

	mu           sync.Mutex
	terminations map[types.UID]*Termination
	disrupted    map[types.UID]*corev1.Pod
}

// Termination is one graceful deletion the emulated kubelet saw.
type Termination struct {
	// Pod is the pod as first seen with a deletion timestamp: the
	// conditions it carries are those set before it was deleted.
	Pod *corev1.Pod
	// Seen is when the deletion was first observed.
	Seen time.Time
	// Gone is set once the pod object no longer exists.
	Gone bool
}

// PodMatch selects pods.
type PodMatch func(*corev1.Pod) bool

// OfJobSet selects the pods of the JobSet ns/name; attempt >= 0 narrows
// them to one restart attempt (the jobset.sigs.k8s.io/restart-attempt
// label).
func OfJobSet(ns, name string, attempt int32) PodMatch {
	return func(p *corev1.Pod) bool {
		if p.Namespace != ns || p.Labels[wellknown.JobSetNameLabel] != name {
			return false
		}
		return attempt < 0 || p.Labels[wellknown.RestartAttemptLabel] == strconv.Itoa(int(attempt))
	}
}

// AnyPod selects every pod.
func AnyPod(*corev1.Pod) bool { return true }

// StartKubelet starts the emulated kubelet; it stops when the test ends.
// terminationDelay is how long a gracefully deleted pod stays Terminating
// before it is gone; 0 finishes deletions at once.
func (cp *ControlPlane) StartKubelet(t testing.TB, terminationDelay time.Duration) *Kubelet {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	k := &Kubelet{cp: cp, delay: terminationDelay, ctx: ctx,
		terminations: map[types.UID]*Termination{}, disrupted: map[types.UID]*corev1.Pod{}}
	factory := informers.NewSharedInformerFactory(cp.Client, 0)
	informer := factory.Core().V1().Pods().Informer()
	if _, err := informer.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { k.observe(obj, false) },
		UpdateFunc: func(_, obj any) { k.observe(obj, false) },
		DeleteFunc: func(obj any) { k.observe(obj, true) },
	}); err != nil {
		cancel()
		t.Fatal(err)
	}
	factory.Start(ctx.Done())
	t.Cleanup(func() {
		cancel()
		factory.Shutdown()
		k.wg.Wait()
	})
	if !cache.WaitForCacheSync(t.Context().Done(), informer.HasSynced) {
		t.Fatal("emulated kubelet: pod informer never synced")
	}
	return k
}

func (k *Kubelet) observe(obj any, deleted bool) {
	if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = tomb.Obj
	}
	pod, ok := obj.(*corev1.Pod)
	if !ok {
		return
	}
	k.mu.Lock()
	defer k.mu.Unlock()
	if _, seen := k.disrupted[pod.UID]; !seen && DisruptionTargetOf(pod) != nil {
		k.disrupted[pod.UID] = pod.DeepCopy()
	}
	if deleted {
		if term := k.terminations[pod.UID]; term != nil {
			term.Gone = true
		}
		return
	}
	// A deletion with a zero grace period shows as an update with a
	// deletion timestamp too, just before the object goes: it needs no
	// kubelet, and is no graceful deletion.
	graceful := pod.DeletionTimestamp != nil && (pod.DeletionGracePeriodSeconds == nil || *pod.DeletionGracePeriodSeconds > 0)
	if !graceful || k.terminations[pod.UID] != nil {
		return
	}
	k.terminations[pod.UID] = &Termination{Pod: pod.DeepCopy(), Seen: time.Now()}
	k.wg.Add(1)
	go func() {
		defer k.wg.Done()
		k.finish(pod.Namespace, pod.Name, pod.UID)
	}()
}

// finish waits out the termination delay and removes the pod object,
// retrying until it is gone (transient errors, apiserver restarts).
func (k *Kubelet) finish(ns, name string, uid types.UID) {
	select {
	case <-k.ctx.Done():
		return
	case <-time.After(k.delay):
	}
	_ = wait.PollUntilContextCancel(k.ctx, 200*time.Millisecond, true, func(ctx context.Context) (bool, error) {
		err := k.cp.Client.CoreV1().Pods(ns).Delete(ctx, name, metav1.DeleteOptions{
			GracePeriodSeconds: new(int64),
			Preconditions:      &metav1.Preconditions{UID: &uid},
		})
		// A conflict means another pod of that name replaced this one.
		return err == nil || apierrors.IsNotFound(err) || apierrors.IsConflict(err), nil
	})
}

// Terminations returns the graceful deletions of matching pods seen so far.
func (k *Kubelet) Terminations(match PodMatch) []Termination {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []Termination
	for _, term := range k.terminations {
		if match(term.Pod) {
			out = append(out, Termination{Pod: term.Pod.DeepCopy(), Seen: term.Seen, Gone: term.Gone})
		}
	}
	return out
}

// Disrupted returns every matching pod ever seen with DisruptionTarget=True,
// as first seen so.
func (k *Kubelet) Disrupted(match PodMatch) []*corev1.Pod {
	k.mu.Lock()
	defer k.mu.Unlock()
	var out []*corev1.Pod
	for _, p := range k.disrupted {
		if match(p) {
			out = append(out, p.DeepCopy())
		}
	}
	return out
}

// WaitTerminated waits until want matching pods were deleted gracefully
// and are gone, and returns their terminations. On timeout the test fails
// with failure (what was expected and did not happen), the counts, and
// explain's account, if any, of where things stand.
func (k *Kubelet) WaitTerminated(t testing.TB, failure string, match PodMatch, want int, explain func(context.Context) string) []Termination {
	t.Helper()
	var terms []Termination
	err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
		terms = k.Terminations(match)
		gone := 0
		for _, term := range terms {
			if term.Gone {
				gone++
			}
		}
		return gone >= want, nil
	})
	if err != nil {
		started, gone := len(terms), 0
		for _, term := range terms {
			if term.Gone {
				gone++
			}
		}
		msg := fmt.Sprintf("%s: after %s, %d of %d pods were deleted gracefully and %d are gone", failure, WaitTimeout, started, want, gone)
		if explain != nil {
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			msg += "\n" + explain(ctx)
		}
		t.Fatal(msg)
	}
	return terms
}

// ExpectNoDisruption fails if any matching pod is, or ever was, marked
// DisruptionTarget=True or deleted gracefully within d.
func (k *Kubelet) ExpectNoDisruption(t testing.TB, what string, match PodMatch, d time.Duration) {
	t.Helper()
	deadline := time.Now().Add(d)
	for {
		if pods := k.Disrupted(match); len(pods) > 0 {
			c := DisruptionTargetOf(pods[0])
			t.Fatalf("%s: %d pods marked %s, e.g. %s/%s: reason %q, message %q", what, len(pods), corev1.DisruptionTarget,
				pods[0].Namespace, pods[0].Name, c.Reason, c.Message)
		}
		if terms := k.Terminations(match); len(terms) > 0 {
			t.Fatalf("%s: %d pods deleted gracefully, e.g. %s/%s", what, len(terms), terms[0].Pod.Namespace, terms[0].Pod.Name)
		}
		if !time.Now().Before(deadline) {
			return
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// DisruptionTargetOf returns the pod's DisruptionTarget=True condition, or
// nil when it has none.
func DisruptionTargetOf(p *corev1.Pod) *corev1.PodCondition {
	for i := range p.Status.Conditions {
		c := &p.Status.Conditions[i]
		if c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue {
			return c
		}
	}
	return nil
}
