package multislicegang

import (
	"context"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
)

// Reserve takes the pod's room from its workload's reservation and records
// which reservation it was, for Unreserve.
func (pl *Plugin) Reserve(_ context.Context, cs fwk.CycleState, pod *corev1.Pod, nodeName string) *fwk.Status {
	pl.sort.forget(pod)
	id := pl.state.Reserve(pod, nodeName)
	if c := readCycle(cs); c != nil {
		c.reservation = id
	}
	return nil
}

// Unreserve undoes Reserve; before its gate passes, a gang fails together.
func (pl *Plugin) Unreserve(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, _ string) {
	var id uint64
	if c := readCycle(cs); c != nil {
		id = c.reservation
	}
	pl.act(ctx, pl.state.Unreserve(pod, id))
}

// Permit holds gang pods until every required member is reserved, then
// lets them all bind together.
func (pl *Plugin) Permit(ctx context.Context, _ fwk.CycleState, pod *corev1.Pod, _ string) (*fwk.Status, time.Duration) {
	res := pl.state.Permit(pod)
	pl.act(ctx, res.Actions)
	if res.Record != 0 {
		// Its members bind once its admission is on its Workload object.
		pl.rt.RecordAdmission(ctx, res.Key, res.Record, func(rec state.PermitResult) {
			pl.act(ctx, rec.Actions)
			pl.letThrough(rec)
		})
	}
	switch {
	case res.Allow:
		pl.letThrough(res)
		return nil, 0
	case res.Wait > 0:
		return fwk.NewStatus(fwk.Wait, res.Message), res.Wait
	default:
		klog.FromContext(ctx).V(2).Info("Rejecting gang member", "pod", klog.KObj(pod), "reason", res.Message)
		return fwk.NewStatus(fwk.Unschedulable, res.Message), 0
	}
}

// letThrough lets a committed gang's waiting members bind and says where
// it was placed.
func (pl *Plugin) letThrough(res state.PermitResult) {
	for _, uid := range res.AllowWaiting {
		pl.rt.AllowWaiting(uid, Name)
	}
	if res.Committed != "" {
		pl.rt.Events().Normal(&res.Ref, "Placed", strings.Replace(res.Committed, "reserved ", "placed ", 1))
	}
}
