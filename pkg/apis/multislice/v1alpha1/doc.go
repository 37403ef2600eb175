// Package v1alpha1 is the multislice.dev/v1alpha1 queueing API: the
// ResourceFlavors, ClusterQueues and LocalQueues an administrator writes to
// share accelerator quota between teams, and the Workloads through which
// multislice-scheduler records what each JobSet, PodGroup or Job asks for
// and where its quota was reserved. AdmissionChecks, configured by
// ProvisioningRequestConfigs, make workloads wait for capacity the cluster
// autoscaler provisions for them before they are admitted.
//
// The kinds follow the shape of Kueue's kueue.x-k8s.io/v1beta1 API, so that
// manifests written for it apply here with only their apiVersion changed.
// The scheduler admits workloads itself: there is no separate queue
// controller, and fields whose semantics are not enforced yet say so.
//
// +k8s:deepcopy-gen=package
// +groupName=multislice.dev
package v1alpha1
