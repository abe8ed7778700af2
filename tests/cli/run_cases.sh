#!/usr/bin/env bash
# Runs each CLI golden case against the real binary and compares stdout, stderr and exit status.
# Usage: run_cases.sh GPUPLAN CASES_DIR        (UPDATE_GOLDEN=1 rewrites the expected files)
# A case is a folder with:
#   args     the command line after `gpuplan` (shell words; $FIXTURES and $TMP expand)
#   setup    optional: gpuplan command lines run first against the same database
#   stdout, stderr, status   the expected output and exit status
# Every case gets a fresh database, GPUPLAN_NOW=2026-10-01T12:00:00Z and NO_COLOR=1.
# GPUPLAN_WRAPPER (e.g. "valgrind -q --error-exitcode=99") runs each case's command under it.
set -uo pipefail

gpuplan=$1
cases=$2
FIXTURES=$(cd "$(dirname "$0")/../fixtures" && pwd)
export FIXTURES
passed=0
failed=0

run_case() {
  local dir=$1 TMP
  TMP=$(mktemp -d)
  export TMP GPUPLAN_DB="$TMP/gpuplan.db" GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
  if [[ -f "$dir/setup" ]]; then
    while IFS= read -r line; do
      [[ -z "$line" || "$line" == \#* ]] && continue
      eval "\"$gpuplan\" $line" >/dev/null 2>"$TMP/setup.err" || {
        echo "setup failed: $line"; cat "$TMP/setup.err"; rm -rf "$TMP"; return 1; }
    done <"$dir/setup"
  fi
  eval "${GPUPLAN_WRAPPER:-} \"$gpuplan\" $(cat "$dir/args")" >"$TMP/stdout" 2>"$TMP/stderr"
  echo $? >"$TMP/status"
  sed -i "s|$TMP|\$TMP|g; s|$FIXTURES|\$FIXTURES|g" "$TMP/stdout" "$TMP/stderr"
  local ok=0
  for part in stdout stderr status; do
    if [[ -n "${UPDATE_GOLDEN:-}" ]]; then
      cp "$TMP/$part" "$dir/$part"
    elif ! diff -u "$dir/$part" "$TMP/$part" >"$TMP/diff.$part" 2>&1; then
      echo "--- $part differs:"; cat "$TMP/diff.$part"; ok=1
    fi
  done
  rm -rf "$TMP"
  return $ok
}

for dir in "$cases"/*/; do
  dir=${dir%/}
  if out=$(run_case "$dir"); then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "FAIL $(basename "$dir")"
    echo "$out"
  fi
done
echo "cli golden: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
