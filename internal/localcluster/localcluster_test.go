package localcluster

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster/faults"
)

func TestRenderKWOKConfig(t *testing.T) {
	tests := []struct {
		name    string
		runTime time.Duration
		want    []string
		notWant []string
		wantErr bool
	}{
		{
			name:    "pods run until deleted unless annotated",
			want:    []string{`operator: Exists`, RunTimeAnnotation, faults.PoolFailureTaint, "manageNodesWithAnnotationSelector: kwok.x-k8s.io/node=fake"},
			notWant: []string{"durationMilliseconds: 0"},
		},
		{
			name:    "default run time",
			runTime: 90 * time.Second,
			want:    []string{"durationMilliseconds: 90000", RunTimeAnnotation},
		},
		{name: "negative", runTime: -time.Second, wantErr: true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, err := renderKWOKConfig(tc.runTime)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v", err)
			}
			if tc.wantErr {
				return
			}
			objs, err := DecodeYAML(out)
			if err != nil {
				t.Fatalf("rendered config is not YAML: %v\n%s", err, out)
			}
			kinds := map[string]int{}
			for _, o := range objs {
				kinds[o.GetKind()]++
			}
			if kinds["KwokConfiguration"] != 1 || kinds["Stage"] != 8 {
				t.Errorf("kinds = %v", kinds)
			}
			for _, w := range tc.want {
				if !strings.Contains(string(out), w) {
					t.Errorf("config lacks %q", w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(string(out), w) {
					t.Errorf("config has %q", w)
				}
			}
		})
	}
}

func TestPKI(t *testing.T) {
	p, err := newPKI(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	serving, err := p.serving("srv", []string{"kubernetes"})
	if err != nil {
		t.Fatal(err)
	}
	client, err := p.client("c", "system:kube-scheduler", "g1", "g2")
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AppendCertsFromPEM(p.CABundle())
	for _, tc := range []struct {
		kp    keyPair
		usage x509.ExtKeyUsage
		check func(*x509.Certificate) error
	}{
		{serving, x509.ExtKeyUsageServerAuth, func(c *x509.Certificate) error { return c.VerifyHostname("127.0.0.1") }},
		{serving, x509.ExtKeyUsageServerAuth, func(c *x509.Certificate) error { return c.VerifyHostname("kubernetes") }},
		{client, x509.ExtKeyUsageClientAuth, func(c *x509.Certificate) error {
			if c.Subject.CommonName != "system:kube-scheduler" || strings.Join(c.Subject.Organization, ",") != "g1,g2" {
				t.Errorf("subject = %v", c.Subject)
			}
			return nil
		}},
	} {
		data, err := os.ReadFile(tc.kp.Cert)
		if err != nil {
			t.Fatal(err)
		}
		block, _ := pem.Decode(data)
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{tc.usage}}); err != nil {
			t.Errorf("%s: %v", tc.kp.Cert, err)
		}
		if err := tc.check(cert); err != nil {
			t.Errorf("%s: %v", tc.kp.Cert, err)
		}
		if cert.VerifyHostname("10.0.0.1") == nil {
			t.Errorf("%s valid for a non-loopback address", tc.kp.Cert)
		}
		if _, err := os.Stat(tc.kp.Key); err != nil {
			t.Error(err)
		}
	}
}

// startSleep runs a long sleep in its own process group, as components run.
func startSleep(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	path, err := exec.LookPath("sleep")
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(path, "300")
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	exe, err := filepath.EvalSymlinks(path)
	if err != nil {
		t.Fatal(err)
	}
	return cmd, exe
}

