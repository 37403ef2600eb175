package main

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
)

// options are the flags every command shares.
type options struct {
	streams genericiooptions.IOStreams
	config  *genericclioptions.ConfigFlags
	// clients builds the API clients (tests give fakes).
	clients func() (*gather.Clients, error)
	now     func() time.Time

	output        string
	allNamespaces bool
	clusterQueue  string
}

// namespace is the namespace -n names, else the kubeconfig context's.
func (o *options) namespace() (string, error) {
	ns, _, err := o.config.ToRawKubeConfigLoader().Namespace()
	return ns, err
}

// NewCommand is `kubectl multislice`. clients nil: clients of the
// kubeconfig the flags name.
func NewCommand(streams genericiooptions.IOStreams, clients func() (*gather.Clients, error)) *cobra.Command {
	o := &options{streams: streams, config: genericclioptions.NewConfigFlags(true), clients: clients, now: time.Now}
	if o.clients == nil {
		o.clients = func() (*gather.Clients, error) {
			cfg, err := o.config.ToRESTConfig()
			if err != nil {
				return nil, err
			}
			return gather.NewClients(cfg)
		}
	}
	root := &cobra.Command{
		Use:   "kubectl-multislice",
		Short: "What multislice-scheduler's fleet, queues and workloads look like, from the API",
		Long: `kubectl multislice reads the API (nodes, pods, events, JobSets, Jobs, PodGroups and the
multislice.dev queue objects) and says which node pools are held by which workload, how
the queues' quota is used, what waits in which order, and why one workload waits. It
only reads; it says what any replica of the scheduler would, since the scheduler
writes its reasons to the API.`,
		Example: `  kubectl multislice pools
  kubectl multislice queues -o wide
  kubectl multislice pending -A
  kubectl multislice why jobset/train -n team-a`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetOut(streams.Out)
	root.SetErr(streams.ErrOut)
	flags := root.PersistentFlags()
	o.config.AddFlags(flags)
	flags.StringVarP(&o.output, "output", "o", "", "Output format: wide, json or yaml (json and yaml print what the table shows, as structured data)")
	root.AddCommand(newPoolsCommand(o), newQueuesCommand(o), newPendingCommand(o), newWhyCommand(o))
	return root
}

// load checks -o, builds the clients and lists what n says.
func (o *options) load(ctx context.Context, n gather.Need) (*cli.Cluster, error) {
	if err := cli.ValidOutput(o.output); err != nil {
		return nil, err
	}
	c, err := o.clients()
	if err != nil {
		return nil, err
	}
	return gather.List(ctx, c, n, o.now(), o.streams.ErrOut)
}

// structured prints v as -o json or yaml; it reports false for tables.
func (o *options) structured(v any) (bool, error) {
	if o.output != cli.OutputJSON && o.output != cli.OutputYAML {
		return false, nil
	}
	return true, cli.PrintStructured(o.streams.Out, o.output, v)
}

func newPoolsCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "pools",
		Short: "Node pools: accelerator, topology, zone, health, and the workload holding each",
		Long: `Lists every node pool (nodes labelled cloud.google.com/gke-nodepool) with its accelerator,
TPU topology, zone and node count, its health, and the workload whose pods are on it
(JobSet, Job, PodGroup or pod, with its priority and since when), or "free".

Health is the worst of its nodes': failed (a node is not Ready), recycling (a flex-start
node is past its recycling start, by its ComputeClass when that API is served), cordoned
(a node is unschedulable), else ok.`,
		Example: `  kubectl multislice pools
  kubectl multislice pools -o wide   # accelerator use, pods, every holder, what is wrong
  kubectl multislice pools -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := o.load(cmd.Context(), gather.Need{Nodes: true, Pods: true, Groups: true, Classes: true, Topologies: true})
			if err != nil {
				return err
			}
			pools := cli.Pools(c)
			if done, err := o.structured(cli.PoolsOutput{Pools: pools}); done {
				return err
			}
			if len(pools) == 0 {
				fmt.Fprintln(o.streams.ErrOut, "No node pools found (no node is labelled cloud.google.com/gke-nodepool).")
				return nil
			}
			return cli.PrintPools(o.streams.Out, pools, c.Now, o.output == cli.OutputWide)
		},
	}
}

func newQueuesCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "queues",
		Short: "ClusterQueues: quota, borrowing and usage per flavor, pending and admitted workloads",
		Long: `Lists a row per ClusterQueue, flavor and resource: nominal quota, borrowed and in use
(from the ClusterQueue's status, as the scheduler writes it), and the queue's pending and
admitted workload counts. -o wide adds reserving workloads, the workloads holding quota
of each flavor, borrowing and lending limits, cohort, strategy, whether the queue is
active and its LocalQueues.`,
		Example: `  kubectl multislice queues
  kubectl multislice queues -o wide`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := o.load(cmd.Context(), gather.Need{Queues: true})
			if err != nil {
				return err
			}
			queues := cli.Queues(c)
			if done, err := o.structured(cli.QueuesOutput{ClusterQueues: queues}); done {
				return err
			}
			if len(queues) == 0 {
				fmt.Fprintln(o.streams.ErrOut, "No ClusterQueues found.")
				return nil
			}
			return cli.PrintQueues(o.streams.Out, queues, o.output == cli.OutputWide)
		},
	}
}

func newPendingCommand(o *options) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "pending [-n NAMESPACE | -A | --cluster-queue NAME]",
		Short: "Waiting workloads in the order the scheduler tries them, with their position and reason",
		Long: `Lists the workloads that wait, queue by queue, in the order the scheduler tries them:
higher priority first, then earlier creation, then kind, namespace and name (the order of
each ClusterQueue's pending list). Position counts every pending workload of the
ClusterQueue, whatever namespace is listed.

The reason is the Workload object's QuotaReserved=False condition for queued workloads,
and, for workloads of no queue, what their pods' PodScheduled=False condition says (the
scheduler writes one on every pod it holds back).`,
		Example: `  kubectl multislice pending                 # the current namespace
  kubectl multislice pending -A
  kubectl multislice pending --cluster-queue cluster-queue
  kubectl multislice pending -o wide         # full messages, LocalQueue, Workload object`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			filter := cli.PendingFilter{ClusterQueue: o.clusterQueue}
			if !o.allNamespaces && (o.clusterQueue == "" || cmd.Flags().Changed("namespace")) {
				ns, err := o.namespace()
				if err != nil {
					return err
				}
				filter.Namespace = ns
			}
			c, err := o.load(cmd.Context(), gather.Need{Pods: true, Owners: true, Queues: true})
			if err != nil {
				return err
			}
			list := cli.Pending(c, filter)
			if done, err := o.structured(list); done {
				return err
			}
			if len(list.Workloads) == 0 {
				where := "in namespace " + filter.Namespace
				switch {
				case filter.ClusterQueue != "":
					where = "in ClusterQueue " + filter.ClusterQueue
					if filter.Namespace != "" {
						where += " from namespace " + filter.Namespace
					}
				case filter.Namespace == "":
					where = "in any namespace"
				}
				fmt.Fprintf(o.streams.ErrOut, "No pending workloads %s.\n", where)
				return nil
			}
			return cli.PrintPending(o.streams.Out, list, c.Now, o.output == cli.OutputWide)
		},
	}
	cmd.Flags().BoolVarP(&o.allNamespaces, "all-namespaces", "A", false, "List the pending workloads of every namespace")
	cmd.Flags().StringVar(&o.clusterQueue, "cluster-queue", "", "List only this ClusterQueue's pending workloads (of every namespace, unless -n is given)")
	return cmd
}

