// Command localcluster runs the local development cluster behind `make run`
// and `make demo`, and injects faults into it.
//
//	localcluster up                      start the cluster, stop it on Ctrl-C
//	localcluster pools                   list the simulated node pools and their health
//	localcluster fail-pool POOL          make a whole node pool fail
//	localcluster recover-pool POOL       bring it back
//	localcluster demo --scenario DIR     run a scenario end to end, printing a timeline
//	localcluster chaos --duration 10m    soak the scheduler with random load and faults, checking its invariants
package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/chaos"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/demo"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/timeline"
)

func main() {
	if err := newRootCommand().Execute(); err != nil {
		fmt.Fprintln(os.Stderr, "error:", err)
		os.Exit(1)
	}
}

type clusterFlags struct {
	dir, binDir, repoDir, nodePools, kubeconfig string
	podRunTime                                  time.Duration
	schedulerReplicas                           int
	fleetPort                                   int
	webhook                                     bool
}

func (f *clusterFlags) register(cmd *cobra.Command, defaultDir, defaultKubeconfig string) {
	f.registerWithReplicas(cmd, defaultDir, defaultKubeconfig, 1)
}

// registerWithReplicas registers the cluster flags with a command's own
// default number of multislice-scheduler replicas.
func (f *clusterFlags) registerWithReplicas(cmd *cobra.Command, defaultDir, defaultKubeconfig string, replicas int) {
	cmd.Flags().StringVar(&f.dir, "dir", defaultDir, "state directory (certificates, etcd data, logs); wiped at start")
	cmd.Flags().StringVar(&f.binDir, "bin-dir", "bin", "directory holding the component binaries (make cluster-binaries)")
	cmd.Flags().StringVar(&f.repoDir, "repo", ".", "repository root (manifests/ is read from it)")
	cmd.Flags().StringVar(&f.nodePools, "nodepools", "manifests/examples/nodepools.yaml", "node pool file")
	cmd.Flags().StringVar(&f.kubeconfig, "kubeconfig", defaultKubeconfig, "where to write the admin kubeconfig")
	cmd.Flags().DurationVar(&f.podRunTime, "pod-run-time", 0, "how long Job pods run before they succeed (0: until deleted; the pod annotation "+localcluster.RunTimeAnnotation+" overrides it)")
	cmd.Flags().IntVar(&f.fleetPort, "fleet-port", 8090, "loopback port of the fleet page, if free (else any free port; 0: any)")
	cmd.Flags().BoolVar(&f.webhook, "webhook", true, "run multislice-webhook, which gives multislice-scheduler to the pods of objects naming one of its LocalQueues (docs/tasks/webhook.md)")
	cmd.Flags().IntVar(&f.schedulerReplicas, "scheduler-replicas", replicas, "multislice-scheduler processes; more than 1 run with leader election on the configuration's lease (lease "+
		localcluster.LeaseDuration.String()+", renew "+localcluster.RenewDeadline.String()+", retry "+localcluster.RetryPeriod.String()+")")
}

func (f *clusterFlags) options() localcluster.Options {
	return localcluster.Options{
		Dir: f.dir, BinDir: f.binDir, RepoDir: f.repoDir, NodePools: f.nodePools,
		Kubeconfig: f.kubeconfig, PodRunTime: f.podRunTime, SchedulerReplicas: f.schedulerReplicas, FleetPort: f.fleetPort, NoWebhook: !f.webhook, Log: os.Stdout,
	}
}

func newRootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:           "localcluster",
		Short:         "A local control plane with simulated accelerator node pools",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.AddCommand(newUpCommand(), newPoolsCommand(), newFaultCommand("fail-pool"), newFaultCommand("recover-pool"), newDemoCommand(), newChaosCommand())
	return root
}

// signalContext is cancelled by the first SIGINT or SIGTERM; a second one
// exits at once.
func signalContext() (context.Context, context.CancelFunc) {
	ctx, cancel := context.WithCancel(context.Background())
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, syscall.SIGINT, syscall.SIGTERM)
	go func() {
		<-ch
		cancel()
		<-ch
		fmt.Fprintln(os.Stderr, "second signal: exiting without waiting for the components")
		os.Exit(130)
	}()
	return ctx, cancel
}

