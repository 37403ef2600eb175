// Package chaos soaks the scheduler: on a fresh local cluster with two
// scheduler replicas, it keeps a random mix of workloads in flight while it
// fails node pools and kills the leading replica, and checks continuously,
// from the API alone, that the scheduler keeps its promises: exclusive
// domains, no partial gangs, usage within quota, and a reason for every
// wait. Every violation is recorded; the summary says what was done and
// what broke.
package chaos

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	jobsetclient "sigs.k8s.io/jobset/client-go/clientset/versioned"
	schedclient "sigs.k8s.io/scheduler-plugins/pkg/generated/clientset/versioned"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
	multisliceclient "github.com/multislice-scheduler/multislice-scheduler/pkg/generated/clientset/versioned"
)

// Namespace holds the soak's workloads.
const Namespace = "chaos"

// The soak's timing. PermitTimeout is written into the scheduler's
// configuration (permit and follower timeouts): a gang may be partial for
// that long, plus partialGrace for the API to show its last binds.
const (
	PermitTimeout = 60 * time.Second
	partialGrace  = 15 * time.Second
	pendingGrace  = 60 * time.Second
	minInFlight   = 6
	maxInFlight   = 10
)

// Options configure a soak.
type Options struct {
	// Cluster is the local cluster to start; Dir also receives the soak's
	// log (chaos.log: operations, faults, violations with their evidence),
	// what the checker saw (api.log), its scheduler configuration and
	// summary.md.
	// SchedulerReplicas 0 means 2; SchedulerConfig is set by Run.
	Cluster localcluster.Options
	// Duration is how long workloads and faults are injected.
	Duration time.Duration
	// Seed seeds every random choice of the generator and the injector.
	Seed int64
	// Out receives progress and violations as they happen.
	Out io.Writer
}

// Run starts the cluster, soaks it for opts.Duration and returns the
// summary, also written to Dir/summary.md. An error means the soak itself
// could not run (the summary then covers what ran); violations are in the
// summary.
func Run(ctx context.Context, opts Options) (*Summary, error) {
	dir, err := filepath.Abs(opts.Cluster.Dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	logFile, err := os.Create(filepath.Join(dir, "chaos.log"))
	if err != nil {
		return nil, err
	}
	defer func() { _ = logFile.Close() }()
	// The cluster's own messages (components started, killed, restarted)
	// go to the log file only.
	logW := &lockedWriter{w: logFile}
	out := &lockedWriter{w: io.MultiWriter(orDiscard(opts.Out), logW)}
	logf := func(format string, args ...any) {
		fmt.Fprintf(out, "%s %s\n", time.Now().Format("15:04:05.000"), fmt.Sprintf(format, args...))
	}

	copts := opts.Cluster
	copts.Dir = dir
	if copts.SchedulerReplicas == 0 {
		copts.SchedulerReplicas = 2
	}
	copts.SchedulerConfig = filepath.Join(dir, "scheduler-config.yaml")
	if err := WriteSchedulerConfig(filepath.Join(copts.RepoDir, "manifests", "scheduler", "config.yaml"), copts.SchedulerConfig, PermitTimeout); err != nil {
		return nil, err
	}
	copts.Log = logW
	// The scheduler's decisions (binds, failed attempts) in its logs.
	copts.SchedulerFlags = append(copts.SchedulerFlags, "--v=2")
	logf("starting a fresh local cluster in %s with %d scheduler replicas (seed %d)", dir, copts.SchedulerReplicas, opts.Seed)
	c, err := localcluster.Start(ctx, copts)
	if err != nil {
		return nil, err
	}
	defer c.Stop()
	logf("cluster up in %s; %s", c.StartupTime.Round(100*time.Millisecond), c.MemorySummary())
	if err := setUp(ctx, c, copts.RepoDir); err != nil {
		return nil, err
	}
	leader, err := waitForLeader(ctx, c)
	if err != nil {
		return nil, err
	}
	logf("queues installed in namespace %s; %s leads", Namespace, leader)

	traceFile, err := os.Create(filepath.Join(dir, "api.log"))
	if err != nil {
		return nil, err
	}
	defer func() { _ = traceFile.Close() }()
	monCtx, stopMonitor := context.WithCancel(ctx)
	defer stopMonitor()
	mon, err := StartMonitor(monCtx, c.AdminConfig, Namespace, localcluster.SchedulerName,
		Config{PartialGangAfter: PermitTimeout + partialGrace, PendingAfter: pendingGrace, ReservedFor: PermitTimeout}, out, traceFile)
	if err != nil {
		return nil, err
	}

	stats := NewStats()
	gen, err := newGenerator(c.AdminConfig, opts.Seed, stats, logf)
	if err != nil {
		return nil, err
	}
	inj := &injector{
		cluster: c, pools: &faults.Injector{Client: c.Client}, stats: stats, logf: logf, down: map[string]time.Time{},
		rng: rand.New(rand.NewPCG(uint64(opts.Seed), 2)),
	}
	soakCtx, stopSoak := context.WithTimeout(ctx, opts.Duration)
	defer stopSoak()
	begin := time.Now()
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); gen.run(soakCtx) }()
	go func() { defer wg.Done(); inj.run(soakCtx) }()
	var runErr error
	select {
	case <-soakCtx.Done():
	case <-c.Failed():
		runErr = c.Err()
	}
	stopSoak()
	wg.Wait()
	elapsed := time.Since(begin)
	cleanup, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	inj.recoverAll(cleanup)
	logf("soak over after %s", elapsed.Round(time.Second))

	records, whole, checks := mon.Finish()
	stopMonitor()
	s := &Summary{Seed: opts.Seed, Duration: elapsed, Violations: records, Checks: checks}
	s.Operations, s.Outcomes = stats.Rows()
	exits := 0
	for _, e := range c.Exits() {
		if e.Restarted {
			exits++
		}
	}
	s.Outcomes = append(s.Outcomes,
		Count{"workloads that ran whole (every pod of an attempt bound at once)", whole},
		Count{"leader changes (lease transitions)", leaseTransitions(cleanup, c)},
		Count{"replicas that exited on their own (lost the lease) and were started again", exits},
	)
	if err := os.WriteFile(filepath.Join(dir, "summary.md"), []byte(s.Markdown()), 0o644); err != nil && runErr == nil {
		runErr = err
	}
	return s, runErr
}

