package controllers

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
	podutil "k8s.io/kubernetes/pkg/api/v1/pod"
	"k8s.io/utils/clock"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Pods the gate holds back in PreEnqueue never reach a scheduling cycle, so
// kube-scheduler says nothing about them: no PodScheduled condition, no
// event, while their JobSet or Job tells the story. A user runs kubectl
// describe pod first. The held-pod writer gives each held pod its reason
// there: a PodScheduled=False condition with the gate's reason and message,
// and an event on the pod (the event sink limits both to one per reason,
// and a changed message to one per RestatePeriod).
//
// It writes only while this replica leads, off the scheduling loop; a pod
// the gate lets go, or that is bound meanwhile, is not written (the patch
// carries the pod's resourceVersion, so a pod that changed since it was
// read is read again first).

const (
	heldPodsWorkers = 2
	// heldPodsQPS bounds the writes (two per pod told: the condition and
	// the event): a gang of a thousand pods held for quota is told within
	// a minute, without crowding the scheduler's own client or the API
	// server while a queue drains.
	heldPodsQPS   = 20
	heldPodsBurst = 50
	// heldPodsGrace is how long a pod is held before it is told why: most
	// pods a draining queue holds are let go within seconds, before anyone
	// looks, and writing their reason would cost the API server two writes
	// each for nothing. (kubectl describe shows the wait in the pod's age.)
	// A pod that waits for capacity to be provisioned
	// (WaitingForProvisioning) is told at once, and told again at once when
	// the request's word changes: that wait is minutes, its user is the one
	// who looks, and the word changes only with the request's conditions (a
	// few times in its life), so there is no churn to damp.
	heldPodsGrace = 5 * time.Second
)

// holdReason is why the gate holds a pod.
type holdReason struct {
	uid             types.UID
	reason, message string
	// warn: only the user can unblock it (a Warning event).
	warn bool
	// waiting: a member's own wait for its gang (HeldWaiting), which a
	// reason of the whole workload outranks.
	waiting bool
	// gang numbers the reason of a whole workload its members were told
	// together (HeldAll; 0: none): once one of them is let go, the reason
	// no longer holds the others (Released).
	gang uint64
	// at is when it was last written (zero: not yet).
	at time.Time
	// since is when the pod was first held.
	since time.Time
}

// HeldPods tells held pods why: it keeps, per held pod, the reason to show and the last one shown.
type HeldPods struct {
	clock  clock.PassiveClock
	events *EventSink
	queue  workqueue.TypedRateLimitingInterface[types.NamespacedName]
	// grace is heldPodsGrace (tests set their own).
	grace time.Duration

	mu      sync.Mutex
	want    map[types.NamespacedName]holdReason
	written map[types.NamespacedName]holdReason
	gangs   uint64 // the last holdReason.gang given
}

// NewHeldPods returns the held-pod writer; events records its events.
func NewHeldPods(clk clock.PassiveClock, events *EventSink) *HeldPods {
	return &HeldPods{
		clock: clk, events: events, grace: heldPodsGrace,
		queue: workqueue.NewTypedRateLimitingQueueWithConfig(workqueue.DefaultTypedControllerRateLimiter[types.NamespacedName](),
			workqueue.TypedRateLimitingQueueConfig[types.NamespacedName]{Name: "multislice_held_pods"}),
		want:    map[types.NamespacedName]holdReason{},
		written: map[types.NamespacedName]holdReason{},
	}
}

// Held records that the gate holds pod for reason, with message; warn
// when only the user can unblock it.
func (h *HeldPods) Held(pod *corev1.Pod, reason, message string, warn bool) {
	h.hold(state.PodRef{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}, holdReason{reason: reason, message: message, warn: warn}, true)
}

