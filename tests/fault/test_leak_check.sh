#!/usr/bin/env bash
# The allocation fault runner finds a leak on an error path: over a stand-in program whose error
# path forgets a block (tests/fault/leaky.c), run_alloc_faults.sh must fail and name the leak;
# over the same program with a tidy error path it must pass.
# Usage: test_leak_check.sh LEAKY_GPUPLAN FAILMALLOC_SO
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
out=$(mktemp)
trap 'rm -f "$out"' EXIT

"$here/run_alloc_faults.sh" "$1" "$2" "$here/cases" tidy >"$out" 2>&1 ||
  { cat "$out"; echo "FAIL: the tidy error path was reported"; exit 1; }
if "$here/run_alloc_faults.sh" "$1" "$2" "$here/cases" leak >"$out" 2>&1; then
  cat "$out"; echo "FAIL: the leak on the error path went unnoticed"; exit 1
fi
grep -q "leak, allocation 2: blocks live at exit: 1, without a failure: 0 (a leak)" "$out" ||
  { cat "$out"; echo "FAIL: the runner failed, but not for the leak"; exit 1; }
echo "the runner finds the leak and passes the tidy error path"
