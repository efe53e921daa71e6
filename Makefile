# mgraph build. `make` builds bin/mgraph; `make test` runs every test.
#
# With nvcc on the PATH (or NVCC=/path/to/nvcc), `make` also compiles the CUDA
# kernels (kernels/*.cu) into build/kernels/libmgraphkernels.a and builds
# bin/mgraph with the build tag `cuda`, linking the CUDA runtime statically.
# Without nvcc it builds the CPU-only binary. docs/gpu.md has the details.
GO      ?= go
BIN     := bin/mgraph
PKGS    := ./...
DEMO_DIR := out/demo
# The commit, stamped into the binary (Go's own VCS stamping may be off).
COMMIT  := $(shell git describe --always --dirty 2>/dev/null)
VERSION_X = -X main.stampedCommit=$(COMMIT)

# --- CUDA -------------------------------------------------------------------
NVCC    ?= $(shell command -v nvcc 2>/dev/null)
KDIR    := kernels
KBUILD  := build/kernels
KLIB    := $(KBUILD)/libmgraphkernels.a
KSRCS   := $(wildcard $(KDIR)/*.cu)
KHDRS   := $(wildcard $(KDIR)/*.h $(KDIR)/*.cuh)
KOBJS   := $(patsubst $(KDIR)/%.cu,$(KBUILD)/%.o,$(KSRCS))
# sm_80 and sm_90 machine code, plus compute_90 PTX for later GPUs.
GENCODE := -gencode arch=compute_80,code=sm_80 \
           -gencode arch=compute_90,code=sm_90 \
           -gencode arch=compute_90,code=compute_90
NVCCFLAGS ?= -O3 -lineinfo -std=c++17 -Xcompiler -fPIC -Xcompiler -Wall
# A toolkit outside the default library path (e.g. /usr/local/cuda) keeps
# libcudart_static.a next to nvcc; Debian's is in the default path.
CUDA_LIBDIR := $(patsubst %/,%,$(dir $(firstword $(wildcard $(dir $(NVCC))../lib64/libcudart_static.a))))
CUDA_ENV    := $(if $(CUDA_LIBDIR),CGO_LDFLAGS="$(CGO_LDFLAGS) -L$(abspath $(CUDA_LIBDIR))")
# Go's build cache does not track the library named in #cgo LDFLAGS: stamp
# its hash into the binary so Go relinks whenever the library changes.
KERNELS_X    = -X github.com/mgraph-dev/mgraph/cuda.kernelsID=$$(sha256sum $(KLIB) | cut -c1-16)
CUDA_GOFLAGS = -tags cuda -ldflags "$(KERNELS_X) $(VERSION_X)"
# Packages whose tests `make test` also runs with the cuda tag (they skip
# where no GPU is visible).
CUDA_TEST_PKGS ?= . ./cuda/... ./gpu/... ./cmd/mgraph/...

.PHONY: all build test race stress lint demo clean cuda cuda-toolkit gpu-test python python-test

all: build

ifneq ($(NVCC),)
build: $(KLIB)
	$(CUDA_ENV) $(GO) build $(CUDA_GOFLAGS) -o $(BIN) ./cmd/mgraph
else
build:
	@echo "nvcc not found: building the CPU-only bin/mgraph (make cuda-toolkit installs CUDA)"
	$(GO) build -ldflags "$(VERSION_X)" -o $(BIN) ./cmd/mgraph
endif

test: $(if $(NVCC),$(KLIB))
	$(GO) test $(PKGS)
ifneq ($(NVCC),)
	$(CUDA_ENV) $(GO) test $(CUDA_GOFLAGS) $(CUDA_TEST_PKGS)
endif
	$(MAKE) python-test
	$(MAKE) race

# race: the race detector over the packages whose engines run goroutines on
# shared arrays and the Go API's concurrent use (-short: no datasets; about
# two minutes on two cores). The race detector needs cgo's C compiler.
RACE_PKGS ?= . ./cpu ./sparse ./pull ./dense ./sampler ./engine ./internal/... ./layout/...
race:
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ] && command -v "$$($(GO) env CC)" >/dev/null; then \
		echo "$(GO) test -race -short $(RACE_PKGS)"; $(GO) test -race -short $(RACE_PKGS); \
	else echo "race: no C compiler for cgo: skipping the race detector"; fi

# stress: the long differential stress run (make test runs the short one):
# STRESS_N random graphs from every generator and a 10⁶-degree star, every app in every mode on
# the CPU backend against the serial references; failures are minimised and
# saved under apps/testdata/stress as regression tests.
STRESS_N ?= 300
STRESS_SEED ?= 1
stress:
	$(GO) test ./apps -run 'TestStress$$' -count=1 -timeout 120m -stress.n $(STRESS_N) -stress.seed $(STRESS_SEED) -stress.hub

# --- Python ------------------------------------------------------------------
# python: the C API (capi/) as python/mgraph/libmgraph.so, with CUDA when nvcc
# is there. python-test: the pytest suite (python/tests) with a Python that
# has NumPy, SciPy, NetworkX and pytest (Debian's python3-numpy,
# python3-scipy, python3-networkx, python3-pytest; PYTHON=... to choose);
# without them it says so and skips.
PYTHON ?= $(firstword $(wildcard /usr/bin/python3) python3)
PYLIB  := python/mgraph/libmgraph.so
# The CUDA runtime linked into the library has 8 KiB of page-aligned static
# TLS, more than glibc can give a library loaded after start: a Python that
# loads the CUDA build preloads it (docs/python.md).

python: $(if $(NVCC),$(KLIB))
ifneq ($(NVCC),)
	$(CUDA_ENV) $(GO) build $(CUDA_GOFLAGS) -buildmode=c-shared -o $(PYLIB) ./capi
else
	$(GO) build -buildmode=c-shared -o $(PYLIB) ./capi
endif

python-test: python
	@if $(PYTHON) -c 'import numpy, scipy, networkx, pytest' 2>/dev/null; then \
		cd python && LD_PRELOAD=$(abspath $(PYLIB)) PYTHONPATH=. $(PYTHON) -m pytest -q tests; \
	else echo "python-test: $(PYTHON) lacks numpy, scipy, networkx or pytest: skipping (apt-get install python3-numpy python3-scipy python3-networkx python3-pytest)"; fi

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)
	@if [ "$$($(GO) env CGO_ENABLED)" = 1 ]; then echo "$(GO) vet -tags cuda $(PKGS)"; $(GO) vet -tags cuda $(PKGS); fi

# cuda: the kernels library.
cuda: $(KLIB)

$(KLIB): $(KOBJS)
	@mkdir -p $(@D)
	rm -f $@
	ar rcs $@ $^

$(KBUILD)/%.o: $(KDIR)/%.cu $(KHDRS)
	@if [ -z "$(NVCC)" ]; then echo "nvcc not found: run 'make cuda-toolkit' (see docs/gpu.md)"; exit 1; fi
	@mkdir -p $(@D)
	$(NVCC) $(NVCCFLAGS) $(GENCODE) -c $< -o $@

# cuda-toolkit: install Debian's nvidia-cuda-toolkit (needs root and apt).
cuda-toolkit:
	bash scripts/install-cuda.sh

# gpu-test: every package's test binary, built with the cuda tag, plus
# bin/mgraph, in gpubin/ (git-ignored). Carry gpubin/ to a GPU machine and
# run scripts/gpu-test.sh there from the repository root. The binaries are
# stripped of symbol tables and DWARF (Go stack traces still work) to keep
# what travels small.
gpu-test: $(KLIB) build
	@rm -rf gpubin && mkdir -p gpubin && : >gpubin/MANIFEST
	@failed=""; for pkg in $$($(GO) list -tags cuda -f '{{if or .TestGoFiles .XTestGoFiles}}{{.ImportPath}}{{end}}' $(PKGS)); do \
		dir=$${pkg#github.com/mgraph-dev/mgraph}; dir=$${dir#/}; dir=$${dir:-.}; \
		name=$$(echo "$$dir" | tr / -); \
		echo "$(GO) test -tags cuda -c -o gpubin/$$name.test ./$$dir"; \
		if $(CUDA_ENV) $(GO) test -tags cuda -ldflags "-s -w $(KERNELS_X)" -c -o gpubin/$$name.test ./$$dir; then \
			echo "$$name $$dir" >>gpubin/MANIFEST; else failed="$$failed $$dir"; fi; \
	done; \
	cp $(BIN) gpubin/mgraph; \
	echo "gpubin/: $$(wc -l <gpubin/MANIFEST) test binaries; run scripts/gpu-test.sh on the GPU machine"; \
	if [ -n "$$failed" ]; then echo "gpu-test: FAILED to build:$$failed"; exit 1; fi

# demo: the main job on a generated default graph.
demo: build
	@mkdir -p $(DEMO_DIR)
	$(BIN) gen rmat:18:16 --seed 1 --symmetrize --dedupe --drop-self-loops --weights 1 -o $(DEMO_DIR)/rmat18.mgb
	$(BIN) info $(DEMO_DIR)/rmat18.mgb
	$(BIN) preprocess $(DEMO_DIR)/rmat18.mgb -o $(DEMO_DIR)/rmat18.mgl
	$(BIN) run bfs $(DEMO_DIR)/rmat18.mgl --trials 3 --validate --trace $(DEMO_DIR)/bfs-trace.json
	$(BIN) run pr $(DEMO_DIR)/rmat18.mgl --trials 3 --validate

clean:
	rm -rf bin build gpubin out