func newUpCommand() *cobra.Command {
	var f clusterFlags
	var watch bool
	cmd := &cobra.Command{
		Use:   "up",
		Short: "Start the cluster and keep it running until Ctrl-C",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext()
			defer cancel()
			opts := f.options()
			opts.WatchNodePools = watch
			fmt.Printf("starting the local cluster in %s\n", opts.Dir)
			c, err := localcluster.Start(ctx, opts)
			if err != nil {
				return err
			}
			defer func() {
				fmt.Println("stopping the local cluster")
				c.Stop()
				fmt.Println("stopped")
			}()
			printUsage(c, opts)
			select {
			case <-ctx.Done():
				return nil
			case <-c.Failed():
				return c.Err()
			}
		},
	}
	f.register(cmd, "_output/localcluster", "_output/kubeconfig")
	cmd.Flags().BoolVar(&watch, "watch-nodepools", true, "apply changes to the node pool file while running")
	return cmd
}

// webhookLine says what the admission webhook does for the user, or that
// it is off.
func webhookLine(c *localcluster.Cluster) string {
	if c.WebhookURL() == "" {
		return "The admission webhook is off (--webhook=false): pods keep the scheduler they name."
	}
	return "Kueue manifests apply as written: the admission webhook gives multislice-scheduler to the pods of objects\n" +
		"naming one of its LocalQueues or consuming a ProvisioningRequest (docs/tasks/webhook.md)."
}

func printUsage(c *localcluster.Cluster, opts localcluster.Options) {
	kubeconfig, _ := filepath.Rel(mustGetwd(), c.KubeconfigPath)
	if kubeconfig == "" || kubeconfig[0] == '.' {
		kubeconfig = c.KubeconfigPath
	}
	kubectl := kubectlCommand(opts.BinDir)
	runTime := "until deleted"
	if opts.PodRunTime > 0 {
		runTime = opts.PodRunTime.String()
	}
	fmt.Printf(`
The local cluster is up (%s). %s.

The fleet page (live: pools, queues, pending workloads, timeline): %s

  export KUBECONFIG=%s
  %s get nodes -L cloud.google.com/gke-nodepool,cloud.google.com/gke-tpu-topology
  %s apply %s

Pods of Jobs run %s (annotation %s sets it per pod).
%s
Node pools follow %s while it runs.
Scheduler metrics (its secure port authenticates through the apiserver, as in production):
%s
Fault injection (in another terminal):
  bin/localcluster pools --kubeconfig %s
  bin/localcluster fail-pool tpu-v5e-2x4-0 --kubeconfig %s
  bin/localcluster recover-pool tpu-v5e-2x4-0 --kubeconfig %s
`, c.StartupTime.Round(100*time.Millisecond), c.MemorySummary(), c.FleetURL(), kubeconfig, kubectl, kubectl, applyArgs(bannerExamples), runTime,
		localcluster.RunTimeAnnotation, webhookLine(c), opts.NodePools, metricsLines(c.MetricsEndpoints()), kubeconfig, kubeconfig, kubeconfig)
	if qp := c.QueuedProvisioning(); qp != nil {
		fmt.Printf(`Queued provisioning (queued-provisioning.gke.io): %s.
  %s get provisioningrequests -A
`, localcluster.DescribeQueuedProvisioning(qp), kubectl)
	}
	if ap := c.AutoProvisioning(); ap != nil {
		fmt.Printf(`Node auto-provisioning for ComputeClasses (nodeSelector cloud.google.com/compute-class): %s.
  %s get computeclasses
  %s get nodes -L cloud.google.com/gke-nodepool,cloud.google.com/compute-class,cloud.google.com/gke-spot,cloud.google.com/gke-flex-start
`, localcluster.DescribeAutoProvisioning(ap), kubectl, kubectl)
	}
	if replicas := c.SchedulerReplicas(); len(replicas) > 1 {
		leader, _ := c.SchedulerLeader()
		fmt.Printf("multislice-scheduler runs as %d replicas (%s) with leader election on its lease (%s, renew %s, retry %s); leading now: %s.\n",
			len(replicas), strings.Join(replicas, ", "), localcluster.LeaseDuration, localcluster.RenewDeadline, localcluster.RetryPeriod, orNone(leader))
	}
	fmt.Printf("Component logs: %s\nPress Ctrl-C to stop.\n", filepath.Join(opts.Dir, "logs"))
}

