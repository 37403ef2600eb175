package scheduler_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// kubeSchedulerConfig is the configuration of a cluster's default
// scheduler: kube-scheduler's one profile, no plugin of ours.
const kubeSchedulerConfig = `apiVersion: kubescheduler.config.k8s.io/v1
kind: KubeSchedulerConfiguration
leaderElection:
  leaderElect: false
profiles:
  - schedulerName: default-scheduler
`

// Our binary with no profile that enables a plugin of ours is
// kube-scheduler: run with kube-scheduler's own identity and RBAC (the
// bootstrap policy's system:kube-scheduler), as the local cluster runs its
// default scheduler, it schedules an ordinary pod. Were any of our
// informers started, it would wait forever for caches it may not list.
func TestWithoutOurProfileItIsKubeScheduler(t *testing.T) {
	cp := harness.StartControlPlane(t)
	cp.InstallWorkloadCRDs(t)
	cp.CreateNodePool(t, builders.NodePool("cpu").Nodes(1))
	cfg := filepath.Join(t.TempDir(), "kube-scheduler.yaml")
	if err := os.WriteFile(cfg, []byte(kubeSchedulerConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	kubeconfig := cp.WriteKubeconfig("kube-scheduler", "system:kube-scheduler", []string{"system:authenticated"})
	harness.StartSchedulerWithKubeconfig(t, kubeconfig, cfg)

	ns := cp.CreateNamespace(t, "plain")
	pod := cp.CreatePod(t, builders.Pod(ns, "plain").Obj())
	cp.WaitForPodBound(t, ns, pod.Name)
}
