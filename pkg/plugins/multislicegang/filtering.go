package multislicegang

import (
	"context"
	"errors"
	"strings"

	corev1 "k8s.io/api/core/v1"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/cyclestate"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// PreFilter makes sure the pod's workload holds a reservation — planning
// every slice of its gang at once when it holds none — and limits the pod to
// the nodes planned for it.
func (pl *Plugin) PreFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, _ []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	c, nodes, st := pl.m.PreFilter(ctx, pod, pl.nodes)
	cyclestate.Write(cs, c)
	if st != nil {
		return nil, toStatus(st)
	}
	if nodes != nil {
		return &fwk.PreFilterResult{NodeNames: nodes}, nil
	}
	return nil, nil
}

// PreFilterExtensions implements fwk.PreFilterPlugin. Reservations and
// holders do not change when preemption removes a pod in simulation.
func (pl *Plugin) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Filter keeps every pod out of domains reserved for, or held by, other
// slices, and off room other reservations planned.
func (pl *Plugin) Filter(_ context.Context, cs fwk.CycleState, pod *corev1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	node := nodeInfo.Node()
	if node == nil {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node not found")
	}
	c, err := cyclestate.Read(cs)
	if err != nil {
		// Filter runs only after every PreFilter passed, ours included.
		return fwk.AsStatus(err)
	}
	// What the node has left is read only if the manager needs it.
	return toStatus(pl.m.Filter(c, pod, node, func() workload.Resources { return freeOf(nodeInfo) }))
}

// freeOf is what a node has left, in the model's units.
func freeOf(ni fwk.NodeInfo) workload.Resources {
	return workload.FromList(ni.Node().Status.Allocatable).Sub(nodeinfo.RequestedOf(ni))
}

// PostFilter tells the manager why no node fit the pod: the candidates
// PreFilter gave it that the scheduler's cache does not hold yet, and why
// the filters rejected the others. When another plugin's PreFilter
// rejected the pod before ours ran, there is no cycle (nil), and the
// manager is told only why.
func (pl *Plugin) PostFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, statuses fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	c, err := cyclestate.Read(cs)
	if err != nil && !errors.Is(err, fwk.ErrNotFound) {
		return nil, fwk.AsStatus(err)
	}
	f := admission.FilterFailure{Other: describeStatus(statuses.Get(""))}
	if c != nil {
		f.Rejections = map[string]int{}
		for name := range c.Candidates() {
			ni := pl.nodeInfo(name)
			if ni == nil {
				f.Unseen = append(f.Unseen, name)
				continue
			}
			st := statuses.Get(name)
			if st == nil || st.IsSuccess() {
				f.Accepted = true
				continue
			}
			f.Rejections[describeStatus(st)]++
			if n := ni.Node(); n != nil {
				if f.Labels == nil {
					f.Labels = map[string]map[string]string{}
				}
				f.Labels[name] = n.Labels
			}
		}
	}
	return nil, toStatus(pl.m.PostFilter(ctx, c, pod, f))
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
