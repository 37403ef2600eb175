package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/cli"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// kubectlPlugin is bin/kubectl-multislice, which `make test-e2e` builds
// with the cluster's binaries; built here when it is missing.
func kubectlPlugin(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(repoRoot, "bin", "kubectl-multislice")
	if _, err := os.Stat(bin); err != nil {
		build := exec.CommandContext(t.Context(), "go", "build", "-o", bin, "./cmd/kubectl-multislice")
		build.Dir = repoRoot
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("building %s: %v\n%s", bin, err, out)
		}
	}
	return bin
}

// multislice runs the plugin against the cluster; it returns stdout, and
// fails the test on another exit code than want.
func multislice(t *testing.T, bin string, want int, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append(args, "--kubeconfig", cluster.KubeconfigPath)...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	code := 0
	var exit *exec.ExitError
	if errors.As(err, &exit) {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("kubectl multislice %s: %v", strings.Join(args, " "), err)
	}
	if code != want {
		t.Fatalf("kubectl multislice %s: exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", strings.Join(args, " "), code, want, out.String(), errOut.String())
	}
	return out.String()
}

// multisliceJSON runs the plugin with -o json and decodes what it prints.
func multisliceJSON(t *testing.T, bin string, into any, args ...string) {
	t.Helper()
	out := multislice(t, bin, 0, append(args, "-o", "json")...)
	if err := json.Unmarshal([]byte(out), into); err != nil {
		t.Fatalf("kubectl multislice %s -o json: %v\n%s", strings.Join(args, " "), err, out)
	}
}