// HeldAll records that every pod of pods is held for reason: the members
// of a gang that waits as a whole, told what its head was.
func (h *HeldPods) HeldAll(pods []state.PodRef, reason, message string, warn bool) {
	if h == nil {
		return
	}
	h.mu.Lock()
	h.gangs++
	gang := h.gangs
	h.mu.Unlock()
	for _, p := range pods {
		h.hold(p, holdReason{reason: reason, message: message, warn: warn, gang: gang}, true)
	}
}

// HeldWaiting records that pod waits for its gang (reason), unless a
// reason of its whole workload was recorded for it already: a member's
// "waiting for the head" says less than its gang's "insufficient quota".
// It replaces the pod's earlier wait for its gang: "waiting for the
// scheduler to observe the pod" becomes "waiting for the head to find
// room", with why the head found none.
func (h *HeldPods) HeldWaiting(pod *corev1.Pod, reason, message string) {
	h.hold(state.PodRef{Namespace: pod.Namespace, Name: pod.Name, UID: pod.UID}, holdReason{reason: reason, message: message, waiting: true}, false)
}

func (h *HeldPods) hold(p state.PodRef, r holdReason, replace bool) {
	if h == nil {
		return
	}
	k := types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
	r.uid = p.UID
	h.mu.Lock()
	w, ok := h.want[k]
	same := w.reason == r.reason && w.message == r.message && w.warn == r.warn
	if ok && w.uid == p.UID && (same || !replace && !w.waiting) {
		if same && replace {
			// Told again, maybe with more siblings: it is theirs now.
			w.gang, w.waiting = r.gang, r.waiting
			h.want[k] = w
		}
		h.mu.Unlock()
		return
	}
	r.since = h.clock.Now()
	if ok && w.uid == p.UID {
		r.since = w.since
	}
	h.want[k] = r
	h.mu.Unlock()
	h.queue.Add(k)
}

// Released records that the gate let pod go (or it is gone): nothing more
// is written about it. When it was told its whole workload's reason with
// its siblings (HeldAll), that reason no longer holds them: the gate let
// one of them go (the head its provisioned capacity, or its queue
// admitted it). They now say that they wait for pod to find room for
// their gang (WaitingForGang), and their own wait for it (HeldWaiting,
// with why it found none) replaces that.
func (h *HeldPods) Released(pod *corev1.Pod) {
	if h == nil {
		return
	}
	k := types.NamespacedName{Namespace: pod.Namespace, Name: pod.Name}
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.written, k)
	if gang := h.want[k].gang; gang != 0 {
		delete(h.want, k)
		wait := fmt.Sprintf("waiting for %s to find room for its gang", k)
		for other, r := range h.want {
			if r.gang == gang {
				h.want[other] = holdReason{uid: r.uid, reason: state.ReasonWaitingForGang, message: wait, waiting: true, since: r.since}
				// Written after the grace: a sibling the gate lets go
				// meanwhile (its head placed the gang) costs no write.
				h.queue.AddAfter(other, h.grace)
			}
		}
		return
	}
	delete(h.want, k)
}

// Run writes held pods' reasons with client until ctx ends, reading the
// pods from pods.
func (h *HeldPods) Run(ctx context.Context, client kubernetes.Interface, pods corelisters.PodLister) {
	var wg sync.WaitGroup
	for range heldPodsWorkers {
		wg.Go(func() {
			for {
				k, quit := h.queue.Get()
				if quit {
					return
				}
				err := h.sync(ctx, client, pods, k)
				if err != nil && ctx.Err() == nil {
					klog.FromContext(ctx).V(4).Info("Telling a held pod why; retrying", "pod", k, "err", err)
					h.queue.AddRateLimited(k)
				} else {
					h.queue.Forget(k)
				}
				h.queue.Done(k)
			}
		})
	}
	<-ctx.Done()
	h.queue.ShutDown()
	wg.Wait()
}

