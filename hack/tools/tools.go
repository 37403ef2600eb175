//go:build tools

// Package tools pins the code generators of this project in a module of
// their own, so their dependencies never enter the scheduler's module graph
// or vendor/. The import keeps the JobSet API, whose CRD `make crds`
// generates, at the version the scheduler's go.mod pins.
package tools

import _ "sigs.k8s.io/jobset/api/jobset/v1alpha2"
