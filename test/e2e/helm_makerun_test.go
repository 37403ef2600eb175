package e2e

import (
	"bufio"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
)

// The release docs/tasks/install-helm.md installs beside the local cluster's scheduler,
// and where its values put it.
const (
	makeRunRelease   = "try-chart"
	makeRunNamespace = "try-chart-system"
	makeRunFullname  = makeRunRelease + "-multislice-scheduler"
)

// The way docs/tasks/install-helm.md gives to try the chart on `make run` works as
// written: its `bin/helm install` creates a release beside the local
// cluster's own scheduler and returns once the release's Deployment is
// Ready — the local cluster's default scheduler places the pods on the
// CPU pool, and KWOK runs them — and its `bin/helm uninstall` removes it.
func TestHelmChartOnMakeRun(t *testing.T) {
	h := newHelm(t)
	install, uninstall := documentedHelmCommands(t, filepath.Join(repoRoot, "docs", "tasks", "install-helm.md"))
	installed := false
	t.Cleanup(func() {
		if installed {
			_, _ = h.output(context.Background(), "uninstall", makeRunRelease, "--namespace", "default", "--wait", "--timeout", "60s")
		}
	})
	start := time.Now()
	installed = true
	if out, err := h.output(t.Context(), install...); err != nil {
		describeChartPods(t)
		t.Fatalf("the documented install failed: %v\n%s", err, out)
	}
	t.Logf("helm install --wait returned after %s", time.Since(start).Round(100*time.Millisecond))

	deploy, err := client.AppsV1().Deployments(makeRunNamespace).Get(t.Context(), makeRunFullname, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := *deploy.Spec.Replicas; want != 2 || deploy.Status.ReadyReplicas != want || deploy.Status.AvailableReplicas != want {
		t.Errorf("Deployment %s/%s: %d replicas, %d ready, %d available; want 2 of each", makeRunNamespace, makeRunFullname,
			want, deploy.Status.ReadyReplicas, deploy.Status.AvailableReplicas)
	}
	pods, err := client.CoreV1().Pods(makeRunNamespace).List(t.Context(), metav1.ListOptions{LabelSelector: metav1.FormatLabelSelector(deploy.Spec.Selector)})
	if err != nil {
		t.Fatal(err)
	}
	if len(pods.Items) != 2 {
		t.Errorf("the Deployment has %d pods, want 2", len(pods.Items))
	}
	for _, p := range pods.Items {
		if p.Status.Phase != corev1.PodRunning || p.Spec.SchedulerName != corev1.DefaultSchedulerName || p.Spec.NodeName == "" {
			t.Errorf("pod %s: phase %s, scheduler %s, node %q; want Running, bound by %s", p.Name, p.Status.Phase, p.Spec.SchedulerName, p.Spec.NodeName, corev1.DefaultSchedulerName)
			continue
		}
		if pool := poolOfNode(t, p.Spec.NodeName); pool != "default-pool" {
			t.Errorf("pod %s runs on %s of pool %s, want the CPU pool default-pool", p.Name, p.Spec.NodeName, pool)
		}
	}
	if out, err := h.output(t.Context(), uninstall...); err != nil {
		t.Fatalf("the documented uninstall failed: %v\n%s", err, out)
	}
	installed = false
	poll(t, "namespace "+makeRunNamespace+" deleted", 90*time.Second, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Namespaces().Get(ctx, makeRunNamespace, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
}

// documentedHelmCommands reads the shell block of doc that follows the
// comment naming TestHelmChartOnMakeRun and returns the arguments of its
// `bin/helm install` and `bin/helm uninstall` lines, continuation lines
// joined.
func documentedHelmCommands(t *testing.T, doc string) (install, uninstall []string) {
	t.Helper()
	f, err := os.Open(doc)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = f.Close() }()
	var marked, inBlock bool
	var lines []string
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case !marked:
			marked = strings.HasPrefix(line, "<!--") && strings.Contains(line, "TestHelmChartOnMakeRun")
		case !inBlock:
			inBlock = strings.HasPrefix(line, "```")
		case strings.HasPrefix(line, "```"):
			marked = false
		case len(lines) > 0 && strings.HasSuffix(lines[len(lines)-1], `\`):
			lines[len(lines)-1] = strings.TrimSuffix(lines[len(lines)-1], `\`) + " " + line
		default:
			lines = append(lines, line)
		}
		if inBlock && !marked {
			break
		}
	}
	for _, line := range lines {
		fields := strings.Fields(line)
		if len(fields) < 2 || fields[0] != "bin/helm" {
			continue
		}
		switch fields[1] {
		case "install":
			install = fields[1:]
		case "uninstall":
			uninstall = fields[1:]
		}
	}
	if install == nil || uninstall == nil {
		t.Fatalf("%s: no `bin/helm install` and `bin/helm uninstall` in the block after the comment naming TestHelmChartOnMakeRun: %q", doc, lines)
	}
	if install[1] != makeRunRelease || uninstall[1] != makeRunRelease {
		t.Fatalf("%s installs release %s and uninstalls %s; the test checks %s", doc, install[1], uninstall[1], makeRunRelease)
	}
	return install, uninstall
}

// describeChartPods logs where the release's pods stand, to say why the
// install's wait ran out.
func describeChartPods(t *testing.T) {
	t.Helper()
	pods, err := client.CoreV1().Pods(makeRunNamespace).List(context.Background(), metav1.ListOptions{})
	if err != nil {
		t.Logf("pods of %s: %v", makeRunNamespace, err)
		return
	}
	for _, p := range pods.Items {
		var conds []string
		for _, c := range p.Status.Conditions {
			conds = append(conds, string(c.Type)+"="+string(c.Status)+" "+c.Reason+" "+c.Message)
		}
		t.Logf("pod %s: phase %s, node %q (pool %q), conditions %v", p.Name, p.Status.Phase, p.Spec.NodeName, nodePool(p.Spec.NodeName), conds)
	}
}

func nodePool(node string) string {
	if node == "" {
		return ""
	}
	n, err := client.CoreV1().Nodes().Get(context.Background(), node, metav1.GetOptions{})
	if err != nil {
		return err.Error()
	}
	return n.Labels[wellknown.NodePoolLabel]
}
