package multislicegang

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/metrics"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/planner"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// cycleKey names the plugin's per-cycle state.
const cycleKey fwk.StateKey = Name

// cycleState is what PreFilter learned about the pod, for the later
// extension points of the same cycle.
type cycleState struct {
	gang bool
	// alone: a queued plain pod admitted on quota alone.
	alone bool
	// candidates are the nodes the pod was restricted to (nil: none).
	candidates sets.Set[string]
	// reservation is the ID the pod was reserved under (set in Reserve).
	reservation uint64
}

// Clone implements fwk.StateData. Reserve writes the reservation ID into a
// cycle's own copy, so a clone must not share it.
func (c *cycleState) Clone() fwk.StateData {
	out := *c
	return &out
}

// PlanSnapshotKey is the cycle state key under which this plugin's
// PreFilter leaves the snapshot a gang's failed plan was made on, for the
// PostFilter of the same cycle to preempt on instead of taking another.
const PlanSnapshotKey fwk.StateKey = "multislice.dev/plan-snapshot"

// PlanSnapshot is the cycle state entry under PlanSnapshotKey. Plan leaves
// a snapshot as it found it, so the entry is shared, never copied.
type PlanSnapshot struct{ Snapshot *state.Snapshot }

// Clone implements fwk.StateData.
func (p *PlanSnapshot) Clone() fwk.StateData { return p }

func readCycle(cs fwk.CycleState) *cycleState {
	if data, err := cs.Read(cycleKey); err == nil {
		return data.(*cycleState)
	}
	return nil
}

// PreFilter makes sure the pod's workload holds a reservation — planning
// every slice of its gang at once when it holds none — and limits the pod to
// the nodes planned for it.
func (pl *Plugin) PreFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	out := admission.PreFilter(pl.state, pod, admission.CycleSettings{
		Requested: pl.requested, PermitTimeout: pl.permitTimeout(), FollowerTimeout: pl.followerTimeout(),
	}, func(acts state.Actions) { pl.act(ctx, acts) })
	cs.Write(cycleKey, &cycleState{gang: out.Gang, alone: out.Alone, candidates: out.Nodes})
	if out.Planned > 0 {
		metrics.PlanningDuration.Observe(out.Planned.Seconds())
	}
	if out.Snapshot != nil {
		cs.Write(PlanSnapshotKey, &PlanSnapshot{Snapshot: out.Snapshot})
	}
	if out.Failure != nil {
		pl.reportFailure(&out.Ref, out.Failure)
	}
	if out.Conflict != nil {
		klog.FromContext(ctx).V(2).Info("Reservation raced with another change; retrying", "workload", out.Ref.Namespace+"/"+out.Ref.Name, "err", out.Conflict)
	}
	if out.EndsEarly != "" {
		pl.rt.Events().Warn(&out.Ref, "CapacityEndsBeforeRun", out.EndsEarly)
	}
	if out.Reserved != "" {
		pl.rt.Events().Normal(&out.Ref, "Reserved", out.Reserved)
	}
	switch out.Code {
	case admission.Unresolvable:
		return nil, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, out.Message)
	case admission.Unschedulable:
		return nil, fwk.NewStatus(fwk.Unschedulable, out.Message)
	}
	if out.Alone && out.FlavorNodes != nil {
		candidates := aloneCandidates(pod, out.FlavorNodes, pl.nodeInfo)
		if candidates.Len() == 0 {
			return nil, fwk.NewStatus(fwk.Unschedulable, "no node carries the labels of the flavors the pod's quota was charged to")
		}
		return &fwk.PreFilterResult{NodeNames: candidates}, nil
	}
	if out.Nodes != nil {
		return &fwk.PreFilterResult{NodeNames: out.Nodes}, nil
	}
	return nil, nil
}

// aloneCandidates are the nodes a plain pod admitted on quota alone may be
// placed on: those of the flavors it is charged to (flavorNodes) that have
// room for it in the cycle's snapshot (nodeInfo). Without this, every cycle
// of such a pod filters every node of the cluster and scores a share of
// those that fit: while quota keeps hosts free (woken pods not scheduled
// yet), that share is hundreds of empty hosts. When none has room, all of
// flavorNodes stay candidates, so the filters report why and preemption
// may make room.
func aloneCandidates(pod *corev1.Pod, flavorNodes []string, nodeInfo func(string) fwk.NodeInfo) sets.Set[string] {
	request := workload.PodRequests(&pod.Spec)
	room := sets.New[string]()
	for _, name := range flavorNodes {
		if ni := nodeInfo(name); ni != nil && ni.Node() != nil && nodeinfo.HasRoom(ni, request) {
			room.Insert(name)
		}
	}
	if room.Len() == 0 {
		return sets.New(flavorNodes...)
	}
	return room
}

// reportFailure records why the workload could not be admitted as an event
// on it: a warning when only a change to its objects (or the nodes) can
// help. Failures the planner decided carry no reason of their own.
func (pl *Plugin) reportFailure(ref *corev1.ObjectReference, f *planner.Failure) {
	reason := state.FailureReason(f)
	if f.Unresolvable {
		pl.rt.Events().Warn(ref, reason, f.Message)
		return
	}
	pl.rt.Events().Normal(ref, reason, f.Message)
}

// PreFilterExtensions implements fwk.PreFilterPlugin. Reservations and
// holders do not change when preemption removes a pod in simulation.
func (pl *Plugin) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Filter keeps every pod out of domains reserved for, or held by, other
// slices, and off room other reservations planned; a plain pod kept out is
// remembered, to be tried again when the reservation ends.
func (pl *Plugin) Filter(_ context.Context, cs fwk.CycleState, pod *corev1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	node := nodeInfo.Node()
	if node == nil {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node not found")
	}
	ok, reason := pl.state.NodeAllowed(pod, node.Name, func() workload.Resources { return freeOf(nodeInfo) })
	if ok {
		return nil
	}
	if c := readCycle(cs); c == nil || !c.gang {
		pl.state.RecordBlocked(pod)
	}
	return fwk.NewStatus(fwk.Unschedulable, reason)
}

// PostFilter: a gang member that fit none of the nodes its reservation gave
// it was rejected there by the other filters (JobSet's anti-affinity, host
// ports, volume topology…), which the plan cannot see. The domain is kept
// out of the workload's plans and the reservation released, so the next
// plan goes elsewhere instead of timing out into the same domain again.
func (pl *Plugin) PostFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, statuses fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	f := admission.FilterFailure{Other: describeStatus(statuses.Get(""))}
	if c := readCycle(cs); c != nil {
		f.PreFiltered, f.Alone, f.Gang, f.Candidates = true, c.alone, c.gang, c.candidates
		f.Rejections = map[string]int{}
		for name := range c.candidates {
			if pl.nodeInfo(name) == nil {
				f.Unseen = append(f.Unseen, name)
				continue
			}
			st := statuses.Get(name)
			if st == nil || st.IsSuccess() {
				f.Accepted = true
				continue
			}
			f.Rejections[describeStatus(st)]++
		}
	}
	out := admission.PostFilter(pl.state, pod, f)
	pl.act(ctx, out.Actions)
	if out.Message == "" {
		return nil, fwk.NewStatus(fwk.Unschedulable)
	}
	return nil, fwk.NewStatus(fwk.Unschedulable, out.Message)
}

// describeStatus renders a failed status as "Plugin: reasons".
func describeStatus(st *fwk.Status) string {
	if st == nil {
		return "rejected by another plugin"
	}
	msg := strings.Join(st.Reasons(), ", ")
	if p := st.Plugin(); p != "" {
		msg = p + ": " + msg
	}
	return msg
}
