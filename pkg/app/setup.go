package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/tools/events"
	"k8s.io/klog/v2"
	schedulerserverconfig "k8s.io/kubernetes/cmd/kube-scheduler/app/config"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	"k8s.io/kubernetes/pkg/scheduler/apis/config/latest"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	configv1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/config/v1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
)

// Setup builds the scheduler from parsed options, as the upstream
// command's Setup does, with one step between reading the configuration
// and building the scheduler: our runtime (state, informers, controllers)
// is built from the profiles' arguments, and every plugin factory is
// handed it whole. With leader election on, the runtime's writers
// (status, Workload objects, Jobs, ProvisioningRequests) wait until this
// replica holds the scheduler's lease, so a standby never writes from a
// state that knows none of the leader's reservations.
func Setup(ctx context.Context, opts *options.Options) (*schedulerserverconfig.CompletedConfig, *scheduler.Scheduler, error) {
	defaults, err := latest.Default()
	if err != nil {
		return nil, nil, err
	}
	opts.ComponentConfig = defaults
	if errs := opts.Validate(); len(errs) > 0 {
		return nil, nil, utilerrors.NewAggregate(errs)
	}
	c, err := opts.Config(ctx)
	if err != nil {
		return nil, nil, err
	}
	cc := c.Complete()
	profiles := cc.ComponentConfig.Profiles
	recorders := func(name string) events.EventRecorderLogger { return cc.EventBroadcaster.NewRecorder(name) }
	// Without a profile of ours this is kube-scheduler: no runtime, so no
	// informer, controller or permission beyond upstream's.
	var rt *Runtime
	if enablesOurPlugins(profiles) {
		rt, err = NewRuntime(ctx, Scheduler{
			Client: cc.Client, KubeConfig: cc.KubeConfig, Informers: cc.InformerFactory,
			Recorder: func(profile string) events.EventRecorder { return recorders(profile) },
			Profiles: profiles, LeaderElection: cc.LeaderElection != nil,
		})
		if err != nil {
			return nil, nil, err
		}
	}
	var completed []schedulerconfig.KubeSchedulerProfile
	sched, err := scheduler.New(ctx, cc.Client, cc.InformerFactory, cc.DynInformerFactory, recorders,
		scheduler.WithComponentConfigVersion(cc.ComponentConfig.TypeMeta.APIVersion),
		scheduler.WithKubeConfig(cc.KubeConfig),
		scheduler.WithProfiles(profiles...),
		scheduler.WithPercentageOfNodesToScore(cc.ComponentConfig.PercentageOfNodesToScore),
		scheduler.WithFrameworkOutOfTreeRegistry(Registry(rt)),
		scheduler.WithPodMaxBackoffSeconds(cc.ComponentConfig.PodMaxBackoffSeconds),
		scheduler.WithPodInitialBackoffSeconds(cc.ComponentConfig.PodInitialBackoffSeconds),
		scheduler.WithPodMaxInUnschedulablePodsDuration(cc.PodMaxInUnschedulablePodsDuration),
		scheduler.WithExtenders(cc.ComponentConfig.Extenders...),
		scheduler.WithParallelism(cc.ComponentConfig.Parallelism),
		// The profiles as the framework completed them, for the
		// configuration log (--write-config-to).
		scheduler.WithBuildFrameworkCapturer(func(p schedulerconfig.KubeSchedulerProfile) { completed = append(completed, p) }),
	)
	if err != nil {
		return nil, nil, err
	}
	if err := options.LogOrWriteConfig(klog.FromContext(ctx), opts.WriteConfigTo, &cc.ComponentConfig, completed); err != nil {
		return nil, nil, err
	}
	if rt == nil {
		return &cc, sched, nil
	}
	if err := checkPairs(rt); err != nil {
		return nil, nil, err
	}
	if cc.LeaderElection != nil {
		cc.LeaderElection.Lock = rt.ObserveLeadership(cc.LeaderElection.Lock)
	} else {
		rt.Lead()
	}
	return &cc, sched, nil
}

// Settings reads what the whole scheduler shares from the profiles'
// MultisliceGang arguments: those of the first profile that enables
// MultisliceGang, defaults when none does. It also names that profile
// ("" when none does). Every other profile that enables it must agree,
// which its plugin checks as it is built (Runtime.Attach).
func Settings(profiles []schedulerconfig.KubeSchedulerProfile) (admission.Settings, string, error) {
	for i, p := range profiles {
		if !enables(p.Plugins, multislicegang.Name) {
			continue
		}
		args, err := configv1.DecodeArgs(argsOf(p, multislicegang.Name))
		if err != nil {
			return admission.Settings{}, "", fmt.Errorf("profiles[%d].pluginConfig[name=%s]: %w", i, multislicegang.Name, err)
		}
		return multislicegang.SettingsOf(args), p.SchedulerName, nil
	}
	args, err := configv1.DecodeArgs(nil)
	if err != nil {
		return admission.Settings{}, "", err
	}
	name := ""
	if len(profiles) > 0 {
		name = profiles[0].SchedulerName
	}
	return multislicegang.SettingsOf(args), name, nil
}

// enables reports whether plugins enable name at any extension point.
func enables(plugins *schedulerconfig.Plugins, name string) bool {
	if plugins == nil {
		return false
	}
	for _, set := range []schedulerconfig.PluginSet{plugins.MultiPoint, plugins.PreEnqueue, plugins.QueueSort, plugins.PreFilter,
		plugins.Filter, plugins.PostFilter, plugins.PreScore, plugins.Score, plugins.Reserve, plugins.Permit,
		plugins.PreBind, plugins.Bind, plugins.PostBind} {
		if slices.ContainsFunc(set.Enabled, func(p schedulerconfig.Plugin) bool { return p.Name == name }) {
			return true
		}
	}
	return false
}

// argsOf returns a profile's arguments for plugin name (nil: none set).
func argsOf(p schedulerconfig.KubeSchedulerProfile, name string) runtime.Object {
	for _, pc := range p.PluginConfig {
		if pc.Name == name {
			return pc.Args
		}
	}
	return nil
}

// checkPairs refuses profiles that enable MultisliceGang without its gate
// or the gate alone: without the gate, gang members and queued workloads
// would go through scheduling cycles only to be rejected, and the gate
// holds nothing back for a profile whose pods the state does not place.
func checkPairs(rt *Runtime) error {
	gangOnly, gateOnly := rt.Unpaired()
	if len(gangOnly) > 0 {
		return fmt.Errorf("profiles[schedulerName=%s].plugins: %s is enabled without %s; add {name: %s} to plugins.multiPoint.enabled (it holds gang members and queued workloads back until they may be scheduled)",
			strings.Join(gangOnly, ","), multislicegang.Name, multislicegang.GateName, multislicegang.GateName)
	}
	if len(gateOnly) > 0 {
		return fmt.Errorf("profiles[schedulerName=%s].plugins: %s is enabled without %s, whose state it gates on; enable both or neither",
			strings.Join(gateOnly, ","), multislicegang.GateName, multislicegang.Name)
	}
	return nil
}
