#!/usr/bin/env bash
# Say why each skipped test was skipped: ctest counts a skip as a pass ("100% tests passed")
# and shows no output for it. Every test that exits 77 prints a line "skip: REASON"; this reads
# the last such line of each skipped test from ctest's log.
# Usage: skip_reasons.sh BUILD_DIR CTEST_CONSOLE_OUTPUT
set -uo pipefail

log="$1/Testing/Temporary/LastTest.log"
console=$2
[[ -f "$log" && -f "$console" ]] || exit 0
mapfile -t skipped < <(sed -n 's/^[[:space:]]*[0-9]* - \(.*\) (Skipped)$/\1/p' "$console")
[[ ${#skipped[@]} -gt 0 ]] || exit 0
echo "skipped: ${#skipped[@]} test(s), each counted as passed above:"
for name in "${skipped[@]}"; do
  reason=$(awk -v name="$name" '
    $0 ~ "^[0-9]+/[0-9]+ Test: " { inside = ($3 == name) }
    inside && /^skip: / { line = substr($0, 7) }
    END { print line }' "$log")
  echo "  $name: ${reason:-no reason printed}"
done
