package harness

import (
	"context"
	"testing"
	"time"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apiextensionsclient "k8s.io/apiextensions-apiserver/pkg/client/clientset/clientset"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

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
