package app

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// The actuator: the runtime carries out what the state and the admission
// engine ask for (admission.Effects), with the framework's handles (activate,
// reject or let through waiting pods), the event sink, and the
// controllers that write to the API (evictions, held pods' conditions,
// admissions on Workload objects, provisioning).

// Act carries out what the state asked for, outside its lock.
func (rt *Runtime) Act(ctx context.Context, acts state.Actions) {
	if acts.Empty() {
		return
	}
	if rt.Leading() {
		// What running workloads with no record are charged, and which
		// waiting workloads freed quota admits, are decided here, on
		// copies taken now, not by the state that reported them; the
		// charges first, so that the wakes count them.
		controllers.ChargeRunning(rt.state, acts.Uncharged)
		admission.WakeAll(&acts, rt.state.WakeRound)
	}
	// A standby decides neither: it charges only what Workload objects
	// record and holds every pod back in PreEnqueue; once it leads it
	// charges what runs uncharged, then activates every pod.
	acts.Uncharged, acts.Wake = nil, nil
	rt.feed.Rediscover(acts.Rediscover)
	rt.mu.Lock()
	handles := rt.handles
	rt.mu.Unlock()
	for _, uid := range acts.Reject {
		rejectWaiting(handles, uid, acts.Reason)
	}
	if !rt.Leading() {
		// Events tell users about decisions, which only the leader takes.
		acts.Events = nil
	}
	for _, e := range acts.Events {
		if e.Warning {
			rt.events.Warn(&e.Ref, e.Reason, e.Message)
		} else {
			rt.events.Normal(&e.Ref, e.Reason, e.Message)
		}
	}
	if len(acts.Activate) == 0 || len(handles) == 0 {
		return
	}
	lister := rt.informers.Core().V1().Pods().Lister()
	pods := make(map[string]*corev1.Pod, len(acts.Activate))
	for _, ref := range acts.Activate {
		pod, err := lister.Pods(ref.Namespace).Get(ref.Name)
		if err != nil || pod.UID != ref.UID {
			continue
		}
		pods[ref.Namespace+"/"+ref.Name] = pod
	}
	if len(pods) > 0 {
		handles[0].Activate(klog.FromContext(ctx), pods)
	}
}

// rejectWaiting rejects a pod waiting in Permit in whichever profile holds it.
func rejectWaiting(handles []fwk.Handle, uid types.UID, reason string) {
	for _, h := range handles {
		if wp := h.GetWaitingPod(uid); wp != nil {
			wp.Reject("MultisliceGang", reason)
			return
		}
	}
}

// AllowWaiting lets a pod waiting in Permit through, in whichever profile holds it.
func (rt *Runtime) AllowWaiting(uid types.UID, plugin string) {
	rt.mu.Lock()
	handles := rt.handles
	rt.mu.Unlock()
	for _, h := range handles {
		if wp := h.GetWaitingPod(uid); wp != nil {
			wp.Allow(plugin)
			return
		}
	}
}

// Evict evicts whole workloads' pods (see controllers.Evictor.Evict); a
// standby's call is dropped.
func (rt *Runtime) Evict(ctx context.Context, pods []state.PodRef, reason, message string) {
	rt.evictions().Evict(ctx, pods, reason, message)
}

// evictions returns the runtime's evictor, made on first use.
func (rt *Runtime) evictions() *controllers.Evictor {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	if rt.evict == nil {
		rt.evict = controllers.NewEvictor(rt.Leading)
	}
	return rt.evict
}

// Held records that the gate holds pod for reason, with message; warn
// when only the user can unblock it (see controllers.HeldPods).
func (rt *Runtime) Held(pod *corev1.Pod, reason, message string, warn bool) {
	rt.held.Held(pod, reason, message, warn)
}

// HeldAll records that every pod of pods is held for reason.
func (rt *Runtime) HeldAll(pods []state.PodRef, reason, message string, warn bool) {
	rt.held.HeldAll(pods, reason, message, warn)
}

// HeldWaiting records that pod waits for its gang, unless a reason of its
// whole workload was recorded for it already.
func (rt *Runtime) HeldWaiting(pod *corev1.Pod, reason, message string) {
	rt.held.HeldWaiting(pod, reason, message)
}

// Released records that the gate let pod go (or it is gone).
func (rt *Runtime) Released(pod *corev1.Pod) { rt.held.Released(pod) }

// RecordAdmission writes the admission of reservation id of key on its
// Workload object (state/record.go says why before any pod binds); once
// written, done gets what to let through.
func (rt *Runtime) RecordAdmission(ctx context.Context, key workload.Key, id uint64, done func(state.PermitResult)) {
	rt.workloads.RecordAdmission(ctx, rt.state, key, id, done)
}

// PokeProvisioning wakes the status writer and the provisioning
// controller: a workload reserved quota for its check, and its Workload
// object, then its request, can be created now rather than on the next
// tick.
func (rt *Runtime) PokeProvisioning() {
	if w := rt.statusWriter.Load(); w != nil {
		w.Poke()
	}
	rt.pokeProvisioner()
}

// pokeProvisioner wakes the provisioning controller alone.
func (rt *Runtime) pokeProvisioner() {
	if p := rt.provisioning.Load(); p != nil {
		p.Poke()
	}
}
