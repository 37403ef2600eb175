# multislice-scheduler build, test and benchmark entry points.
# Every build uses the committed vendor/ directory (the code generators and
# Helm hack/tools/vendor/); tools (etcd) are built from the module graph,
# never downloaded as binaries.

SHELL := /usr/bin/env bash -o pipefail
.SHELLFLAGS := -ec
.DEFAULT_GOAL := build

GO       ?= go
MODULE   := github.com/multislice-scheduler/multislice-scheduler
BIN      := $(CURDIR)/bin
OUTPUT   := $(CURDIR)/_output

VERSION    ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
COMMIT     ?= $(shell git rev-parse HEAD 2>/dev/null || echo unknown)
BUILD_DATE ?= $(shell date -u +%Y-%m-%dT%H:%M:%SZ)
LDFLAGS    := -s -w \
	-X $(MODULE)/pkg/version.gitVersion=$(VERSION) \
	-X $(MODULE)/pkg/version.gitCommit=$(COMMIT) \
	-X $(MODULE)/pkg/version.buildDate=$(BUILD_DATE)

IMG ?= multislice-scheduler:$(VERSION)

# The in-process kube-apiserver of the integration tests caches its serving
# certificate in this package's testdata/, which `go mod vendor` drops.
APISERVER_FIXTURES := vendor/k8s.io/kubernetes/cmd/kube-apiserver/app/testing/testdata

# Packages with plain unit tests: everything outside test/.
UNIT_PKGS = $(shell $(GO) list ./... | grep -v '^$(MODULE)/test/')

# Benchmarks: BENCH_SIZE=large adds the 5000-node workloads, BENCH_SIZE=xlarge
# runs the 15 000-node ones alone (plain pods and gangs), BENCH_SIZE=topology
# the Topology scenario alone at every size; BENCH_COUNT repeats.
BENCH_SIZE   ?= default
BENCH_COUNT  ?= 1
BENCH_OUT    ?= $(OUTPUT)/bench
comma := ,
BENCH_FILTER := $(if $(filter xlarge,$(BENCH_SIZE)),xlarge,$(if $(filter large,$(BENCH_SIZE)),performance,$(if $(filter topology,$(BENCH_SIZE)),topology$(comma)performance,performance$(comma)-large)))
BENCH_RUN    := $(if $(filter xlarge,$(BENCH_SIZE)),BenchmarkPerfScheduling/(Baseline|Multislice_(PlainPods|Gangs)),$(if $(filter topology,$(BENCH_SIZE)),BenchmarkPerfScheduling/Topology,.))

TEST_FLAGS ?=

# Fuzzing (`make test-fuzz`): FUZZTIME per target, and FUZZFLAGS: one
# worker (the short run of `make test` shares the machine) and a bounded
# minimization, so that a new input does not stall a short run. FUZZ_PKGS
# are the packages whose tests define fuzz targets.
FUZZTIME  ?= 10s
FUZZFLAGS ?= -parallel 1 -fuzzminimizetime 2s
FUZZ_PKGS  = $(addprefix ./,$(sort $(dir $(shell grep -rl --include='*_test.go' '^func Fuzz' cmd pkg internal))))

# The local cluster (`make run`, `make demo`, `make test-e2e`). Every component
# is built from vendor/: third-party binaries change only when the vendored
# modules do (vendor/modules.txt), ours when their sources do.
NODEPOOLS    ?= manifests/examples/nodepools.yaml
POD_RUN_TIME ?= 0
SCENARIO     ?= multislice-v5e
# The chaos soak (`make chaos`): how long, and the seed of its random
# choices (0: one from the clock, printed).
DURATION     ?= 10m
SEED         ?= 0
KUBE_VERSION   := $(shell $(GO) list -m -f '{{.Version}}' k8s.io/kubernetes)
KUBE_MAJOR     := $(word 1,$(subst ., ,$(KUBE_VERSION:v%=%)))
KUBE_MINOR     := $(word 2,$(subst ., ,$(KUBE_VERSION:v%=%)))
JOBSET_VERSION := $(shell $(GO) list -m -f '{{.Version}}' sigs.k8s.io/jobset)
KUBE_LDFLAGS   := -s -w \
	-X k8s.io/component-base/version.gitVersion=$(KUBE_VERSION) \
	-X k8s.io/component-base/version.gitMajor=$(KUBE_MAJOR) \
	-X k8s.io/component-base/version.gitMinor=$(KUBE_MINOR) \
	-X k8s.io/client-go/pkg/version.gitVersion=$(KUBE_VERSION) \
	-X k8s.io/client-go/pkg/version.gitMajor=$(KUBE_MAJOR) \
	-X k8s.io/client-go/pkg/version.gitMinor=$(KUBE_MINOR)
