// Command multislice-webhook is multislice-scheduler's optional mutating
// admission webhook: it gives this scheduler's name to the pods of new
// Jobs, JobSets, LeaderWorkerSets, PodGroups and plain pods that name one
// of its LocalQueues, consume a ProvisioningRequest or are created in a
// namespace that opted in, so that manifests written for Kueue apply as
// written (pkg/webhook, docs/tasks/webhook.md). It is stateless — informers of
// LocalQueue and namespace metadata, and reads of PodGroups — so that
// admission never depends on which scheduler replica leads, and it
// serves over TLS: /mutate, /healthz, /readyz.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"syscall"
	"time"

	"k8s.io/client-go/metadata"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/version"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/webhook"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr))
}

// options are the command's flags.
type options struct {
	kubeconfig string
	address    string
	certDir    string
	scheduler  string
	qps        float64
	burst      int
	version    bool
}

func parse(args []string, stderr io.Writer) (*options, *flag.FlagSet, error) {
	o := &options{}
	fs := flag.NewFlagSet("multislice-webhook", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&o.kubeconfig, "kubeconfig", "", "kubeconfig to reach the apiserver with (empty: the pod's service account)")
	fs.StringVar(&o.address, "address", ":9443", "host:port to serve the webhook on, over TLS")
	fs.StringVar(&o.certDir, "cert-dir", "/tmp/k8s-webhook-server/serving-certs", "directory of the serving certificate "+webhook.CertFile+" and its key "+webhook.KeyFile+" (read again when they change)")
	fs.StringVar(&o.scheduler, "scheduler-name", wellknown.SchedulerName, "the schedulerName given to the pods (a profile of multislice-scheduler)")
	fs.Float64Var(&o.qps, "kube-api-qps", 50, "queries per second to the apiserver")
	fs.IntVar(&o.burst, "kube-api-burst", 100, "burst of queries to the apiserver")
	fs.BoolVar(&o.version, "version", false, "print the version and exit")
	klog.InitFlags(fs)
	if err := fs.Parse(args); err != nil {
		return nil, fs, err
	}
	if fs.NArg() > 0 {
		return nil, fs, fmt.Errorf("unexpected arguments %v", fs.Args())
	}
	if o.scheduler == "" {
		return nil, fs, fmt.Errorf("--scheduler-name must not be empty")
	}
	return o, fs, nil
}

// run runs the webhook until ctx ends and returns the exit code.
func run(ctx context.Context, args []string, stderr io.Writer) int {
	o, _, err := parse(args, stderr)
	if err != nil {
		if err == flag.ErrHelp {
			return 0
		}
		fmt.Fprintln(stderr, "error:", err)
		return 2
	}
	if o.version {
		fmt.Fprintln(stderr, version.Get().String())
		return 0
	}
	if err := serve(ctx, o); err != nil {
		klog.ErrorS(err, "multislice-webhook stopped")
		return 1
	}
	return 0
}

func serve(ctx context.Context, o *options) error {
	cfg, err := restConfig(o.kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = float32(o.qps), o.burst
	cfg.UserAgent = "multislice-webhook/" + version.Get().GitVersion
	client, err := metadata.NewForConfig(cfg)
	if err != nil {
		return err
	}
	lookup := webhook.NewAPILookup(client, 10*time.Minute)
	lookup.Start(ctx)
	ln, err := net.Listen("tcp", o.address)
	if err != nil {
		return err
	}
	klog.InfoS("Serving the admission webhook", "address", ln.Addr().String(), "schedulerName", o.scheduler, "version", version.Get().GitVersion)
	srv := &webhook.Server{
		Handler: &webhook.Handler{Decider: &webhook.Decider{Scheduler: o.scheduler, Lookup: lookup}},
		Ready:   lookup.Synced,
		CertDir: o.certDir,
	}
	return srv.Serve(klog.NewContext(ctx, klog.Background()), ln)
}

func restConfig(kubeconfig string) (*rest.Config, error) {
	if kubeconfig == "" {
		return rest.InClusterConfig()
	}
	return clientcmd.BuildConfigFromFlags("", kubeconfig)
}
