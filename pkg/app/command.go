package app

import (
	"context"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"k8s.io/apiserver/pkg/server"
	"k8s.io/client-go/tools/cache"
	cliflag "k8s.io/component-base/cli/flag"
	"k8s.io/component-base/cli/globalflag"
	basecompatibility "k8s.io/component-base/compatibility"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"
	"k8s.io/component-base/term"
	"k8s.io/component-base/version/verflag"
	kubeschedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
)

// NewCommand returns the multislice-scheduler root command: the upstream
// kube-scheduler's flags and configuration, run through Setup so that our
// runtime's writers follow the scheduler's own leader election.
func NewCommand() *cobra.Command {
	opts := options.NewOptions()
	cmd := &cobra.Command{
		Use:   Name,
		Short: "A kube-scheduler for multislice accelerator workloads",
		Long: `multislice-scheduler is a Kubernetes scheduler for shared TPU/GPU node pools.
It places every slice of a multislice workload on its own exclusive topology
domain, all slices or none, and runs as a second scheduler next to
kube-scheduler: pods opt in with spec.schedulerName.

It accepts every kube-scheduler flag and a KubeSchedulerConfiguration file
(--config); see docs/reference/configuration.md in the project for the
plugins and their arguments.`,
		// Feature gates must be set before anything reads them: our
		// defaults first, then the command line's.
		PersistentPreRunE: func(*cobra.Command, []string) error { return SetFeatureGates(opts) },
		RunE: func(c *cobra.Command, _ []string) error {
			// The upstream --version reports the Kubernetes library
			// version; ours reports our build.
			if handled, err := printVersionIfRequested(c, c.OutOrStdout()); handled {
				return err
			}
			return run(c, opts)
		},
		Args: cobra.NoArgs,
	}
	named := opts.Flags
	verflag.AddFlags(named.FlagSet("global"))
	globalflag.AddGlobalFlags(named.FlagSet("global"), cmd.Name(), logs.SkipLoggingConfigurationFlags())
	for _, fs := range named.FlagSets {
		cmd.Flags().AddFlagSet(fs)
	}
	cols, _, _ := term.TerminalSize(cmd.OutOrStdout())
	cliflag.SetUsageAndHelpFunc(cmd, *named, cols)
	_ = cmd.MarkFlagFilename("config", "yaml", "yml", "json")
	return cmd
}

// run is the command's body: logging, signals, Setup, then the upstream Run
// (serving, leader election, scheduling).
func run(cmd *cobra.Command, opts *options.Options) error {
	fg := opts.ComponentGlobalsRegistry.FeatureGateFor(basecompatibility.DefaultKubeComponent)
	if err := logsapi.ValidateAndApply(opts.Logs, fg); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	cliflag.PrintFlags(cmd.Flags())
	if opts.InformerName == nil {
		name, err := cache.NewInformerName("kube-scheduler")
		if err != nil {
			return err
		}
		opts.InformerName = name
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-server.SetupSignalHandler()
		cancel()
	}()
	cc, sched, err := Setup(ctx, opts)
	if err != nil {
		return err
	}
	return kubeschedulerapp.Run(ctx, cc, sched)
}
