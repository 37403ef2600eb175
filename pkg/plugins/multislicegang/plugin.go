// Package multislicegang is the framework glue of multislice gang
// admission: it feeds the shared cache, asks it for decisions at each
// extension point and maps them to framework statuses and events. The
// decisions themselves are made in pkg/cache and pkg/planner.
package multislicegang

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/klog/v2"
	fwk "k8s.io/kube-scheduler/framework"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
	configv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cache"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Name is the plugin's name in KubeSchedulerConfiguration.
const Name = "MultisliceGang"

// Plugin places multislice workloads all or nothing.
type Plugin struct {
	handle fwk.Handle
	args   *config.MultisliceGangArgs
	cache  *cache.Cache
	events *eventSink
	// sortKeys memoises each pod's queue key the first time it is compared,
	// so the queue's order of two pods never changes while they are queued.
	sortKeys sync.Map // types.UID -> sortKey
}

var (
	_ fwk.PreEnqueuePlugin  = &Plugin{}
	_ fwk.QueueSortPlugin   = &Plugin{}
	_ fwk.PreFilterPlugin   = &Plugin{}
	_ fwk.FilterPlugin      = &Plugin{}
	_ fwk.ReservePlugin     = &Plugin{}
	_ fwk.PermitPlugin      = &Plugin{}
	_ fwk.EnqueueExtensions = &Plugin{}
)

// New builds the plugin from its args.
func New(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
	args, err := configv1.DecodeArgs(obj)
	if err != nil {
		return nil, err
	}
	pl := &Plugin{
		handle: h,
		args:   args,
		events: newEventSink(h.EventRecorder()),
		cache: cache.New(cache.Options{
			PermitTimeout:    args.PermitTimeout,
			FollowerTimeout:  args.FollowerTimeout,
			DefaultDomainKey: args.DefaultDomainKey,
			SchedulerName:    h.ProfileName(),
		}),
	}
	if err := pl.watchPods(ctx); err != nil {
		return nil, err
	}
	pl.watchSources(ctx, h.KubeConfig(), h.ClientSet().Discovery())
	go pl.expireLoop(ctx)
	return pl, nil
}

// Name implements fwk.Plugin.
func (pl *Plugin) Name() string { return Name }

// PreEnqueue keeps a gang pod out of the active queue until every member
// that can exist yet exists, so incomplete gangs are not retried in a loop.
func (pl *Plugin) PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status {
	v := pl.cache.Admit(pod)
	if !v.Gang || (!v.Wait && !v.Unresolvable) {
		return nil
	}
	if v.Unresolvable {
		pl.events.warnPod(pod, &v.Ref, "GangBlocked", v.Message)
	}
	return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, v.Message)
}

// PreFilter reserves domains for every slice of the pod's workload at once
// (or finds its reservation) and limits the pod to its slice's domain.
func (pl *Plugin) PreFilter(ctx context.Context, state fwk.CycleState, pod *corev1.Pod, nodes []fwk.NodeInfo) (*fwk.PreFilterResult, *fwk.Status) {
	res := pl.cache.Plan(pod, func() []cache.NodeState { return nodeStates(nodes) })
	pl.act(ctx, res.Acts)
	// Filter will only see the reserved domain's nodes when there is one.
	state.Write(stateKey, &filterState{excluded: pl.cache.Exclusions(pod, func() []*corev1.Node {
		return nodeObjects(nodes, res.Nodes)
	})})
	switch {
	case !res.Gang:
		return nil, nil
	case res.Unresolvable || res.Wait:
		return nil, fwk.NewStatus(fwk.UnschedulableAndUnresolvable, res.Message)
	case res.Failure != nil:
		code := fwk.Unschedulable
		if res.Failure.Unresolvable {
			code = fwk.UnschedulableAndUnresolvable
			pl.events.warn(&res.Ref, "Unplaceable", res.Failure.Message)
		} else {
			pl.events.normal(&res.Ref, "WaitingForDomains", res.Failure.Message)
		}
		return nil, fwk.NewStatus(code, res.Failure.Message)
	}
	if res.Placed != "" {
		pl.events.normal(&res.Ref, "Reserved", res.Placed)
	}
	if res.Nodes == nil {
		return nil, nil
	}
	if res.Nodes.Len() == 0 {
		return nil, fwk.NewStatus(fwk.Unschedulable, "the reserved domain has no nodes left")
	}
	return &fwk.PreFilterResult{NodeNames: res.Nodes}, nil
}

// PreFilterExtensions implements fwk.PreFilterPlugin. Exclusivity does not
// change when preemption removes a pod from a node in simulation.
func (pl *Plugin) PreFilterExtensions() fwk.PreFilterExtensions { return nil }

// Filter keeps every pod out of domains reserved for, or held by, other
// slices, from the exclusions PreFilter computed for the cycle.
func (pl *Plugin) Filter(_ context.Context, state fwk.CycleState, pod *corev1.Pod, nodeInfo fwk.NodeInfo) *fwk.Status {
	node := nodeInfo.Node()
	if node == nil {
		return fwk.NewStatus(fwk.UnschedulableAndUnresolvable, "node not found")
	}
	if data, err := state.Read(stateKey); err == nil {
		if reason, excluded := data.(*filterState).excluded[node.Name]; excluded {
			return fwk.NewStatus(fwk.Unschedulable, reason)
		}
		return nil
	}
	// No PreFilter state (a preemption dry run after PreFilter failed): ask the cache.
	if ok, reason := pl.cache.Allowed(pod, node); !ok {
		return fwk.NewStatus(fwk.Unschedulable, reason)
	}
	return nil
}

