package scheduler_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	authorizationv1 "k8s.io/api/authorization/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/klog/v2"
	"k8s.io/kubernetes/cmd/kube-scheduler/app/options"

	"github.com/multislice-scheduler/multislice-scheduler/internal/manifests"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/app"
	"github.com/multislice-scheduler/multislice-scheduler/pkg/wellknown"
	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
	"github.com/multislice-scheduler/multislice-scheduler/test/integration/harness"
)

const (
	deployNamespace = "multislice-system"
	serviceAccount  = "system:serviceaccount:multislice-system:multislice-scheduler"
)

func TestManifestsApplyAndGrantEnoughToSchedule(t *testing.T) {
	objs, _, err := manifests.Render(harness.RepoPath(t, "manifests"), "registry.example/multislice-scheduler:v1")
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]*unstructured.Unstructured{}
	for _, o := range objs {
		kinds[o.GetKind()] = o
	}
	for _, want := range []string{"Namespace", "ServiceAccount", "ClusterRole", "ClusterRoleBinding", "Role", "RoleBinding", "ConfigMap", "Deployment", "PodDisruptionBudget"} {
		if kinds[want] == nil {
			t.Errorf("rendered manifests lack a %s", want)
		}
	}

	// The ConfigMap carries a config the scheduler accepts.
	data, _, _ := unstructured.NestedStringMap(kinds["ConfigMap"].Object, "data")
	cfgPath := filepath.Join(t.TempDir(), "config.yaml")
	if err := os.WriteFile(cfgPath, []byte(data["config.yaml"]), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := options.LoadConfigFromFile(klog.Background(), cfgPath); err != nil {
		t.Fatalf("ConfigMap config.yaml: %v", err)
	}

	cp := harness.StartControlPlane(t)
	// The namespace must exist for namespaced objects to pass a dry run.
	cp.ApplyObjects(t, []*unstructured.Unstructured{kinds["Namespace"]}, false)
	cp.ApplyObjects(t, objs, true)
	if t.Failed() {
		t.FailNow()
	}

	// Applied for real, the RBAC is enough to schedule: run the scheduler
	// as the ServiceAccount.
	cp.ApplyObjects(t, objs, false)
	kubeconfig := cp.WriteKubeconfig("scheduler-sa", serviceAccount,
		[]string{"system:serviceaccounts", "system:serviceaccounts:" + deployNamespace, "system:authenticated"})
	cp.InstallWorkloadCRDs(t)
	cp.CreateNodePool(t, v5ePool("pool-a"))
	harness.StartSchedulerWithKubeconfig(t, kubeconfig, cfgPath)
	ns := cp.CreateNamespace(t, "rbac")
	pod := cp.CreatePod(t, builders.Pod(ns, "p").Scheduler(app.Name).TPU("4").Obj())
	cp.WaitForPodBound(t, ns, pod.Name)
	cp.WaitForEvent(t, ns, pod.Name, "Scheduled", 10*time.Second)
	// Gangs need the scheduler to read JobSets.
	cp.CreateNodePool(t, v5ePool("pool-b"))
	js := cp.NewJobSets(t, harness.AllAtOnce).Create(t, builders.JobSet(ns, "gang").Exclusive(wellknown.NodePoolLabel).
		Pod(func(p *builders.PodBuilder) { p.Scheduler(app.Name).TPU("4") }).
		ReplicatedJob("slice", 1, 2).Obj())
	for _, p := range builders.PodsOf(js, 0) {
		cp.WaitForPodBound(t, ns, p.Name)
	}

	// Leader election, which the test runs without, is granted on exactly
	// our own lease.
	for _, tc := range []struct {
		verb, name string
		allowed    bool
	}{
		{"create", "", true},
		{"get", "multislice-scheduler", true},
		{"update", "multislice-scheduler", true},
		{"update", "kube-scheduler", false},
	} {
		sar, err := cp.Client.AuthorizationV1().SubjectAccessReviews().Create(t.Context(), &authorizationv1.SubjectAccessReview{
			Spec: authorizationv1.SubjectAccessReviewSpec{
				User:   serviceAccount,
				Groups: []string{"system:serviceaccounts", "system:authenticated"},
				ResourceAttributes: &authorizationv1.ResourceAttributes{
					Namespace: deployNamespace, Verb: tc.verb, Group: "coordination.k8s.io",
					Resource: "leases", Name: tc.name,
				},
			},
		}, metav1.CreateOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if sar.Status.Allowed != tc.allowed {
			t.Errorf("lease %s %q allowed=%v, want %v", tc.verb, tc.name, sar.Status.Allowed, tc.allowed)
		}
	}

	// Least privilege: nothing beyond scheduling, e.g. no secrets.
	sar, err := cp.Client.AuthorizationV1().SubjectAccessReviews().Create(t.Context(), &authorizationv1.SubjectAccessReview{
		Spec: authorizationv1.SubjectAccessReviewSpec{
			User:               serviceAccount,
			ResourceAttributes: &authorizationv1.ResourceAttributes{Verb: "list", Resource: "secrets"},
		},
	}, metav1.CreateOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if sar.Status.Allowed {
		t.Error("scheduler ServiceAccount may list secrets")
	}

	// The Deployment runs as we promise admins.
	var deploy appsv1.Deployment
	if err := runtimeConvert(kinds["Deployment"], &deploy); err != nil {
		t.Fatal(err)
	}
	if deploy.Spec.Replicas == nil || *deploy.Spec.Replicas != 2 {
		t.Errorf("replicas = %v, want 2", deploy.Spec.Replicas)
	}
	pod0 := deploy.Spec.Template.Spec
	c := pod0.Containers[0]
	if c.Image != "registry.example/multislice-scheduler:v1" {
		t.Errorf("image = %q, want the override", c.Image)
	}
	if pod0.SecurityContext == nil || pod0.SecurityContext.RunAsNonRoot == nil || !*pod0.SecurityContext.RunAsNonRoot {
		t.Error("pod does not require non-root")
	}
	if c.SecurityContext == nil || c.SecurityContext.ReadOnlyRootFilesystem == nil || !*c.SecurityContext.ReadOnlyRootFilesystem {
		t.Error("container root filesystem is writable")
	}
	if c.LivenessProbe == nil || c.LivenessProbe.HTTPGet.Path != "/healthz" || c.ReadinessProbe == nil || c.ReadinessProbe.HTTPGet.Path != "/readyz" {
		t.Error("probes are not /healthz and /readyz")
	}
	if c.Resources.Requests.Cpu().IsZero() || c.Resources.Requests.Memory().IsZero() {
		t.Error("no resource requests")
	}
}

func runtimeConvert(u *unstructured.Unstructured, into any) error {
	return runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, into)
}