// setUp installs the priority classes of the examples, the soak's
// namespace and its queue objects.
func setUp(ctx context.Context, c *localcluster.Cluster, repoDir string) error {
	data, err := os.ReadFile(filepath.Join(repoDir, "manifests", "examples", "priorityclasses.yaml"))
	if err != nil {
		return err
	}
	objs, err := localcluster.DecodeYAML(data)
	if err != nil {
		return err
	}
	if err := c.Apply(ctx, objs, ""); err != nil {
		return err
	}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: Namespace}}
	if _, err := c.Client.CoreV1().Namespaces().Create(ctx, ns, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return err
	}
	queues, err := multisliceclient.NewForConfig(jsonConfig(c.AdminConfig))
	if err != nil {
		return err
	}
	api := queues.MultisliceV1alpha1()
	if _, err := api.Topologies().Create(ctx, GPUTopologyObject(), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("Topology %s: %w", GPUTopology, err)
	}
	flavors, cqs, lqs := QueueObjects(Namespace)
	for _, f := range flavors {
		if _, err := api.ResourceFlavors().Create(ctx, f, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("ResourceFlavor %s: %w", f.Name, err)
		}
	}
	for _, cq := range cqs {
		if _, err := api.ClusterQueues().Create(ctx, cq, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("ClusterQueue %s: %w", cq.Name, err)
		}
	}
	for _, lq := range lqs {
		if _, err := api.LocalQueues(lq.Namespace).Create(ctx, lq, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("LocalQueue %s: %w", lq.Name, err)
		}
	}
	// Pods need the namespace's default service account.
	return wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := c.Client.CoreV1().ServiceAccounts(Namespace).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
}

// waitForLeader waits until a scheduler replica holds the lease.
func waitForLeader(ctx context.Context, c *localcluster.Cluster) (string, error) {
	var leader string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		var ok bool
		leader, ok = c.SchedulerLeader()
		return ok, nil
	})
	if err != nil {
		return "", fmt.Errorf("no scheduler replica took the lease: %w", err)
	}
	return leader, nil
}

// leaseTransitions is how often the scheduler's lease changed holders.
func leaseTransitions(ctx context.Context, c *localcluster.Cluster) int {
	lease, err := c.Client.CoordinationV1().Leases("multislice-system").Get(ctx, "multislice-scheduler", metav1.GetOptions{})
	if err != nil || lease.Spec.LeaseTransitions == nil {
		return 0
	}
	return int(*lease.Spec.LeaseTransitions)
}

func newGenerator(cfg *rest.Config, seed int64, stats *Stats, logf func(string, ...any)) (*generator, error) {
	g := &generator{
		namespace: Namespace, scheduler: localcluster.SchedulerName, stats: stats, logf: logf,
		rng: rand.New(rand.NewPCG(uint64(seed), 1)), minLive: minInFlight, maxLive: maxInFlight,
		groupEnds: map[string]time.Time{},
	}
	var err error
	if g.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if g.jobsets, err = jobsetclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if g.groups, err = schedclient.NewForConfig(jsonConfig(cfg)); err != nil {
		return nil, err
	}
	return g, nil
}

// jsonConfig is cfg for custom resources, which speak JSON only.
func jsonConfig(cfg *rest.Config) *rest.Config {
	out := rest.CopyConfig(cfg)
	out.ContentType = runtime.ContentTypeJSON
	out.AcceptContentTypes = runtime.ContentTypeJSON
	return out
}

// lockedWriter serializes writes of the soak's goroutines.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func orDiscard(w io.Writer) io.Writer {
	if w == nil {
		return io.Discard
	}
	return w
}

func kubernetesClient(cfg *rest.Config) (kubernetes.Interface, error) {
	return kubernetes.NewForConfig(cfg)
}
