package harness

import (
	"bytes"
	"context"
	"crypto/tls"
	"fmt"
	"io"
	"io/fs"
	"log"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// The scheduler's leader-election Lease, as the shipped configuration
// (manifests/scheduler/config.yaml) names it. Replicas are always started
// with these, whatever their configuration file says.
const (
	SchedulerLeaseNamespace = "multislice-system"
	SchedulerLeaseName      = "multislice-scheduler"
)

// replicaBinary is the shipped binary, found on PATH (make test-integration
// builds it into bin/ and puts bin/ first on PATH).
const replicaBinary = "multislice-scheduler"

// ReplicaOptions configures a scheduler replica process.
type ReplicaOptions struct {
	// Config is a KubeSchedulerConfiguration file (SchedulerConfig for
	// the shipped one). It is rendered with RenderSchedulerConfig, so its
	// clientConnection points at the replica's API connection.
	Config string
	// Kubeconfig is the replica's way to the apiserver: cp.KubeconfigPath
	// when empty; a FaultProxy's Kubeconfig puts the replica's requests
	// under that proxy's rules.
	Kubeconfig string
	// LeaseDuration, RenewDeadline and RetryPeriod are the leader-election
	// timings (--leader-elect-lease-duration and so on): 4s, 2s and 500ms
	// when zero, short enough for a failover to fit in a test.
	LeaseDuration, RenewDeadline, RetryPeriod time.Duration
	// ExtraArgs are appended to the command line; a repeated flag
	// overrides the harness's.
	ExtraArgs []string
}

// Replica is one multislice-scheduler process with leader election on, run
// from the shipped binary. Several can run against one control plane at
// once, which StartScheduler (in process, one at a time) cannot do: that is
// what failover tests need. Every request of the replica passes through a
// forwarder of the harness on loopback, which notes the identity the
// replica writes into the Lease (see Identity).
type Replica struct {
	name          string
	logPath       string
	healthURL     string
	leaseDuration time.Duration
	watch         *leaseWatch

	pid  int
	done chan struct{}

	mu    sync.Mutex
	state *os.ProcessState
}

// StartReplica starts a replica named name (used for its log file and in
// messages) and waits until it serves /healthz, so a replica that cannot
// start fails the test here with its log. It creates the Lease's namespace
// if needed. The replica is killed with its process group when the test
// ends; if the test failed, the end of its log is printed.
func StartReplica(t testing.TB, cp *ControlPlane, name string, opts ReplicaOptions) *Replica {
	t.Helper()
	bin, err := exec.LookPath(replicaBinary)
	if err != nil {
		t.Fatalf("%s is not on PATH (%v): build it with `make test-integration`, or `make $PWD/bin/%s` and run the tests with PATH=$PWD/bin:$PATH", replicaBinary, err, replicaBinary)
	}
	warnIfStale(t, bin)
	if opts.Config == "" {
		t.Fatalf("replica %s: ReplicaOptions.Config is required", name)
	}
	if opts.Kubeconfig == "" {
		opts.Kubeconfig = cp.KubeconfigPath
	}
	if opts.LeaseDuration == 0 {
		opts.LeaseDuration = 4 * time.Second
	}
	if opts.RenewDeadline == 0 {
		opts.RenewDeadline = 2 * time.Second
	}
	if opts.RetryPeriod == 0 {
		opts.RetryPeriod = 500 * time.Millisecond
	}
	ensureNamespace(t, cp, SchedulerLeaseNamespace)

	dir := t.TempDir()
	watch, err := startLeaseWatch(opts.Kubeconfig)
	if err != nil {
		t.Fatalf("replica %s: %v", name, err)
	}
	kubeconfig := filepath.Join(dir, name+".kubeconfig")
	if err := watch.writeKubeconfig(kubeconfig); err != nil {
		watch.close()
		t.Fatal(err)
	}
	rendered := RenderSchedulerConfig(t, opts.Config, kubeconfig)
	port := freePort(t)
	args := append([]string{
		"--config=" + rendered,
		"--leader-elect=true",
		"--leader-elect-resource-lock=leases",
		"--leader-elect-resource-namespace=" + SchedulerLeaseNamespace,
		"--leader-elect-resource-name=" + SchedulerLeaseName,
		"--leader-elect-lease-duration=" + opts.LeaseDuration.String(),
		"--leader-elect-renew-deadline=" + opts.RenewDeadline.String(),
		"--leader-elect-retry-period=" + opts.RetryPeriod.String(),
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
	}, opts.ExtraArgs...)

	logPath := filepath.Join(dir, name+".log")
	logFile, err := os.Create(logPath)
	if err != nil {
		watch.close()
		t.Fatal(err)
	}
	r := &Replica{
		name:          name,
		logPath:       logPath,
		healthURL:     fmt.Sprintf("https://127.0.0.1:%d", port),
		leaseDuration: opts.LeaseDuration,
		watch:         watch,
		done:          make(chan struct{}),
	}
	cmd := exec.Command(bin, args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	// Its own process group, so Kill and the cleanup reach everything it
	// started; and killed if the test binary dies without cleaning up.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	started := make(chan error, 1)
	go func() {
		// Pdeathsig fires when the thread that started the child exits,
		// not the process: keep this goroutine on its thread until the
		// child is gone.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		defer close(r.done)
		defer func() { _ = logFile.Close() }()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait()
		r.mu.Lock()
		r.state = cmd.ProcessState
		r.mu.Unlock()
	}()
	if err := <-started; err != nil {
		watch.close()
		t.Fatalf("start replica %s: %v", name, err)
	}
	r.pid = cmd.Process.Pid
	t.Cleanup(func() {
		r.killGroup()
		if t.Failed() {
			t.Logf("replica %s (%s): last lines of %s:\n%s", name, r.describe(), logPath, r.LogTail(200))
		}
		watch.close()
	})
	t.Logf("replica %s: pid %d, %s %s, log %s", name, r.pid, bin, strings.Join(args, " "), logPath)
	r.waitHealthy(t)
	return r
}

// staleOnce checks the binary against the sources once per test binary.
var staleOnce sync.Once

// warnIfStale logs a warning when a Go source of the binary (cmd/, pkg/)
// is newer than the binary: replicas run the binary as it was built, not
// the tree under test. `make test-integration` rebuilds it first.
func warnIfStale(t testing.TB, bin string) {
	t.Helper()
	staleOnce.Do(func() {
		t.Helper()
		built, err := os.Stat(bin)
		if err != nil {
			return
		}
		newest, newestTime := "", built.ModTime()
		for _, dir := range []string{"cmd", "pkg"} {
			_ = filepath.WalkDir(RepoPath(t, dir), func(path string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
					return nil
				}
				if info, err := d.Info(); err == nil && info.ModTime().After(newestTime) {
					newest, newestTime = path, info.ModTime()
				}
				return nil
			})
		}
		if newest != "" {
			t.Logf("warning: %s is older than %s; replicas run the binary as built (`make test-integration` rebuilds it)", bin, newest)
		}
	})
}

// ensureNamespace creates the namespace unless it exists.
func ensureNamespace(t testing.TB, cp *ControlPlane, name string) {
	t.Helper()
	_, err := cp.Client.CoreV1().Namespaces().Create(t.Context(), &corev1.Namespace{
		ObjectMeta: metav1.ObjectMeta{Name: name},
	}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatalf("create namespace %s: %v", name, err)
	}
}

// waitHealthy waits until the replica's /healthz answers 200: it has read
// its configuration, built its leader elector and started serving.
func (r *Replica) waitHealthy(t testing.TB) {
	t.Helper()
	client := &http.Client{Timeout: 2 * time.Second, Transport: &http.Transport{
		TLSClientConfig: &tls.Config{InsecureSkipVerify: true}, // self-signed serving cert on loopback
	}}
	defer client.CloseIdleConnections()
	deadline := time.Now().Add(WaitTimeout)
	for {
		resp, err := client.Get(r.healthURL + "/healthz")
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return
			}
		}
		select {
		case <-r.done:
			t.Fatalf("replica %s exited while starting (%s); last lines of %s:\n%s", r.name, r.describe(), r.logPath, r.LogTail(200))
		case <-time.After(100 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatalf("replica %s: /healthz not ready after %s (last error: %v); last lines of %s:\n%s", r.name, WaitTimeout, err, r.logPath, r.LogTail(200))
		}
	}
}

