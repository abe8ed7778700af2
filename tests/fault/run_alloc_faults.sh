#!/usr/bin/env bash
# Allocation failures through the CLI golden cases: with tests/fault/failmalloc.c preloaded, the
# Nth allocation of the process fails, for N = 1, 2, 3, ... up to the last allocation of the run
# without a failure (or, with STRIDE=k, every kth N from START, default 1, and up to LAST when it
# is given, for a bounded run). Each run must end with a clean error
# (exit 1 and a "gpuplan: error:" message) or, where the failure was absorbed, with the case's
# own output and status; never a crash or a shorter output with the case's status; the database
# must be byte for byte as it was; and no run may leave more blocks allocated at exit than the
# run without a failure (a leak on the error path).
# Usage: run_alloc_faults.sh GPUPLAN FAILMALLOC_SO CASES_DIR CASE...
set -uo pipefail

gpuplan=$1
shim=$2
cases=$3
shift 3
FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
export FIXTURES GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
stride=${STRIDE:-1}
first=${START:-1} # with STRIDE, a bounded run of its own residue: START=2 STRIDE=7 ...
last=${LAST:-}    # a window of N, such as the allocations of reading the command line
runs=0
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }
# shellcheck source=leaks.sh
source "$(dirname "$0")/leaks.sh"

# Run case `dir` with the `n`th allocation failing; its output in $TMP, its exit in $status.
armed_run() {
  rm -f "$TMP/fault.log" "$TMP/count"
  # Bounded: a run that loops or grows without end after a failed allocation is a failure too.
  eval "ulimit -v 2097152; LD_PRELOAD=\"$shim\" GPUPLAN_FAIL_ALLOC=$2 GPUPLAN_FAULT_LOG=\"$TMP/fault.log\" \
    GPUPLAN_FAULT_COUNT=\"$TMP/count\" timeout 60 \"$gpuplan\" $(cat "$1/args")" >"$TMP/stdout" 2>"$TMP/stderr"
  status=$?
  runs=$((runs + 1))
  sed -i "s|$TMP|\$TMP|g; s|$FIXTURES|\$FIXTURES|g" "$TMP/stdout" "$TMP/stderr"
}

run_case() {
  local dir=$cases/$1 TMP n status before=$failed
  TMP=$(mktemp -d)
  export TMP GPUPLAN_DB="$TMP/gpuplan.db"
  if [[ -f "$dir/setup" ]]; then
    while IFS= read -r line; do
      [[ -z "$line" || "$line" == \#* ]] && continue
      eval "\"$gpuplan\" $line" >/dev/null 2>&1 || { fail "$1: setup: $line"; return; }
    done <"$dir/setup"
  fi
  [[ -f "$GPUPLAN_DB" ]] || "$gpuplan" prices --gpu b200 >/dev/null 2>&1
  python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' \
    "$GPUPLAN_DB"
  local sum want total base live
  sum=$(cat "$GPUPLAN_DB" "$GPUPLAN_DB"-wal 2>/dev/null | md5sum) # -shm is scratch memory
  want=$(cat "$dir/status")
  # The run without a failure: how many allocations there are, and the blocks it leaves live.
  armed_run "$dir" 999999999
  read -r _ total _ base <"$TMP/count" || { fail "$1: no allocation count"; return; }
  [[ $status -eq $want ]] && cmp -s "$TMP/stdout" "$dir/stdout" ||
    fail "$1: the run without a failure differs from the golden case (exit $status)"
  [[ -n "$last" && $last -lt $total ]] && total=$last
  for ((n = first; n <= total; n += stride)); do
    armed_run "$dir" "$n"
    read -r _ _ _ live <"$TMP/count" 2>/dev/null || live=
    [[ "$(cat "$GPUPLAN_DB" "$GPUPLAN_DB"-wal 2>/dev/null | md5sum)" == "$sum" ]] || fail "$1, allocation $n: the database changed"
    [[ -f "$TMP/fault.log" ]] || break # a run with fewer allocations than the one without a failure
    leak_check "$1, allocation $n" "$live" "$base" "$TMP/fault.log"
    if [[ $status -eq 1 ]]; then
      grep -q "gpuplan: error:" "$TMP/stderr" || fail "$1, allocation $n: exit 1 without a message"
    elif [[ $status -ne $want ]] || ! cmp -s "$TMP/stdout" "$dir/stdout"; then
      fail "$1, allocation $n: exit $status, not a clean error"
      head -3 "$TMP/stderr"
    fi
  done
  echo "$1: allocations $first..$total (every ${stride}): $((failed - before)) failures"
  rm -rf "$TMP"
}

for name in "$@"; do
  run_case "$name"
done
echo "allocation faults: $runs runs, $failed failures"
[[ $failed -eq 0 ]]
