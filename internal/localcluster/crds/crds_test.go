package crds

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	jobsetv1alpha2 "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	schedv1alpha1 "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
	"sigs.k8s.io/yaml"
)

// Each embedded CRD serves, as its storage version, the group and version
// of the Go API types the scheduler and the tests use.
func TestCRDsServeThePinnedAPIs(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		gv   schema.GroupVersion
		kind string
	}{
		{JobSet, jobsetv1alpha2.GroupVersion, "JobSet"},
		{PodGroup, schedv1alpha1.SchemeGroupVersion, "PodGroup"},
	} {
		var crd apiextensionsv1.CustomResourceDefinition
		if err := yaml.UnmarshalStrict(tc.data, &crd); err != nil {
			t.Fatalf("%s: %v", tc.kind, err)
		}
		if crd.Spec.Group != tc.gv.Group || crd.Spec.Names.Kind != tc.kind || crd.Spec.Scope != apiextensionsv1.NamespaceScoped {
			t.Errorf("%s: CRD %s serves %s %s (%s)", tc.kind, crd.Name, crd.Spec.Group, crd.Spec.Names.Kind, crd.Spec.Scope)
		}
		served := false
		for _, v := range crd.Spec.Versions {
			served = served || (v.Name == tc.gv.Version && v.Served && v.Storage && v.Schema != nil)
		}
		if !served {
			t.Errorf("%s: CRD %s does not serve and store %s with a schema", tc.kind, crd.Name, tc.gv.Version)
		}
	}
}
