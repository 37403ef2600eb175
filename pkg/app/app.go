// Package app assembles the multislice-scheduler command: the upstream
// kube-scheduler command with this project's plugins registered out of tree,
// and the runtime they share (runtime.go): the state, the feed that keeps
// it current, the actuator that carries out what it and the admission
// engine ask for (actuator.go), leader election (leadership.go) and the
// wiring of the controllers that write to the API while this replica leads
// (controllers.go).
//
// The binary (cmd/multislice-scheduler), the integration harness and the
// scheduler_perf benchmarks all take their plugin registry from here, so the
// scheduler under test is always the one that ships.
package app

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	schedulerconfig "k8s.io/kubernetes/pkg/scheduler/apis/config"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/admission"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicepreemption"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/version"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// Name is the binary name and the default schedulerName of our profile.
const Name = wellknown.SchedulerName

// plugin pairs an out-of-tree plugin name with its factory.
type plugin struct {
	name    string
	factory frameworkruntime.PluginFactory
}

// plugins lists every out-of-tree plugin this scheduler registers, each
// built on the one runtime (state, feed, controllers) the scheduler
// shares between all its plugins and profiles. Profiles in
// KubeSchedulerConfiguration enable them by these names.
func plugins(rt *Runtime) []plugin {
	var m admission.Manager
	var reg multislicegang.Registrar
	if rt != nil {
		m, reg = Manager(rt), rt
	}
	return []plugin{
		{name: multislicegang.Name, factory: multislicegang.Factory(m, reg)},
		{name: multislicegang.GateName, factory: multislicegang.GateFactory(m, reg)},
		{name: multislicepreemption.Name, factory: multislicepreemption.Factory(m)},
	}
}

// Manager is the admission manager every plugin built on rt asks: the
// engine on rt's state, carrying out what it decides through rt.
func Manager(rt *Runtime) admission.Manager {
	eng := admission.NewEngine(rt.State(), rt, rt.Events(), multislicegang.Name)
	rt.OnPodDeleted(eng.Forget)
	return eng
}

// Registry returns our plugins, each built on rt, as a framework
// registry: the form scheduler.New and the scheduler_perf harness take.
func Registry(rt *Runtime) frameworkruntime.Registry {
	registry := frameworkruntime.Registry{}
	for _, p := range plugins(rt) {
		registry[p.name] = p.factory
	}
	return registry
}

// PluginNames lists the names of the plugins this scheduler registers.
func PluginNames() []string {
	var out []string
	for _, p := range plugins(nil) {
		out = append(out, p.name)
	}
	return out
}

// enablesOurPlugins reports whether any profile enables a plugin of ours:
// only then is our runtime (state, informers, controllers) built.
func enablesOurPlugins(profiles []schedulerconfig.KubeSchedulerProfile) bool {
	for _, p := range profiles {
		for _, name := range PluginNames() {
			if enables(p.Plugins, name) {
				return true
			}
		}
	}
	return false
}

// printVersionIfRequested prints the build identity when --version is set
// ("true" for one line, "raw" for JSON) and reports whether it did.
func printVersionIfRequested(cmd *cobra.Command, out io.Writer) (bool, error) {
	flag := cmd.Flags().Lookup("version")
	if flag == nil {
		return false, nil
	}
	switch flag.Value.String() {
	case "false", "":
		return false, nil
	case "raw":
		data, err := json.MarshalIndent(version.Get(), "", "  ")
		if err != nil {
			return true, err
		}
		_, err = fmt.Fprintln(out, string(data))
		return true, err
	default:
		_, err := fmt.Fprintln(out, version.Get().String())
		return true, err
	}
}
