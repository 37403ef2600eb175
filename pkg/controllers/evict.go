package controllers

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/klog/v2"
	schedutil "k8s.io/kubernetes/pkg/scheduler/util"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Evictions are carried out until done. Evicting a whole workload is one
// decision; a pod left running because one delete failed would leave the
// victim half running and its preemptor unplaced. So every pod to evict
// is kept until it is gone, replaced (another UID) or being deleted, and
// failed writes are retried with a backoff. Only the leader evicts; a new
// leader finishes the evictions its predecessor began, which the victims'
// DisruptionTarget conditions record (Evictor.resume).

// evictReasons are the DisruptionTarget reasons this scheduler evicts
// with, whole workload by whole workload.
var evictReasons = map[string]bool{
	corev1.PodReasonPreemptionByScheduler: true,
	"CapacityRevoked":                     true,
	ReasonMaximumRunDurationExceeded:      true,
}

const (
	evictBackoffBase = 500 * time.Millisecond
	evictBackoffMax  = 30 * time.Second
	// evictParallelism bounds the pods being evicted at once.
	evictParallelism = 16
)

// eviction is one pod to evict.
type eviction struct {
	ref             state.PodRef
	reason, message string
	// viaAPI: through the Eviction API (policy/v1), which honours
	// PodDisruptionBudgets and sets DisruptionTarget itself (reason
	// EvictionByEvictionAPI), rather than by marking and deleting.
	viaAPI   bool
	failures int
	next     time.Time
}

// Evictor carries out evictions until done; it holds those not done yet.
type Evictor struct {
	// leading reports whether this replica leads: only the leader evicts.
	leading func() bool
	mu      sync.Mutex
	pending map[types.UID]*eviction
	kick    chan struct{}
}

// NewEvictor returns an evictor that evicts while leading says this
// replica leads.
func NewEvictor(leading func() bool) *Evictor {
	return &Evictor{leading: leading, pending: map[types.UID]*eviction{}, kick: make(chan struct{}, 1)}
}

func (e *Evictor) add(ref state.PodRef, reason, message string, viaAPI bool) {
	e.mu.Lock()
	if _, ok := e.pending[ref.UID]; !ok {
		e.pending[ref.UID] = &eviction{ref: ref, reason: reason, message: message, viaAPI: viaAPI}
	}
	e.mu.Unlock()
	select {
	case e.kick <- struct{}{}:
	default:
	}
}

// due lists the evictions to try now, and when the next one is due.
func (e *Evictor) due(now time.Time) ([]*eviction, time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	var out []*eviction
	var next time.Time
	for _, ev := range e.pending {
		if !ev.next.After(now) {
			out = append(out, ev)
		} else if next.IsZero() || ev.next.Before(next) {
			next = ev.next
		}
	}
	return out, next
}

// done forgets an eviction; failed schedules its retry.
func (e *Evictor) done(uid types.UID) {
	e.mu.Lock()
	defer e.mu.Unlock()
	delete(e.pending, uid)
}

func (e *Evictor) failed(ev *eviction, now time.Time) {
	e.mu.Lock()
	defer e.mu.Unlock()
	ev.failures++
	wait := evictBackoffBase << min(ev.failures-1, 10)
	ev.next = now.Add(min(wait, evictBackoffMax))
}

// Len is the number of evictions not done yet.
func (e *Evictor) Len() int {
	e.mu.Lock()
	defer e.mu.Unlock()
	return len(e.pending)
}

// Evict marks each pod DisruptionTarget (reason, message) and deletes it,
// as the scheduler does for preemption, so that the owner sees why its
// pods went; it retries until every pod is gone. Pods already gone are
// skipped. Only the leader evicts: a standby's call is dropped (the
// leader decided, and evicts, itself).
func (e *Evictor) Evict(ctx context.Context, pods []state.PodRef, reason, message string) {
	if !e.leading() {
		return
	}
	for _, ref := range pods {
		e.add(ref, reason, message, false)
	}
}

// EvictViaAPI evicts each pod through the Eviction API, retrying until it
// is gone: the apiserver marks it DisruptionTarget (so a Job's
// podFailurePolicy can ignore it) and a PodDisruptionBudget may make it
// wait. reason and message are for the log; say why on the pods with
// events. A standby's call is dropped.
func (e *Evictor) EvictViaAPI(ctx context.Context, pods []state.PodRef, reason, message string) {
	if !e.leading() {
		return
	}
	for _, ref := range pods {
		e.add(ref, reason, message, true)
	}
}

// Evicting reports whether an eviction of the pod is under way.
func (e *Evictor) Evicting(uid types.UID) bool {
	e.mu.Lock()
	defer e.mu.Unlock()
	_, ok := e.pending[uid]
	return ok
}

// Run carries out evictions with cs until ctx ends, the pods of st's
// workloads read from pods; it first finishes those an earlier leader
// began. It runs on the leader only.
func (e *Evictor) Run(ctx context.Context, st *state.State, cs kubernetes.Interface, pods corelisters.PodLister) {
	e.resume(ctx, st, pods)
	timer := time.NewTimer(time.Second)
	defer timer.Stop()
	for {
		now := time.Now()
		due, next := e.due(now)
		var g errgroup.Group
		g.SetLimit(evictParallelism)
		for _, ev := range due {
			g.Go(func() error {
				if evictOne(ctx, cs, pods, ev) {
					e.done(ev.ref.UID)
				} else {
					e.failed(ev, time.Now())
				}
				return nil
			})
		}
		_ = g.Wait()
		metrics.PendingEvictions.Set(float64(e.Len()))
		wait := time.Second
		if !next.IsZero() {
			wait = min(wait, max(time.Until(next), 10*time.Millisecond))
		}
		timer.Reset(wait)
		select {
		case <-ctx.Done():
			return
		case <-e.kick:
		case <-timer.C:
		}
	}
}