# Our Go sources and the files embedded in them.
GO_SOURCES := go.mod go.sum $(shell find cmd pkg internal -type f \( -name '*.go' -o -name '*.yaml' -o -name '*.tmpl' -o -name '*.html' -o -name '*.js' -o -name '*.css' -o -name '*.svg' \) -not -name '*_test.go')
CLUSTER_BINARIES := $(BIN)/etcd $(BIN)/kube-apiserver $(BIN)/kube-controller-manager \
	$(BIN)/jobset-controller $(BIN)/kwok $(BIN)/multislice-scheduler $(BIN)/localcluster \
	$(BIN)/kubectl-multislice $(BIN)/multislice-fleet $(BIN)/multislice-webhook

.PHONY: build
build: ## Build bin/multislice-scheduler.
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/multislice-scheduler ./cmd/multislice-scheduler

# The same binary as `build`, without -trimpath: that way it shares compiled
# packages with the tests and the Kubernetes binaries, which matters on a
# cold build cache (CI).
$(BIN)/multislice-scheduler: $(GO_SOURCES)
	$(GO) build -ldflags '$(LDFLAGS)' -o $@ ./cmd/multislice-scheduler

$(BIN)/localcluster: $(GO_SOURCES)
	$(GO) build -ldflags '-s -w' -o $@ ./cmd/localcluster

# The kubectl plugin: with bin/ on PATH, `kubectl multislice ...`.
$(BIN)/kubectl-multislice: $(GO_SOURCES)
	$(GO) build -ldflags '-s -w' -o $@ ./cmd/kubectl-multislice

.PHONY: kubectl-multislice
kubectl-multislice: $(BIN)/kubectl-multislice ## Build the kubectl plugin bin/kubectl-multislice (`kubectl multislice` with bin/ on PATH).

# The admission webhook (docs/tasks/webhook.md), which the local cluster runs.
$(BIN)/multislice-webhook: $(GO_SOURCES)
	$(GO) build -ldflags '$(LDFLAGS)' -o $@ ./cmd/multislice-webhook

# The fleet page, which the local cluster starts (`make run` prints its URL).
$(BIN)/multislice-fleet: $(GO_SOURCES)
	$(GO) build -ldflags '-s -w' -o $@ ./cmd/multislice-fleet

$(BIN)/kube-apiserver $(BIN)/kube-controller-manager $(BIN)/kubectl: $(BIN)/%: vendor/modules.txt
	$(GO) build -ldflags '$(KUBE_LDFLAGS)' -o $@ k8s.io/kubernetes/cmd/$*

$(BIN)/jobset-controller: vendor/modules.txt
	$(GO) build -ldflags '-s -w -X sigs.k8s.io/jobset/pkg/version.GitVersion=$(JOBSET_VERSION)' -o $@ sigs.k8s.io/jobset

$(BIN)/kwok: vendor/modules.txt
	$(GO) build -ldflags '-s -w' -o $@ sigs.k8s.io/kwok/cmd/kwok

.PHONY: cluster-binaries
cluster-binaries: $(CLUSTER_BINARIES) ## Build the local cluster's components and the kubectl plugin into bin/ (only what changed).

.PHONY: kubectl
kubectl: ## Build bin/kubectl from vendor/ unless kubectl is on PATH.
	@command -v kubectl >/dev/null 2>&1 || $(MAKE) --no-print-directory $(BIN)/kubectl

