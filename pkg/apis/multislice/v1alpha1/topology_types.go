package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Topology names the levels a fleet's nodes are arranged in, highest first
// (for example a block, a subblock within it, a host within that): the
// node labels whose values say which domain of each level a node lies in.
// A ResourceFlavor refers to it by name (spec.topologyName). Kueue's
// Topology objects apply with only their apiVersion changed.
//
// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
// +kubebuilder:resource:scope=Cluster,shortName=topo,categories=multislice
// +kubebuilder:printcolumn:name="Age",type="date",JSONPath=".metadata.creationTimestamp"
type Topology struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// spec lists the topology's levels.
	Spec TopologySpec `json:"spec"`
}

// TopologySpec lists a topology's levels.
type TopologySpec struct {
	// levels are the topology's levels, highest (coarsest) first. A node
	// lies in the topology only if it carries the label of every level.
	// kubernetes.io/hostname, when used, is the lowest level. Levels may
	// change only while kubernetes.io/hostname stays the lowest level
	// before and after the change.
	// +required
	// +listType=atomic
	// +kubebuilder:validation:MinItems=1
	// +kubebuilder:validation:MaxItems=16
	// +kubebuilder:validation:XValidation:rule="self.all(a, self.exists_one(b, b.nodeLabel == a.nodeLabel))",message="levels must name each node label once"
	// +kubebuilder:validation:XValidation:rule="self.all(l, l.nodeLabel != 'kubernetes.io/hostname' || l == self[size(self)-1])",message="kubernetes.io/hostname can only be the lowest level"
	// +kubebuilder:validation:XValidation:rule="self == oldSelf || (self[size(self)-1].nodeLabel == 'kubernetes.io/hostname' && oldSelf[size(oldSelf)-1].nodeLabel == 'kubernetes.io/hostname')",message="levels may change only while kubernetes.io/hostname is the lowest level before and after"
	Levels []TopologyLevel `json:"levels"`
}

// TopologyLevel is one level of a topology.
type TopologyLevel struct {
	// nodeLabel is the label whose value names the node's domain at this
	// level, for example cloud.google.com/gce-topology-block.
	// +required
	// +kubebuilder:validation:MinLength=1
	// +kubebuilder:validation:MaxLength=316
	// +kubebuilder:validation:Pattern=`^([a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*/)?(([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9])$`
	NodeLabel string `json:"nodeLabel"`
}

// TopologyList is a list of Topologies.
//
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object
type TopologyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []Topology `json:"items"`
}