// stateKey names the plugin's per-cycle state.
const stateKey fwk.StateKey = Name

// filterState holds the nodes excluded for the pod in this cycle.
type filterState struct {
	excluded map[string]string
}

// Clone implements fwk.StateData; the state is read-only once written.
func (s *filterState) Clone() fwk.StateData { return s }

// nodeObjects lists the nodes, only those in only when it is not nil.
func nodeObjects(nodes []fwk.NodeInfo, only sets.Set[string]) []*corev1.Node {
	out := make([]*corev1.Node, 0, len(nodes))
	for _, ni := range nodes {
		if n := ni.Node(); n != nil && (only == nil || only.Has(n.Name)) {
			out = append(out, n)
		}
	}
	return out
}

// Reserve records the pod as placed on the node.
func (pl *Plugin) Reserve(_ context.Context, _ fwk.CycleState, pod *corev1.Pod, nodeName string) *fwk.Status {
	pl.cache.Reserve(pod, nodeName)
	return nil
}

// Unreserve undoes Reserve; before its gate passes, a gang fails together.
func (pl *Plugin) Unreserve(ctx context.Context, _ fwk.CycleState, pod *corev1.Pod, _ string) {
	pl.act(ctx, pl.cache.Unreserve(pod))
}

// Permit holds gang pods until every required member is reserved, then
// lets them all bind together.
func (pl *Plugin) Permit(ctx context.Context, _ fwk.CycleState, pod *corev1.Pod, _ string) (*fwk.Status, time.Duration) {
	res := pl.cache.Permit(pod)
	switch {
	case res.Allow:
		for _, uid := range res.AllowWaiting {
			if wp := pl.handle.GetWaitingPod(uid); wp != nil {
				wp.Allow(Name)
			}
		}
		if res.Committed != "" {
			pl.events.normal(&res.Ref, "Placed", strings.Replace(res.Committed, "reserved ", "placed ", 1))
		}
		return nil, 0
	case res.Wait > 0:
		return fwk.NewStatus(fwk.Wait, res.Message), res.Wait
	default:
		klog.FromContext(ctx).V(2).Info("Rejecting gang member", "pod", klog.KObj(pod), "reason", res.Message)
		return fwk.NewStatus(fwk.Unschedulable, res.Message), 0
	}
}

// nodeStates converts the framework's node snapshot for the planner.
func nodeStates(nodes []fwk.NodeInfo) []cache.NodeState {
	out := make([]cache.NodeState, 0, len(nodes))
	for _, ni := range nodes {
		n := ni.Node()
		if n == nil {
			continue
		}
		req := ni.GetRequested()
		r := workload.Resources{
			corev1.ResourceCPU:              req.GetMilliCPU(),
			corev1.ResourceMemory:           req.GetMemory() * 1000,
			corev1.ResourceEphemeralStorage: req.GetEphemeralStorage() * 1000,
			corev1.ResourcePods:             int64(len(ni.GetPods())) * 1000,
		}
		for name, v := range req.GetScalarResources() {
			r[name] = v * 1000
		}
		out = append(out, cache.NodeState{Node: n, Requested: r})
	}
	return out
}

// sortKey orders the queue: higher priority first, then older workloads
// (a plain pod is a workload of one, dated by when it was queued), keeping a
// workload's pods together.
type sortKey struct {
	priority int32
	since    time.Time
	group    string
	pod      string
}

// Less implements fwk.QueueSortPlugin.
func (pl *Plugin) Less(a, b fwk.QueuedEntityInfo) bool {
	ka, kb := pl.keyOf(a), pl.keyOf(b)
	switch {
	case ka.priority != kb.priority:
		return ka.priority > kb.priority
	case !ka.since.Equal(kb.since):
		return ka.since.Before(kb.since)
	case ka.group != kb.group:
		return ka.group < kb.group
	}
	return ka.pod < kb.pod
}

type podGetter interface{ GetPod() *corev1.Pod }

func (pl *Plugin) keyOf(e fwk.QueuedEntityInfo) sortKey {
	pg, ok := e.(podGetter)
	if !ok || pg.GetPod() == nil {
		return sortKey{priority: e.GetPriority(), since: e.GetTimestamp(), group: string(e.Type())}
	}
	pod := pg.GetPod()
	if k, ok := pl.sortKeys.Load(pod.UID); ok {
		return k.(sortKey)
	}
	k := sortKey{priority: e.GetPriority(), since: e.GetTimestamp(), group: "pod/" + pod.Namespace + "/" + pod.Name, pod: string(pod.UID)}
	if m, isMember, err := workload.MemberOf(pod); isMember && err == nil {
		if created, ok := pl.cache.Created(m.Key); ok {
			k.since = created
			k.group = m.Key.String()
			k.pod = fmt.Sprintf("%08d/%s", m.Slice, pod.Name)
		}
	}
	actual, _ := pl.sortKeys.LoadOrStore(pod.UID, k)
	return actual.(sortKey)
}