// evictOne marks and deletes one pod; it reports whether the eviction is
// done (the pod is gone, replaced or being deleted).
func evictOne(ctx context.Context, cs kubernetes.Interface, pods corelisters.PodLister, e *eviction) bool {
	logger := klog.FromContext(ctx)
	pod, err := pods.Pods(e.ref.Namespace).Get(e.ref.Name)
	if apierrors.IsNotFound(err) || (err == nil && (pod.UID != e.ref.UID || pod.DeletionTimestamp != nil)) {
		return true
	}
	if err != nil {
		return false
	}
	if e.viaAPI {
		return evictViaAPI(ctx, cs, pod, e)
	}
	if !hasDisruptionTarget(pod, e.reason) {
		cond := &corev1.PodCondition{
			Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue,
			Reason: e.reason, Message: pod.Spec.SchedulerName + ": " + e.message, LastTransitionTime: metav1.Now(),
		}
		status := pod.Status.DeepCopy()
		ReplacePodCondition(status, cond)
		if err := schedutil.PatchPodStatus(ctx, cs, pod.Name, pod.Namespace, &pod.Status, status); err != nil {
			if apierrors.IsNotFound(err) {
				return true
			}
			logIfFirst(logger, e, err, "Could not mark an evicted pod DisruptionTarget; retrying")
			return false
		}
	}
	err = cs.CoreV1().Pods(pod.Namespace).Delete(ctx, pod.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &e.ref.UID}})
	switch {
	case err == nil, apierrors.IsNotFound(err):
		return true
	case apierrors.IsConflict(err):
		// Another pod of the same name: the victim is gone.
		return true
	}
	logIfFirst(logger, e, err, "Could not delete an evicted pod; retrying")
	return false
}

// evictViaAPI evicts pod through the Eviction API; it reports whether the
// eviction is done. A PodDisruptionBudget that allows no disruption now
// (429) is retried like any failure.
func evictViaAPI(ctx context.Context, cs kubernetes.Interface, pod *corev1.Pod, e *eviction) bool {
	uid := e.ref.UID
	err := cs.CoreV1().Pods(pod.Namespace).EvictV1(ctx, &policyv1.Eviction{
		ObjectMeta:    metav1.ObjectMeta{Namespace: pod.Namespace, Name: pod.Name},
		DeleteOptions: &metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}},
	})
	switch {
	case err == nil, apierrors.IsNotFound(err), apierrors.IsConflict(err):
		// Conflict: another pod of the same name; the one to evict is gone.
		return true
	case apierrors.IsTooManyRequests(err):
		logIfFirst(klog.FromContext(ctx), e, err, "A PodDisruptionBudget does not allow evicting the pod now; retrying")
	default:
		logIfFirst(klog.FromContext(ctx), e, err, "Could not evict a pod through the Eviction API; retrying")
	}
	return false
}

// logIfFirst logs a failed eviction the first time and every tenth retry.
func logIfFirst(logger klog.Logger, e *eviction, err error, msg string) {
	if e.failures%10 == 0 {
		logger.Error(err, msg, "pod", klog.KRef(e.ref.Namespace, e.ref.Name), "reason", e.reason, "failures", e.failures)
	}
}

func hasDisruptionTarget(pod *corev1.Pod, reason string) bool {
	for _, c := range pod.Status.Conditions {
		if c.Type == corev1.DisruptionTarget && c.Status == corev1.ConditionTrue && c.Reason == reason {
			return true
		}
	}
	return false
}

// resume finishes, on a replica that starts leading, the
// evictions an earlier leader began: a pod of this scheduler still running
// with a DisruptionTarget condition this scheduler sets had its workload
// chosen for eviction, so every live pod of that workload is evicted.
func (e *Evictor) resume(ctx context.Context, st *state.State, pods corelisters.PodLister) {
	list, err := pods.List(labels.Everything())
	if err != nil {
		return
	}
	for _, pod := range list {
		if pod.DeletionTimestamp != nil || pod.Spec.NodeName == "" || !st.Reports().HasScheduler(pod.Spec.SchedulerName) {
			continue
		}
		for _, c := range pod.Status.Conditions {
			if c.Type != corev1.DisruptionTarget || c.Status != corev1.ConditionTrue || !evictReasons[c.Reason] ||
				!strings.HasPrefix(c.Message, pod.Spec.SchedulerName+": ") {
				continue
			}
			msg := strings.TrimPrefix(c.Message, pod.Spec.SchedulerName+": ")
			victims := append([]state.PodRef{{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}}, st.Reports().Peers(pod)...)
			klog.FromContext(ctx).Info("Finishing an eviction begun before this replica led", "pod", klog.KObj(pod), "reason", c.Reason, "pods", len(victims))
			e.Evict(ctx, victims, c.Reason, msg)
			break
		}
	}
}

// ReplacePodCondition sets cond in status, replacing one of its type.
func ReplacePodCondition(status *corev1.PodStatus, cond *corev1.PodCondition) {
	for i := range status.Conditions {
		if status.Conditions[i].Type == cond.Type {
			status.Conditions[i] = *cond
			return
		}
	}
	status.Conditions = append(status.Conditions, *cond)
}