$(BIN)/etcd: go.mod go.sum
	$(GO) build -o $@ go.etcd.io/etcd/server/v3

.PHONY: etcd
etcd: $(BIN)/etcd ## Build etcd from the module graph into bin/.

.PHONY: fixtures
fixtures:
	@mkdir -p $(APISERVER_FIXTURES)

# $(call failure-summary,log): what failed in a `go test` log, repeated at
# its end without the apiserver's and etcd's log lines, so that the tail of
# a long run says which test failed and why.
failure-summary = echo; echo "== failures (the lines of failing tests, without component logs):"; \
	grep -v -E '^[IWE][0-9]{4} |^\s+(/|go\.etcd\.io|[a-z_./-]+\.go:[0-9]+ \+0x)|^\s+[a-z_]+\.go:[0-9]+: ([IWE][0-9]{4} |Resolved testserver|runtime-config|Starting kube-apiserver|Waiting for /healthz)|etcd output|^ > ' $(1) | \
	grep -E -A12 -- '^\s*--- FAIL|^panic:|^FAIL|_test\.go:[0-9]+:' | grep -v -E '^\s*--- PASS' | tail -120

.PHONY: test
test: test-unit test-fuzz-short test-integration ## Unit tests, a short fuzzing run and integration tests (the README's test command).

.PHONY: test-unit
test-unit: ## Unit tests of the framework-free and glue packages.
	$(GO) test $(TEST_FLAGS) $(UNIT_PKGS)

# Go fuzzes one target per `go test` run, so every target `go test -list`
# finds in FUZZ_PKGS runs on its own. Go 1.26's fuzzing coordinator can fail
# a run that found nothing with a bare "context deadline exceeded" as
# -fuzztime ends (golang/go#75804): such a run, with no failing input
# written, is reported and passes.
.PHONY: test-fuzz
test-fuzz: ## Fuzz what users write (pod labels, JobSets, Jobs, PodGroups, queues, provisioning configs, node pool files): every target for FUZZTIME (10s; FUZZTIME=5m for longer).
	@for pkg in $(FUZZ_PKGS); do \
	  targets="$$($(GO) test -list '^Fuzz' $$pkg)" || { echo "$$targets"; exit 1; }; \
	  for target in $$(echo "$$targets" | grep '^Fuzz'); do \
	    echo "== $$target ($$pkg) for $(FUZZTIME)"; \
	    log="$$(mktemp)"; \
	    if ! $(GO) test -run '^$$' -fuzz "^$$target\$$" -fuzztime $(FUZZTIME) $(FUZZFLAGS) $$pkg 2>&1 | tee "$$log"; then \
	      if grep -qx '    context deadline exceeded' "$$log" && ! grep -q 'Failing input written' "$$log"; then \
	        echo "$$target: found nothing; the fuzzing engine overran -fuzztime (golang/go#75804)"; \
	      else rm -f "$$log"; exit 1; fi; \
	    fi; \
	    rm -f "$$log"; \
	  done; \
	done

.PHONY: test-fuzz-short
test-fuzz-short: ## test-fuzz for 3s per target (a step of `make test`).
	@$(MAKE) --no-print-directory test-fuzz FUZZTIME=3s

# Under the race detector the in-process apiserver and etcd run about
# twice as slowly: the whole integration suite takes ~35 minutes on 2 cores.
# CI races the unit tests and the integration packages below (~15 minutes);
# the fault suite and the gang package, the longest, race in test-race-all.
RACE_INTEGRATION_PKGS = ./test/integration/faultinfra ./test/integration/preemption ./test/integration/provisioning \
	./test/integration/queueapi ./test/integration/quota ./test/integration/scheduler

.PHONY: test-race
test-race: etcd fixtures $(BIN)/multislice-scheduler ## Unit tests and most integration packages under the race detector (a step of CI after `make test`).
	$(GO) test -race $(TEST_FLAGS) $(UNIT_PKGS)
	PATH=$(BIN):$$PATH $(GO) test -race $(TEST_FLAGS) -timeout 40m $(RACE_INTEGRATION_PKGS)

