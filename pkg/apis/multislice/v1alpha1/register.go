package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of the queueing API.
const GroupName = "multislice.dev"

// SchemeGroupVersion is the group and version the types of this package are
// served as.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

// Resource takes an unqualified resource (e.g. "clusterqueues") and returns
// it qualified by this package's group.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

// Kind takes an unqualified kind and returns it qualified by this package's
// group.
func Kind(kind string) schema.GroupKind {
	return SchemeGroupVersion.WithKind(kind).GroupKind()
}

var (
	// SchemeBuilder registers the types of this package with a scheme.
	SchemeBuilder      = runtime.NewSchemeBuilder(addKnownTypes)
	localSchemeBuilder = &SchemeBuilder
	// AddToScheme adds the types of this package to a scheme.
	AddToScheme = localSchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&ResourceFlavor{}, &ResourceFlavorList{},
		&ClusterQueue{}, &ClusterQueueList{},
		&LocalQueue{}, &LocalQueueList{},
		&Workload{}, &WorkloadList{},
		&AdmissionCheck{}, &AdmissionCheckList{},
		&ProvisioningRequestConfig{}, &ProvisioningRequestConfigList{},
		&Topology{}, &TopologyList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
