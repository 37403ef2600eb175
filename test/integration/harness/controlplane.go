// Package harness runs a real kube-apiserver on a real etcd in the test
// process, and our scheduler against it through the same code path as the
// shipped binary (flags, --config file, plugin registry).
package harness

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"k8s.io/klog/v2"
	kubeapiservertesting "k8s.io/kubernetes/cmd/kube-apiserver/app/testing"
	"k8s.io/kubernetes/test/integration/framework"
)

// adminToken authenticates the harness as a cluster admin. It is served from
// a static token file so that it stays valid across apiserver restarts.
const adminToken = "multislice-harness-admin-token"

// Main starts one etcd for the whole test binary, runs the tests and stops
// etcd. Call it from TestMain. etcd must be on PATH (`make test` builds it
// from the module graph into bin/).
func Main(m *testing.M) { MainThen(m, nil) }

// MainThen is Main, with after run once the tests passed: an error it
// returns is printed and fails the test binary.
func MainThen(m *testing.M, after func() error) {
	flag.Parse()
	if err := ensureAPIServerFixtureDir(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	url, stop, err := framework.RunCustomEtcd(klog.Background(), "multislice_integration_etcd", nil)
	if err != nil {
		fmt.Fprintf(os.Stderr, "cannot start etcd (run the tests through `make test-integration`, which puts it on PATH): %v\n", err)
		os.Exit(1)
	}
	if err := os.Setenv("KUBE_INTEGRATION_ETCD_URL", url); err != nil {
		stop()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	if code == 0 && after != nil {
		if err := after(); err != nil {
			fmt.Fprintln(os.Stderr, "FAIL:", err)
			code = 1
		}
	}
	stop()
	os.Exit(code)
}

// ControlPlane is a kube-apiserver (RBAC on, static admin token) reached
// through a stable loopback address.
type ControlPlane struct {
	t       testing.TB
	dir     string
	storage *storagebackend.Config
	proxy   *tcpProxy
	server  *kubeapiservertesting.TestServer

	// Client is an admin clientset.
	Client kubernetes.Interface
	// Config is the admin REST config; it survives Restart.
	Config *rest.Config
	// KubeconfigPath is an admin kubeconfig file for the same endpoint.
	KubeconfigPath string

	// flags are apiserver flags beyond the harness's own; they survive
	// Restart.
	flags []string
}

// ControlPlaneOption changes how the apiserver is started.
type ControlPlaneOption func(*ControlPlane)

// InTreeWorkloads serves Kubernetes' workload-aware scheduling API
// (scheduling.k8s.io/v1beta1 Workload and PodGroup, pods'
// spec.schedulingGroup) with PodGroups' topology constraints, and the
// alpha CompositePodGroup (scheduling.k8s.io/v1alpha3): feature gates
// GenericWorkload, TopologyAwareWorkloadScheduling and CompositePodGroup.
// The gates are the test process's: every control plane of the package
// has them.
func InTreeWorkloads() ControlPlaneOption {
	return func(cp *ControlPlane) {
		cp.flags = append(cp.flags,
			"--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true",
			"--runtime-config=scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3/compositepodgroups=true")
	}
}

// StartControlPlane starts an apiserver on its own etcd prefix and stops it
// when the test ends.
func StartControlPlane(t testing.TB, opts ...ControlPlaneOption) *ControlPlane {
	t.Helper()
	dir := t.TempDir()
	tokenFile := filepath.Join(dir, "tokens.csv")
	if err := os.WriteFile(tokenFile, []byte(adminToken+`,harness-admin,harness-admin,"system:masters"`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	proxy, err := newTCPProxy()
	if err != nil {
		t.Fatal(err)
	}
	cp := &ControlPlane{t: t, dir: dir, storage: framework.SharedEtcd(), proxy: proxy}
	for _, opt := range opts {
		opt(cp)
	}
	cp.Config = &rest.Config{
		Host:            "https://" + proxy.addr(),
		BearerToken:     adminToken,
		TLSClientConfig: rest.TLSClientConfig{Insecure: true},
		QPS:             500,
		Burst:           1000,
	}
	cp.Client = kubernetes.NewForConfigOrDie(cp.Config)
	cp.KubeconfigPath = cp.WriteKubeconfig("admin", "", nil)
	cp.startServer()
	t.Cleanup(func() {
		cp.stopServer()
		proxy.close()
	})
	return cp
}

func (cp *ControlPlane) startServer() {
	cp.t.Helper()
	flags := []string{
		// No endpoint reconciler: 127.0.0.1 is no valid endpoint for the kubernetes Service.
		"--endpoint-reconciler-type=none",
		// No ServiceAccount token controller runs, and no node lifecycle
		// controller lifts the not-ready taint that TaintNodesByCondition
		// puts on new nodes; the harness creates Ready nodes directly.
		"--disable-admission-plugins=ServiceAccount,TaintNodesByCondition",
		"--authorization-mode=RBAC",
		"--token-auth-file=" + filepath.Join(cp.dir, "tokens.csv"),
	}
	flags = append(flags, cp.flags...)
	opts := kubeapiservertesting.NewDefaultTestServerOptions()
	// Restart cuts connections mid-request on purpose; the invariant
	// scraper would report those as errors.
	opts.DisableInvariantChecks = true
	server := kubeapiservertesting.StartTestServerOrDie(cp.t, opts, flags, cp.storage)
	cp.server = server
	cp.proxy.setBackend(fmt.Sprintf("127.0.0.1:%d", server.ServerOpts.SecureServing.BindPort))
}

func (cp *ControlPlane) stopServer() {
	if cp.server == nil {
		return
	}
	cp.proxy.setBackend("")
	cp.server.TearDownFn()
	cp.server = nil
}

// Restart stops the apiserver, keeps it down for downtime, and starts a new
// one on the same etcd data behind the same address.
func (cp *ControlPlane) Restart(downtime time.Duration) {
	cp.t.Helper()
	cp.stopServer()
	time.Sleep(downtime)
	cp.startServer()
	if err := wait.PollUntilContextTimeout(cp.t.Context(), 100*time.Millisecond, 30*time.Second, true, cp.healthy); err != nil {
		cp.t.Fatalf("apiserver not healthy after restart: %v", err)
	}
}

func (cp *ControlPlane) healthy(ctx context.Context) (bool, error) {
	var status int
	cp.Client.CoreV1().RESTClient().Get().AbsPath("/readyz").Do(ctx).StatusCode(&status)
	return status == 200, nil
}

// WriteKubeconfig writes a kubeconfig for the control plane. With
// impersonate set, requests act as that user (and groups), so a component
// can be run with exactly the RBAC a deployment grants it.
func (cp *ControlPlane) WriteKubeconfig(name, impersonate string, groups []string) string {
	cp.t.Helper()
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["harness"] = &clientcmdapi.Cluster{Server: cp.Config.Host, InsecureSkipTLSVerify: true}
	cfg.AuthInfos[name] = &clientcmdapi.AuthInfo{Token: adminToken, Impersonate: impersonate, ImpersonateGroups: groups}
	cfg.Contexts[name] = &clientcmdapi.Context{Cluster: "harness", AuthInfo: name}
	cfg.CurrentContext = name
	path := filepath.Join(cp.dir, name+".kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, path); err != nil {
		cp.t.Fatal(err)
	}
	return path
}

// ensureAPIServerFixtureDir creates the directory where the in-process
// kube-apiserver caches its serving certificate: its package's testdata/,
// which `go mod vendor` does not keep. (`make` creates it too.)
func ensureAPIServerFixtureDir() error {
	dir, err := os.Getwd()
	if err != nil {
		return err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return os.MkdirAll(filepath.Join(dir, "vendor/k8s.io/kubernetes/cmd/kube-apiserver/app/testing/testdata"), 0o755)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}