func newWhyCommand(o *options) *cobra.Command {
	return &cobra.Command{
		Use:   "why (jobset|job|podgroup|pod|workload)/NAME | NAME",
		Short: "Everything the API says about why one workload runs where it does, or waits",
		Long: `Explains one workload: where it stands and why (its Workload object's conditions, or
its pods'), its quota (its request against its ClusterQueue's nominal quota, borrowing
limit, usage and what is available), its slices and the domains (node pools) that match
their selectors (how many, which are free, held by whom, unhealthy), its pod sets that ask
for a topology (Kueue's podset-*-topology annotations: the levels of the Topology they
are placed by and where their pods are, or, while they wait, how many domains of their
level there are, how many of their pods the largest free one takes and how many take
them all, as the scheduler's placement counts them), its admission checks
and ProvisioningRequest, the preemption the scheduler considered for it or that evicted
it (from its events), what its pods say, and its latest events.

A pod, a Job of a JobSet or a Workload object leads to the workload it is part of. A bare
NAME is looked up as a JobSet, then a Job, a PodGroup, a pod and a Workload object.
The exit code is 1 when nothing of that name exists.`,
		Example: `  kubectl multislice why jobset/train
  kubectl multislice why pod/train-slice-0-0-x7k2p -n team-a
  kubectl multislice why workload/jobset-train -o yaml
  kubectl multislice why train`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			kind, name, err := cli.ParseTarget(args[0])
			if err != nil {
				return err
			}
			ns, err := o.namespace()
			if err != nil {
				return err
			}
			c, err := o.load(cmd.Context(), gather.Need{Namespace: ns, Nodes: true, Pods: true, Events: true, Owners: true, Queues: true, Checks: true, Classes: true})
			if err != nil {
				return err
			}
			ref, note, err := cli.Resolve(c, ns, kind, name)
			if err != nil {
				return err
			}
			e := cli.Why(c, ref)
			e.Note = note
			if done, err := o.structured(e); done {
				return err
			}
			return cli.PrintWhy(o.streams.Out, e, c.Now, o.output == cli.OutputWide)
		},
	}
}
