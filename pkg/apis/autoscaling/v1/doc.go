// Package v1 is the cluster autoscaler's ProvisioningRequest API,
// autoscaling.x-k8s.io/v1, defined here because its Go module
// (k8s.io/autoscaler/cluster-autoscaler/apis) is not available to this
// project. The types follow the published schema field for field: names,
// required fields, immutability and limits, so that what the scheduler
// creates is accepted by the autoscaler's own CRD and the tests can check
// it against the same rules.
//
// A real cluster serves the API from the CRD its cluster autoscaler
// installs (GKE's does); the CRD generated from this package
// (manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml) is for
// the local cluster and the tests, and is deliberately not part of
// `kubectl apply -k manifests/`. It serves v1beta1 beside v1 (package
// v1beta1), with the same schema and v1 stored, as the autoscaler's does.
//
// +k8s:deepcopy-gen=package
// +groupName=autoscaling.x-k8s.io
package v1
