//go:build tools

// Package tools pins the code generators of this project in a module of
// their own, so their dependencies never enter the scheduler's module graph
// or vendor/. The imports keep the API packages whose CRDs `make crds`
// generates (JobSet, and scheduler-plugins' PodGroup) at the versions the
// scheduler's go.mod pins; `make verify-crds` checks they agree. The
// generators themselves are the module's tool directives: controller-gen,
// and code-generator's deepcopy-gen, applyconfiguration-gen, client-gen,
// lister-gen and informer-gen, which `make generate` runs on the
// multislice.dev API (hack/update-codegen.sh), and helm, which lints and
// renders the chart (`make verify-chart`) and installs it in the
// end-to-end tests (bin/helm, `make helm`).
package tools

import (
	_ "sigs.k8s.io/jobset/api/jobset/v1alpha2"
	_ "sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1"
)
