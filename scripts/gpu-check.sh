#!/usr/bin/env bash
# GPU check: on a machine with an NVIDIA GPU, build gpuplan with its CUDA module (or, when the
# build dependencies are missing, the fallback: the CUDA module and the small calibration driver
# from nvcc and cc alone), run the backend test and `calibrate --backend cuda --quick` on every
# GPU, check the exported JSON against the datasheet, print a one-screen summary, and leave the
# export, the command output and a log in OUTDIR (default ./gpu-check-out). Designed to finish in
# under 3 minutes on one H200, build included. Exit 0 only if every check passed; otherwise the
# last lines list what failed.
#
# Usage: scripts/gpu-check.sh [OUTDIR]
# Environment: GPUPLAN_CHECK_BUILD (build folder, default <repo>/build-gpu-check),
#   GPUPLAN_CHECK_FALLBACK=1 (use the fallback build even when the full one could be built),
#   GPUPLAN_BACKEND_DIR (module folders searched first, as for gpuplan: the rehearsal in
#   tests/backend puts a pretend H200 there), JOBS.
set -uo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
outdir=${1:-gpu-check-out}
mkdir -p "$outdir" || exit 1
outdir=$(cd "$outdir" && pwd)
build=${GPUPLAN_CHECK_BUILD:-$root/build-gpu-check}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
log=$outdir/gpu-check.log
: >"$log"
failures=()

