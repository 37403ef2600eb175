// Package multislicegang is the framework glue of multislice gang
// admission: it asks the shared state (pkg/state) and the admission
// decisions (pkg/admission) for answers at each extension point and maps
// them to framework statuses and events. It keeps no state of its own.
package multislicegang

import (
	"context"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
	configv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/controllers"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/state"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/workload"
)

// Name is the plugin's name in KubeSchedulerConfiguration.
const Name = "MultisliceGang"

// sharedRuntime is what the plugins use of the scheduler's shared runtime
// (feed.Runtime): it carries out what the state asks for, tells users,
// and writes while this replica leads.
type sharedRuntime interface {
	// Act carries out what the state asked for.
	Act(ctx context.Context, acts state.Actions)
	// Leading reports whether this replica decides and writes.
	Leading() bool
	Events() *controllers.EventSink
	// AllowWaiting lets a pod waiting in Permit through.
	AllowWaiting(uid types.UID, plugin string)
	// RecordAdmission writes an admission on its Workload object, then
	// calls done with what to let through.
	RecordAdmission(ctx context.Context, key workload.Key, id uint64, done func(state.PermitResult))
	// PokeProvisioning wakes the provisioning controller.
	PokeProvisioning()
	// Held, HeldAll, HeldWaiting and Released keep what held pods say
	// about why they wait (controllers.HeldPods).
	Held(pod *corev1.Pod, reason, message string, warn bool)
	HeldAll(pods []state.PodRef, reason, message string, warn bool)
	HeldWaiting(pod *corev1.Pod, reason, message string)
	Released(pod *corev1.Pod)
}

var _ sharedRuntime = (*feed.Runtime)(nil)

// Plugin places multislice workloads all or nothing; its Gate holds their
// pods back until they may be placed.
type Plugin struct {
	handle fwk.Handle
	args   *config.MultisliceGangArgs
	rt     sharedRuntime
	state  *state.State
	sort   *sortKeys
	// requested reads what pods on a node request in the cycle's snapshot.
	requested state.Requested
	// nodeInfo reads a node from the cycle's snapshot (nil: no such node).
	nodeInfo func(name string) fwk.NodeInfo
}

var (
	_ fwk.QueueSortPlugin   = &Plugin{}
	_ fwk.PreFilterPlugin   = &Plugin{}
	_ fwk.FilterPlugin      = &Plugin{}
	_ fwk.PostFilterPlugin  = &Plugin{}
	_ fwk.ReservePlugin     = &Plugin{}
	_ fwk.PermitPlugin      = &Plugin{}
	_ fwk.EnqueueExtensions = &Plugin{}
)

// Factory returns the plugin factory for one scheduler: every profile's
// instance attaches to the same runtime, hence the same state.
func Factory(rt *feed.Runtime) frameworkruntime.PluginFactory {
	return func(ctx context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		args, err := configv1.DecodeArgs(obj)
		if err != nil {
			return nil, err
		}
		st, err := rt.Attach(h, SettingsOf(args))
		if err != nil {
			return nil, err
		}
		rt.SetPermitTimeout(h.ProfileName(), args.PermitTimeout)
		pl := &Plugin{handle: h, args: args, rt: rt, state: st, sort: newSortKeys(st)}
		pl.requested = nodeinfo.SnapshotRequested(h)
		pl.nodeInfo = nodeinfo.SnapshotNodeInfo(h)
		rt.OnPodDeleted(pl.sort.forget)
		return pl, nil
	}
}

// SettingsOf is what of a profile's MultisliceGang arguments the whole
// scheduler shares: one state, one set of queues.
func SettingsOf(args *config.MultisliceGangArgs) feed.Settings {
	return feed.Settings{
		DefaultDomainKey:  args.DefaultDomainKey,
		DefaultLocalQueue: args.DefaultLocalQueue,
		QuotaStarvation:   args.QuotaStarvationTimeout,
		QuotaReconcile:    args.QuotaReconcileInterval,
		RestartHold:       args.RestartHold,
	}
}

// Name implements fwk.Plugin.
func (pl *Plugin) Name() string { return Name }

func (pl *Plugin) act(ctx context.Context, acts state.Actions) { pl.rt.Act(ctx, acts) }

// freeOf is what a node has left, in the model's units.
func freeOf(ni fwk.NodeInfo) workload.Resources {
	return workload.FromList(ni.Node().Status.Allocatable).Sub(nodeinfo.RequestedOf(ni))
}

func (pl *Plugin) permitTimeout() time.Duration   { return pl.args.PermitTimeout }
func (pl *Plugin) followerTimeout() time.Duration { return pl.args.FollowerTimeout }
