// Package crds holds the CustomResourceDefinitions of third-party
// controllers that the local cluster runs.
package crds

import _ "embed"

// JobSet is the JobSet CRD of sigs.k8s.io/jobset, the version pinned in
// go.mod.
//
//go:embed jobset.x-k8s.io_jobsets.yaml
var JobSet []byte
