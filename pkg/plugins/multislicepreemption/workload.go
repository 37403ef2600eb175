package multislicepreemption

import (
	"context"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/quota"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// evictor removes a victim's pods; the default marks each pod
// DisruptionTarget and deletes it, as kube-scheduler's preemption does.
type evictor func(ctx context.Context, preemptor workload.Key, pods []state.PodRef)

// preemptForWorkload runs when a gang member's cycle failed. Only the
// workload's waiting head, whose plan failed for want of domains or quota,
// preempts: members of a workload already placed or reserved fail for
// other reasons, which evicting workloads would not mend.
func (pl *Plugin) preemptForWorkload(ctx context.Context, cs fwk.CycleState, st *state.State, pod *corev1.Pod, v state.Verdict) *fwk.Status {
	key := v.Member.Key
	if v.Wait || v.Unresolvable || key.Source == workload.SourcePod || st.PlacedWhole(key) {
		return fwk.NewStatus(fwk.Unschedulable)
	}
	f := st.HeadFailure(pod)
	if f == nil || f.Unresolvable || (f.Reason != "" && f.Reason != quota.ReasonQuotaExceeded) {
		return fwk.NewStatus(fwk.Unschedulable)
	}
	if underway, left := st.PreemptionUnderway(key); underway {
		metrics.Preemptions.WithLabelValues("waiting").Inc()
		if len(left) > 0 {
			return fwk.NewStatus(fwk.Unschedulable, fmt.Sprintf("waiting for preempted %s to terminate", joinKeys(left)))
		}
		return fwk.NewStatus(fwk.Unschedulable, "the preempted workloads are gone; waiting for their room to show")
	}
	start := time.Now()
	var sn *state.Snapshot
	if data, err := cs.Read(multislicegang.PlanSnapshotKey); err == nil {
		if ps, ok := data.(*multislicegang.PlanSnapshot); ok && ps.Snapshot.Self != nil && ps.Snapshot.Self.Key == key {
			sn = st.ForPreemption(ps.Snapshot)
		}
	}
	if sn == nil {
		sn = st.PreemptionSnapshot(key, nodeinfo.SnapshotRequested(pl.handle))
	}
	decision, fail := admission.Preempt(sn)
	metrics.PreemptionDuration.Observe(time.Since(start).Seconds())
	logger := klog.FromContext(ctx)
	if fail != nil {
		st.PreemptionFailed(key)
		metrics.Preemptions.WithLabelValues("no_victims").Inc()
		pl.rt.Events().Normal(&v.Ref, "NoPreemptionVictims", "cannot preempt: "+fail.Message)
		return fwk.NewStatus(fwk.Unschedulable, "whole-workload preemption: "+fail.Message)
	}
	metrics.Preemptions.WithLabelValues("preempted").Inc()
	metrics.PreemptionVictims.Add(float64(len(decision.Victims)))
	st.Claim(key, sn.Self.Priority, decision.Victims, decision.Plan)
	// The plan the victims were chosen on; the placement itself is
	// planned again once they are gone and may use domains freed
	// meanwhile.
	where := strings.TrimPrefix(state.DescribePlacement(sn.Self.Model, decision.Plan), "reserved ")
	logger.V(2).Info("Preempting whole workloads", "preemptor", key, "victims", decision.Victims, "simulations", decision.Simulations, "placement", where)
	// Capacity preemption takes domains and leaves the victims' quota
	// alone: they keep their place in their queue (it orders by priority
	// and creation) and come back when domains free up. Quota preemption
	// takes their quota as well.
	what, after := "quota and domains", "it waits in its queue for quota again"
	if decision.Capacity {
		what, after = "domains (capacity preemption; quota is not in question)", "it comes back, in its queue's order, as soon as domains free up"
	}
	pl.rt.Events().Normal(&v.Ref, "Preempting", fmt.Sprintf("evicting %s (priority %s) for their %s (planned: %s)", joinKeys(decision.Victims), priorities(sn, decision.Victims), what, where))
	for _, victim := range decision.Victims {
		ref := st.Ref(victim)
		pl.rt.Events().Warn(&ref, "Preempted", fmt.Sprintf("evicted whole by %s (priority %d), which takes its %s (planned: %s); %s", key, sn.Self.Priority, what, where, after))
		pods := st.VictimPods(victim)
		go pl.evict(context.WithoutCancel(ctx), key, pods)
	}
	return fwk.NewStatus(fwk.Unschedulable, fmt.Sprintf("preempting %s; the workload is placed once they are gone", joinKeys(decision.Victims)))
}

// evictPods marks each pod DisruptionTarget, naming the preemptor, and
// deletes it; the claim's timeout bounds what a failed eviction costs the
// preemptor.
func (pl *Plugin) evictPods(ctx context.Context, preemptor workload.Key, pods []state.PodRef) {
	pl.rt.Evict(ctx, pods, corev1.PodReasonPreemptionByScheduler,
		fmt.Sprintf("preempting the whole workload to accommodate higher priority workload %s", preemptor))
}

func joinKeys(keys []workload.Key) string {
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = k.String()
	}
	return strings.Join(parts, ", ")
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