// Name is the name the replica was started with.
func (r *Replica) Name() string { return r.name }

// HealthURL is the base https URL of the replica's secure port (/healthz,
// /readyz; self-signed).
func (r *Replica) HealthURL() string { return r.healthURL }

// LogPath is the file the replica's standard output and error go to.
func (r *Replica) LogPath() string { return r.logPath }

// LogTail returns the last n lines of the replica's log.
func (r *Replica) LogTail(n int) string {
	data, err := os.ReadFile(r.logPath)
	if err != nil {
		return err.Error()
	}
	lines := strings.Split(strings.TrimRight(string(data), "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

// Identity is the holder identity the replica writes into the Lease, or ""
// while it has never written one (it has not led). kube-scheduler builds
// it as "<hostname>_<random UUID>" and no flag sets it, so the harness
// reads it from the replica's own successful writes of the Lease, which
// pass through the replica's forwarder: a replica writes its own identity
// only, and only when it acquires or renews the lease.
func (r *Replica) Identity() string {
	id, _ := r.watch.holder()
	return id
}

// Running reports whether the process has not exited.
func (r *Replica) Running() bool {
	select {
	case <-r.done:
		return false
	default:
		return true
	}
}

// Exited returns the process's exit code once it has exited (ok), -1 when
// a signal ended it. kube-scheduler exits 0 when it was asked to stop
// (SIGTERM), leader or not, and 1 when it lost its lease.
func (r *Replica) Exited() (code int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.state == nil {
		return 0, false
	}
	return r.state.ExitCode(), true
}

// Kill kills the replica's process group with SIGKILL and waits until the
// process is gone: a crash, which leaves the lease to expire.
func (r *Replica) Kill() {
	r.killGroup()
}

// Stop sends SIGTERM and waits up to 10 seconds for the replica to exit,
// then kills it. A leader that stops this way releases its lease first.
func (r *Replica) Stop() {
	if !r.Running() {
		return
	}
	_ = syscall.Kill(-r.pid, syscall.SIGTERM)
	select {
	case <-r.done:
	case <-time.After(10 * time.Second):
	}
	r.killGroup()
}

// killGroup SIGKILLs the process group until its leader has been reaped,
// and whatever else is left in the group after.
func (r *Replica) killGroup() {
	if r.Running() {
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
		<-r.done
	}
	// The replica starts no processes of its own; were one left in its
	// group, it goes too.
	if err := syscall.Kill(-r.pid, 0); err == nil {
		_ = syscall.Kill(-r.pid, syscall.SIGKILL)
	}
}

func (r *Replica) describe() string {
	code, ok := r.Exited()
	if !ok {
		return fmt.Sprintf("running, identity %q", r.Identity())
	}
	return fmt.Sprintf("exited with %d, identity %q", code, r.Identity())
}

// LeaseHolder reads the scheduler's Lease: its holder identity and when the
// holder acquired and last renewed it (the holder's own clock, which is
// this machine's). A Lease that does not exist yet gives "".
func LeaseHolder(t testing.TB, cp *ControlPlane) (identity string, acquired, renewed time.Time) {
	t.Helper()
	lease, err := getSchedulerLease(t.Context(), cp)
	if apierrors.IsNotFound(err) {
		return "", time.Time{}, time.Time{}
	}
	if err != nil {
		t.Fatalf("get lease %s/%s: %v", SchedulerLeaseNamespace, SchedulerLeaseName, err)
	}
	return leaseTimes(lease)
}

func getSchedulerLease(ctx context.Context, cp *ControlPlane) (*coordinationv1.Lease, error) {
	return cp.Client.CoordinationV1().Leases(SchedulerLeaseNamespace).Get(ctx, SchedulerLeaseName, metav1.GetOptions{})
}

func leaseTimes(lease *coordinationv1.Lease) (identity string, acquired, renewed time.Time) {
	if lease.Spec.HolderIdentity != nil {
		identity = *lease.Spec.HolderIdentity
	}
	if lease.Spec.AcquireTime != nil {
		acquired = lease.Spec.AcquireTime.Time
	}
	if lease.Spec.RenewTime != nil {
		renewed = lease.Spec.RenewTime.Time
	}
	return identity, acquired, renewed
}

// WaitForLeader waits until one of the replicas leads: it is running, the
// Lease names it and was renewed within its lease duration. It returns that
// replica and when it took the lease, as seen on its own connection: the
// moment the apiserver answered its first successful write of the Lease.
// Each process leads at most once (kube-scheduler exits when it loses the
// lease), so that time is its takeover.
func WaitForLeader(t testing.TB, cp *ControlPlane, replicas ...*Replica) (*Replica, time.Time) {
	t.Helper()
	deadline := time.Now().Add(WaitTimeout)
	holder := ""
	var renewed time.Time
	for {
		lease, err := getSchedulerLease(t.Context(), cp)
		if err == nil {
			holder, _, renewed = leaseTimes(lease)
			for _, r := range replicas {
				id, since := r.watch.holder()
				if holder != "" && id == holder && r.Running() && time.Since(renewed) < r.leaseDuration {
					return r, since
				}
			}
		}
		if time.Now().After(deadline) {
			var states []string
			for _, r := range replicas {
				states = append(states, r.name+": "+r.describe())
			}
			t.Fatalf("no leader among the replicas after %s: lease holder %q renewed %s; %s", WaitTimeout, holder, renewed.Format(time.RFC3339Nano), strings.Join(states, "; "))
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// leaseWatch is a replica's way to the apiserver: a plain-HTTP forwarder on
// loopback to the server of the replica's kubeconfig (with that
// kubeconfig's credentials), which notes the holder identity of every
// successful write of the scheduler's Lease. Watches stream through it, and
// a broken upstream stream breaks the replica's, as it would directly.
type leaseWatch struct {
	server   *http.Server
	listener net.Listener
	next     http.RoundTripper
	infos    *request.RequestInfoFactory

	mu       sync.Mutex
	identity string
	since    time.Time
}

func startLeaseWatch(kubeconfig string) (*leaseWatch, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, fmt.Errorf("kubeconfig %s: %w", kubeconfig, err)
	}
	upstream, err := url.Parse(cfg.Host)
	if err != nil {
		return nil, err
	}
	next, err := rest.TransportFor(cfg)
	if err != nil {
		return nil, err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	lw := &leaseWatch{
		listener: l,
		next:     next,
		infos: &request.RequestInfoFactory{
			APIPrefixes:          sets.NewString("api", "apis"),
			GrouplessAPIPrefixes: sets.NewString("api"),
		},
	}
	lw.server = &http.Server{
		Handler:  newReverseProxy(upstream, lw),
		ErrorLog: log.New(io.Discard, "", 0),
	}
	go func() { _ = lw.server.Serve(l) }()
	return lw, nil
}

// writeKubeconfig writes a kubeconfig for the forwarder, without
// credentials: the forwarder adds the original kubeconfig's.
func (lw *leaseWatch) writeKubeconfig(path string) error {
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["replica"] = &clientcmdapi.Cluster{Server: "http://" + lw.listener.Addr().String()}
	cfg.AuthInfos["replica"] = &clientcmdapi.AuthInfo{}
	cfg.Contexts["replica"] = &clientcmdapi.Context{Cluster: "replica", AuthInfo: "replica"}
	cfg.CurrentContext = "replica"
	return clientcmd.WriteToFile(*cfg, path)
}

// holder returns the identity the replica wrote into the Lease and when
// its first such write succeeded.
func (lw *leaseWatch) holder() (string, time.Time) {
	lw.mu.Lock()
	defer lw.mu.Unlock()
	return lw.identity, lw.since
}

// RoundTrip forwards a request, reading the Lease out of the scheduler's
// Lease creates and updates (JSON or protobuf).
func (lw *leaseWatch) RoundTrip(req *http.Request) (*http.Response, error) {
	info, err := lw.infos.NewRequestInfo(req)
	if err != nil || !isSchedulerLeaseWrite(info) || req.Body == nil {
		return lw.next.RoundTrip(req)
	}
	body, err := io.ReadAll(req.Body)
	_ = req.Body.Close()
	if err != nil {
		return nil, err
	}
	out := req.Clone(req.Context())
	out.Body = io.NopCloser(bytes.NewReader(body))
	out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
	resp, err := lw.next.RoundTrip(out)
	if err == nil && resp.StatusCode >= 200 && resp.StatusCode < 300 {
		lw.observe(body)
	}
	return resp, err
}

func isSchedulerLeaseWrite(info *request.RequestInfo) bool {
	if !info.IsResourceRequest || info.APIGroup != coordinationv1.GroupName || info.Resource != "leases" ||
		info.Subresource != "" || info.Namespace != SchedulerLeaseNamespace {
		return false
	}
	return info.Verb == "create" || (info.Verb == "update" && info.Name == SchedulerLeaseName)
}

func (lw *leaseWatch) observe(body []byte) {
	obj, _, err := scheme.Codecs.UniversalDeserializer().Decode(body, nil, nil)
	if err != nil {
		return
	}
	lease, ok := obj.(*coordinationv1.Lease)
	if !ok || lease.Name != SchedulerLeaseName || lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
		return // a leader releasing the lease writes an empty holder
	}
	lw.mu.Lock()
	defer lw.mu.Unlock()
	if lw.identity == "" {
		lw.identity, lw.since = *lease.Spec.HolderIdentity, time.Now()
	}
}

// close stops the forwarder and closes every connection through it.
func (lw *leaseWatch) close() { _ = lw.server.Close() }

// Metric sums, on the replica's /metrics endpoint, the samples of a
// metric family whose labels include want (the sample count for a
// histogram); 0 when the family has none. The replica must allow /metrics
// without authorization (--authorization-always-allow-paths).
func (r *Replica) Metric(t testing.TB, name string, want map[string]string) float64 {
	t.Helper()
	client := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{TLSClientConfig: &tls.Config{InsecureSkipVerify: true}}} //nolint:gosec // a test's own loopback server
	resp, err := client.Get(r.healthURL + "/metrics")
	if err != nil {
		t.Fatalf("replica %s: /metrics: %v", r.name, err)
	}
	defer func() { _ = resp.Body.Close() }()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("replica %s: /metrics: %s", r.name, resp.Status)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatalf("replica %s: /metrics: %v", r.name, err)
	}
	f := families[name]
	if f == nil {
		return 0
	}
	return sumSamples(f, want)
}
