package multislicegang

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"
)

// reservationKey names the ID of the reservation a pod was reserved under
// in its cycle, for Unreserve.
const reservationKey fwk.StateKey = Name + "/reservation"

// reservation is the entry under reservationKey; written once, in
// Reserve, and never changed.
type reservation uint64

// Clone implements fwk.StateData.
func (r reservation) Clone() fwk.StateData { return r }

// Reserve takes the pod's room from its workload's reservation and records
// which reservation it was, for Unreserve.
func (pl *Plugin) Reserve(_ context.Context, cs fwk.CycleState, pod *corev1.Pod, nodeName string) *fwk.Status {
	cs.Write(reservationKey, reservation(pl.m.Reserve(pod, nodeName)))
	return nil
}

// Unreserve undoes Reserve; before its gate passes, a gang fails together.
func (pl *Plugin) Unreserve(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, _ string) {
	var id uint64
	if data, err := cs.Read(reservationKey); err == nil {
		id = uint64(data.(reservation))
	}
	pl.m.Unreserve(ctx, pod, id)
}

// Permit holds gang pods until every required member is reserved, then
// lets them all bind together.
func (pl *Plugin) Permit(ctx context.Context, _ fwk.CycleState, pod *corev1.Pod, _ string) (*fwk.Status, time.Duration) {
	st, wait := pl.m.Permit(ctx, pod)
	return toStatus(st), wait
}
