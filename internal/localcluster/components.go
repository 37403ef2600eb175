package localcluster

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
	"sigs.k8s.io/yaml"
)

// ServiceCIDR is the (never routed) range the apiserver allocates Service
// ClusterIPs from. Nothing in the local cluster sends traffic to it: there
// is no kube-proxy, and every component listens on 127.0.0.1.
const ServiceCIDR = "10.96.0.0/16"

// ports are the loopback ports of one cluster, all picked free at start.
type ports struct {
	etcdClient, etcdPeer, apiserver, controllerManager int
	jobsetWebhook, jobsetHealth, kubeScheduler         int
	// schedulers are the secure ports of multislice-scheduler's replicas.
	schedulers []int
	// fleet serves the fleet page.
	fleet int
	// webhook serves the admission webhook (webhook.go).
	webhook int
}

// freePorts picks the cluster's ports, with one secure port for each of
// schedulerReplicas replicas of multislice-scheduler, and the fleet page's:
// preferredFleet if it is free, else any free port.
func freePorts(schedulerReplicas, preferredFleet int) (ports, error) {
	var ls []net.Listener
	defer func() {
		for _, l := range ls {
			_ = l.Close()
		}
	}()
	next := func() (int, error) {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			return 0, err
		}
		ls = append(ls, l)
		return l.Addr().(*net.TCPAddr).Port, nil
	}
	p := ports{schedulers: make([]int, schedulerReplicas)}
	dsts := []*int{&p.etcdClient, &p.etcdPeer, &p.apiserver, &p.controllerManager,
		&p.jobsetWebhook, &p.jobsetHealth, &p.kubeScheduler, &p.webhook}
	for i := range p.schedulers {
		dsts = append(dsts, &p.schedulers[i])
	}
	var err error
	if p.fleet, err = fleetPort(preferredFleet); err != nil {
		return ports{}, err
	}
	if p.fleet == 0 {
		dsts = append(dsts, &p.fleet)
	}
	for _, dst := range dsts {
		port, err := next()
		if err != nil {
			return ports{}, err
		}
		*dst = port
	}
	return p, nil
}

func loopbackURL(scheme string, port int) string {
	return scheme + "://127.0.0.1:" + strconv.Itoa(port)
}

// writeKubeconfig writes a kubeconfig that reaches the apiserver with a
// client certificate, embedding everything so the file stands alone.
func writeKubeconfig(path, server string, caPEM []byte, client keyPair, user string) error {
	cert, err := os.ReadFile(client.Cert)
	if err != nil {
		return err
	}
	key, err := os.ReadFile(client.Key)
	if err != nil {
		return err
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters["multislice-local"] = &clientcmdapi.Cluster{Server: server, CertificateAuthorityData: caPEM}
	cfg.AuthInfos[user] = &clientcmdapi.AuthInfo{ClientCertificateData: cert, ClientKeyData: key}
	cfg.Contexts["multislice-local"] = &clientcmdapi.Context{Cluster: "multislice-local", AuthInfo: user}
	cfg.CurrentContext = "multislice-local"
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	return clientcmd.WriteToFile(*cfg, path)
}

// renderSchedulerConfig copies a KubeSchedulerConfiguration, pointing its
// clientConnection at kubeconfig and keeping every other field as written.
func renderSchedulerConfig(src, dst, kubeconfig string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	var doc map[string]any
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return fmt.Errorf("%s: %w", src, err)
	}
	conn, _ := doc["clientConnection"].(map[string]any)
	if conn == nil {
		conn = map[string]any{}
	}
	conn["kubeconfig"] = kubeconfig
	doc["clientConnection"] = conn
	out, err := yaml.Marshal(doc)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, out, 0o600)
}

// kubeSchedulerConfig is the default profile, for pods that do not ask for
// multislice-scheduler: a cluster always has kube-scheduler next to ours.
func kubeSchedulerConfig(kubeconfig string) []byte {
	return fmt.Appendf(nil, `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
clientConnection:
  kubeconfig: %q
leaderElection:
  leaderElect: false
profiles:
  - schedulerName: default-scheduler
`, kubeconfig)
}

// jobsetConfig is the JobSet controller's configuration: webhooks on
// loopback with our certificate (its own certificate rotation, which
// writes a Secret and patches webhook configurations that point at an
// in-cluster Service, is off), no metrics listener, no leader election.
func jobsetConfig(webhookPort, healthPort int, certDir string) []byte {
	return fmt.Appendf(nil, `apiVersion: config.jobset.x-k8s.io/v1alpha1
kind: Configuration
leaderElection:
  leaderElect: false
internalCertManagement:
  enable: false
webhook:
  host: 127.0.0.1
  port: %d
  certDir: %q
metrics:
  bindAddress: "0"
health:
  healthProbeBindAddress: 127.0.0.1:%d
clientConnection:
  qps: 500
  burst: 500
`, webhookPort, certDir, healthPort)
}

