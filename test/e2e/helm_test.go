package e2e

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/utils/ptr"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/internal/localcluster"
)

// A release of the Helm chart next to the local cluster's own scheduler:
// a release name, namespace, schedulerName and lease of its own.
const (
	helmRelease       = "e2e-helm"
	helmReleaseNS     = "default" // where Helm keeps the release record
	helmChartNS       = "e2e-helm-system"
	helmSchedulerName = "e2e-helm-scheduler"
	helmFullname      = helmRelease + "-multislice-scheduler"
)

// The chart installs a scheduler that works: helm install creates the
// release's objects, and the Deployment's pod template passes the
// namespace's restricted Pod Security admission. Its pods cannot run here
// (KWOK nodes have no kubelet), so the scheduler runs as a process with
// what a pod of the Deployment would have: the configuration of the
// chart's ConfigMap and the credentials of the chart's ServiceAccount (a
// TokenRequest token), so that the chart's RBAC is all it may do. It takes
// the chart's lease, and places a JobSet that asks for its schedulerName,
// each slice in a pool of its own. helm uninstall then removes every
// object of the release and leaves the CRDs.
func TestHelmChartInstallsAWorkingScheduler(t *testing.T) {
	start := time.Now()
	phase := func(what string) { t.Logf("%6.1fs %s", time.Since(start).Seconds(), what) }
	h := newHelm(t)

	values := filepath.Join(t.TempDir(), "values.yaml")
	writeHelmValues(t, values)
	installed := true
	h.run(t, "install", helmRelease, filepath.Join(repoRoot, "charts", "multislice-scheduler"),
		"--namespace", helmReleaseNS, "--values", values, "--timeout", "60s")
	t.Cleanup(func() {
		if installed {
			_, _ = h.output(context.Background(), "uninstall", helmRelease, "--namespace", helmReleaseNS, "--wait", "--timeout", "60s")
		}
	})
	phase("helm install")

	manifest := h.run(t, "get", "manifest", helmRelease, "--namespace", helmReleaseNS)
	objs, err := localcluster.DecodeYAML([]byte(manifest))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, o := range objs {
		kinds[o.GetKind()]++
	}
	wantKinds := map[string]int{
		"Namespace": 1, "ServiceAccount": 1, "ClusterRole": 1, "ClusterRoleBinding": 1, "Role": 1,
		"RoleBinding": 2, "ConfigMap": 2, "Deployment": 1, "PodDisruptionBudget": 1, "Service": 1,
	}
	if fmt.Sprint(kinds) != fmt.Sprint(wantKinds) {
		t.Errorf("the release's objects by kind: %v, want %v", kinds, wantKinds)
	}
	release := releaseObjects(t, objs)
	for _, o := range release {
		if _, err := o.get(t.Context()); err != nil {
			t.Errorf("%s of the release: %v", o, err)
		}
	}
	dashboard, err := client.CoreV1().ConfigMaps(helmChartNS).Get(t.Context(), helmFullname+"-dashboard", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if dashboard.Labels["grafana_dashboard"] != "1" || !strings.Contains(dashboard.Data["multislice-scheduler.json"], `"uid": "multislice-scheduler"`) {
		t.Errorf("dashboard ConfigMap: labels %v, data keys %v", dashboard.Labels, slices.Sorted(maps.Keys(dashboard.Data)))
	}
	// The restricted Pod Security admission of the chart's namespace lets
	// the ReplicaSet create the Deployment's pods.
	poll(t, "the Deployment's 2 pods", 30*time.Second, func(ctx context.Context) (bool, error) {
		pods, err := client.CoreV1().Pods(helmChartNS).List(ctx, metav1.ListOptions{LabelSelector: "app.kubernetes.io/name=multislice-scheduler"})
		return err == nil && len(pods.Items) == 2, nil
	})
	if t.Failed() {
		t.FailNow()
	}
	phase("release objects checked")

	stop, schedulerLog := runChartScheduler(t)
	poll(t, "the chart's scheduler to hold its lease", 30*time.Second, func(ctx context.Context) (bool, error) {
		lease, err := client.CoordinationV1().Leases(helmChartNS).Get(ctx, helmFullname, metav1.GetOptions{})
		return err == nil && ptr.Deref(lease.Spec.HolderIdentity, "") != "", nil
	})
	phase("scheduler process holds the lease")

	ns := namespace(t)
	js := v5eJobSet(ns, "helm", 2)
	js.Spec.ReplicatedJobs[0].Template.Spec.Template.Spec.SchedulerName = helmSchedulerName
	js = createJobSet(t, js)
	pods := waitRunning(t, js, 4, 60*time.Second)
	checkOnePoolPerSlice(t, pods, nil)
	for _, p := range pods {
		events, err := client.EventsV1().Events(ns).List(t.Context(), metav1.ListOptions{FieldSelector: "regarding.name=" + p.Name + ",reason=Scheduled"})
		if err != nil {
			t.Fatal(err)
		}
		if len(events.Items) == 0 || events.Items[0].ReportingController != helmSchedulerName {
			t.Errorf("pod %s: Scheduled events %+v, want one reported by %s", p.Name, events.Items, helmSchedulerName)
		}
	}
	phase("JobSet placed, one pool per slice")
	deleteJobSet(t, js)
	stop()
	// Everything it did, the chart's RBAC let it do.
	if log, err := os.ReadFile(schedulerLog); err != nil {
		t.Error(err)
	} else if i := bytes.Index(log, []byte("forbidden")); i >= 0 {
		t.Errorf("the chart's RBAC refused the scheduler something: %s", log[bytes.LastIndexByte(log[:i], '\n')+1:][:min(len(log)-i, 600)])
	}

	h.run(t, "uninstall", helmRelease, "--namespace", helmReleaseNS, "--wait", "--timeout", "60s")
	installed = false
	for _, o := range release {
		poll(t, o.String()+" deleted", 60*time.Second, func(ctx context.Context) (bool, error) {
			_, err := o.get(ctx)
			return apierrors.IsNotFound(err), nil
		})
	}
	if out, err := h.output(t.Context(), "status", helmRelease, "--namespace", helmReleaseNS); err == nil {
		t.Errorf("helm status after uninstall succeeded:\n%s", out)
	}
	// Helm never deletes what it installed from crds/.
	crds := dynamicClient(t).Resource(schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"})
	for _, name := range []string{"clusterqueues.multislice.dev", "workloads.multislice.dev"} {
		if _, err := crds.Get(t.Context(), name, metav1.GetOptions{}); err != nil {
			t.Errorf("CRD %s after uninstall: %v", name, err)
		}
	}
	phase("helm uninstall: the release's objects are gone")
}

// helm runs bin/helm, which `make test-e2e` builds, against the local
// cluster as its admin, in the repository's root (where the docs' relative
// paths lead), with Helm's own files in a directory of the test.
type helm struct {
	bin string
	env []string
}

func newHelm(t *testing.T) *helm {
	t.Helper()
	bin := filepath.Join(repoRoot, "bin", "helm")
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("%v: run the tests through `make test-e2e`, which builds it (or `make helm`)", err)
	}
	home := t.TempDir()
	return &helm{bin: bin, env: append(os.Environ(),
		"KUBECONFIG="+cluster.KubeconfigPath,
		"HELM_CACHE_HOME="+filepath.Join(home, "cache"),
		"HELM_CONFIG_HOME="+filepath.Join(home, "config"),
		"HELM_DATA_HOME="+filepath.Join(home, "data"),
	)}
}

func (h *helm) output(ctx context.Context, args ...string) (string, error) {
	cmd := exec.CommandContext(ctx, h.bin, args...)
	cmd.Env, cmd.Dir = h.env, repoRoot
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if err != nil {
		return out.String(), fmt.Errorf("helm %s: %w\n%s%s", strings.Join(args, " "), err, out.String(), errOut.String())
	}
	return out.String(), nil
}

func (h *helm) run(t *testing.T, args ...string) string {
	t.Helper()
	out, err := h.output(t.Context(), args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// writeHelmValues writes the release's values: the chart's default
// profiles with another schedulerName, another namespace, and the
// dashboard ConfigMap.
func writeHelmValues(t *testing.T, path string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, "charts", "multislice-scheduler", "values.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var defaults struct {
		Profiles []map[string]any `json:"profiles"`
	}
	if err := yaml.Unmarshal(data, &defaults); err != nil {
		t.Fatal(err)
	}
	if len(defaults.Profiles) != 1 {
		t.Fatalf("the chart's default profiles: %v", defaults.Profiles)
	}
	defaults.Profiles[0]["schedulerName"] = helmSchedulerName
	values := map[string]any{
		"namespace": map[string]any{"name": helmChartNS},
		"profiles":  defaults.Profiles,
		"dashboard": map[string]any{"configMap": map[string]any{"enabled": true}},
	}
	out, err := yaml.Marshal(values)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, out, 0o600); err != nil {
		t.Fatal(err)
	}
}

// releaseObject is an object of the release, found through discovery.
type releaseObject struct {
	kind, namespace, name string
	resource              dynamic.ResourceInterface
}

func (o releaseObject) String() string {
	return strings.TrimSuffix(o.kind+" "+o.namespace+"/"+o.name, "/")
}

func (o releaseObject) get(ctx context.Context) (*unstructured.Unstructured, error) {
	return o.resource.Get(ctx, o.name, metav1.GetOptions{})
}

func releaseObjects(t *testing.T, objs []*unstructured.Unstructured) []releaseObject {
	t.Helper()
	dyn := dynamicClient(t)
	mapper := restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(client.Discovery()))
	var out []releaseObject
	for _, o := range objs {
		gvk := o.GroupVersionKind()
		mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
		if err != nil {
			t.Fatalf("%s %s: %v", gvk.Kind, o.GetName(), err)
		}
		var ri dynamic.ResourceInterface = dyn.Resource(mapping.Resource)
		if mapping.Scope.Name() == "namespace" {
			ri = dyn.Resource(mapping.Resource).Namespace(o.GetNamespace())
		}
		out = append(out, releaseObject{kind: gvk.Kind, namespace: o.GetNamespace(), name: o.GetName(), resource: ri})
	}
	return out
}

