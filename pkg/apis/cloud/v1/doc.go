// Package v1 is GKE's ComputeClass API, cloud.google.com/v1, as far as
// this project reads it: the fields that decide which nodes a class's
// pods run on and how long those nodes live (priorities tried in order,
// spot, flex-start and its node recycling, maximum run duration, node pool
// auto-creation). GKE publishes no Go module for it; the types follow its
// public reference field for field.
//
// GKE serves the API from its own CRD; ours
// (manifests/crds/cloud.google.com_computeclasses.yaml) is for the local
// cluster, whose simulated node auto-provisioning reads classes, and for
// tests, and is deliberately not part of `kubectl apply -k manifests/`.
// Real classes carry many more fields (nodePoolConfig, priorityDefaults,
// location, reservations, storage, …): the spec, each priority and the
// status keep whatever fields they have
// (x-kubernetes-preserve-unknown-fields), so a class pasted from a GKE
// cluster is accepted as written while the fields modelled here are still
// typed and validated.
//
// +k8s:deepcopy-gen=package
// +groupName=cloud.google.com
package v1
