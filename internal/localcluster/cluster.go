// Package localcluster runs a Kubernetes control plane on loopback, built
// entirely from this module's vendored sources: etcd, kube-apiserver,
// kube-controller-manager, the JobSet controller with its admission
// webhooks, KWOK for simulated accelerator node pools, kube-scheduler (the
// default profile), multislice-scheduler with the shipped configuration,
// its admission webhook (cmd/multislice-webhook), and the fleet page
// (cmd/multislice-fleet) watching it all.
// Each component is a separate process supervised by the caller; `make run`,
// `make demo` and the end-to-end tests all use it.
package localcluster

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/nodepools"
)

var crdResource = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}

// Options configure a cluster.
type Options struct {
	// Dir holds the cluster's state: certificates, etcd data, component
	// configurations and logs (Dir/logs). It is wiped at every start.
	Dir string
	// BinDir holds etcd, kube-apiserver, kube-controller-manager,
	// jobset-controller, kwok, multislice-scheduler, multislice-webhook
	// and multislice-fleet.
	BinDir string
	// RepoDir is the repository root; manifests/ is read from it.
	RepoDir string
	// NodePools is the node pool file.
	NodePools string
	// WatchNodePools re-applies NodePools whenever it changes.
	WatchNodePools bool
	// PodRunTime is how long Job pods run before they succeed; zero keeps
	// them running. RunTimeAnnotation overrides it per pod.
	PodRunTime time.Duration
	// Kubeconfig is where the admin kubeconfig is written; Dir/kubeconfig
	// when empty.
	Kubeconfig string
	// SchedulerReplicas is how many multislice-scheduler processes run
	// (0 means 1). One runs without leader election, as `make run` always
	// has; several run with it, on the lease the configuration names and
	// with short timings (LeaseDuration, RenewDeadline, RetryPeriod), each
	// with its own secure port, as the Deployment's replicas do. A replica
	// that exits on its own (it lost the lease) is started again, as the
	// Deployment's kubelet would.
	SchedulerReplicas int
	// SchedulerConfig is multislice-scheduler's KubeSchedulerConfiguration;
	// manifests/scheduler/config.yaml when empty. Its clientConnection is
	// pointed at the scheduler's kubeconfig, the rest is used as written.
	SchedulerConfig string
	// SchedulerFlags are added to every multislice-scheduler replica's
	// command line (e.g. --v=2 for its scheduling decisions in its log).
	SchedulerFlags []string
	// NoWebhook runs the cluster without the admission webhook
	// (cmd/multislice-webhook, webhook.go), which is on by default: pods
	// of objects naming one of our LocalQueues then keep the scheduler
	// they name, as on a cluster where the chart's webhook is off.
	NoWebhook bool
	// FleetPort is the loopback port the fleet page (multislice-fleet)
	// is served on when it is free; 0, or when it is taken: any free
	// port. FleetURL says which.
	FleetPort int
	// Log receives progress messages; nothing is printed when nil.
	Log io.Writer
}

// Cluster is a running local cluster.
type Cluster struct {
	opts    Options
	ports   ports
	pki     *pki
	spawner *spawner

	// AdminConfig and Client act as cluster-admin.
	AdminConfig *rest.Config
	Client      kubernetes.Interface
	dynamic     dynamic.Interface
	// KubeconfigPath is the admin kubeconfig.
	KubeconfigPath string
	// adminCert is the admin's client certificate, which the schedulers'
	// secure ports accept (see MetricsEndpoints).
	adminCert keyPair
	// StartupTime is how long Start took.
	StartupTime time.Duration

	mu       sync.Mutex
	procs    []*process
	failure  error
	failed   chan struct{}
	failOnce sync.Once
	exits    []ComponentExit
	// restarts are the scheduler processes' back-offs (restartDelay).
	restarts map[string]restartRecord
	stopped  bool
	bg       context.Context
	cancel   context.CancelFunc
	stopOnce sync.Once

	// The simulated queued provisioner, while the node pool file has a
	// queuedProvisioning block (pools.go).
	provMu      sync.Mutex
	provisioner *runningProvisioner
	// The simulated node auto-provisioning for ComputeClasses, while the
	// node pool file has an autoProvisioning block (autoprovisioning.go).
	autoMu           sync.Mutex
	autoProvisioning *runningAutoProvisioning
}

