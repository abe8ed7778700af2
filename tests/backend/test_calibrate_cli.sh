#!/usr/bin/env bash
# End to end on the built-in CPU backend: `backends` lists every candidate, `calibrate --quick`
# measures, stores and exports, `calibrate import` merges the export into another database once
# (duplicates recognised), bad imports fail with a located message and change nothing, and an
# imported GPU run becomes the planner's efficiency source for that GPU.
set -uo pipefail

gpuplan=$1
modules=$2 # the deliberately broken test modules (tests/backend/modules)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1
unset GPUPLAN_DB
passed=0
failed=0

check() { # check NAME EXPECTED_STATUS ACTUAL_STATUS [FILE PATTERN]
  local name=$1 want=$2 got=$3
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: exit $got, expected $want"; failed=$((failed + 1)); return
  fi
  if [[ $# -ge 5 ]] && ! grep -q -- "$5" "$4"; then
    echo "FAIL $name: $4 lacks '$5':"; cat "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

"$gpuplan" backends --format csv >"$tmp/out" 2>"$tmp/err"
check "backends" 0 $? "$tmp/out" '^cpu,loaded,10,0,'
for name in cuda hip opencl; do
  grep -q "^$name," "$tmp/out"; check "backends lists $name" 0 $?
done

"$gpuplan" calibrate --db "$tmp/a.db" --backend cpu --quick --export "$tmp/run.json" \
  --format csv >"$tmp/out" 2>"$tmp/err"
check "calibrate cpu --quick" 0 $? "$tmp/out" '^0,,triad,'
grep -q '^0,,gemm,fp32,1,4096,4096,' "$tmp/out"; check "decode-shaped gemm measured" 0 $?
grep -q 'fit gemm      fp32' "$tmp/err"; check "fp32 curve fitted" 0 $?
grep -q '"format":	"gpuplan-calibration"' "$tmp/run.json"; check "export written" 0 $?
# A quick plan is the required core: the budget may shorten repetitions but drops no step.
grep -q '"steps_skipped_for_time":0,' "$tmp/run.json"; check "quick plan ran in full" 0 $?

"$gpuplan" calibrate import "$tmp/run.json" --db "$tmp/b.db" --format csv >"$tmp/out" 2>"$tmp/err"
check "import into a new database" 0 $? "$tmp/out" ',added'
"$gpuplan" calibrate import "$tmp/run.json" --db "$tmp/b.db" --format csv >"$tmp/out" 2>"$tmp/err"
check "import again: duplicate" 0 $? "$tmp/out" ',already present'
"$gpuplan" calibrate import "$tmp/run.json" --db "$tmp/a.db" --format csv >"$tmp/out" 2>"$tmp/err"
check "import into the measuring database: duplicate" 0 $? "$tmp/out" ',already present'

# A new run (fresh fingerprint) whose last point is broken: nothing may be written.
sed 's/"fingerprint":	"[0-9a-f]*"/"fingerprint":	"00112233445566778899aabbccddeeff"/' \
  "$tmp/run.json" >"$tmp/new.json"
tac "$tmp/new.json" | sed '0,/"median":\t[^,]*,/s//"median":\t"fast",/' | tac >"$tmp/bad.json"
"$gpuplan" calibrate import "$tmp/bad.json" --db "$tmp/b.db" >"$tmp/out" 2>"$tmp/err"
check "bad value rejected" 2 $? "$tmp/err" 'bad.json:[0-9]*:[0-9]*: calibrations\[0\]\.points\[[0-9]*\]\.median'
"$gpuplan" calibrate import "$tmp/new.json" --db "$tmp/b.db" --format csv >"$tmp/out" 2>"$tmp/err"
check "failed import changed nothing" 0 $? "$tmp/out" ',added'

printf '{"format": "gpuplan-calibration", "schema_version": 1, "calibrations": [\n' >"$tmp/trunc.json"
"$gpuplan" calibrate import "$tmp/trunc.json" --db "$tmp/b.db" >"$tmp/out" 2>"$tmp/err"
check "truncated file rejected" 2 $? "$tmp/err" 'trunc.json:[0-9]*:[0-9]*: invalid JSON'
"$gpuplan" calibrate import "$tmp/missing.json" --db "$tmp/b.db" >"$tmp/out" 2>"$tmp/err"
check "missing file" 2 $? "$tmp/err" 'missing.json'

# Imported curves reach the planner: an H200 run measured elsewhere drives the H200 row.
corpus=$(dirname "$0")/../fuzz/corpus/calibration
"$gpuplan" calibrate import "$corpus/h200-minimal.json" --db "$tmp/c.db" >"$tmp/out" 2>"$tmp/err"
check "import an H200 run" 0 $?
"$gpuplan" plan --workload gemm-bf16 --gpus h200-sxm --db "$tmp/c.db" --format csv \
  >"$tmp/out" 2>"$tmp/err"
check "plan uses the imported curve" 0 $? "$tmp/out" 'calibrated:n1:2026-09-01'

# Broken modules are listed with their reasons; a backend whose benchmarks all fail is an error.
GPUPLAN_BACKEND_DIR=$modules "$gpuplan" backends --format csv >"$tmp/out" 2>"$tmp/err"
check "broken modules listed" 0 $? "$tmp/out" '^badabi,rejected,0,.*ABI [0-9]* != [0-9]*'
GPUPLAN_BACKEND_DIR=$modules "$gpuplan" calibrate --db "$tmp/a.db" --backend fake --quick \
  >"$tmp/out" 2>"$tmp/err"
check "nothing measured" 1 $? "$tmp/err" 'fake device 0: no benchmark ran'
GPUPLAN_BACKEND_DIR=$modules "$gpuplan" calibrate --db "$tmp/a.db" --backend zero \
  >"$tmp/out" 2>"$tmp/err"
check "rejected backend named" 3 $? "$tmp/err" 'backend zero is not available: no devices'

"$gpuplan" calibrate --db "$tmp/a.db" --backend cpuu >"$tmp/out" 2>"$tmp/err"
check "unknown backend" 2 $? "$tmp/err" 'did you mean "cpu"'
"$gpuplan" calibrate --db "$tmp/a.db" --backend cpu --device 3 >"$tmp/out" 2>"$tmp/err"
check "no such device" 2 $? "$tmp/err" '\-\-device'
"$gpuplan" calibrate import --db "$tmp/a.db" >"$tmp/out" 2>"$tmp/err"
check "import needs a file" 2 $? "$tmp/err" 'exactly one FILE'

echo "$passed passed, $failed failed"
[[ $failed -eq 0 ]]
