package builders

import (
	"strings"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// PermissiveCRD is a namespaced CRD with a status subresource whose schema
// accepts any object: enough to serve JobSets and PodGroups to a scheduler
// under test, which reads them with their typed clients.
func PermissiveCRD(group, version, kind, plural string) *apiextensionsv1.CustomResourceDefinition {
	preserve := true
	return &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{
			Group: group,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, ListKind: kind + "List", Plural: plural, Singular: strings.ToLower(kind)},
			Scope: apiextensionsv1.NamespaceScoped,
			Versions: []apiextensionsv1.CustomResourceDefinitionVersion{{
				Name: version, Served: true, Storage: true,
				Schema: &apiextensionsv1.CustomResourceValidation{OpenAPIV3Schema: &apiextensionsv1.JSONSchemaProps{
					Type:                   "object",
					XPreserveUnknownFields: &preserve,
				}},
				Subresources: &apiextensionsv1.CustomResourceSubresources{Status: &apiextensionsv1.CustomResourceSubresourceStatus{}},
			}},
		},
	}
}

// JobSetCRD serves jobset.x-k8s.io/v1alpha2 JobSets.
func JobSetCRD() *apiextensionsv1.CustomResourceDefinition {
	return PermissiveCRD("jobset.x-k8s.io", "v1alpha2", "JobSet", "jobsets")
}

// PodGroupCRD serves scheduling.x-k8s.io/v1alpha1 PodGroups.
func PodGroupCRD() *apiextensionsv1.CustomResourceDefinition {
	return PermissiveCRD("scheduling.x-k8s.io", "v1alpha1", "PodGroup", "podgroups")
}

// WorkloadCRDs are the CRDs of every workload source the scheduler reads.
func WorkloadCRDs() []*apiextensionsv1.CustomResourceDefinition {
	return []*apiextensionsv1.CustomResourceDefinition{JobSetCRD(), PodGroupCRD()}
}
