#!/usr/bin/env bash
# The rehearsal of scripts/gpu-check.sh without a GPU: the whole script (preflight, configure,
# build, backends, backend test, calibrate --quick, import, the JSON check and the summary)
# against a module that pretends to be an H200 and fails one step. The script must exit 1 naming
# that step, keep every other point in the export, find no bad point, and print the summary;
# the JSON check must flag a point above the datasheet and a failed verification.
set -uo pipefail

root=$1   # source tree
h200=$2   # folder holding the pretend libgpuplan-cuda.so
build=$3  # build folder the script may reuse between runs
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0

check() { # check NAME CONDITION-STATUS
  if [[ "$2" -eq 0 ]]; then passed=$((passed + 1)); else echo "FAIL $1"; failed=$((failed + 1)); fi
}

GPUPLAN_BACKEND_DIR=$h200 GPUPLAN_CHECK_BUILD=$build JOBS=${JOBS:-2} \
  "$root/scripts/gpu-check.sh" "$tmp/out" >"$tmp/stdout" 2>&1
status=$?
log=$tmp/out/gpu-check.log
json=$tmp/out/calibration.json
[[ $status -eq 1 ]]; check "exit 1 for the injected step failure (got $status)" $?
grep -q 'step failed: gemm fp16 32x8192x8192 on cuda: cuBLASLt: ltMatmul(...): CUBLAS_STATUS_EXECUTION_FAILED' "$log"
check "the log names the failed step and the cuBLASLt status" $?
grep -q '^  - calibrate exited 1' "$log"; check "the final list names the failure" $?
grep -q '1 check(s) failed' "$log"; check "one check failed" $?
cmp -s "$log" <(cat "$tmp/stdout") || diff <(grep -v '^\[' "$log" | head -5) <(grep -v '^\[' "$tmp/stdout" | head -5) >/dev/null
check "the log holds what the terminal showed" $?
grep -q '^== done' "$log"; check "the log is complete to its last step" $?
grep -q '"failed_steps":' "$json"; check "the export lists the failed step" $?
grep -q '"kernel":	"triad"' "$json"; check "the export keeps the other points" $?
grep -q '^points     [0-9]* in 1 run(s), 0 bad' "$log"; check "no bad point (own-kernel rows included)" $?
grep -q '^bandwidth .*triad [0-9]* GB/s  *[0-9.]*%.*(share of 4800 GB/s)' "$log"
check "summary: bandwidth as a share of the datasheet" $?
grep -q '^gemm bf16  *[0-9.]* TFLOP/s  *[0-9.]*% of 989.4 dense at 8192x8192x8192, cuBLASLt algo' "$log"
check "summary: bf16 TFLOP/s, share of the dense peak, algorithm" $?
grep -q '^gemm fp8 fast-accum ' "$log"; check "summary: fp8 in both accumulation modes" $?
grep -q '^library    cuBLASLt 12.8.4' "$log"; check "summary: the cuBLASLt version" $?
grep -q '^total time [0-9]*s' "$log"; check "summary: the total time" $?
grep -q 'architectures\|CUDA module\|not building the CUDA' "$log"; check "configure output is shown" $?

# The check itself: a median above the datasheet and a failed verification are bad points.
awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$json" >"$tmp/ok.txt"
check "the export checks out" $?
tac "$json" | sed '0,/"median":\t[^,]*,/s//"median":\t5000.5,/' | tac >"$tmp/fast.json"
awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$tmp/fast.json" >"$tmp/fast.txt"
[[ $? -eq 1 ]] && grep -q 'bad point: .*datasheet peak' "$tmp/fast.txt"
check "a rate above the datasheet is a bad point" $?
sed '0,/"max_error":\t[^,]*,/s//"max_error":\t3.5,/' "$json" >"$tmp/wrong.json"
awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$tmp/wrong.json" >"$tmp/wrong.txt"
[[ $? -eq 1 ]] && grep -q 'bad point: .*verification error 3.5' "$tmp/wrong.txt"
check "a failed verification is a bad point" $?
sed '0,/"median":\t[^,]*,/s//"median":\tnull,/' "$json" >"$tmp/null.json"
awk -f "$root/scripts/gpu-check.awk" "$root/data/gpus.json" "$tmp/null.json" >"$tmp/null.txt"
[[ $? -eq 1 ]] && grep -q 'median null is not a positive number' "$tmp/null.txt"
check "a median that is not a number is a bad point" $?

# The fallback path (nvcc and cc only): the same checks and summary from the driver's export.
if command -v nvcc >/dev/null || [[ -x /usr/local/cuda/bin/nvcc ]]; then
  GPUPLAN_CHECK_FALLBACK=1 GPUPLAN_BACKEND_DIR=$h200 GPUPLAN_CHECK_BUILD=$build-fallback \
    "$root/scripts/gpu-check.sh" "$tmp/fb" >"$tmp/fb.stdout" 2>&1
  status=$?
  [[ $status -eq 1 ]]; check "fallback: exit 1 for the injected step failure (got $status)" $?
  grep -q '^build: fallback' "$tmp/fb/gpu-check.log"; check "fallback: chosen" $?
  grep -q 'gpu-fallback-build: built' "$tmp/fb/gpu-check.log"; check "fallback: built" $?
  grep -q '^gemm bf16  *[0-9.]* TFLOP/s' "$tmp/fb/gpu-check.log"; check "fallback: summary" $?
  grep -q '^points     [0-9]* in 1 run(s), 0 bad' "$tmp/fb/gpu-check.log"; check "fallback: no bad point" $?
else
  echo "skip the fallback path: no nvcc"
fi

echo "$passed passed, $failed failed"
if [[ $failed -ne 0 ]]; then
  echo "--- script output"; cat "$tmp/stdout"; cat "$tmp/fb.stdout" 2>/dev/null
fi
[[ $failed -eq 0 ]]
