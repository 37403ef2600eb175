#!/usr/bin/env bash
# Generates everything derived from the API types of this repository: the
# multislice.dev API (pkg/apis/multislice/v1alpha1) and our definition of
# the cluster autoscaler's ProvisioningRequest API (pkg/apis/autoscaling/v1,
# whose own Go module is not available to us):
#   - their deepcopy functions (zz_generated.deepcopy.go, next to them),
#   - apply configurations, one clientset for both groups, listers and
#     informers (pkg/generated),
#   - their CRDs (manifests/crds/multislice.dev_<plural>.yaml,
#     manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml and
#     manifests/crds/cloud.google.com_computeclasses.yaml).
#
#   hack/update-codegen.sh [ROOT]
#
# ROOT, the repository by default, is the tree to generate into: it must
# hold the module's go.mod, go.sum, vendor/, pkg/apis/multislice,
# pkg/apis/autoscaling and pkg/apis/cloud, and `make verify-generated` passes a temporary
# copy. The generators are the versions hack/tools/go.mod pins, built (and
# cached) by `go tool` from hack/tools/vendor; nothing needs to be
# installed besides Go, nor downloaded.
set -euo pipefail

REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
ROOT="$(cd "${1:-$REPO}" && pwd)"
GO="${GO:-go}"

MODULE=github.com/multislice-scheduler/multislice-scheduler
APIS=(pkg/apis/multislice/v1alpha1 pkg/apis/autoscaling/v1 pkg/apis/cloud/v1)
# Versions that only add to a CRD: no Go code is generated for them.
CRD_ONLY_APIS=(pkg/apis/autoscaling/v1beta1)
GENERATED=pkg/generated

# The API packages as import paths, and comma-separated for client-gen.
API_PKGS=()
for api in "${APIS[@]}"; do API_PKGS+=("$MODULE/$api"); done
API_PKGS_CSV="$(IFS=,; echo "${API_PKGS[*]}")"

# Types of other APIs our types embed, whose apply configurations client-go
# already has (meta/v1's are known to applyconfiguration-gen).
EXTERNAL_APPLYCONFIGS=k8s.io/api/core/v1.Taint:k8s.io/client-go/applyconfigurations/core/v1
EXTERNAL_APPLYCONFIGS+=,k8s.io/api/core/v1.Toleration:k8s.io/client-go/applyconfigurations/core/v1

# tool NAME: the path of the generator NAME, built from hack/tools' module
# and its vendor/, offline.
tool() {
	(cd "$REPO/hack/tools" && GOFLAGS=-mod=vendor GOPROXY=off "$GO" tool -n "$1")
}

# The generators load the API package from ROOT's module, through vendor/.
cd "$ROOT"
header=/dev/null

rm -rf "$GENERATED" manifests/crds/multislice.dev_*.yaml manifests/crds/autoscaling.x-k8s.io_*.yaml manifests/crds/cloud.google.com_*.yaml

"$(tool deepcopy-gen)" --go-header-file "$header" \
	--output-file zz_generated.deepcopy.go \
	"${API_PKGS[@]}"

"$(tool applyconfiguration-gen)" --go-header-file "$header" \
	--external-applyconfigurations "$EXTERNAL_APPLYCONFIGS" \
	--output-dir "$GENERATED/applyconfiguration" \
	--output-pkg "$MODULE/$GENERATED/applyconfiguration" \
	"${API_PKGS[@]}"

"$(tool client-gen)" --go-header-file "$header" \
	--clientset-name versioned \
	--input-base "" \
	--input "$API_PKGS_CSV" \
	--apply-configuration-package "$MODULE/$GENERATED/applyconfiguration" \
	--output-dir "$GENERATED/clientset" \
	--output-pkg "$MODULE/$GENERATED/clientset"

"$(tool lister-gen)" --go-header-file "$header" \
	--output-dir "$GENERATED/listers" \
	--output-pkg "$MODULE/$GENERATED/listers" \
	"${API_PKGS[@]}"

"$(tool informer-gen)" --go-header-file "$header" \
	--versioned-clientset-package "$MODULE/$GENERATED/clientset/versioned" \
	--listers-package "$MODULE/$GENERATED/listers" \
	--output-dir "$GENERATED/informers" \
	--output-pkg "$MODULE/$GENERATED/informers" \
	"${API_PKGS[@]}"

mkdir -p manifests/crds
crd_paths=()
for api in "${APIS[@]}" "${CRD_ONLY_APIS[@]}"; do crd_paths+=("paths=./$api"); done
"$(tool controller-gen)" crd "${crd_paths[@]}" output:crd:dir=manifests/crds
