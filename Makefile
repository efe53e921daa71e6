# mgraph build. `make` builds bin/mgraph; `make test` runs every test.
GO      ?= go
BIN     := bin/mgraph
PKGS    := ./...

.PHONY: all build test lint demo clean

DEMO_DIR := out/demo

all: build

build:
	$(GO) build -o $(BIN) ./cmd/mgraph

test:
	$(GO) test $(PKGS)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go')); if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet $(PKGS)

demo: build
	@mkdir -p $(DEMO_DIR)
	$(BIN) gen rmat:18:16 --seed 1 --symmetrize --dedupe --drop-self-loops --weights 1 -o $(DEMO_DIR)/rmat18.mgb
	$(BIN) convert $(DEMO_DIR)/rmat18.mgb $(DEMO_DIR)/rmat18.mtx.zst
	$(BIN) info $(DEMO_DIR)/rmat18.mtx.zst

clean:
	rm -rf bin build gpubin out
