# Thin wrapper over CMake: `make run` and `make test` each do their own set-up.
SHELL := /bin/bash
BUILD ?= build
JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
GPUPLAN = ./$(BUILD)/gpuplan
# `make install PREFIX=/usr DESTDIR=/tmp/stage`: the program in PREFIX/bin, its modules in
# PREFIX/lib/gpuplan (where it looks for them), man page, completions, docs, systemd units.
PREFIX ?= /usr/local

.PHONY: all deps configure build run test bench install package clean

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

# ctest counts a skipped test as passed: the reasons are listed after its summary.
test: build
	@ctest --test-dir $(BUILD) --output-on-failure -j$(JOBS) | tee $(BUILD)/ctest-output.txt; \
	  status=$${PIPESTATUS[0]}; tests/skip_reasons.sh $(BUILD) $(BUILD)/ctest-output.txt; \
	  exit $$status

install: build
	@cmake --install $(BUILD) --prefix $(PREFIX)

# Debian packages gpuplan, gpuplan-cuda, gpuplan-hip, gpuplan-opencl (those built) in $(BUILD).
package: build
	@cd $(BUILD) && cpack -G DEB

bench: build
	@cmake --build $(BUILD) --target bench

clean:
	rm -rf $(BUILD)
