package intree_test

import (
	"fmt"
	"slices"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/multislice-scheduler/multislice-scheduler/internal/manifests"
	multislicev1alpha1 "github.com/multislice-scheduler/multislice-scheduler/pkg/apis/multislice/v1alpha1"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

// shippedRBAC is the access objects of manifests/ (namespace, service
// account, roles and bindings); without, when set, the ClusterRole's rules
// do not name that resource.
func shippedRBAC(t *testing.T, without string) []*unstructured.Unstructured {
	t.Helper()
	objs, _, err := manifests.Render(harness.RepoPath(t, "manifests"), "registry.example/multislice-scheduler:v1")
	if err != nil {
		t.Fatal(err)
	}
	var out []*unstructured.Unstructured
	for _, o := range objs {
		switch o.GetKind() {
		case "Namespace", "ServiceAccount", "Role", "RoleBinding", "ClusterRoleBinding":
		case "ClusterRole":
			if without != "" {
				rules, _, _ := unstructured.NestedSlice(o.Object, "rules")
				for _, r := range rules {
					rule := r.(map[string]any)
					res, _ := rule["resources"].([]any)
					rule["resources"] = slices.DeleteFunc(slices.Clone(res), func(s any) bool { return s == without })
				}
				if err := unstructured.SetNestedSlice(o.Object, rules, "rules"); err != nil {
					t.Fatal(err)
				}
			}
		default:
			continue
		}
		out = append(out, o)
	}
	return out
}

// The shipped ClusterRole grants what the scheduler reads of Kubernetes'
// workload APIs: run as its ServiceAccount, it places the CompositePodGroup
// example. Under a ClusterRole that does not grant CompositePodGroups (one
// older than the API), only their pods wait: an ordinary pod is scheduled
// all the same. Under the shipped role it starts a queued Job too, which
// takes reading PriorityClasses (the start window ranks suspended objects
// by them).
func TestShippedRBACCoversKubernetesGroups(t *testing.T) {
	cp := harness.StartControlPlane(t, harness.InTreeWorkloads())
	cp.InstallQueueCRDs(t)
	// Two pools for the example's slices, one for the ordinary pod.
	for i := 1; i <= 3; i++ {
		cp.CreateNodePool(t, builders.NodePool(fmt.Sprintf("pool-%d", i)).Nodes(2).
			TPU("tpu-v5-lite-podslice", "2x4", 4).Zone("us-west4-a"))
	}
	kubeconfig := cp.WriteKubeconfig("scheduler-sa", "system:serviceaccount:multislice-system:multislice-scheduler",
		[]string{"system:serviceaccounts", "system:serviceaccounts:multislice-system", "system:authenticated"})
	start := func(name string) *harness.Replica {
		return harness.StartReplica(t, cp, name, harness.ReplicaOptions{Config: harness.SchedulerConfig(t), Kubeconfig: kubeconfig})
	}

	cp.ApplyObjects(t, shippedRBAC(t, "compositepodgroups"), false)
	old := start("older-role")
	ns := cp.CreateNamespace(t, "rbac")
	cp.CreatePod(t, builders.Pod(ns, "plain").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, "plain")
	cp.CreateFromFile(t, "manifests/examples/intree-podgroup/multislice.yaml")
	cp.ExpectPodStaysUnbound(t, corev1.NamespaceDefault, "train-slice-0-0", 3*time.Second)

	cp.ApplyObjects(t, shippedRBAC(t, ""), false)
	old.Stop()
	start("shipped-role")
	for _, name := range []string{"train-slice-0-0", "train-slice-0-1", "train-slice-1-0", "train-slice-1-1"} {
		cp.WaitForPodBound(t, corev1.NamespaceDefault, name)
	}

	q := cp.Queues()
	q.CreateFlavor(t, "v5e", map[string]string{wellknown.TPUAcceleratorLabel: "tpu-v5-lite-podslice"})
	q.CreateClusterQueue(t, "team", multislicev1alpha1.ClusterQueueSpec{
		ResourceGroups: []multislicev1alpha1.ResourceGroup{harness.ResourceGroup(harness.TPUQuota("v5e", 8))}})
	q.CreateLocalQueue(t, ns, "lq", "team")
	job := builders.Job(ns, "queued").Queue("lq").Suspended(true).Parallelism(1).Scheduler(app.Name).Obj()
	job.ResourceVersion = ""
	if _, err := cp.Client.BatchV1().Jobs(ns).Create(t.Context(), job, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	cp.WaitJobStarted(t, ns, "queued", "lq")
}
