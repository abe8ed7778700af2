#!/usr/bin/env bash
# GPU check: build gpuplan and the CUDA module, run the CUDA backend's own test and
# `gpuplan calibrate --backend cuda --quick` on every GPU, verify the results, and leave the
# exported JSON, the command output and a log in OUTDIR (default ./gpu-check-out).
# Meant to finish in under 5 minutes on a single-GPU machine. Exit 0 only if every check passed.
#
# Usage: scripts/gpu-check.sh [OUTDIR]
# Environment: GPUPLAN_CHECK_BUILD (build folder, default <repo>/build-gpu-check), JOBS.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
outdir=${1:-gpu-check-out}
mkdir -p "$outdir"
outdir=$(cd "$outdir" && pwd)
build=${GPUPLAN_CHECK_BUILD:-$root/build-gpu-check}
jobs=${JOBS:-$(nproc 2>/dev/null || echo 4)}
log=$outdir/gpu-check.log
: >"$log"
exec > >(tee -a "$log") 2>&1

step() { printf '\n== %s (%ds)\n' "$*" "$SECONDS"; }
fail() { printf 'gpu-check: FAILED: %s\n' "$*"; exit 1; }

step "machine"
uname -a
if command -v nvidia-smi >/dev/null; then
  nvidia-smi --query-gpu=index,name,memory.total,driver_version,power.limit,clocks.sm \
    --format=csv || true
else
  echo "nvidia-smi not found (the driver's management library is still tried at run time)"
fi
command -v nvcc >/dev/null || fail "nvcc is not on PATH"
nvcc --version | tail -n 2

step "configure"
cmake -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DGPUPLAN_WITH_CUDA=ON \
  -DGPUPLAN_WITH_HIP=OFF -DGPUPLAN_WITH_OPENCL=OFF -DBUILD_TESTING=ON >/dev/null

step "build"
cmake --build "$build" -j"$jobs" --target gpuplan gpuplan_cuda test_backend_run

step "backends"
"$build/gpuplan" backends --format csv | tee "$outdir/backends.csv"
grep -q '^cuda,loaded,' "$outdir/backends.csv" || fail "the CUDA backend did not load (see reason above)"

step "backend test: every kernel and precision at small sizes, verified on the host"
timeout 120 "$build/tests/test_backend_run" cuda | tee "$outdir/backend-test.txt"

step "calibrate --quick"
db=$outdir/gpu-check.db
rm -f "$db" "$db-wal" "$db-shm"
timeout 180 "$build/gpuplan" calibrate --db "$db" --backend cuda --quick \
  --export "$outdir/calibration.json" --format csv | tee "$outdir/calibrate.csv"

step "verify"
# The export must import cleanly into a fresh database (the import re-checks every field,
# verification errors and efficiencies above the datasheet peak).
rm -f "$outdir/verify.db"
"$build/gpuplan" calibrate import "$outdir/calibration.json" --db "$outdir/verify.db" \
  --format csv >"$outdir/import.csv"
grep -q ',added' "$outdir/import.csv" || fail "the export did not import"
# Columns: device gpu kernel precision m n k mib median p10 p90 unit cv efficiency runs impl.
awk -F, '
  { sub(/\r$/, "") }
  NR == 1 { next }
  { rows++ }
  $3 == "triad" && $9 > 0 { triad++ }
  $3 == "gemm" && $4 == "bf16" && $16 == "cuBLASLt" && $9 > 0 { bf16++ }
  $14 != "" && ($14 <= 0 || $14 > 1) { printf "efficiency out of (0, 1]: %s\n", $0; bad++ }
  $10 > $9 || $9 > $11 { printf "median outside p10..p90: %s\n", $0; bad++ }
  END {
    printf "%d points, %d triad, %d bf16 cuBLASLt\n", rows, triad, bf16
    exit !(rows > 0 && triad > 0 && bf16 > 0 && bad == 0)
  }' "$outdir/calibrate.csv" || fail "the calibration results do not verify"
awk -F, 'NR > 1 && $2 == "" { exit 1 }' "$outdir/calibrate.csv" ||
  echo "note: a device maps to no catalog GPU id, so its efficiencies are absolute rates"

step "done"
echo "gpu-check: all checks passed in ${SECONDS}s; results in $outdir"