.PHONY: test-race-all
test-race-all: etcd fixtures $(BIN)/multislice-scheduler ## Unit and every integration package under the race detector (~45 minutes).
	$(GO) test -race $(TEST_FLAGS) $(UNIT_PKGS)
	PATH=$(BIN):$$PATH $(GO) test -race $(TEST_FLAGS) -timeout 80m ./test/integration/...

.PHONY: test-e2e
test-e2e: cluster-binaries $(BIN)/helm chromium ## End-to-end tests on the local cluster (real JobSet webhooks and controllers, KWOK nodes; the fleet page in headless Chromium).
	$(GO) test $(TEST_FLAGS) -count=1 -timeout 35m ./test/e2e/...

# The fleet page's browser test drives Debian's chromium; CI-like machines
# start without it.
.PHONY: chromium
chromium: ## Install Debian's chromium (for the fleet page's browser test in test-e2e) unless it is on PATH.
	@command -v chromium >/dev/null 2>&1 || { \
	  sudo=; [ "$$(id -u)" = 0 ] || sudo=sudo; \
	  $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y chromium; }

.PHONY: test-integration
test-integration: etcd fixtures $(BIN)/multislice-scheduler ## Tests on a real kube-apiserver + etcd (with replicas of bin/multislice-scheduler), and a smoke run of the benchmarks.
	@log="$$(mktemp)"; trap 'rm -f "$$log"' EXIT; \
	PATH=$(BIN):$$PATH $(GO) test $(TEST_FLAGS) -timeout 20m ./test/integration/... 2>&1 | tee "$$log" || { \
	  $(call failure-summary,"$$log"); exit 1; }
	rm -rf $(OUTPUT)/bench-smoke
	# The perf package's own tests (result accounting, scenario config), then
	# every scenario at its short size.
	PATH=$(BIN):$$PATH $(GO) test -timeout 10m ./test/perf/ -run '^Test' -bench . -benchtime 1x \
		-perf-scheduling-label-filter=short -data-items-dir $(OUTPUT)/bench-smoke
	$(GO) run ./hack/benchreport -o $(OUTPUT)/bench-smoke/results.md $(OUTPUT)/bench-smoke
	cat $(OUTPUT)/bench-smoke/results.md
	# The report has its plots: the ratios, and pods bound over time, which
	# the perf package recorded.
	ls $(OUTPUT)/bench-smoke/plots/ratio-time.svg $(OUTPUT)/bench-smoke/plots/bound-*.svg
	# And the gang latency table, with a row of the Multislice gangs, and
	# its plot: the perf package recorded each gang's latency.
	awk '/^## Gang latency$$/ { s = 1; next } /^## / { s = 0 } s && /^\| Multislice \|/ { f = 1 } END { exit !f }' \
		$(OUTPUT)/bench-smoke/results.md || { echo "results.md has no gang latency table with a Multislice row"; exit 1; }
	ls $(OUTPUT)/bench-smoke/plots/ratio-gang-latency-p99.svg

.PHONY: bench
bench: etcd fixtures ## scheduler_perf: every scenario through the default profile and ours, one run; writes _output/bench/results.md and its plots (plots/*.svg).
	rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	PATH=$(BIN):$$PATH $(GO) test -timeout 120m ./test/perf/ -run '^$$' -bench '$(BENCH_RUN)' -benchtime 1x -count $(BENCH_COUNT) \
		-perf-scheduling-label-filter=$(BENCH_FILTER) -data-items-dir $(BENCH_OUT) | tee $(BENCH_OUT)/bench.log
	$(GO) run ./hack/benchreport -o $(BENCH_OUT)/results.md $(BENCH_OUT)
	cat $(BENCH_OUT)/results.md
	# One preemption decision on its own (1000 candidate workloads), apart
	# from the apiserver and etcd that share the CPU in scheduler_perf.
	$(GO) test ./pkg/admission/ -run '^$$' -bench Preempt -benchtime 50x -benchmem | tee $(BENCH_OUT)/preemption-decision.txt
	# kube-scheduler's queue walking the pods it holds, per pod bound; and
	# one gang's decision (snapshot and plan) at 1024, 4096 and 15 000 nodes.
	$(GO) test ./pkg/plugins/multislicegang/ -run '^$$' -bench QueueWalk -benchtime 2000x -count 3 -benchmem | tee $(BENCH_OUT)/queue-walk.txt
	$(GO) test ./pkg/state/ -run '^$$' -bench SnapshotAndPlan -benchtime 20x -count 3 -benchmem | tee $(BENCH_OUT)/gang-decision.txt
	$(GO) test ./pkg/admission/ -run '^$$' -bench PlanTopology -benchtime 20x -count 3 -benchmem | tee $(BENCH_OUT)/topology-decision.txt
	# A topology gang's decision through the state (its snapshot of the
	# roomiest domains, then the plan) at 1000, 5000 and 15 000 hosts.
	$(GO) test ./pkg/state/ -run '^$$' -bench TopologyDecision -benchtime 20x -count 3 -benchmem | tee $(BENCH_OUT)/topology-state-decision.txt