// sync writes pod k's current reason, if it changed since it was written:
// a new reason at once, a new message of the same reason once
// RestatePeriod has passed since the last write (a provisioning wait's new
// message at once).
func (h *HeldPods) sync(ctx context.Context, client kubernetes.Interface, pods corelisters.PodLister, k types.NamespacedName) error {
	h.mu.Lock()
	want, ok := h.want[k]
	last, wrote := h.written[k]
	h.mu.Unlock()
	if !ok || (wrote && last.reason == want.reason && last.message == want.message) {
		return nil
	}
	now := h.clock.Now()
	atOnce := want.reason == state.ReasonWaitingForProvisioning
	if wait := h.grace - now.Sub(want.since); !wrote && wait > 0 && !atOnce {
		h.queue.AddAfter(k, wait)
		return nil
	}
	if wrote && last.reason == want.reason && !atOnce {
		if wait := RestatePeriod - now.Sub(last.at); wait > 0 {
			h.queue.AddAfter(k, wait)
			return nil
		}
	}
	pod, err := pods.Pods(k.Namespace).Get(k.Name)
	if apierrors.IsNotFound(err) {
		h.forget(k)
		return nil
	}
	if err != nil {
		return err
	}
	if pod.UID != want.uid || pod.Spec.NodeName != "" || pod.DeletionTimestamp != nil {
		h.forget(k)
		return nil
	}
	if err := patchHeld(ctx, client, pod, want, now); err != nil {
		if apierrors.IsNotFound(err) {
			h.forget(k)
			return nil
		}
		// A conflict: the pod changed since the informer's copy; it is
		// read again on the retry.
		return err
	}
	if want.warn {
		h.events.WarnPod(pod, nil, want.reason, want.message)
	} else {
		h.events.NormalPod(pod, want.reason, want.message)
	}
	h.mu.Lock()
	if cur, ok := h.want[k]; ok && cur.reason == want.reason && cur.message == want.message {
		want.at = now
		h.written[k] = want
	}
	h.mu.Unlock()
	return nil
}

func (h *HeldPods) forget(k types.NamespacedName) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.want, k)
	delete(h.written, k)
}

// patchHeld sets pod's PodScheduled condition to False with r, unless it
// says so already. The patch names the pod's resourceVersion: a pod bound
// or changed since it was read is not written.
func patchHeld(ctx context.Context, client kubernetes.Interface, pod *corev1.Pod, r holdReason, now time.Time) error {
	cond := map[string]any{"type": corev1.PodScheduled, "status": corev1.ConditionFalse, "reason": r.reason, "message": r.message}
	_, cur := podutil.GetPodCondition(&pod.Status, corev1.PodScheduled)
	switch {
	case cur != nil && cur.Status == corev1.ConditionFalse && cur.Reason == r.reason && cur.Message == r.message:
		return nil
	case cur == nil || cur.Status != corev1.ConditionFalse:
		// A new status: its transition is now. An unchanged status keeps
		// its transition time (the patch merges the condition by type).
		cond["lastTransitionTime"] = metav1.NewTime(now)
	}
	patch, err := json.Marshal(map[string]any{
		"metadata": map[string]any{"resourceVersion": pod.ResourceVersion},
		"status":   map[string]any{"conditions": []any{cond}},
	})
	if err != nil {
		return err
	}
	_, err = client.CoreV1().Pods(pod.Namespace).Patch(ctx, pod.Name, types.StrategicMergePatchType, patch, metav1.PatchOptions{}, "status")
	return err
}

// HeldPodsClient is a client of cfg for the held-pod writer alone, so that
// telling thousands of held pods why never delays a binding (fallback
// when cfg is nil or unusable).
func HeldPodsClient(cfg *rest.Config, fallback kubernetes.Interface) kubernetes.Interface {
	if cfg == nil {
		return fallback
	}
	cfg = rest.CopyConfig(cfg)
	cfg.QPS, cfg.Burst = heldPodsQPS, heldPodsBurst
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return fallback
	}
	return client
}