func orNone(s string) string {
	if s == "" {
		return "none yet"
	}
	return s
}

// kubectlCommand is how to call kubectl: from PATH, or the one `make run`
// built into bin/ when PATH has none.
func kubectlCommand(binDir string) string {
	if _, err := os.Stat(filepath.Join(binDir, "kubectl")); err == nil {
		return filepath.Join(binDir, "kubectl")
	}
	return "kubectl"
}

func mustGetwd() string {
	wd, err := os.Getwd()
	if err != nil {
		return "/"
	}
	return wd
}

func clientFor(kubeconfig string) (kubernetes.Interface, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w (is `make run` running?)", kubeconfig, err)
	}
	return kubernetes.NewForConfig(cfg)
}

func newPoolsCommand() *cobra.Command {
	var kubeconfig string
	cmd := &cobra.Command{
		Use:   "pools",
		Short: "List the simulated node pools and their health",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			client, err := clientFor(kubeconfig)
			if err != nil {
				return err
			}
			pools, err := (&faults.Injector{Client: client}).Pools(cmd.Context())
			if err != nil {
				return err
			}
			w := tabwriter.NewWriter(os.Stdout, 0, 4, 2, ' ', 0)
			fmt.Fprintln(w, "POOL\tNODES\tHEALTH")
			for _, p := range pools {
				fmt.Fprintf(w, "%s\t%d\t%s\n", p.Name, p.Nodes, p.Health)
			}
			return w.Flush()
		},
	}
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "_output/kubeconfig", "kubeconfig of the local cluster")
	return cmd
}

func newFaultCommand(name string) *cobra.Command {
	var kubeconfig string
	var wait time.Duration
	fail := name == "fail-pool"
	short := "Bring a failed node pool back"
	if fail {
		short = "Make a whole node pool fail: NotReady, NoExecute-tainted, its pods evicted"
	}
	cmd := &cobra.Command{
		Use:   name + " POOL",
		Short: short,
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			client, err := clientFor(kubeconfig)
			if err != nil {
				return err
			}
			in := &faults.Injector{Client: client}
			pool := args[0]
			want := faults.Healthy
			if fail {
				want = faults.Failed
				err = in.FailPool(cmd.Context(), pool)
			} else {
				err = in.RecoverPool(cmd.Context(), pool)
			}
			if err != nil {
				return err
			}
			if wait > 0 {
				if err := in.WaitForHealth(cmd.Context(), pool, want, wait); err != nil {
					return err
				}
			}
			fmt.Printf("pool %s: %s\n", pool, want)
			return nil
		},
	}
	cmd.Flags().StringVar(&kubeconfig, "kubeconfig", "_output/kubeconfig", "kubeconfig of the local cluster")
	cmd.Flags().DurationVar(&wait, "wait", 60*time.Second, "wait this long for the pool to reach the state (0: do not wait)")
	return cmd
}