// Start brings the cluster up and returns once every component is ready
// and every node of the pool file is Ready. On error everything started so
// far is stopped again.
func Start(ctx context.Context, opts Options) (c *Cluster, err error) {
	begin := time.Now()
	if opts, err = opts.complete(); err != nil {
		return nil, err
	}
	poolData, err := os.ReadFile(opts.NodePools)
	if err != nil {
		return nil, fmt.Errorf("node pool file: %w", err)
	}
	poolConfig, err := nodepools.ParseConfig(poolData)
	if err != nil {
		return nil, fmt.Errorf("node pool file %s: %w", opts.NodePools, err)
	}
	pools := poolConfig.Pools
	kwokConfig, err := renderKWOKConfig(opts.PodRunTime)
	if err != nil {
		return nil, err
	}
	if err := claimDir(opts.Dir); err != nil {
		return nil, err
	}
	for _, sub := range []string{"pki", "etcd", "logs", "config", "apiserver", "kwok-home"} {
		if err := os.RemoveAll(filepath.Join(opts.Dir, sub)); err != nil {
			releaseDir(opts.Dir)
			return nil, err
		}
	}
	for _, sub := range []string{"logs", "config", "kwok-home"} {
		if err := os.MkdirAll(filepath.Join(opts.Dir, sub), 0o755); err != nil {
			releaseDir(opts.Dir)
			return nil, err
		}
	}

	bg, cancel := context.WithCancel(context.Background())
	cl := &Cluster{opts: opts, spawner: newSpawner(), failed: make(chan struct{}), bg: bg, cancel: cancel, KubeconfigPath: opts.Kubeconfig}
	defer func() {
		if err != nil {
			cl.Stop()
		}
	}()
	c = cl
	if c.ports, err = freePorts(opts.SchedulerReplicas, opts.FleetPort); err != nil {
		return nil, err
	}
	if c.pki, err = newPKI(filepath.Join(opts.Dir, "pki")); err != nil {
		return nil, err
	}
	creds, err := c.issueCredentials()
	if err != nil {
		return nil, err
	}
	if err := c.connect(creds.kubeconfigs["admin"]); err != nil {
		return nil, err
	}
	c.adminCert = creds.admin

	// etcd, then the apiserver.
	if err := c.run("etcd", "etcd", etcdArgs(filepath.Join(opts.Dir, "etcd"), c.ports), nil); err != nil {
		return nil, err
	}
	if err := c.waitHTTP(ctx, "etcd", loopbackURL("http", c.ports.etcdClient)+"/health", 60*time.Second); err != nil {
		return nil, err
	}
	if err := c.run("kube-apiserver", "kube-apiserver", apiserverArgs(c, creds.apiserverServing, creds.serviceAccount), nil); err != nil {
		return nil, err
	}
	if err := c.waitAPIServer(ctx, 120*time.Second); err != nil {
		return nil, err
	}

	// What the controllers need to exist before they start.
	if err := c.installCRDs(ctx); err != nil {
		return nil, err
	}
	if err := c.installSchedulerManifests(ctx); err != nil {
		return nil, err
	}
	if err := c.installFleetViewer(ctx); err != nil {
		return nil, err
	}
	if !opts.NoWebhook {
		if err := c.installWebhookRBAC(ctx); err != nil {
			return nil, err
		}
	}

	// Controllers and schedulers, concurrently.
	cfg := func(name string) string { return filepath.Join(opts.Dir, "config", name) }
	if err := os.WriteFile(cfg("kwok.yaml"), kwokConfig, 0o600); err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg("jobset.yaml"), jobsetConfig(c.ports.jobsetWebhook, c.ports.jobsetHealth, filepath.Join(opts.Dir, "pki", "jobset-webhook")), 0o600); err != nil {
		return nil, err
	}
	if err := renderSchedulerConfig(opts.SchedulerConfig, cfg("multislice-scheduler.yaml"), creds.kubeconfigs["multislice-scheduler"]); err != nil {
		return nil, err
	}
	if err := os.WriteFile(cfg("kube-scheduler.yaml"), kubeSchedulerConfig(creds.kubeconfigs["kube-scheduler"]), 0o600); err != nil {
		return nil, err
	}
	starts := []struct {
		name, bin string
		args, env []string
	}{
		{"kube-controller-manager", "kube-controller-manager", controllerManagerArgs(c, creds.kubeconfigs["kube-controller-manager"], creds.loopbackServing, creds.serviceAccount), nil},
		{"kwok", "kwok", []string{"--kubeconfig=" + creds.kubeconfigs["kwok"], "--config=" + cfg("kwok.yaml")}, []string{"HOME=" + filepath.Join(opts.Dir, "kwok-home")}},
		{"jobset-controller", "jobset-controller", []string{"--config=" + cfg("jobset.yaml")}, []string{"KUBECONFIG=" + creds.kubeconfigs["jobset-controller"]}},
		{"kube-scheduler", "multislice-scheduler", schedulerArgs(cfg("kube-scheduler.yaml"), creds.kubeconfigs["kube-scheduler"], c.pki.CAFile(), c.ports.kubeScheduler, creds.loopbackServing, false), nil},
	}
	replicas := c.SchedulerReplicas()
	for i, name := range replicas {
		starts = append(starts, struct {
			name, bin string
			args, env []string
		}{name, "multislice-scheduler", append(schedulerArgs(cfg("multislice-scheduler.yaml"), creds.kubeconfigs["multislice-scheduler"], c.pki.CAFile(), c.ports.schedulers[i], creds.loopbackServing, len(replicas) > 1), opts.SchedulerFlags...), nil})
	}
	if !opts.NoWebhook {
		scheduler, err := profileSchedulerName(opts.SchedulerConfig)
		if err != nil {
			return nil, err
		}
		certDir, err := c.webhookCertDir(creds.loopbackServing)
		if err != nil {
			return nil, err
		}
		starts = append(starts, struct {
			name, bin string
			args, env []string
		}{WebhookComponent, "multislice-webhook", webhookArgs(creds.kubeconfigs[webhookUser], certDir, scheduler, c.ports.webhook), nil})
	}
	for _, s := range starts {
		if err := c.run(s.name, s.bin, s.args, s.env); err != nil {
			return nil, err
		}
	}
	if err := recordChildren(opts.Dir, c.processes()); err != nil {
		return nil, err
	}

	// Webhooks are registered once the JobSet controller serves them, as
	// a real installation's Deployment becomes ready before use.
	if err := c.waitHTTP(ctx, "jobset-controller", loopbackURL("http", c.ports.jobsetHealth)+"/readyz", 90*time.Second); err != nil {
		return nil, err
	}
	if err := c.registerJobSetWebhooks(ctx); err != nil {
		return nil, err
	}
	// Ours likewise, once its informers have synced.
	if !opts.NoWebhook {
		if err := c.waitHTTP(ctx, WebhookComponent, c.WebhookURL()+"/readyz", 90*time.Second); err != nil {
			return nil, err
		}
		if err := c.registerWebhook(ctx); err != nil {
			return nil, err
		}
	}
	if _, err := c.ApplyNodePools(ctx, pools); err != nil {
		return nil, err
	}
	probes := []struct {
		name string
		port int
	}{{"kube-controller-manager", c.ports.controllerManager}, {"kube-scheduler", c.ports.kubeScheduler}}
	for i, name := range replicas {
		probes = append(probes, struct {
			name string
			port int
		}{name, c.ports.schedulers[i]})
	}
	for _, probe := range probes {
		if err := c.waitHTTP(ctx, probe.name, loopbackURL("https", probe.port)+"/healthz", 90*time.Second); err != nil {
			return nil, err
		}
	}
	if err := c.waitForNodesReady(ctx, pools, 90*time.Second); err != nil {
		return nil, err
	}
	// The fleet page starts on Ready pools: it tells a pool that is
	// not Ready when it first reads it as failed. It is healthy once its
	// informers have synced and it has built its first model.
	if err := c.run(fleetComponent, "multislice-fleet", fleetArgs(creds.kubeconfigs[fleetUser], c.ports.fleet), nil); err != nil {
		return nil, err
	}
	if err := recordChildren(opts.Dir, c.processes()); err != nil {
		return nil, err
	}
	if err := c.waitHTTP(ctx, fleetComponent, c.FleetURL()+"healthz", 60*time.Second); err != nil {
		return nil, err
	}
	// Pods need their namespace's default service account, which the
	// controller manager creates.
	if err := c.waitForServiceAccount(ctx, metav1.NamespaceDefault, 60*time.Second); err != nil {
		return nil, err
	}
	if err := writeKubeconfig(opts.Kubeconfig, c.AdminConfig.Host, c.pki.CABundle(), creds.admin, "admin"); err != nil {
		return nil, err
	}

	if err := c.applyQueuedProvisioning(poolConfig.QueuedProvisioning); err != nil {
		return nil, err
	}
	if err := c.applyAutoProvisioning(poolConfig.AutoProvisioning); err != nil {
		return nil, err
	}
	if opts.WatchNodePools {
		go c.watchNodePools(bg, opts.NodePools, poolData)
	}
	c.StartupTime = time.Since(begin)
	return c, nil
}

