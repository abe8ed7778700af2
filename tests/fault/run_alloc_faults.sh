#!/usr/bin/env bash
# Allocation failures through the CLI golden cases: with tests/fault/failmalloc.c preloaded, the
# Nth allocation of the process fails, for N = 1, 2, 3, ... until a run completes without one
# (or, with STRIDE=k, every kth N, for a bounded run). Each run must end with a clean error
# (exit 1 and a "gpuplan: error:" message) or, where the failure was absorbed, with the case's
# own output and status; never a crash; and the database must be byte for byte as it was.
# Usage: run_alloc_faults.sh GPUPLAN FAILMALLOC_SO CASES_DIR CASE...
set -uo pipefail

gpuplan=$1
shim=$2
cases=$3
shift 3
FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
export FIXTURES GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
stride=${STRIDE:-1}
runs=0
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }

run_case() {
  local dir=$cases/$1 TMP n status
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
  local sum want
  sum=$(cat "$GPUPLAN_DB" "$GPUPLAN_DB"-wal 2>/dev/null | md5sum) # -shm is scratch memory
  want=$(cat "$dir/status")
  for ((n = 1; ; n += stride)); do
    rm -f "$TMP/fault.log"
    # Bounded: a run that loops or grows without end after a failed allocation is a failure too.
    eval "ulimit -v 2097152; LD_PRELOAD=\"$shim\" GPUPLAN_FAIL_ALLOC=$n GPUPLAN_FAULT_LOG=\"$TMP/fault.log\" \
      timeout 60 \"$gpuplan\" $(cat "$dir/args")" >"$TMP/stdout" 2>"$TMP/stderr"
    status=$?
    runs=$((runs + 1))
    sed -i "s|$TMP|\$TMP|g; s|$FIXTURES|\$FIXTURES|g" "$TMP/stdout" "$TMP/stderr"
    [[ "$(cat "$GPUPLAN_DB" "$GPUPLAN_DB"-wal 2>/dev/null | md5sum)" == "$sum" ]] || fail "$1, allocation $n: the database changed"
    if [[ ! -f "$TMP/fault.log" ]]; then
      [[ $status -eq $want ]] && cmp -s "$TMP/stdout" "$dir/stdout" ||
        fail "$1: the run without a failure differs from the golden case (exit $status)"
      break
    fi
    if [[ $status -eq 1 ]]; then
      grep -q "gpuplan: error:" "$TMP/stderr" || fail "$1, allocation $n: exit 1 without a message"
    elif [[ $status -ne $want ]] || ! cmp -s "$TMP/stdout" "$dir/stdout"; then
      fail "$1, allocation $n: exit $status, not a clean error"
      head -3 "$TMP/stderr"
    fi
  done
  echo "$1: allocations 1..$((n - 1)) (every ${stride}) held"
  rm -rf "$TMP"
}

for name in "$@"; do
  run_case "$name"
done
echo "allocation faults: $runs runs, $failed failures"
[[ $failed -eq 0 ]]
