#!/usr/bin/env bash
# The fallback calibration driver against the pretend H200: the same plan and checks as
# `gpuplan calibrate` (the injected step failure is listed, exit 1, the rest exported), the same
# export format, and `gpuplan calibrate import` fits the curves it leaves out.
set -uo pipefail

driver=$1 # gpuplan-calibrate
gpuplan=$2
h200=$3 # folder holding the pretend libgpuplan-cuda.so
root=$4 # source tree
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
check() { if [[ "$2" -eq 0 ]]; then passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi; }

GPUPLAN_BACKEND_DIR=$h200 "$driver" --backend cuda --quick --export "$tmp/run.json" 2>"$tmp/err"
status=$?
cat "$tmp/err"
[[ $status -eq 1 ]]; check "exit 1 for the failed step (got $status)" $?
grep -q 'step failed: gemm fp16 32x8192x8192 on cuda' "$tmp/err"; check "the failed step is named" $?
grep -q '"format":	"gpuplan-calibration"' "$tmp/run.json"; check "the export format" $?
grep -q '"gpu_id":	"h200-sxm"' "$tmp/run.json"; check "the device maps to its GPU id" $?
grep -q '"fits":	\[\]' "$tmp/run.json"; check "no curves without GSL" $?
awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$tmp/run.json" >"$tmp/summary"
check "the export checks out" $?
"$gpuplan" calibrate import "$tmp/run.json" --db "$tmp/a.db" --format csv >"$tmp/import" 2>&1
grep -q ',h200-sxm,.*,[1-9][0-9]*,6,added' "$tmp/import"; check "import fits the six curves" $?
"$driver" --quick >/dev/null 2>"$tmp/usage"
[[ $? -eq 2 ]] && grep -q -- '--export FILE is required' "$tmp/usage"; check "usage error" $?
GPUPLAN_BACKEND_DIR=$h200 "$driver" --backend nosuch --export "$tmp/x.json" 2>"$tmp/unknown"
[[ $? -eq 2 ]] && grep -q 'unknown backend "nosuch"' "$tmp/unknown"; check "unknown backend" $?
echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
