package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ResourceFlavor names a kind of node: a ClusterQueue's quota is given per
// flavor, and a workload admitted with a flavor runs on the nodes the
// flavor's labels select.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster,shortName=flavor;flavors;rf,categories=multislice
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type ResourceFlavor struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec describes the nodes of the flavor.
	// +optional
	Spec ResourceFlavorSpec `json:"spec,omitempty"`
}

// ResourceFlavorSpec describes the nodes of a flavor.
//
// +kubebuilder:validation:XValidation:rule="!has(self.topologyName) || (has(self.nodeLabels) && size(self.nodeLabels) > 0)",message="a flavor with a topologyName needs nodeLabels, which select the topology's nodes",fieldPath=".nodeLabels"
// +kubebuilder:validation:XValidation:rule="!has(oldSelf.topologyName) || (has(self.topologyName) && self.topologyName == oldSelf.topologyName)",message="topologyName cannot change once set",fieldPath=".topologyName"
type ResourceFlavorSpec struct {
	// nodeLabels are the labels of the flavor's nodes. A workload admitted
	// with this flavor is placed on nodes that carry all of them; a flavor
	// without labels matches every node.
	// +optional
	// +kubebuilder:validation:MaxProperties=16
	NodeLabels map[string]string `json:"nodeLabels,omitempty"`

	// nodeTaints are taints the flavor's nodes carry. A workload is admitted
	// with the flavor only if its pods tolerate them (or the flavor's
	// tolerations do).
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	NodeTaints []corev1.Taint `json:"nodeTaints,omitempty"`

	// tolerations are added to the pods of a workload admitted with this
	// flavor, so that they can run on its tainted nodes.
	// +optional
	// +listType=atomic
	// +kubebuilder:validation:MaxItems=8
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`

	// topologyName names the Topology the flavor's nodes are arranged in
	// (Kueue's field). The flavor then needs nodeLabels, which select the
	// topology's nodes. It cannot change once set.
	// +optional
	// +kubebuilder:validation:MaxLength=253
	// +kubebuilder:validation:Pattern=`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`
	TopologyName string `json:"topologyName,omitempty"`
}

// ResourceFlavorList is a list of ResourceFlavors.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type ResourceFlavorList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ResourceFlavor `json:"items"`
}