func (o Options) complete() (Options, error) {
	if o.Dir == "" || o.BinDir == "" || o.RepoDir == "" || o.NodePools == "" {
		return o, errors.New("localcluster: Dir, BinDir, RepoDir and NodePools are required")
	}
	for _, p := range []*string{&o.Dir, &o.BinDir, &o.RepoDir, &o.NodePools, &o.Kubeconfig, &o.SchedulerConfig} {
		if *p == "" {
			continue
		}
		abs, err := filepath.Abs(*p)
		if err != nil {
			return o, err
		}
		*p = abs
	}
	if o.Kubeconfig == "" {
		o.Kubeconfig = filepath.Join(o.Dir, "kubeconfig")
	}
	if o.SchedulerReplicas < 0 {
		return o, fmt.Errorf("localcluster: SchedulerReplicas must not be negative, got %d", o.SchedulerReplicas)
	}
	if o.SchedulerReplicas == 0 {
		o.SchedulerReplicas = 1
	}
	if o.SchedulerConfig == "" {
		o.SchedulerConfig = filepath.Join(o.RepoDir, "manifests", "scheduler", "config.yaml")
	}
	return o, nil
}

// credentials are the certificates and kubeconfigs of one start.
type credentials struct {
	apiserverServing keyPair
	loopbackServing  keyPair
	serviceAccount   keyPair
	admin            keyPair
	kubeconfigs      map[string]string
}