# Everything goes to the terminal and to the log through these, each line written as it comes
# (no process substitution whose tail can be lost when the script exits).
say() { printf '%s\n' "$*" | tee -a "$log"; }
step() { say ""; say "== $* (${SECONDS}s)"; }
# run CMD...: show and log its output; its exit status is returned.
run() {
  "$@" 2>&1 | tee -a "$log"
  return "${PIPESTATUS[0]}"
}
failed() { failures+=("$*"); say "gpu-check: FAILED: $*"; }
finish() {
  step "done"
  if [[ ${#failures[@]} -eq 0 ]]; then
    say "gpu-check: all checks passed in ${SECONDS}s; results in $outdir"
    exit 0
  fi
  say "gpu-check: ${#failures[@]} check(s) failed in ${SECONDS}s (results in $outdir):"
  for f in "${failures[@]}"; do say "  - $f"; done
  exit 1
}
version_at_least() { # version_at_least HAVE WANT
  [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" == "$2" ]]
}

step "machine"
run uname -a
if [[ -z "$(command -v nvcc)" && -x /usr/local/cuda/bin/nvcc ]]; then
  export PATH=/usr/local/cuda/bin:$PATH
  say "nvcc was not on PATH: added /usr/local/cuda/bin"
fi
if command -v nvidia-smi >/dev/null; then
  run nvidia-smi --query-gpu=index,name,memory.total,driver_version,power.limit,clocks.max.sm \
    --format=csv || say "(nvidia-smi failed; the driver's management library is tried at run time)"
else
  say "nvidia-smi not found (the driver's management library is still tried at run time)"
fi

step "preflight"
missing_full=()
missing_fallback=()
nvcc=$(command -v nvcc || true)
if [[ -n "$nvcc" ]]; then
  run "$nvcc" --version | tail -n 2
else
  missing_fallback+=("nvcc (CUDA toolkit; looked on PATH and in /usr/local/cuda/bin)")
fi
cc=$(command -v cc || command -v gcc || command -v clang || true)
[[ -n "$cc" ]] || missing_fallback+=("a C compiler (cc, gcc or clang)")
if ! command -v cmake >/dev/null; then
  missing_full+=("cmake >= 3.25")
else
  cmake_version=$(cmake --version | sed -n '1s/[^0-9]*\([0-9][0-9.]*\).*/\1/p')
  version_at_least "$cmake_version" 3.25 || missing_full+=("cmake >= 3.25 (found $cmake_version)")
fi
if ! command -v pkg-config >/dev/null; then
  missing_full+=("pkg-config")
else
  for pc in libcurl:libcurl4-openssl-dev sqlite3:libsqlite3-dev libcjson:libcjson-dev \
            gsl:libgsl-dev cmocka:libcmocka-dev; do
    pkg-config --exists "${pc%%:*}" || missing_full+=("${pc%%:*} development files (Debian: ${pc#*:})")
  done
fi
[[ -n "$cc" ]] || missing_full+=("a C compiler")
if [[ -n "$nvcc" ]]; then
  cuda_lib=$(cd "$(dirname "$nvcc")/.." && pwd)/lib64
  compgen -G "$cuda_lib/libcublasLt.so*" >/dev/null ||
    say "note: no libcublasLt.so in $cuda_lib: the CUDA module would run its own GEMM kernel only"
fi
if ! { ldconfig -p 2>/dev/null | grep -q 'libcuda\.so\.1'; } && [[ -z "${GPUPLAN_BACKEND_DIR:-}" ]]; then
  say "note: the dynamic linker lists no libcuda.so.1 (NVIDIA driver); the CUDA backend will say why it cannot load"
fi
for m in "${missing_full[@]}"; do say "missing for the full build: $m"; done
for m in "${missing_fallback[@]}"; do say "missing for the fallback build: $m"; done
mode=full
if [[ ${#missing_full[@]} -gt 0 || "${GPUPLAN_CHECK_FALLBACK:-0}" == 1 ]]; then
  mode=fallback
  if [[ ${#missing_fallback[@]} -gt 0 ]]; then
    failed "preflight: neither build is possible (missing: ${missing_full[*]} ${missing_fallback[*]})"
    finish
  fi
fi
say "build: $mode"

export_json=$outdir/calibration.json
rm -f "$export_json"
if [[ "$mode" == full ]]; then
  step "configure"
  cuda_flags=(-DGPUPLAN_WITH_CUDA=ON -DCMAKE_CUDA_COMPILER="$nvcc")
  [[ -n "$nvcc" ]] || cuda_flags=(-DGPUPLAN_WITH_CUDA=OFF)
  run cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${cuda_flags[@]}" \
    -DGPUPLAN_WITH_HIP=OFF -DGPUPLAN_WITH_OPENCL=OFF -DBUILD_TESTING=ON ||
    { failed "configure (output above)"; finish; }
  grep -q 'no cuBLASLt in the CUDA toolkit' "$log" &&
    failed "configure found no cuBLASLt: GEMM would measure the own kernel, not the GPU"

  step "build"
  targets=(gpuplan test_backend_run)
  [[ -n "$nvcc" ]] && targets+=(gpuplan_cuda)
  run cmake --build "$build" -j"$jobs" --target "${targets[@]}" || { failed "build (output above)"; finish; }
  gpuplan=$build/gpuplan

  step "backends"
  "$gpuplan" backends --format csv >"$outdir/backends.csv" 2>>"$log"
  tee -a "$log" <"$outdir/backends.csv"
  grep -q '^cuda,loaded,' "$outdir/backends.csv" ||
    { failed "the CUDA backend did not load (its reason is in the table above)"; finish; }

  step "backend test: every kernel and precision at small sizes, verified on the host"
  timeout 120 "$build/tests/test_backend_run" cuda >"$outdir/backend-test.txt" 2>&1
  rc=$?
  cat "$outdir/backend-test.txt" >>"$log"
  grep -v '^ok ' "$outdir/backend-test.txt"
  [[ $rc -eq 0 ]] || failed "backend test exited $rc (FAIL lines above, all in backend-test.txt)"

  step "calibrate --quick"
  db=$outdir/gpu-check.db
  rm -f "$db" "$db-wal" "$db-shm"
  timeout 240 "$gpuplan" calibrate --db "$db" --backend cuda --quick --export "$export_json" \
    --format csv >"$outdir/calibrate.csv" 2>"$outdir/calibrate.err"
  rc=$?
  cat "$outdir/calibrate.err" >>"$log"
  cat "$outdir/calibrate.err"
else
  step "fallback build (nvcc and cc only)"
  run "$root/scripts/gpu-fallback-build.sh" "$build" || { failed "fallback build (output above)"; finish; }
  step "calibrate --quick (fallback driver)"
  GPUPLAN_BACKEND_DIR=${GPUPLAN_BACKEND_DIR:-$build}${GPUPLAN_BACKEND_DIR:+:$build} \
    timeout 240 "$build/gpuplan-calibrate" --backend cuda --quick --export "$export_json" \
    >"$outdir/calibrate.err" 2>&1
  rc=$?
  cat "$outdir/calibrate.err" >>"$log"
  cat "$outdir/calibrate.err"
fi
case $rc in
  0) ;;
  1) failed "calibrate exited 1: the steps listed above failed (the others are in the export)" ;;
  *) failed "calibrate exited $rc (message above)" ;;
esac
[[ -s "$export_json" ]] || { failed "no export was written"; finish; }

step "check the export"
if [[ "$mode" == full ]]; then
  # The import re-checks every field of the file.
  rm -f "$outdir/verify.db"
  "$gpuplan" calibrate import "$export_json" --db "$outdir/verify.db" --format csv \
    >"$outdir/import.csv" 2>>"$log"
  grep -q ',added' "$outdir/import.csv" || failed "the export did not import (see the log)"
fi
step "summary"
run awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$export_json" ||
  failed "the calibration results do not check out (bad or missing points above)"
say "total time ${SECONDS}s"
finish