// The kubectl plugin on the local cluster, with seed 002's queue (24
// chips, three v5e pools): a queued 2-slice JobSet runs, and `pools`
// shows its two pools held by it and `why` explains it; a second one waits
// for quota with a pool free, and `pending` lists it first in its
// ClusterQueue with reason QuotaExceeded, `why` giving the numbers; a
// 2-slice JobSet of no queue waits for domains, and `pending` gives its
// pods' reason. `kubectl multislice` finds the plugin on PATH.
func TestKubectlMultislice(t *testing.T) {
	bin := kubectlPlugin(t)
	applyQueueExample(t, "seed-002-multislice-v5e.yaml")
	ns := namespace(t)
	createSeedLocalQueue(t, ns, "lq")
	waitLocalQueueActive(t, ns, "lq")

	first := v5eJobSet(ns, "first", 2)
	first.Labels = map[string]string{wellknown.QueueNameLabel: "lq"}
	first = createJobSet(t, first)
	pods := waitRunning(t, first, 4, 120*time.Second)
	held := map[string]bool{}
	for _, p := range pods {
		held[poolOfNode(t, p.Spec.NodeName)] = true
	}
	if len(held) != 2 {
		t.Fatalf("JobSet first runs in pools %v, want 2", held)
	}
	firstRef := cli.WorkloadRef{Kind: cli.KindJobSet, Namespace: ns, Name: "first"}

	t.Run("pools", func(t *testing.T) {
		var out cli.PoolsOutput
		multisliceJSON(t, bin, &out, "pools")
		var v5e []string
		for _, p := range out.Pools {
			if p.Accelerator != "tpu-v5-lite-podslice" {
				continue
			}
			v5e = append(v5e, p.Name)
			isHeld := len(p.Holders) == 1 && p.Holders[0].Workload == firstRef
			if isHeld != held[p.Name] || p.Topology != "2x4" || p.Nodes != 2 || p.Health != cli.HealthOK {
				t.Errorf("pool %s: %+v; JobSet first runs in %v", p.Name, p, held)
			}
			if isHeld && (p.Holders[0].Pods != 2 || p.Holders[0].Since.IsZero() || p.Used != 8) {
				t.Errorf("pool %s: holder %+v, %d chips used", p.Name, p.Holders[0], p.Used)
			}
		}
		if len(v5e) != 3 {
			t.Errorf("v5e pools %v, want the cluster's 3", v5e)
		}
		table := multislice(t, bin, 0, "pools")
		for pool := range held {
			if !lineWith(table, pool, "JobSet "+ns+"/first") {
				t.Errorf("`pools` does not show %s held by JobSet %s/first:\n%s", pool, ns, table)
			}
		}
	})

	t.Run("why a running JobSet", func(t *testing.T) {
		var e cli.Explanation
		multisliceJSON(t, bin, &e, "why", "jobset/first", "-n", ns)
		if e.State != cli.StateRunning || e.Queue == nil || e.Queue.ClusterQueue != seedClusterQueue || len(e.Queue.Quota) != 1 || !e.Queue.Quota[0].Charged {
			t.Errorf("why jobset/first: state %s, queue %+v", e.State, e.Queue)
		}
		if len(e.Domains) != 1 || len(e.Domains[0].Own) != 2 || e.Pods.Running != 4 {
			t.Errorf("why jobset/first: domains %+v, pods %+v", e.Domains, e.Pods)
		}
		out := multislice(t, bin, 0, "why", "pod/"+pods[0].Name, "-n", ns)
		for _, want := range []string{"JobSet " + ns + "/first (Workload object jobset-first)", "State:      Running", "its own: "} {
			if !strings.Contains(out, want) {
				t.Errorf("why pod/%s lacks %q:\n%s", pods[0].Name, want, out)
			}
		}
	})

	second := v5eJobSet(ns, "second", 2)
	second.Labels = map[string]string{wellknown.QueueNameLabel: "lq"}
	createJobSet(t, second)
	waitWorkload(t, ns, "jobset-second", "waiting for quota", 60*time.Second, waitingFor(multislicev1alpha1.WorkloadQuotaReserved, "QuotaExceeded"))
	waitClusterQueue(t, seedClusterQueue, 1, 1, 16, 30*time.Second)

	t.Run("pending and why a queued JobSet", func(t *testing.T) {
		var list cli.PendingList
		multisliceJSON(t, bin, &list, "pending", "-n", ns)
		if len(list.Workloads) != 1 {
			t.Fatalf("pending -n %s: %+v, want JobSet second", ns, list.Workloads)
		}
		w := list.Workloads[0]
		if w.Workload.Name != "second" || w.ClusterQueue != seedClusterQueue || w.Position != 1 || w.Reason != "QuotaExceeded" || !strings.Contains(w.Message, seedFlavor) {
			t.Errorf("pending: %+v", w)
		}
		table := multislice(t, bin, 0, "pending", "--cluster-queue", seedClusterQueue)
		if !strings.HasPrefix(table, "Order: ") || !lineWith(table, seedClusterQueue, "1", "JobSet "+ns+"/second", "QuotaExceeded") {
			t.Errorf("pending --cluster-queue %s:\n%s", seedClusterQueue, table)
		}
		out := multislice(t, bin, 0, "why", "second", "-n", ns)
		for _, want := range []string{
			"State:      Pending: QuotaExceeded",
			"Position:   1 of 1 pending in ClusterQueue " + seedClusterQueue,
			"no: 8 more than available",
			"1 free",
		} {
			if !strings.Contains(out, want) {
				t.Errorf("why second lacks %q:\n%s", want, out)
			}
		}
		queues := multislice(t, bin, 0, "queues")
		if !lineWith(queues, seedClusterQueue, seedFlavor, "google.com/tpu", "24", "16", "1", "1") {
			t.Errorf("queues:\n%s", queues)
		}
	})

	t.Run("pending without a queue", func(t *testing.T) {
		createJobSet(t, v5eJobSet(ns, "third", 2))
		var last cli.PendingList
		poll(t, "JobSet third pending with its pods' reason", 60*time.Second, func(context.Context) (bool, error) {
			multisliceJSON(t, bin, &last, "pending", "-n", ns)
			i := slices.IndexFunc(last.Workloads, func(w cli.PendingWorkload) bool { return w.Workload.Name == "third" })
			return i >= 0 && last.Workloads[i].ClusterQueue == "" && last.Workloads[i].Reason != cli.ReasonNotTried &&
				last.Workloads[i].Reason != cli.ReasonSchedulingGated && last.Workloads[i].Message != "", nil
		}, func() string { return fmt.Sprintf("%+v", last.Workloads) })
	})

	t.Run("kubectl finds the plugin", func(t *testing.T) {
		kubectl, err := exec.LookPath("kubectl")
		if err != nil {
			kubectl = filepath.Join(repoRoot, "bin", "kubectl")
			if _, err := os.Stat(kubectl); err != nil {
				t.Skip("no kubectl on PATH nor in bin/")
			}
		}
		cmd := exec.CommandContext(t.Context(), kubectl, "multislice", "pools", "--kubeconfig", cluster.KubeconfigPath)
		cmd.Env = append(os.Environ(), "PATH="+filepath.Dir(bin)+string(os.PathListSeparator)+os.Getenv("PATH"))
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.HasPrefix(string(out), "POOL ") {
			t.Errorf("kubectl multislice pools: %v\n%s", err, out)
		}
	})

	// Nothing of that name: exit code 1.
	multislice(t, bin, 1, "why", "jobset/none", "-n", ns)
}

// lineWith reports whether a line of out holds every field, in order.
func lineWith(out string, fields ...string) bool {
	for _, line := range strings.Split(out, "\n") {
		rest, ok := line, true
		for _, f := range fields {
			i := strings.Index(rest, f)
			if i < 0 {
				ok = false
				break
			}
			rest = rest[i+len(f):]
		}
		if ok {
			return true
		}
	}
	return false
}
