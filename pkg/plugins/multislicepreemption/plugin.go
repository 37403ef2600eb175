// Package multislicepreemption is the PostFilter of this scheduler's
// profile, in place of kube-scheduler's DefaultPreemption.
//
// A gang workload that cannot be placed preempts whole workloads: the
// admission manager chooses the victims on a snapshot, evicts them whole,
// and keeps the domains they free for the preemptor while they terminate.
//
// For plain pods it is DefaultPreemption — pod-by-pod, lower priority first
// — except that a pod of a gang workload is never a victim (losing one pod
// restarts a whole JobSet) and nothing is evicted from a domain another
// workload has reserved (the preemptor could not go there anyway).
package multislicepreemption

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync/atomic"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	fwk "k8s.io/kube-scheduler/framework"
	schedconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/defaultpreemption"
	"k8s.io/kubernetes/pkg/scheduler/framework/plugins/feature"
	"k8s.io/kubernetes/pkg/scheduler/framework/preemption"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/cyclestate"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
)

// Name is the plugin's name in KubeSchedulerConfiguration.
const Name = "MultislicePreemption"

// Plugin wraps DefaultPreemption.
type Plugin struct {
	dp podByPod
	m  admission.Manager
	// nodes reads the cycle's snapshot of nodes.
	nodes admission.NodeSnapshot
	// gangSpared counts, within one plain pod's PostFilter, the victims
	// of lower priority refused because they belong to a gang: the
	// pod's status says so. Candidates are evaluated in parallel, one
	// PostFilter at a time.
	gangSpared atomic.Int64
}

// podByPod is what the plugin asks of DefaultPreemption, which preempts a
// plain pod's victims pod by pod (with eligible as its IsEligiblePod).
type podByPod interface {
	PostFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status)
	PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status
	EventsToRegister(ctx context.Context) ([]fwk.ClusterEventWithHint, error)
}

var _ podByPod = &defaultpreemption.DefaultPreemption{}

var (
	_ fwk.PostFilterPlugin  = &Plugin{}
	_ fwk.PreEnqueuePlugin  = &Plugin{}
	_ fwk.EnqueueExtensions = &Plugin{}
)

// Factory returns the plugin factory for one scheduler.
func Factory(m admission.Manager) frameworkruntime.PluginFactory {
	return func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		args, err := decodeArgs(obj)
		if err != nil {
			return nil, err
		}
		dp, err := defaultpreemption.New(ctx, args, h, feature.NewSchedulerFeaturesFromGates(utilfeature.DefaultFeatureGate))
		if err != nil {
			return nil, err
		}
		pl := &Plugin{dp: dp, m: m, nodes: nodeinfo.SnapshotOf(h)}
		dp.IsEligiblePod = pl.eligible
		return pl, nil
	}
}

// Name implements fwk.Plugin.
func (pl *Plugin) Name() string { return Name }

// eligible: never a gang member; never on a node reserved for another
// workload's slice (nothing the preemptor could use is freed there).
func (pl *Plugin) eligible(nodeInfo fwk.NodeInfo, victim preemption.Victim, preemptor *corev1.Pod) bool {
	pods := make([]*corev1.Pod, 0, len(victim.Pods()))
	for _, pi := range victim.Pods() {
		pods = append(pods, pi.GetPod())
	}
	node := ""
	if n := nodeInfo.Node(); n != nil {
		node = n.Name
	}
	ok, gang := pl.m.Victim(preemptor, pods, node)
	if gang {
		pl.gangSpared.Add(1)
	}
	return ok
}

// PostFilter preempts whole workloads for a gang, pod by pod for a plain
// pod. When another plugin's PreFilter rejected the pod before
// MultisliceGang's ran, there is no cycle (nil).
func (pl *Plugin) PostFilter(ctx context.Context, cs fwk.CycleState, pod *corev1.Pod, m fwk.NodeToStatusReader) (*fwk.PostFilterResult, *fwk.Status) {
	c, err := cyclestate.Read(cs)
	if err != nil && !errors.Is(err, fwk.ErrNotFound) {
		return nil, fwk.AsStatus(err)
	}
	if handled, st := pl.m.Preempt(ctx, c, pod, pl.nodes); handled {
		return nil, toStatus(st)
	}
	pl.gangSpared.Store(0)
	res, status := pl.dp.PostFilter(ctx, cs, pod, m)
	if n := pl.gangSpared.Load(); n > 0 && !status.IsSuccess() {
		// "No preemption victims found" alone reads as if nothing of
		// lower priority ran; say what was spared, and why.
		reasons := append(status.Reasons(), fmt.Sprintf(
			"lower-priority pods of gang workloads (JobSet, Job, PodGroup) on %d candidate node(s) were not preempted: a plain pod never evicts part of a gang, which would restart it whole", n))
		status = fwk.NewStatus(status.Code(), reasons...)
	}
	return res, status
}

// toStatus maps the manager's answer, always a failure here.
func toStatus(s *admission.Status) *fwk.Status {
	if s == nil || s.Message == "" {
		return fwk.NewStatus(fwk.Unschedulable)
	}
	return fwk.NewStatus(fwk.Unschedulable, s.Message)
}

// PreEnqueue implements fwk.PreEnqueuePlugin (DefaultPreemption holds back
// pods whose own preemption is still being carried out).
func (pl *Plugin) PreEnqueue(ctx context.Context, pod *corev1.Pod) *fwk.Status {
	return pl.dp.PreEnqueue(ctx, pod)
}

// EventsToRegister implements fwk.EnqueueExtensions.
func (pl *Plugin) EventsToRegister(ctx context.Context) ([]fwk.ClusterEventWithHint, error) {
	return pl.dp.EventsToRegister(ctx)
}

// decodeArgs accepts no args or an empty object: the candidate limits are
// DefaultPreemption's defaults. The raw args keep the configuration file's
// spacing (a JSON file may say "args": { }).
func decodeArgs(obj runtime.Object) (*schedconfig.DefaultPreemptionArgs, error) {
	if u, ok := obj.(*runtime.Unknown); ok && len(bytes.TrimSpace(u.Raw)) > 0 {
		var fields map[string]json.RawMessage
		if err := json.Unmarshal(u.Raw, &fields); err != nil || len(fields) > 0 {
			return nil, fmt.Errorf("%s takes no args, got %s", Name, string(u.Raw))
		}
	}
	return &schedconfig.DefaultPreemptionArgs{MinCandidateNodesPercentage: 10, MinCandidateNodesAbsolute: 100}, nil
}
