// Package app assembles the multislice-scheduler command: the upstream
// kube-scheduler command with this project's plugins registered out of tree.
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
	kubeschedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	frameworkruntime "k8s.io/kubernetes/pkg/scheduler/framework/runtime"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/feed"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicegang"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/plugins/multislicepreemption"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/version"
)

// Name is the binary name and the default schedulerName of our profile.
const Name = "multislice-scheduler"

// plugin pairs an out-of-tree plugin name with its factory.
type plugin struct {
	name    string
	factory frameworkruntime.PluginFactory
}

// plugins lists every out-of-tree plugin this scheduler registers, each
// built on the one runtime (state, informers, expiry loop) the scheduler
// shares between all its plugins and profiles. Profiles in
// KubeSchedulerConfiguration enable them by these names.
func plugins(rt *feed.Runtime) []plugin {
	return []plugin{
		{name: multislicegang.Name, factory: multislicegang.Factory(rt)},
		{name: multislicepreemption.Name, factory: multislicepreemption.Factory(rt)},
	}
}

// PluginNames lists the names of the plugins this scheduler registers.
func PluginNames() []string {
	var out []string
	for _, p := range plugins(nil) {
		out = append(out, p.name)
	}
	return out
}

// RegistryOptions returns the options that register our plugins with the
// upstream scheduler command. Each call makes one new shared runtime: one
// scheduler, one state.
func RegistryOptions() []kubeschedulerapp.Option {
	ps := plugins(feed.NewRuntime())
	opts := make([]kubeschedulerapp.Option, 0, len(ps))
	for _, p := range ps {
		opts = append(opts, kubeschedulerapp.WithPlugin(p.name, p.factory))
	}
	return opts
}

// Registry returns our plugins as a framework registry, the form the
// scheduler_perf harness and scheduler.New take.
func Registry() (frameworkruntime.Registry, error) {
	registry := frameworkruntime.Registry{}
	for _, opt := range RegistryOptions() {
		if err := opt(registry); err != nil {
			return nil, err
		}
	}
	return registry, nil
}

// NewCommand returns the multislice-scheduler root command.
func NewCommand() *cobra.Command {
	cmd := kubeschedulerapp.NewSchedulerCommand(RegistryOptions()...)
	cmd.Use = Name
	cmd.Short = "A kube-scheduler for multislice accelerator workloads"
	cmd.Long = `multislice-scheduler is a Kubernetes scheduler for shared TPU/GPU node pools.
It places every slice of a multislice workload on its own exclusive topology
domain, all slices or none, and runs as a second scheduler next to
kube-scheduler: pods opt in with spec.schedulerName.

It accepts every kube-scheduler flag and a KubeSchedulerConfiguration file
(--config); see the project README for the plugins and their arguments.`

	// The upstream --version flag reports the Kubernetes library version.
	// Answer it with our own build identity before the upstream command
	// gets a chance to.
	upstreamRunE := cmd.RunE
	cmd.RunE = func(c *cobra.Command, args []string) error {
		if handled, err := printVersionIfRequested(c, c.OutOrStdout()); handled {
			return err
		}
		return upstreamRunE(c, args)
	}
	return cmd
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