func newDemoCommand() *cobra.Command {
	var f clusterFlags
	var scenarioPath string
	cmd := &cobra.Command{
		Use:   "demo",
		Short: "Start a fresh cluster, run a scenario from manifests/examples and print its timeline",
		Args:  cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			scenario, err := demo.Load(scenarioPath)
			if err != nil {
				return err
			}
			ctx, cancel := signalContext()
			defer cancel()
			opts := f.options()
			opts.Log = nil
			fmt.Printf("starting a fresh local cluster in %s ...\n", opts.Dir)
			c, err := localcluster.Start(ctx, opts)
			if err != nil {
				return err
			}
			defer c.Stop()
			fmt.Printf("cluster up in %s; %s\nfollow it on the fleet page: %s\n\n", c.StartupTime.Round(100*time.Millisecond), c.MemorySummary(), c.FleetURL())
			if scenario.Description != "" {
				fmt.Println(scenario.Description)
			}
			tl, err := timeline.Watch(ctx, c.AdminConfig, scenario.Namespace, os.Stdout)
			if err != nil {
				return err
			}
			begin := time.Now()
			if err := demo.Run(ctx, c, scenario, tl); err != nil {
				return err
			}
			// Let the last transitions reach the timeline.
			time.Sleep(time.Second)
			fmt.Printf("\nscenario finished in %s; stopping the cluster\n", time.Since(begin).Round(time.Second))
			return nil
		},
	}
	f.register(cmd, "_output/demo", "_output/demo/kubeconfig")
	cmd.Flags().StringVar(&scenarioPath, "scenario", "manifests/examples/multislice-v5e/demo.yaml", "scenario file")
	return cmd
}

func newChaosCommand() *cobra.Command {
	var f clusterFlags
	var duration time.Duration
	var seed int64
	cmd := &cobra.Command{
		Use:   "chaos",
		Short: "Soak the scheduler on a fresh cluster: random workloads, pool failures and leader kills, with its invariants checked throughout",
		Long: `Starts a fresh local cluster with two scheduler replicas under leader election,
installs queues, then for --duration keeps random JobSets, PodGroups and Jobs in
flight, fails and recovers node pools and kills the leading replica, while
checking from the API that no pool is shared by confined workloads, no gang
stays partial, no ClusterQueue exceeds its quota and every wait has a reason.
Prints a summary table (also written to <dir>/summary.md); exits non-zero if
any invariant was violated. Component logs are in <dir>/logs, the soak's own
log in <dir>/chaos.log.`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			ctx, cancel := signalContext()
			defer cancel()
			if seed == 0 {
				seed = time.Now().UnixNano() % 1_000_000
			}
			opts := f.options()
			opts.Log = nil
			summary, err := chaos.Run(ctx, chaos.Options{Cluster: opts, Duration: duration, Seed: seed, Out: os.Stdout})
			if summary != nil {
				fmt.Printf("\n%s\nSummary written to %s; rerun with --seed %d (make chaos SEED=%d).\n", summary.Markdown(), filepath.Join(opts.Dir, "summary.md"), seed, seed)
			}
			if err != nil {
				return err
			}
			if n := len(summary.Violations); n > 0 {
				return fmt.Errorf("%d violation(s) of the scheduler's invariants", n)
			}
			return nil
		},
	}
	f.registerWithReplicas(cmd, "_output/chaos", "_output/chaos/kubeconfig", 2)
	cmd.Flags().DurationVar(&duration, "duration", 10*time.Minute, "how long to inject workloads and faults")
	cmd.Flags().Int64Var(&seed, "seed", 0, "seed of the random workloads and faults (0: one from the clock, printed)")
	return cmd
}

// bannerExamples are the manifests the startup banner tells a newcomer to
// apply: Kubernetes objects only (a directory would take in the local
// cluster's scenario files too, which kubectl cannot apply).
var bannerExamples = []string{
	"manifests/examples/priorityclasses.yaml",
	"manifests/examples/multislice-v5e/multislice-2slice.yaml",
}

func applyArgs(files []string) string {
	var b strings.Builder
	for i, f := range files {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString("-f " + f)
	}
	return b.String()
}

// metricsLines are the banner's commands reading each replica's metrics.
func metricsLines(eps []localcluster.MetricsEndpoint) string {
	lines := make([]string, 0, len(eps))
	for _, ep := range eps {
		line := "  " + ep.Command() + " | grep ^multislice_"
		if len(eps) > 1 {
			line += "   # " + ep.Replica
		}
		lines = append(lines, line)
	}
	return strings.Join(lines, "\n")
}