func TestClaimDir(t *testing.T) {
	t.Run("fresh directory", func(t *testing.T) {
		dir := filepath.Join(t.TempDir(), "state")
		if err := claimDir(dir); err != nil {
			t.Fatal(err)
		}
		entries, err := readState(dir)
		if err != nil || len(entries) != 1 || entries[0].name != "supervisor" || entries[0].pid != os.Getpid() {
			t.Fatalf("state = %+v, %v", entries, err)
		}
		releaseDir(dir)
		if _, err := os.Stat(filepath.Join(dir, stateFile)); !os.IsNotExist(err) {
			t.Errorf("state file left behind: %v", err)
		}
	})
	t.Run("a live supervisor owns it", func(t *testing.T) {
		dir := t.TempDir()
		owner, exe := startSleep(t)
		if err := writeState(dir, []stateEntry{{"supervisor", owner.Process.Pid, exe}}); err != nil {
			t.Fatal(err)
		}
		err := claimDir(dir)
		if err == nil || !strings.Contains(err.Error(), "already running") {
			t.Fatalf("claimDir = %v, want already running", err)
		}
	})
	t.Run("leftovers of a dead supervisor are killed", func(t *testing.T) {
		dir := t.TempDir()
		child, exe := startSleep(t)
		// A dead supervisor (pid 0 is never alive) and its surviving child.
		if err := writeState(dir, []stateEntry{{"supervisor", 0, "/nonexistent"}, {"etcd", child.Process.Pid, exe}}); err != nil {
			t.Fatal(err)
		}
		if err := claimDir(dir); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- child.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("leftover process still running")
		}
	})
	t.Run("a recycled pid running something else is left alone", func(t *testing.T) {
		dir := t.TempDir()
		other, _ := startSleep(t)
		if err := writeState(dir, []stateEntry{{"etcd", other.Process.Pid, "/work/bin/etcd"}}); err != nil {
			t.Fatal(err)
		}
		if err := claimDir(dir); err != nil {
			t.Fatal(err)
		}
		if err := other.Process.Signal(syscall.Signal(0)); err != nil {
			t.Errorf("unrelated process was killed: %v", err)
		}
	})
}

func TestSchedulerArgs(t *testing.T) {
	tests := []struct {
		name        string
		leaderElect bool
		want        []string
		notWant     []string
	}{
		{
			name:    "one replica runs without leader election",
			want:    []string{"--leader-elect=false", "--secure-port=1234"},
			notWant: []string{"--leader-elect=true", "--leader-elect-lease-duration"},
		},
		{
			name:        "replicas elect a leader with short timings",
			leaderElect: true,
			want: []string{"--leader-elect=true", "--leader-elect-lease-duration=4s",
				"--leader-elect-renew-deadline=2s", "--leader-elect-retry-period=500ms", "--secure-port=1234"},
			notWant: []string{"--leader-elect=false", "--leader-elect-resource-name"},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			args := strings.Join(schedulerArgs("/cfg.yaml", "/kubeconfig", "/ca.crt", 1234, keyPair{Cert: "c", Key: "k"}, tc.leaderElect), " ")
			for _, w := range []string{"--authentication-kubeconfig=/kubeconfig", "--authorization-kubeconfig=/kubeconfig", "--client-ca-file=/ca.crt"} {
				if !strings.Contains(args, w) {
					t.Errorf("args %q lack %q: /metrics would answer no one", args, w)
				}
			}
			for _, w := range tc.want {
				if !strings.Contains(args, w) {
					t.Errorf("args %q lack %q", args, w)
				}
			}
			for _, w := range tc.notWant {
				if strings.Contains(args, w) {
					t.Errorf("args %q have %q", args, w)
				}
			}
		})
	}
}

func TestSchedulerReplicaNames(t *testing.T) {
	tests := []struct {
		replicas int
		want     string
	}{
		{0, "multislice-scheduler"},
		{1, "multislice-scheduler"},
		{2, "multislice-scheduler-0 multislice-scheduler-1"},
	}
	for _, tc := range tests {
		c := &Cluster{opts: Options{SchedulerReplicas: tc.replicas}}
		if got := strings.Join(c.SchedulerReplicas(), " "); got != tc.want {
			t.Errorf("%d replicas: %q, want %q", tc.replicas, got, tc.want)
		}
	}
}

// supervised is a Cluster that supervises shell commands as components,
// without any control plane.
func supervised(t *testing.T, replicas int) *Cluster {
	t.Helper()
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "logs"), 0o755); err != nil {
		t.Fatal(err)
	}
	bg, cancel := context.WithCancel(context.Background())
	c := &Cluster{
		opts:    Options{Dir: dir, BinDir: filepath.Dir(sh), SchedulerReplicas: replicas},
		spawner: newSpawner(), failed: make(chan struct{}), bg: bg, cancel: cancel,
	}
	t.Cleanup(c.Stop)
	return c
}

