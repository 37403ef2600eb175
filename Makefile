# multislice-scheduler build, test and benchmark entry points.
# Every build uses the committed vendor/ directory; tools (etcd) are built
# from the module graph, never downloaded as binaries.

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

# Benchmarks: BENCH_SIZE=large adds the 5000-node workloads; BENCH_COUNT repeats.
BENCH_SIZE   ?= default
BENCH_COUNT  ?= 1
BENCH_OUT    ?= $(OUTPUT)/bench
comma := ,
BENCH_FILTER := $(if $(filter large,$(BENCH_SIZE)),performance,performance$(comma)-large)

TEST_FLAGS ?=

.PHONY: build
build: ## Build bin/multislice-scheduler.
	$(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/multislice-scheduler ./cmd/multislice-scheduler

$(BIN)/etcd: go.mod go.sum
	$(GO) build -o $@ go.etcd.io/etcd/server/v3

.PHONY: etcd
etcd: $(BIN)/etcd ## Build etcd from the module graph into bin/.

.PHONY: fixtures
fixtures:
	@mkdir -p $(APISERVER_FIXTURES)

.PHONY: test
test: test-unit test-integration ## Unit and integration tests (the README's test command).

.PHONY: test-unit
test-unit: ## Unit tests of the framework-free and glue packages.
	$(GO) test $(TEST_FLAGS) $(UNIT_PKGS)

.PHONY: test-integration
test-integration: etcd fixtures ## Tests on a real kube-apiserver + etcd, and a smoke run of the benchmarks.
	PATH=$(BIN):$$PATH $(GO) test $(TEST_FLAGS) -timeout 20m ./test/integration/...
	PATH=$(BIN):$$PATH $(GO) test -timeout 10m ./test/perf/ -run '^$$' -bench . -benchtime 1x \
		-perf-scheduling-label-filter=short -data-items-dir $(OUTPUT)/bench-smoke
	$(GO) run ./hack/benchreport $(OUTPUT)/bench-smoke

.PHONY: bench
bench: etcd fixtures ## scheduler_perf: every scenario through the default profile and ours, one run; writes _output/bench/results.md.
	rm -rf $(BENCH_OUT) && mkdir -p $(BENCH_OUT)
	PATH=$(BIN):$$PATH $(GO) test -timeout 120m ./test/perf/ -run '^$$' -bench . -benchtime 1x -count $(BENCH_COUNT) \
		-perf-scheduling-label-filter=$(BENCH_FILTER) -data-items-dir $(BENCH_OUT) | tee $(BENCH_OUT)/bench.log
	$(GO) run ./hack/benchreport $(BENCH_OUT) | tee $(BENCH_OUT)/results.md

.PHONY: verify
verify: verify-fmt verify-vet verify-vendor verify-manifests ## Static checks; fails on any drift.

.PHONY: verify-fmt
verify-fmt:
	@out="$$(gofmt -l $$(git ls-files '*.go' | grep -v '^vendor/'))"; \
	if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi

.PHONY: verify-vet
verify-vet: fixtures
	$(GO) vet ./...

.PHONY: verify-vendor
verify-vendor: ## go.mod tidy and vendor/ in sync with it.
	$(GO) mod tidy -diff
	@tmp="$$(mktemp -d)"; trap 'rm -rf "$$tmp"' EXIT; \
	$(GO) mod vendor -o "$$tmp/vendor"; \
	diff -r -q -x testdata vendor "$$tmp/vendor" || { echo "vendor/ is out of date: run 'go mod vendor'"; exit 1; }

.PHONY: verify-manifests
verify-manifests: ## Manifests render.
	$(GO) run ./hack/render-manifests manifests > /dev/null

.PHONY: manifests
manifests: ## Render the install manifest (IMG=registry/name:tag) to _output/install.yaml.
	@mkdir -p $(OUTPUT)
	$(GO) run ./hack/render-manifests -image $(IMG) manifests > $(OUTPUT)/install.yaml
	@echo "wrote $(OUTPUT)/install.yaml"

.PHONY: image
image: ## Build the container image IMG with docker.
	docker build --build-arg VERSION=$(VERSION) --build-arg COMMIT=$(COMMIT) --build-arg BUILD_DATE=$(BUILD_DATE) -t $(IMG) .

.PHONY: run
run: build ## Run the scheduler against $$KUBECONFIG (leader election off).
	@test -n "$$KUBECONFIG" || { echo "set KUBECONFIG to the cluster to schedule for"; exit 1; }
	@mkdir -p $(OUTPUT)
	@{ cat manifests/scheduler/config.yaml; printf 'clientConnection:\n  kubeconfig: %s\n' "$$KUBECONFIG"; } > $(OUTPUT)/scheduler-config.yaml
	$(BIN)/multislice-scheduler --config=$(OUTPUT)/scheduler-config.yaml --leader-elect=false --secure-port=10359 --bind-address=127.0.0.1

.PHONY: clean
clean:
	rm -rf $(BIN) $(OUTPUT)

.PHONY: help
help:
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  %-18s %s\n", $$1, $$2}'
