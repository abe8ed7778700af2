# Thin wrapper over CMake: `make run` and `make test` each do their own set-up.
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
GPUPLAN = ./$(BUILD)/gpuplan

.PHONY: all deps configure build run test bench clean

all: build

deps:
	@scripts/install-deps.sh

configure: deps
	@cmake -S . -B $(BUILD) $(CMAKE_FLAGS) >/dev/null

build: configure
	@cmake --build $(BUILD) -j$(JOBS)

# The main job on the embedded data: a plan for the chat-service preset on every GPU type,
# priced in US dollars and in Danish kroner.
run: build
	$(GPUPLAN) plan --workload chat-llama-3.1-70b
	$(GPUPLAN) plan --workload chat-llama-3.1-70b --currency DKK

test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS)

bench: build
	@cmake --build $(BUILD) --target bench

clean:
	rm -rf $(BUILD)