func TestKillAndRestart(t *testing.T) {
	c := supervised(t, 2)
	script := `echo "I0101 leaderelection.go:272] \"Successfully acquired lease\" lock=\"multislice-system/multislice-scheduler\""; exec sleep 300`
	if err := c.run("multislice-scheduler-0", "sh", []string{"-c", script}, nil); err != nil {
		t.Fatal(err)
	}
	if err := c.run("multislice-scheduler-1", "sh", []string{"-c", "exec sleep 300"}, nil); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "a leader", func() bool { name, ok := c.SchedulerLeader(); return ok && name == "multislice-scheduler-0" })

	first, _ := c.process("multislice-scheduler-0")
	if err := c.Kill("multislice-scheduler-0"); err != nil {
		t.Fatal(err)
	}
	if done, _ := first.exited(); !done {
		t.Fatal("killed component still runs")
	}
	if name, ok := c.SchedulerLeader(); ok {
		t.Errorf("leader %s after the leader was killed", name)
	}
	if err := c.Restart("multislice-scheduler-0"); err != nil {
		t.Fatal(err)
	}
	second, _ := c.process("multislice-scheduler-0")
	if second == first || second.pid() == first.pid() {
		t.Fatal("not started again")
	}
	if strings.Join(second.args, " ") != strings.Join(first.args, " ") {
		t.Errorf("restarted with %q, want %q", second.args, first.args)
	}
	waitFor(t, "the restarted replica to lead", func() bool { _, ok := c.SchedulerLeader(); return ok })
	log, err := os.ReadFile(second.logPath)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(log), leaseAcquiredLine); n != 2 {
		t.Errorf("log has %d lease lines, want both runs' (appended):\n%s", n, log)
	}
	select {
	case <-c.Failed():
		t.Fatalf("a killed component failed the cluster: %v", c.Err())
	default:
	}
	if err := c.Kill("nope"); err == nil {
		t.Error("killing an unknown component succeeded")
	}
}

func TestExitOnItsOwn(t *testing.T) {
	for name, tc := range map[string]struct {
		replicas  int
		component string
	}{
		"a scheduler replica is started again":   {replicas: 2, component: "multislice-scheduler-1"},
		"the lone scheduler is started again":    {replicas: 1, component: "multislice-scheduler"},
		"the default scheduler is started again": {replicas: 1, component: "kube-scheduler"},
		"the admission webhook is started again": {replicas: 1, component: WebhookComponent},
	} {
		t.Run(name, func(t *testing.T) {
			c := supervised(t, tc.replicas)
			// Exits at once the first time, then runs.
			marker := filepath.Join(c.opts.Dir, "ran")
			script := `if [ -e ` + marker + ` ]; then exec sleep 300; fi; touch ` + marker + `; echo "leaderelection lost"; exit 1`
			if err := c.run(tc.component, "sh", []string{"-c", script}, nil); err != nil {
				t.Fatal(err)
			}
			waitFor(t, "the scheduler to run again", func() bool {
				exits := c.Exits()
				p, _ := c.process(tc.component)
				done, _ := p.exited()
				return len(exits) == 1 && exits[0].Restarted && !done
			})
			select {
			case <-c.Failed():
				t.Fatalf("the scheduler's exit failed the cluster: %v", c.Err())
			default:
			}
		})
	}
	t.Run("any other component fails the cluster", func(t *testing.T) {
		c := supervised(t, 2)
		if err := c.run("etcd", "sh", []string{"-c", "exit 3"}, nil); err != nil {
			t.Fatal(err)
		}
		select {
		case <-c.Failed():
		case <-time.After(10 * time.Second):
			t.Fatal("the cluster did not fail")
		}
		if err := c.Err(); err == nil || !strings.Contains(err.Error(), "etcd stopped unexpectedly") {
			t.Errorf("Err = %v", err)
		}
	})
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A scheduler that keeps exiting waits longer each time, as kubelet's
// crash-loop back-off does; one that ran a while starts over.
func TestRestartDelay(t *testing.T) {
	c := &Cluster{}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	steps := []struct {
		after time.Duration // since the previous exit
		want  time.Duration
	}{
		{0, time.Second},
		{2 * time.Second, 2 * time.Second},
		{3 * time.Second, 4 * time.Second},
		{5 * time.Second, 8 * time.Second},
		{9 * time.Second, 16 * time.Second},
		{17 * time.Second, 30 * time.Second},
		{31 * time.Second, 30 * time.Second},
		// Ran a minute after its last start: the back-off starts over.
		{30*time.Second + time.Minute, time.Second},
	}
	for i, s := range steps {
		at = at.Add(s.after)
		if got := c.restartDelay("multislice-scheduler", at); got != s.want {
			t.Errorf("exit %d: delay %s, want %s", i, got, s.want)
		}
	}
	if got := c.restartDelay("multislice-scheduler-1", at); got != time.Second {
		t.Errorf("another replica's first exit: delay %s, want 1s", got)
	}
}
