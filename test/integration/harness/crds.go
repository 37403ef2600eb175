package harness

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"sigs.k8s.io/yaml"

	"github.com/multislice-scheduler/multislice-scheduler/test/builders"
)

// InstallWorkloadCRDs installs the JobSet and PodGroup APIs. The schemas
// accept any object: the tests exercise the scheduler, not the APIs'
// validation, and the scheduler reads them with their typed clients.
func (cp *ControlPlane) InstallWorkloadCRDs(t testing.TB) {
	t.Helper()
	client := apiextensionsclient.NewForConfigOrDie(cp.Config)
	for _, crd := range []*apiextensionsv1.CustomResourceDefinition{
		builders.JobSetCRD(),
		builders.PodGroupCRD(),
	} {
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(t.Context(), crd, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create CRD %s: %v", crd.Name, err)
		}
		err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
			_, err := cp.Client.Discovery().ServerResourcesForGroupVersion(crd.Spec.Group + "/" + crd.Spec.Versions[0].Name)
			return err == nil, nil
		})
		if err != nil {
			t.Fatalf("CRD %s not served: %v", crd.Name, err)
		}
	}
}

// InstallQueueCRDs installs the multislice.dev queueing API from the CRDs
// `make generate` writes (manifests/crds/multislice.dev_*.yaml), with their
// full schemas and validation rules, and waits until every resource is
// served.
func (cp *ControlPlane) InstallQueueCRDs(t testing.TB) {
	t.Helper()
	cp.installCRDFiles(t, "manifests/crds/multislice.dev_*.yaml")
}

// InstallProvisioningCRDs installs the cluster autoscaler's
// ProvisioningRequest API (autoscaling.x-k8s.io/v1) from the CRD `make
// generate` writes from our definition of it
// (manifests/crds/autoscaling.x-k8s.io_*.yaml), with its full schema and
// validation rules, and waits until it is served. On a real cluster the
// autoscaler installs its own CRD; the tests stand in for it.
func (cp *ControlPlane) InstallProvisioningCRDs(t testing.TB) {
	t.Helper()
	cp.installCRDFiles(t, "manifests/crds/autoscaling.x-k8s.io_*.yaml")
}

// InstallComputeClassCRD installs GKE's ComputeClass API
// (cloud.google.com/v1) from the CRD `make generate` writes from our
// definition of it (manifests/crds/cloud.google.com_*.yaml), with its full
// schema, and waits until it is served. On GKE the API is GKE's own; the
// tests stand in for it.
func (cp *ControlPlane) InstallComputeClassCRD(t testing.TB) {
	t.Helper()
	cp.installCRDFiles(t, "manifests/crds/cloud.google.com_*.yaml")
}

// installCRDFiles creates the CRDs of the files matching pattern (relative
// to the repository root) and waits until each served version lists the
// CRD's resource in discovery: only then do typed and dynamic clients find
// it.
func (cp *ControlPlane) installCRDFiles(t testing.TB, pattern string) {
	t.Helper()
	files, err := filepath.Glob(RepoPath(t, pattern))
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no %s: run 'make generate'", pattern)
	}
	client := apiextensionsclient.NewForConfigOrDie(cp.Config)
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		crd := &apiextensionsv1.CustomResourceDefinition{}
		if err := yaml.UnmarshalStrict(data, crd); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		if _, err := client.ApiextensionsV1().CustomResourceDefinitions().Create(t.Context(), crd, metav1.CreateOptions{}); err != nil {
			t.Fatalf("create CRD %s: %v", crd.Name, err)
		}
		for _, version := range crd.Spec.Versions {
			if !version.Served {
				continue
			}
			gv := crd.Spec.Group + "/" + version.Name
			err := wait.PollUntilContextTimeout(t.Context(), 100*time.Millisecond, WaitTimeout, true, func(ctx context.Context) (bool, error) {
				resources, err := cp.Client.Discovery().ServerResourcesForGroupVersion(gv)
				if err != nil {
					return false, nil
				}
				return slices.ContainsFunc(resources.APIResources, func(r metav1.APIResource) bool {
					return r.Name == crd.Spec.Names.Plural
				}), nil
			})
			if err != nil {
				t.Fatalf("CRD %s not served as %s: %v", crd.Name, gv, err)
			}
		}
	}
}
