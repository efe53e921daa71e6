# mgraph build. `make` builds bin/mgraph; `make test` runs every test.
GO      ?= go
BIN     := bin/mgraph
PKGS    := ./...

.PHONY: all build test lint demo clean

all: build

build:
	$(GO) build -o $(BIN) ./cmd/mgraph

test:
	$(GO) test $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

clean:
	rm -rf bin build gpubin