func (c *Cluster) issueCredentials() (*credentials, error) {
	var cr credentials
	var err error
	if cr.apiserverServing, err = c.pki.serving("kube-apiserver",
		[]string{"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local"}); err != nil {
		return nil, err
	}
	if cr.loopbackServing, err = c.pki.serving("loopback-serving", nil); err != nil {
		return nil, err
	}
	if cr.serviceAccount, err = c.pki.serviceAccountKeys(); err != nil {
		return nil, err
	}
	// controller-runtime reads tls.crt / tls.key from the webhook cert dir.
	webhookDir := filepath.Join(c.pki.dir, "jobset-webhook")
	if err := os.MkdirAll(webhookDir, 0o700); err != nil {
		return nil, err
	}
	for src, dst := range map[string]string{cr.loopbackServing.Cert: "tls.crt", cr.loopbackServing.Key: "tls.key"} {
		data, err := os.ReadFile(src)
		if err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(webhookDir, dst), data, 0o600); err != nil {
			return nil, err
		}
	}
	// Who each client is. The JobSet controller and KWOK, third-party
	// development tools here, run as cluster administrators; the control
	// plane components have their built-in RBAC roles; multislice-scheduler
	// is its service account, bound by manifests/scheduler/rbac.yaml.
	users := []struct {
		name, user string
		groups     []string
	}{
		{"admin", "multislice-local-admin", []string{"system:masters"}},
		{"kube-controller-manager", "system:kube-controller-manager", nil},
		{"kube-scheduler", "system:kube-scheduler", nil},
		{"multislice-scheduler", "system:serviceaccount:multislice-system:multislice-scheduler",
			[]string{"system:serviceaccounts", "system:serviceaccounts:multislice-system"}},
		{"jobset-controller", "jobset-controller", []string{"system:masters"}},
		{"kwok", "kwok-controller", []string{"system:masters"}},
		// The fleet page reads with its own role (fleet.go).
		{fleetUser, fleetUser, nil},
		// So does the admission webhook (webhook.go).
		{webhookUser, webhookUser, nil},
	}
	cr.kubeconfigs = map[string]string{}
	server := loopbackURL("https", c.ports.apiserver)
	for _, u := range users {
		kp, err := c.pki.client(u.name, u.user, u.groups...)
		if err != nil {
			return nil, err
		}
		if u.name == "admin" {
			cr.admin = kp
		}
		path := filepath.Join(c.opts.Dir, "config", u.name+".kubeconfig")
		if err := writeKubeconfig(path, server, c.pki.CABundle(), kp, u.name); err != nil {
			return nil, err
		}
		cr.kubeconfigs[u.name] = path
	}
	return &cr, nil
}

func (c *Cluster) connect(kubeconfig string) error {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return err
	}
	cfg.QPS, cfg.Burst = 200, 400
	cfg.UserAgent = "multislice-localcluster"
	c.AdminConfig = cfg
	if c.Client, err = kubernetes.NewForConfig(cfg); err != nil {
		return err
	}
	c.dynamic, err = dynamic.NewForConfig(cfg)
	return err
}

// run starts a component from BinDir and watches it (supervise.go).
func (c *Cluster) run(name, bin string, args, env []string) error {
	p, err := c.spawner.startProcess(name, filepath.Join(c.opts.BinDir, bin), args, env, filepath.Join(c.opts.Dir, "logs"), false)
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.procs = append(c.procs, p)
	c.mu.Unlock()
	c.logf("started %-24s pid %d, log %s", name, p.pid(), p.logPath)
	go c.watch(p)
	return nil
}

