// Package multislicegang is the framework glue of multislice gang
// admission: at each extension point it asks the admission manager
// (admission.Manager) and maps its answers to framework statuses. It keeps
// no state of its own.
package multislicegang

import (
	"context"

	"k8s.io/apimachinery/pkg/runtime"
	fwk "k8s.io/kube-scheduler/framework"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config"
	configv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/nodeinfo"
)

// Name is the plugin's name in KubeSchedulerConfiguration.
const Name = "MultisliceGang"

// Registrar is what a profile's plugins register with as they are built:
// the scheduler's shared runtime, which keeps each profile's handle (to
// activate its pods and let its waiting pods through) and checks that
// every profile agrees on the settings they share.
type Registrar interface {
	Attach(h fwk.Handle, set admission.Settings) error
	AttachGate(profile string)
}

// Plugin places multislice workloads all or nothing; its Gate holds their
// pods back until they may be placed.
type Plugin struct {
	m admission.Manager
	// nodes reads the cycle's snapshot of nodes; nodeInfo reads one node
	// of it (nil: the scheduler's cache does not hold it).
	nodes    admission.NodeSnapshot
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
// instance asks the same manager, hence the same state.
func Factory(m admission.Manager, reg Registrar) frameworkruntime.PluginFactory {
	return func(_ context.Context, obj runtime.Object, h fwk.Handle) (fwk.Plugin, error) {
		args, err := configv1.DecodeArgs(obj)
		if err != nil {
			return nil, err
		}
		if err := reg.Attach(h, SettingsOf(args)); err != nil {
			return nil, err
		}
		m.AddProfile(admission.Profile{Name: h.ProfileName(), PermitTimeout: args.PermitTimeout, FollowerTimeout: args.FollowerTimeout})
		nodes := nodeinfo.SnapshotOf(h)
		return &Plugin{m: m, nodes: nodes, nodeInfo: nodes.NodeInfo}, nil
	}
}

// SettingsOf is what of a profile's MultisliceGang arguments the whole
// scheduler shares: one state, one set of queues.
func SettingsOf(args *config.MultisliceGangArgs) admission.Settings {
	return admission.Settings{
		DefaultDomainKey:  args.DefaultDomainKey,
		DefaultLocalQueue: args.DefaultLocalQueue,
		QuotaStarvation:   args.QuotaStarvationTimeout,
		QuotaReconcile:    args.QuotaReconcileInterval,
		RestartHold:       args.RestartHold,
		QueuedStartDepth:  args.QueuedStartDepth,
	}
}

// Name implements fwk.Plugin.
func (pl *Plugin) Name() string { return Name }

// toStatus maps a manager's answer to the framework's.
func toStatus(s *admission.Status) *fwk.Status {
	if s == nil {
		return nil
	}
	var code fwk.Code
	switch s.Code {
	case admission.Proceed:
		return nil
	case admission.Unresolvable:
		code = fwk.UnschedulableAndUnresolvable
	case admission.Wait:
		code = fwk.Wait
	default:
		code = fwk.Unschedulable
	}
	if s.Message == "" {
		return fwk.NewStatus(code)
	}
	return fwk.NewStatus(code, s.Message)
}
