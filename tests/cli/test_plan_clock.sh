#!/usr/bin/env bash
# A plan reads the same all day: the age of a profile's evidence, which widens the bands, is
# counted in whole days (planner/plan.c). Two runs a day apart still differ, as the age grows.
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
# shellcheck source=tests/cli/check.sh
source "$(dirname "$0")/check.sh"
passed=0
failed=0

plan_at() { # plan_at NOW FILE: the chat plan as JSON, as planned at NOW
  GPUPLAN_NOW=$1 "$gpuplan" plan --workload chat-llama-3.1-70b --format json >"$2" 2>/dev/null
}

plan_at 2026-10-01T00:00:01Z "$tmp/morning.json"
check "a plan just after midnight" 0 $?
plan_at 2026-10-01T23:59:59Z "$tmp/night.json"
check "a plan just before the next midnight" 0 $?
cmp -s "$tmp/morning.json" "$tmp/night.json"
check "the same plan at both ends of a day" 0 $?
plan_at 2026-10-02T00:00:01Z "$tmp/next.json"
check "a plan the next day" 0 $?
cmp -s "$tmp/morning.json" "$tmp/next.json"
check "a day later the bands have widened" 1 $?
grep -o '"throughput_high":[^,]*' "$tmp/morning.json" | head -1 >"$tmp/high.day1"
grep -o '"throughput_high":[^,]*' "$tmp/next.json" | head -1 >"$tmp/high.day2"
! cmp -s "$tmp/high.day1" "$tmp/high.day2"
check "what moved is the optimistic end" 0 $?

echo "plan clock: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
