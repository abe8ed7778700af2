#!/usr/bin/env bash
# Installs the Debian packages gpuplan needs that are missing, and nothing else.
# Usage: scripts/install-deps.sh [--ci]
#   (default)  what `make run` and `make test` need: compiler, CMake, libraries, test tools,
#              the CPU OpenCL runtime and OpenBLAS for calibration tests
#   --ci       also clang (fuzzers), valgrind, the HIP compiler for the HIP module build, the
#              clients the report is checked with (LibreOffice Calc, Chromium, unzip), and
#              slurm-wlm and munge (the loopback Slurm test) and a kubectl (the manifest check)
# Works as root or through sudo; calls apt-get only when something is missing.
set -euo pipefail

packages=(
  build-essential cmake pkg-config python3
  libcurl4-openssl-dev libsqlite3-dev libcjson-dev libgsl-dev libcmocka-dev libxlsxwriter-dev
  ocl-icd-opencl-dev opencl-headers pocl-opencl-icd libopenblas0 mbw python3-yaml sqlite3
)
if [[ "${1:-}" == "--ci" ]]; then
  packages+=(clang libclang-rt-14-dev valgrind hipcc libreoffice-calc-nogui chromium unzip poppler-utils)
elif [[ $# -gt 0 ]]; then
  echo "usage: $0 [--ci]" >&2
  exit 2
fi
# The fleet tests: a real Slurm on loopback, and kubectl for the Kubernetes manifests. A kubectl
# already on PATH (from any package) is kept: Debian's kubernetes-client conflicts with others.
if [[ "${1:-}" == "--ci" ]]; then
  packages+=(slurm-wlm munge)
  command -v kubectl >/dev/null 2>&1 || packages+=(kubernetes-client)
fi

missing=()
for package in "${packages[@]}"; do
  status=$(dpkg-query -W -f='${Status}' "$package" 2>/dev/null || true)
  [[ "$status" == "install ok installed" ]] || missing+=("$package")
done
[[ ${#missing[@]} -eq 0 ]] && exit 0

if [[ $(id -u) -eq 0 ]]; then
  sudo=()
elif command -v sudo >/dev/null 2>&1; then
  sudo=(sudo)
else
  echo "install-deps: missing packages (${missing[*]}) and neither root nor sudo" >&2
  exit 1
fi

echo "install-deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
"${sudo[@]}" apt-get update -qq
"${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
