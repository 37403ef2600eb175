package harness

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"

	"github.com/spf13/pflag"
	"k8s.io/component-base/configz"
	kubeschedulerapp "k8s.io/kubernetes/cmd/kube-scheduler/app"
	schedulerserverconfig "k8s.io/kubernetes/cmd/kube-scheduler/app/config"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"
	"k8s.io/kubernetes/pkg/scheduler"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
)

// runMu serialises schedulers in one process: the upstream command keeps
// process-global state (configz, metrics) that allows one at a time.
var runMu sync.Mutex

// Scheduler is a running multislice-scheduler.
type Scheduler struct {
	// HealthURL is the base https URL of the secure serving port.
	HealthURL string

	cancel   context.CancelFunc
	done     chan struct{}
	stopOnce sync.Once
}

// SetupScheduler parses args exactly as the binary does and builds the
// scheduler without running it. Startup errors (bad flags, bad config) are
// returned, not fatal, so tests can assert on them.
func SetupScheduler(ctx context.Context, args []string) (*schedulerserverconfig.CompletedConfig, *scheduler.Scheduler, error) {
	opts := options.NewOptions()
	fs := pflag.NewFlagSet(app.Name, pflag.ContinueOnError)
	for _, f := range opts.Flags.FlagSets {
		fs.AddFlagSet(f)
	}
	if err := fs.Parse(args); err != nil {
		return nil, nil, err
	}
	if err := app.SetFeatureGates(opts); err != nil {
		return nil, nil, err
	}
	return app.Setup(ctx, opts)
}

// StartScheduler runs our scheduler against the control plane with the given
// KubeSchedulerConfiguration file (its clientConnection is pointed at the
// control plane) and extra flags. Leader election is off: with it on, the
// upstream command exits the process when it stops leading.
func StartScheduler(t testing.TB, cp *ControlPlane, configPath string, extraArgs ...string) *Scheduler {
	t.Helper()
	return StartSchedulerWithKubeconfig(t, cp.KubeconfigPath, configPath, extraArgs...)
}

// StartSchedulerWithKubeconfig is StartScheduler with a chosen identity.
func StartSchedulerWithKubeconfig(t testing.TB, kubeconfig, configPath string, extraArgs ...string) *Scheduler {
	t.Helper()
	runMu.Lock()
	rendered := RenderSchedulerConfig(t, configPath, kubeconfig)
	port := freePort(t)
	args := append([]string{
		"--config=" + rendered,
		"--leader-elect=false",
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
	}, extraArgs...)

	ctx, cancel := context.WithCancel(context.Background())
	cc, sched, err := SetupScheduler(ctx, args)
	if err != nil {
		cancel()
		runMu.Unlock()
		t.Fatalf("scheduler setup: %v", err)
	}
	s := &Scheduler{
		HealthURL: fmt.Sprintf("https://127.0.0.1:%d", port),
		cancel:    cancel,
		done:      make(chan struct{}),
	}
	go func() {
		defer close(s.done)
		defer runMu.Unlock()
		defer configz.Delete("componentconfig")
		err := kubeschedulerapp.Run(ctx, cc, sched)
		if err != nil && ctx.Err() == nil {
			t.Errorf("scheduler stopped unexpectedly: %v", err)
		}
	}()
	t.Cleanup(s.Stop)
	return s
}

// Stop stops the scheduler and waits for it to exit.
func (s *Scheduler) Stop() {
	s.stopOnce.Do(func() {
		s.cancel()
		<-s.done
	})
}

// RenderSchedulerConfig copies a KubeSchedulerConfiguration file, pointing
// clientConnection.kubeconfig at kubeconfig. Every other field is kept as
// written, so tests exercise the shipped file.
func RenderSchedulerConfig(t testing.TB, configPath, kubeconfig string) string {
	t.Helper()
	data, err := os.ReadFile(configPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", configPath, err)
	}
	conn, _ := doc["clientConnection"].(map[string]any)
	if conn == nil {
		conn = map[string]any{}
	}
	conn["kubeconfig"] = kubeconfig
	doc["clientConnection"] = conn
	out, err := yaml.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), filepath.Base(configPath))
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}