func etcdArgs(dataDir string, p ports) []string {
	peer := loopbackURL("http", p.etcdPeer)
	client := loopbackURL("http", p.etcdClient)
	return []string{
		"--name=localcluster",
		"--data-dir=" + dataDir,
		"--listen-client-urls=" + client,
		"--advertise-client-urls=" + client,
		"--listen-peer-urls=" + peer,
		"--initial-advertise-peer-urls=" + peer,
		"--initial-cluster=localcluster=" + peer,
		"--initial-cluster-state=new",
		// A throwaway development cluster: trade durability for speed.
		"--unsafe-no-fsync",
		"--log-level=warn",
	}
}

func apiserverArgs(c *Cluster, serving keyPair, sa keyPair) []string {
	return []string{
		"--etcd-servers=" + loopbackURL("http", c.ports.etcdClient),
		"--bind-address=127.0.0.1",
		"--advertise-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(c.ports.apiserver),
		"--tls-cert-file=" + serving.Cert,
		"--tls-private-key-file=" + serving.Key,
		"--client-ca-file=" + c.pki.CAFile(),
		"--service-account-issuer=https://kubernetes.default.svc.cluster.local",
		"--service-account-key-file=" + sa.Cert,
		"--service-account-signing-key-file=" + sa.Key,
		"--service-cluster-ip-range=" + ServiceCIDR,
		"--authorization-mode=Node,RBAC",
		// ExtendedResourceToleration gives pods that request google.com/tpu
		// or nvidia.com/gpu the toleration for GKE's accelerator taints.
		"--enable-admission-plugins=NodeRestriction,ExtendedResourceToleration",
		// The `kubernetes` Service endpoints would point at a loopback
		// address, which is invalid; nothing in this cluster needs them.
		"--endpoint-reconciler-type=none",
		"--allow-privileged=true",
		"--cert-dir=" + filepath.Join(c.opts.Dir, "apiserver"),
		"--profiling=false",
		// Kubernetes' own PodGroup API (scheduling.k8s.io/v1beta1) and
		// pods' spec.schedulingGroup, with PodGroups' topology
		// constraints, and the alpha CompositePodGroup, as on a cluster
		// that opted in: the scheduler gangs such pods itself, with its
		// own GenericWorkload gate off.
		"--feature-gates=GenericWorkload=true,TopologyAwareWorkloadScheduling=true,CompositePodGroup=true",
		"--runtime-config=scheduling.k8s.io/v1beta1=true,scheduling.k8s.io/v1alpha3/compositepodgroups=true",
	}
}

func controllerManagerArgs(c *Cluster, kubeconfig string, serving, sa keyPair) []string {
	return []string{
		"--kubeconfig=" + kubeconfig,
		"--authentication-kubeconfig=" + kubeconfig,
		"--authorization-kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(c.ports.controllerManager),
		"--tls-cert-file=" + serving.Cert,
		"--tls-private-key-file=" + serving.Key,
		"--client-ca-file=" + c.pki.CAFile(),
		"--root-ca-file=" + c.pki.CAFile(),
		"--service-account-private-key-file=" + sa.Key,
		"--use-service-account-credentials=true",
		"--cluster-signing-cert-file=" + c.pki.CAFile(),
		"--cluster-signing-key-file=" + filepath.Join(c.pki.dir, "ca.key"),
		"--cluster-name=multislice-local",
		"--leader-elect=false",
		"--profiling=false",
		// Notice a node that stops reporting within seconds, not minutes.
		"--node-monitor-period=2s",
		"--node-monitor-grace-period=20s",
	}
}

// Leader election of multislice-scheduler when it runs as several
// replicas: kube-scheduler's defaults (15 s, 10 s, 2 s) made short, so that
// a standby takes over a killed leader within seconds, as tests and the
// chaos soak need. The lease is the one the configuration names.
const (
	LeaseDuration = 4 * time.Second
	RenewDeadline = 2 * time.Second
	RetryPeriod   = 500 * time.Millisecond
)

// schedulerArgs are the flags of a scheduler process. Without leader
// election (kube-scheduler, and a single multislice-scheduler) the
// configuration's leaderElection is overridden off; with it, on the lease
// the configuration names, with the short timings above. Its secure port
// authenticates and authorizes through the apiserver, as a production
// Deployment's does: /metrics answers the cluster's admin (a client
// certificate of the cluster's CA) and whomever RBAC lets get it.
func schedulerArgs(config, kubeconfig, clientCA string, port int, serving keyPair, leaderElect bool) []string {
	args := []string{"--config=" + config}
	if leaderElect {
		args = append(args,
			"--leader-elect=true",
			"--leader-elect-lease-duration="+LeaseDuration.String(),
			"--leader-elect-renew-deadline="+RenewDeadline.String(),
			"--leader-elect-retry-period="+RetryPeriod.String(),
		)
	} else {
		args = append(args, "--leader-elect=false")
	}
	return append(args,
		"--bind-address=127.0.0.1",
		"--secure-port="+strconv.Itoa(port),
		"--tls-cert-file="+serving.Cert,
		"--tls-private-key-file="+serving.Key,
		"--authentication-kubeconfig="+kubeconfig,
		"--authorization-kubeconfig="+kubeconfig,
		"--client-ca-file="+clientCA,
	)
}
