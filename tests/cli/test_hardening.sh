#!/usr/bin/env bash
# Hardening checks that golden cases cannot express: refused environment values, and the
# outputs and files a hostile feed, user or folder could otherwise steer (docs/reliability.md).
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
passed=0
failed=0

check() { # check NAME EXPECTED_STATUS ACTUAL_STATUS [FILE PATTERN]
  local name=$1 want=$2 got=$3
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: exit $got, expected $want"; [[ $# -ge 4 ]] && cat "$4"
    failed=$((failed + 1)); return
  fi
  if [[ $# -ge 5 ]] && ! grep -q -- "$5" "$4"; then
    echo "FAIL $name: $4 lacks '$5':"; cat "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

# A clock that is not a date is refused, not silently replaced by the real one.
GPUPLAN_NOW=garbage "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "GPUPLAN_NOW=garbage" 2 $? "$tmp/err" "GPUPLAN_NOW 'garbage' is not a date"
GPUPLAN_NOW=2026-10-01 "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "GPUPLAN_NOW date" 0 $?

echo "hardening: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