func (c *Cluster) processes() []*process {
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]*process(nil), c.procs...)
}

// componentFailure returns an error if a component has exited.
func (c *Cluster) componentFailure() error {
	for _, p := range c.processes() {
		if done, _ := p.exited(); done {
			if err := p.unexpectedExit(); err != nil {
				return err
			}
		}
	}
	return nil
}

// LogPath is where component name writes its log (every restart of it
// goes on in the same file).
func (c *Cluster) LogPath(name string) string {
	return filepath.Join(c.opts.Dir, "logs", name+".log")
}

// Failed is closed when a component exits on its own; Err then says which.
func (c *Cluster) Failed() <-chan struct{} { return c.failed }

// Err is the unexpected exit that closed Failed.
func (c *Cluster) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.failure
}

// Stop stops every component, the last started first, each with SIGTERM
// and after a grace period SIGKILL, and waits for them to exit.
func (c *Cluster) Stop() {
	c.stopOnce.Do(func() {
		c.cancel()
		c.stopProvisioner()
		c.stopAutoProvisioning()
		c.mu.Lock()
		c.stopped = true
		c.mu.Unlock()
		procs := c.processes()
		for i := len(procs) - 1; i >= 0; i-- {
			procs[i].stop(10 * time.Second)
		}
		c.spawner.close()
		releaseDir(c.opts.Dir)
	})
}

// Memory returns the resident memory of each running component.
func (c *Cluster) Memory() map[string]int64 {
	out := map[string]int64{}
	for _, p := range c.processes() {
		if done, _ := p.exited(); !done {
			out[p.name] = rssBytes(p.pid())
		}
	}
	return out
}

// MemorySummary formats Memory, largest first, with the total.
func (c *Cluster) MemorySummary() string {
	mem := c.Memory()
	names := make([]string, 0, len(mem))
	var total int64
	for n, b := range mem {
		names = append(names, n)
		total += b
	}
	sort.Slice(names, func(i, j int) bool { return mem[names[i]] > mem[names[j]] })
	s := fmt.Sprintf("%d MiB resident in total:", total>>20)
	for _, n := range names {
		s += fmt.Sprintf(" %s %d MiB,", n, mem[n]>>20)
	}
	return s[:len(s)-1]
}

func (c *Cluster) logf(format string, args ...any) {
	if c.opts.Log != nil {
		fmt.Fprintf(c.opts.Log, format+"\n", args...)
	}
}

// waitHTTP polls url until it answers 200, failing early if a component
// exits.
func (c *Cluster) waitHTTP(ctx context.Context, name, url string, timeout time.Duration) error {
	pool := x509.NewCertPool()
	pool.AddCert(c.pki.caCert)
	client := &http.Client{
		Timeout:   2 * time.Second,
		Transport: &http.Transport{TLSClientConfig: &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}},
	}
	defer client.CloseIdleConnections()
	begin := time.Now()
	var last string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		if err := c.componentFailure(); err != nil {
			return false, err
		}
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
		if err != nil {
			return false, err
		}
		resp, err := client.Do(req)
		if err != nil {
			last = err.Error()
			return false, nil
		}
		_ = resp.Body.Close()
		last = resp.Status
		return resp.StatusCode == http.StatusOK, nil
	})
	if err != nil {
		return fmt.Errorf("%s not ready at %s (last: %s): %w", name, url, last, err)
	}
	c.logf("%-32s ready after %s", name, time.Since(begin).Round(100*time.Millisecond))
	return nil
}

func (c *Cluster) waitAPIServer(ctx context.Context, timeout time.Duration) error {
	begin := time.Now()
	var last string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		if err := c.componentFailure(); err != nil {
			return false, err
		}
		body, err := c.Client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
		if err != nil {
			last = err.Error()
			return false, nil
		}
		return string(body) == "ok", nil
	})
	if err != nil {
		return fmt.Errorf("kube-apiserver not ready (last: %s): %w", last, err)
	}
	c.logf("%-32s ready after %s", "kube-apiserver", time.Since(begin).Round(100*time.Millisecond))
	return nil
}

func (c *Cluster) waitForServiceAccount(ctx context.Context, namespace string, timeout time.Duration) error {
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		if err := c.componentFailure(); err != nil {
			return false, err
		}
		_, err := c.Client.CoreV1().ServiceAccounts(namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	if err != nil {
		return fmt.Errorf("service account %s/default not created by kube-controller-manager: %w", namespace, err)
	}
	return nil
}