# docs/performance.md shows the plots of one run from docs/bench/: this replaces
# them, and the report that shows them all, with another run's
# (BENCH_OUT=_output/bench-smoke for the smoke run of test-integration).
.PHONY: bench-docs
bench-docs: ## Copy a run's report and plots (BENCH_OUT, _output/bench by default) into docs/bench/, which docs/performance.md shows.
	@test -f $(BENCH_OUT)/results.md || { echo "no $(BENCH_OUT)/results.md: run 'make bench' first, or set BENCH_OUT"; exit 1; }
	rm -rf docs/bench && mkdir -p docs/bench/plots
	{ echo "_The report of \`$(patsubst $(CURDIR)/%,%,$(BENCH_OUT))\`, copied by \`make bench-docs\` at $(VERSION) on $$(date -u +%Y-%m-%d)._"; \
	  echo; cat $(BENCH_OUT)/results.md; } > docs/bench/results.md
	cp $(BENCH_OUT)/plots/*.svg docs/bench/plots/

.PHONY: verify
verify: verify-fmt verify-vet verify-vendor verify-manifests verify-crds verify-generated verify-chart verify-docs ## Static checks; fails on any drift.

.PHONY: verify-fmt
verify-fmt:
	@files="$$(git ls-files '*.go' | grep -v -E '(^|/)vendor/')"; \
	out="$$(gofmt -l $$files)"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

.PHONY: verify-vet
verify-vet: fixtures
	$(GO) vet ./...

.PHONY: verify-vendor
# Some vendored modules ship a .gitignore that also matches files of their own
# (github.com/wzshiming/ctc's ignores every dotfile, itself included), so a
# plain `git add vendor` leaves them out and a clean clone's vendor/ differs
# from `go mod vendor`. Such files have to be added with `git add -f`.
verify-vendor: ## go.mod tidy and vendor/ in sync with it, likewise hack/tools' module and its vendor/, all of both in git, and hack/tools' tools build offline.
	$(GO) mod tidy -diff
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) mod vendor -o "$$tmp/vendor"; \
	diff -r -q -x testdata vendor "$$tmp/vendor" || { echo "vendor/ is out of date: run 'go mod vendor'"; exit 1; }
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	cd hack/tools && GOFLAGS=-mod=mod $(GO) mod vendor -o "$$tmp/vendor" && \
	diff -r -q vendor "$$tmp/vendor" || { echo "hack/tools/vendor/ is out of date: run 'make tools-vendor'"; exit 1; }
	@if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then \
	  ignored="$$(git ls-files --others --ignored --exclude-standard vendor hack/tools/vendor | grep -v '/testdata/' || true)"; \
	  if [ -n "$$ignored" ]; then \
	    echo "vendor/ files git ignores (add them with 'git add -f'):"; echo "$$ignored"; exit 1; \
	  fi; \
	fi
	@# Every package of hack/tools' tools resolves from hack/tools/vendor
	@# alone: no proxy, and an empty module cache.
	@tmp="$$(mktemp -d)"; trap 'chmod -R u+w "$$tmp"; rm -rf "$$tmp"' EXIT; \
	( cd hack/tools && GOFLAGS=-mod=vendor GOPROXY=off GOMODCACHE="$$tmp" $(GO) list -tags tools -deps tool . >/dev/null ) || \
	{ echo "hack/tools' tools do not build from hack/tools/vendor alone: run 'make tools-vendor'"; exit 1; }

# hack/tools is a module of its own (the code generators and Helm), so
# that their dependencies never enter the scheduler's module graph; it is
# vendored like the scheduler's, so that its tools build offline too.
# After a change to hack/tools/go.mod, `make tools-vendor`.
TOOLS_GO = cd hack/tools && GOFLAGS=-mod=vendor GOPROXY=off $(GO)

.PHONY: tools-vendor
tools-vendor: ## Refresh hack/tools/vendor from hack/tools/go.mod (after changing a tool's version).
	cd hack/tools && GOFLAGS=-mod=mod $(GO) mod tidy && GOFLAGS=-mod=mod $(GO) mod vendor

# CRDs generated with controller-gen (pinned in hack/tools, its own module,
# and built from hack/tools/vendor)
# from the API types of the versions go.mod pins: JobSet's, and
# scheduler-plugins' PodGroup (its package also defines ElasticQuota, which
# the local cluster does not install).
CRD_DIR      := internal/localcluster/crds
CONTROLLER_GEN = $(TOOLS_GO) tool controller-gen
CRD_MODULES  := sigs.k8s.io/jobset sigs.k8s.io/scheduler-plugins
CRD_APIS     := sigs.k8s.io/jobset/api/jobset/v1alpha2 sigs.k8s.io/scheduler-plugins/apis/scheduling/v1alpha1
CRD_FILES    := jobset.x-k8s.io_jobsets.yaml scheduling.x-k8s.io_podgroups.yaml
# $(call gen-crds,dir): the CRD_FILES, generated into the absolute path dir.
gen-crds = tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	( $(CONTROLLER_GEN) crd:generateEmbeddedObjectMeta=true $(addprefix paths=,$(CRD_APIS)) output:crd:dir="$$tmp" ) && \
	for f in $(CRD_FILES); do cp "$$tmp/$$f" $(1)/ || exit 1; done

.PHONY: crds
crds: ## Generate the CRDs the local cluster installs (JobSet, PodGroup).
	@$(call gen-crds,$(CURDIR)/$(CRD_DIR))

.PHONY: verify-crds
verify-crds: ## The generated CRDs are up to date, from the API versions go.mod pins.
	@for m in $(CRD_MODULES); do \
	  want="$$($(GO) list -m -f '{{.Version}}' $$m)"; \
	  got="$$($(TOOLS_GO) list -m -f '{{.Version}}' $$m)"; \
	  if [ "$$want" != "$$got" ]; then \
	    echo "hack/tools/go.mod has $$m $$got, go.mod $$want: align hack/tools/go.mod, then run 'make crds'"; exit 1; \
	  fi; \
	done
	@want="$$(mktemp -d)"; trap 'rm -rf "$$want"' EXIT; \
	( $(call gen-crds,"$$want") ) || exit 1; \
	diff -r -q -x '*.go' "$$want" $(CURDIR)/$(CRD_DIR) || \
	{ echo "$(CRD_DIR) is out of date: run 'make crds'"; exit 1; }

# The multislice.dev API (pkg/apis/multislice), our definition of the
# cluster autoscaler's ProvisioningRequest API (pkg/apis/autoscaling) and of
# GKE's ComputeClass API (pkg/apis/cloud): their deepcopy functions, apply
# configurations, clientset, listers and informers (pkg/generated) and their
# CRDs (manifests/crds/multislice.dev_*.yaml,
# manifests/crds/autoscaling.x-k8s.io_provisioningrequests.yaml,
# manifests/crds/cloud.google.com_computeclasses.yaml), generated
# by hack/update-codegen.sh with the code-generator and controller-gen that
# hack/tools/go.mod pins. code-generator has to be the release of the
# client-go that go.mod pins: the generated code is written against it.
API_DIRS       := pkg/apis/multislice pkg/apis/autoscaling pkg/apis/cloud
GENERATED_DIRS := $(API_DIRS) pkg/generated

.PHONY: generate
generate: crds ## Generate the multislice.dev, ProvisioningRequest and ComputeClass APIs' deepcopy functions, typed clients (pkg/generated) and CRDs, and the third-party CRDs.
	GO=$(GO) hack/update-codegen.sh
	rm -f $(CHART_DIR)/crds/*.yaml && cp manifests/crds/multislice.dev_*.yaml $(CHART_DIR)/crds/

.PHONY: verify-generated
verify-generated: ## The code and CRDs generated from the multislice.dev, ProvisioningRequest and ComputeClass API types are up to date.
	@want="$$($(GO) list -m -f '{{.Version}}' k8s.io/client-go)"; \
	got="$$($(TOOLS_GO) list -m -f '{{.Version}}' k8s.io/code-generator)"; \
	if [ "$$want" != "$$got" ]; then \
	  echo "hack/tools/go.mod has k8s.io/code-generator $$got, go.mod k8s.io/client-go $$want: align hack/tools/go.mod, then run 'make generate'"; exit 1; \
	fi
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	cp go.mod go.sum "$$tmp/" && ln -s $(CURDIR)/vendor "$$tmp/vendor" && \
	mkdir -p "$$tmp/pkg/apis" && cp -R $(API_DIRS) "$$tmp/pkg/apis/" && \
	GO=$(GO) hack/update-codegen.sh "$$tmp" || exit 1; \
	drift=0; \
	for d in $(GENERATED_DIRS); do diff -r "$$tmp/$$d" $$d || drift=1; done; \
	diff -r -x kustomization.yaml "$$tmp/manifests/crds" manifests/crds || drift=1; \
	if [ $$drift != 0 ]; then echo "generated code or CRDs are out of date: run 'make generate'"; exit 1; fi

# The reference pages that are generated (hack/gen-docs), so that they
# cannot drift: docs/reference/api.md from the multislice.dev CRDs (which
# `make generate` writes from the Go types) and docs/reference/metrics.md
# from the metrics pkg/metrics registers. After changing either, `make docs`.
# verify-docs also checks that no relative link of the README or of the
# markdown under docs/, manifests/ and charts/ is broken.
.PHONY: docs
docs: ## Generate docs/reference/api.md (multislice.dev fields, from the CRDs) and docs/reference/metrics.md (from the metrics' registration).
	$(GO) run ./hack/gen-docs

.PHONY: verify-docs
verify-docs: ## The generated reference pages (docs/reference/api.md, metrics.md) are what `make docs` writes, and every relative link of README.md and the markdown of docs/, manifests/ and charts/ resolves, #anchor included.
	$(GO) run ./hack/gen-docs -check

.PHONY: verify-manifests
verify-manifests: ## Manifests render.
	$(GO) run ./hack/render-manifests manifests > /dev/null

# The Helm chart. Helm is a tool of hack/tools (its own module, built from
# hack/tools/vendor), so it never enters go.mod or vendor/; `go tool`
# caches its build. The chart's
# crds/ are copies of the multislice.dev CRDs of manifests/crds, which
# `make generate` refreshes. With default values the chart must render
# the objects of manifests/ (hack/chartcheck compares them field by field,
# ignoring only Helm's own labels); with the values of
# hack/chartcheck/testdata it must render what custom-expect.yaml says;
# values that contradict each other must fail to render.
CHART_DIR    := charts/multislice-scheduler
CHART_CHECKS := hack/chartcheck/testdata
HELM          = $(TOOLS_GO) tool helm

.PHONY: verify-chart
verify-chart: ## The Helm chart lints (also with the values docs/tasks/install-helm.md installs on make run), renders the objects of manifests/ with its default values, other values as asked, and refuses contradictory ones.
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	chart=$(CURDIR)/$(CHART_DIR); checks=$(CURDIR)/$(CHART_CHECKS); \
	( $(HELM) lint --strict --quiet "$$chart" ); \
	( $(HELM) lint --strict --quiet "$$chart" --namespace sched-system -f "$$checks/custom-values.yaml" ); \
	( $(HELM) lint --strict --quiet "$$chart" -f $(CURDIR)/manifests/examples/helm/local-cluster-values.yaml ); \
	$(GO) build -o "$$tmp/chartcheck" ./hack/chartcheck; \
	$(GO) run ./hack/render-manifests manifests > "$$tmp/manifests.yaml"; \
	( $(HELM) template multislice-scheduler "$$chart" --include-crds ) > "$$tmp/chart.yaml"; \
	"$$tmp/chartcheck" -want manifests -got 'chart (default values)' "$$tmp/manifests.yaml" "$$tmp/chart.yaml"; \
	( $(HELM) template ms "$$chart" --namespace sched-system -f "$$checks/custom-values.yaml" ) > "$$tmp/custom.yaml"; \
	"$$tmp/chartcheck" -subset -want $(CHART_CHECKS)/custom-expect.yaml -got 'chart (custom-values.yaml)' "$$checks/custom-expect.yaml" "$$tmp/custom.yaml"; \
	for refused in replicas=2,leaderElection.enabled=false podDisruptionBudget.maxUnavailable=1 namespace.name= \
	    webhook.enabled=true,webhook.tls.secretName=mine; do \
	  if out="$$( ( $(HELM) template ms "$$chart" --set "$$refused" ) 2>&1 )"; then \
	    echo "the chart rendered with --set $$refused, which it must refuse"; exit 1; \
	  fi; \
	  case "$$out" in *"execution error"*) ;; *) echo "$$out"; exit 1 ;; esac; \
	done

# bin/helm, for the end-to-end tests: the Helm hack/tools pins, built
# offline from hack/tools/vendor.
$(BIN)/helm: hack/tools/go.mod hack/tools/go.sum hack/tools/vendor/modules.txt
	v="$$($(TOOLS_GO) list -m -f '{{.Version}}' helm.sh/helm/v3)" && \
	$(TOOLS_GO) build -ldflags "-s -w -X helm.sh/helm/v3/internal/version.version=$$v" -o $@ helm.sh/helm/v3/cmd/helm

.PHONY: helm
helm: $(BIN)/helm ## Build bin/helm from hack/tools (the Helm `make test-e2e` installs the chart with).

.PHONY: manifests
manifests: ## Render the install manifest (IMG=registry/name:tag) to _output/install.yaml.
	@mkdir -p $(OUTPUT)
	$(GO) run ./hack/render-manifests -image $(IMG) manifests > $(OUTPUT)/install.yaml
	@echo "wrote $(OUTPUT)/install.yaml"

.PHONY: image
image: ## Build the container image IMG with docker.
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg BUILD_DATE=$(BUILD_DATE) -t $(IMG) .

.PHONY: run
run: cluster-binaries kubectl ## Local cluster on loopback with simulated TPU/GPU pools (NODEPOOLS=file, POD_RUN_TIME=60s); Ctrl-C stops it.
	$(BIN)/localcluster up --nodepools $(NODEPOOLS) --pod-run-time $(POD_RUN_TIME) --kubeconfig $(OUTPUT)/kubeconfig

.PHONY: demo
demo: cluster-binaries ## Run a scenario of manifests/examples (SCENARIO=multislice-v5e|hotswap-v6e|kueue-hotswap-v6e|queueing-v5e|dws-gpu|dws-no-queue|flex-start-recycling|gpu-topology) on a fresh cluster; prints a timeline.
	$(BIN)/localcluster demo --scenario manifests/examples/$(SCENARIO)/demo.yaml --nodepools $(NODEPOOLS)

.PHONY: chaos
chaos: cluster-binaries ## Chaos soak on a fresh cluster, 2 scheduler replicas: random workloads, pool failures, leader kills, invariants checked (DURATION=10m, SEED=n); _output/chaos/summary.md.
	$(BIN)/localcluster chaos --duration $(DURATION) --seed $(SEED)

.PHONY: clean
clean:
	rm -rf $(BIN) $(OUTPUT)

.PHONY: help
help:
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'