func dynamicClient(t *testing.T) dynamic.Interface {
	t.Helper()
	dyn, err := dynamic.NewForConfig(cluster.AdminConfig)
	if err != nil {
		t.Fatal(err)
	}
	return dyn
}

// runChartScheduler starts bin/multislice-scheduler as a pod of the
// chart's Deployment would run: with the configuration of the ConfigMap
// the Deployment mounts, as the chart's ServiceAccount. The in-cluster
// connection of a pod becomes a kubeconfig with a token of the
// ServiceAccount; that is the one field of the configuration it sets. It
// returns a function that stops the process, and the path of its log.
func runChartScheduler(t *testing.T) (stop func(), logPath string) {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	deploy, err := client.AppsV1().Deployments(helmChartNS).Get(ctx, helmFullname, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var configMap string
	for _, v := range deploy.Spec.Template.Spec.Volumes {
		if v.Name == "config" && v.ConfigMap != nil {
			configMap = v.ConfigMap.Name
		}
	}
	cm, err := client.CoreV1().ConfigMaps(helmChartNS).Get(ctx, configMap, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("the Deployment's configuration ConfigMap %q: %v", configMap, err)
	}
	var config map[string]any
	if err := yaml.Unmarshal([]byte(cm.Data["config.yaml"]), &config); err != nil {
		t.Fatalf("ConfigMap %s: %v", cm.Name, err)
	}

	sa := deploy.Spec.Template.Spec.ServiceAccountName
	token, err := client.CoreV1().ServiceAccounts(helmChartNS).CreateToken(ctx, sa, &authenticationv1.TokenRequest{
		Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To[int64](3600)},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatalf("token of ServiceAccount %s/%s: %v", helmChartNS, sa, err)
	}
	kubeconfig := filepath.Join(dir, "kubeconfig")
	kc := clientcmdapi.NewConfig()
	kc.Clusters["local"] = &clientcmdapi.Cluster{
		Server:                   cluster.AdminConfig.Host,
		CertificateAuthority:     cluster.AdminConfig.CAFile,
		CertificateAuthorityData: cluster.AdminConfig.CAData,
	}
	kc.AuthInfos[sa] = &clientcmdapi.AuthInfo{Token: token.Status.Token}
	kc.Contexts["local"] = &clientcmdapi.Context{Cluster: "local", AuthInfo: sa}
	kc.CurrentContext = "local"
	if err := clientcmd.WriteToFile(*kc, kubeconfig); err != nil {
		t.Fatal(err)
	}
	config["clientConnection"] = map[string]any{"kubeconfig": kubeconfig}
	data, err := yaml.Marshal(config)
	if err != nil {
		t.Fatal(err)
	}
	configFile := filepath.Join(dir, "config.yaml")
	if err := os.WriteFile(configFile, data, 0o600); err != nil {
		t.Fatal(err)
	}

	port := freeLoopbackPort(t)
	logPath = filepath.Join(dir, "scheduler.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{
		"--config=" + configFile,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(dir, "certs"),
		// Delegated authentication and authorization of the secure port,
		// as the ServiceAccount too (the chart's kube-system RoleBinding
		// lets it read the client CA).
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
	}, deploy.Spec.Template.Spec.Containers[0].Args[1:]...)
	cmd := exec.Command(filepath.Join(repoRoot, "bin", "multislice-scheduler"), args...)
	cmd.Stdout, cmd.Stderr = logFile, logFile
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		_ = logFile.Close()
		close(exited)
	}()
	stopped := false
	stop = func() {
		if stopped {
			return
		}
		stopped = true
		_ = cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-exited
		}
	}
	t.Cleanup(func() {
		select {
		case <-exited:
			if !stopped {
				t.Errorf("the chart's scheduler exited on its own: %v", cmd.ProcessState)
			}
		default:
		}
		stop()
		if t.Failed() {
			if log, err := os.ReadFile(logPath); err == nil {
				t.Logf("the chart's scheduler's log (last 4 KiB):\n%s", tail(log, 4096))
			}
		}
	})
	return stop, logPath
}

func freeLoopbackPort(t *testing.T) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = l.Close() }()
	return l.Addr().(*net.TCPAddr).Port
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
