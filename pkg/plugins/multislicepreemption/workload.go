package multislicepreemption

import (
	"context"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// evictor removes a victim's pods; the default marks each pod
// DisruptionTarget and deletes it, as kube-scheduler's preemption does.
type evictor func(ctx context.Context, preemptor workload.Key, pods []state.PodRef)

// preemptForWorkload runs when a gang member's cycle failed: it evicts
// what admission.PreemptFor decided, and says so.
func (pl *Plugin) preemptForWorkload(ctx context.Context, cs fwk.CycleState, st *state.State, pod *corev1.Pod, v state.Verdict) *fwk.Status {
	var planned *state.Snapshot
	if data, err := cs.Read(multislicegang.PlanSnapshotKey); err == nil {
		if ps, ok := data.(*multislicegang.PlanSnapshot); ok {
			planned = ps.Snapshot
		}
	}
	out := admission.PreemptFor(st, pod, v, planned, nodeinfo.SnapshotRequested(pl.handle))
	switch out.Step {
	case admission.NotTried:
		return fwk.NewStatus(fwk.Unschedulable)
	case admission.Underway:
		metrics.Preemptions.WithLabelValues("waiting").Inc()
		return fwk.NewStatus(fwk.Unschedulable, out.Message)
	}
	metrics.PreemptionDuration.Observe(out.Took.Seconds())
	if out.Step == admission.NoVictims {
		metrics.Preemptions.WithLabelValues("no_victims").Inc()
		pl.rt.Events().Normal(&v.Ref, "NoPreemptionVictims", "cannot preempt: "+out.Message)
		return fwk.NewStatus(fwk.Unschedulable, "whole-workload preemption: "+out.Message)
	}
	key, sn, decision := v.Member.Key, out.Snapshot, out.Decision
	metrics.Preemptions.WithLabelValues("preempted").Inc()
	metrics.PreemptionVictims.Add(float64(len(decision.Victims)))
	// The plan the victims were chosen on; the placement itself is
	// planned again once they are gone and may use domains freed
	// meanwhile.
	where := strings.TrimPrefix(state.DescribePlacement(sn.Self.Model, decision.Plan), "reserved ")
	klog.FromContext(ctx).V(2).Info("Preempting whole workloads", "preemptor", key, "victims", decision.Victims, "simulations", decision.Simulations, "placement", where)
	// Capacity preemption takes domains and leaves the victims' quota
	// alone: they keep their place in their queue (it orders by priority
	// and creation) and come back when domains free up. Quota preemption
	// takes their quota as well.
	what, after := "quota and domains", "it waits in its queue for quota again"
	if decision.Capacity {
		what, after = "domains (capacity preemption; quota is not in question)", "it comes back, in its queue's order, as soon as domains free up"
	}
	victims := admission.JoinKeys(decision.Victims)
	pl.rt.Events().Normal(&v.Ref, "Preempting", fmt.Sprintf("evicting %s (priority %s) for their %s (planned: %s)", victims, priorities(sn, decision.Victims), what, where))
	for _, victim := range out.Victims {
		pl.rt.Events().Warn(&victim.Ref, "Preempted", fmt.Sprintf("evicted whole by %s (priority %d), which takes its %s (planned: %s); %s", key, sn.Self.Priority, what, where, after))
		go pl.evict(context.WithoutCancel(ctx), key, victim.Pods)
	}
	return fwk.NewStatus(fwk.Unschedulable, fmt.Sprintf("preempting %s; the workload is placed once they are gone", victims))
}

// evictPods marks each pod DisruptionTarget, naming the preemptor, and
// deletes it; the claim's timeout bounds what a failed eviction costs the
// preemptor.
func (pl *Plugin) evictPods(ctx context.Context, preemptor workload.Key, pods []state.PodRef) {
	pl.rt.Evict(ctx, pods, corev1.PodReasonPreemptionByScheduler,
		fmt.Sprintf("preempting the whole workload to accommodate higher priority workload %s", preemptor))
}

func priorities(sn *state.Snapshot, keys []workload.Key) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		if v := sn.Workloads[k]; v != nil {
			parts[i] = fmt.Sprint(v.Priority)
		}
	}
	return strings.Join(parts, ", ")
}
