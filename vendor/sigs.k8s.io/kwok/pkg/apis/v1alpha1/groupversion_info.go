/*
Copyright 2022 The Kubernetes Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// +kubebuilder:object:generate=true
// +groupName=kwok.x-k8s.io

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	// GroupVersion is group version used to register these objects
	GroupVersion = schema.GroupVersion{
		Group:   "kwok.x-k8s.io",
		Version: "v1alpha1",
	}

	// SchemeBuilder is used to add go types to the GroupVersionKind scheme
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes)

	// AddToScheme adds the types in this group-version to the given scheme
	AddToScheme = SchemeBuilder.AddToScheme
)

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(GroupVersion,
		&Attach{}, &AttachList{},
		&ClusterAttach{}, &ClusterAttachList{},
		&Exec{}, &ExecList{},
		&ClusterExec{}, &ClusterExecList{},
		&Logs{}, &LogsList{},
		&ClusterLogs{}, &ClusterLogsList{},
		&PortForward{}, &PortForwardList{},
		&ClusterPortForward{}, &ClusterPortForwardList{},
		&ResourceUsage{}, &ResourceUsageList{},
		&ClusterResourceUsage{}, &ClusterResourceUsageList{},
		&Metric{}, &MetricList{},
		&Stage{}, &StageList{},
	)

	metav1.AddToGroupVersion(scheme, GroupVersion)
	return nil
}
