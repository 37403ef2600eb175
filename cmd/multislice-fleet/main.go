// Command multislice-fleet serves the fleet page: the node pools as tiles
// coloured by the workload holding each, with their health; the queues'
// usage against their quota; the pending workloads in queue order with
// their reasons; and a timeline of admissions, preemptions, pool failures
// and recoveries. It watches the API with informers and pushes each new
// model to the browser with Server-Sent Events; it only reads. The model
// is pkg/fleet's, built with pkg/cli as `kubectl multislice` prints it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli/gather"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/fleet"
)

// DefaultAddress is where the page is served unless --address says
// otherwise: loopback only, as the page shows the whole fleet to whoever
// reaches it.
const DefaultAddress = "127.0.0.1:8090"

// What the page reads: all of it, in every namespace, but the admission
// checks' objects.
var need = gather.Need{Nodes: true, Pods: true, Events: true, Owners: true, Queues: true, Classes: true, Topologies: true}

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr, nil))
}

// run runs the command until ctx ends and returns its exit code. clients
// nil: clients of the kubeconfig the flags name.
func run(ctx context.Context, args []string, stdout, stderr io.Writer, clients func() (*gather.Clients, error)) int {
	cmd := newCommand(stdout, stderr, clients)
	cmd.SetArgs(args)
	if err := cmd.ExecuteContext(ctx); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return 1
	}
	return 0
}

func newCommand(stdout, stderr io.Writer, clients func() (*gather.Clients, error)) *cobra.Command {
	config := genericclioptions.NewConfigFlags(true)
	if clients == nil {
		clients = func() (*gather.Clients, error) {
			cfg, err := config.ToRESTConfig()
			if err != nil {
				return nil, err
			}
			return gather.NewClients(cfg)
		}
	}
	var address string
	var settle time.Duration
	cmd := &cobra.Command{
		Use:   "multislice-fleet",
		Short: "Serve a live, read-only web page of multislice-scheduler's fleet",
		Long: `multislice-fleet watches the API (nodes, pods, events, JobSets, Jobs, PodGroups,
ComputeClasses and the multislice.dev queue objects) and serves a page that shows the
node pools as tiles coloured by the workload holding each, with priority and health;
each ClusterQueue's usage against its nominal quota, per flavor; the pending workloads
in the order the scheduler tries them, with their reasons; and a timeline of
admissions, preemptions, pool failures and recoveries. The page updates itself as the
cluster changes; it loads nothing from elsewhere and changes nothing.

  GET /             the page
  GET /api/fleet    what it shows, as JSON
  GET /api/events   the same as Server-Sent Events, a "fleet" event per change`,
		Example: `  multislice-fleet                          # http://127.0.0.1:8090/
  multislice-fleet --address 127.0.0.1:9000 --kubeconfig ~/.kube/config --context prod`,
		Args:          cobra.NoArgs,
		SilenceUsage:  true,
		SilenceErrors: true,
		RunE: func(cmd *cobra.Command, _ []string) error {
			c, err := clients()
			if err != nil {
				return err
			}
			return serve(cmd.Context(), c, address, settle, stdout, stderr)
		},
	}
	cmd.SetOut(stdout)
	cmd.SetErr(stderr)
	flags := cmd.Flags()
	config.AddFlags(flags)
	flags.StringVar(&address, "address", DefaultAddress, "host:port to serve the page on (port 0: any free port)")
	flags.DurationVar(&settle, "settle", 200*time.Millisecond, "how long a change waits for those that come with it before the page is updated")
	return cmd
}

// serve serves the page on address until ctx ends.
func serve(ctx context.Context, c *gather.Clients, address string, settle time.Duration, stdout, stderr io.Writer) error {
	ln, err := net.Listen("tcp", address)
	if err != nil {
		return err
	}
	hub := fleet.NewHub()
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	srv := &http.Server{
		Handler:           &fleet.Handler{Hub: hub, Heartbeat: 15 * time.Second},
		ReadHeaderTimeout: 10 * time.Second,
		// Event streams end with ctx: a shutdown does not wait for them.
		BaseContext: func(net.Listener) context.Context { return ctx },
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	fmt.Fprintf(stdout, "The fleet page: http://%s/\n", ln.Addr())

	changes := fleet.NewChanges()
	w, err := gather.Watch(ctx, c, need, stderr, changes.Notify)
	if err != nil {
		return errors.Join(err, shutdown(srv))
	}
	fmt.Fprintf(stdout, "Watching %d kinds of objects; the page is up to date.\n", len(w.Watching()))
	go fleet.Live(ctx, w.Snapshot, changes, fleet.NewBuilder(200), hub, fleet.LiveOptions{
		Settle: settle, Refresh: 30 * time.Second,
		Report: func(err error) { fmt.Fprintf(stderr, "error: building the page: %v\n", err) },
	})
	select {
	case <-ctx.Done():
		return shutdown(srv)
	case err := <-served:
		return err
	}
}

func shutdown(srv *http.Server) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(ctx); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
