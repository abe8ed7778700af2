#!/usr/bin/env bash
# Global options work before any command and any subcommand: every command line is run twice,
# "gpuplan GLOBALS COMMAND ARGS" and "gpuplan COMMAND ARGS GLOBALS", against databases made the
# same way, and both must give the same status and output (before, "gpuplan --db X quote add"
# read --db as quote's subcommand).
set -uo pipefail

gpuplan=$1
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
unset GPUPLAN_DB
passed=0
failed=0

# Each line: a command line after `gpuplan`, with the globals left out.
commands=(
  "gpus"
  "workloads"
  "prices --gpu b200"
  "prices history --gpu h100-sxm"
  "quote add --provider acme --gpu mi325x --price 2.10"
  "quote list"
  "quote rm 1"
  "refresh --list"
  "refresh --status"
  "calibrate import $fixtures/calibration/h100-sxm.json"
  "calibrate list"
  "plan --workload chat-llama-3.1-70b --gpus b200,mi300x"
  "backends"
)
for how in before after; do
  db="$tmp/$how.db"
  for i in "${!commands[@]}"; do
    globals=(--db "$db" --currency DKK --format csv -q)
    read -ra words <<<"${commands[$i]}"
    if [[ $how == before ]]; then
      "$gpuplan" "${globals[@]}" "${words[@]}" >"$tmp/$how.$i.out" 2>"$tmp/$how.$i.err"
    else
      "$gpuplan" "${words[@]}" "${globals[@]}" >"$tmp/$how.$i.out" 2>"$tmp/$how.$i.err"
    fi
    echo $? >"$tmp/$how.$i.status"
  done
done
for i in "${!commands[@]}"; do
  status=$(cat "$tmp/before.$i.status")
  if ! cmp -s "$tmp/before.$i.out" "$tmp/after.$i.out" ||
    [[ $status != "$(cat "$tmp/after.$i.status")" ]]; then
    echo "FAIL '${commands[$i]}': globals before it give exit $status, after it $(cat "$tmp/after.$i.status")"
    diff "$tmp/before.$i.out" "$tmp/after.$i.out" | head -5; cat "$tmp/before.$i.err"
    failed=$((failed + 1))
  elif [[ $status -gt 3 ]]; then # 3: no refresh yet, a suspect calibration (docs/exit-codes.md)
    echo "FAIL '${commands[$i]}': exit $status both ways"; cat "$tmp/before.$i.err"
    failed=$((failed + 1))
  else
    passed=$((passed + 1))
  fi
done
# The globals really applied before the command: the quote went to that database, in DKK.
grep -q "mi325x" "$tmp/before.5.out" && grep -q "DKK" "$tmp/before.5.out"
if [[ $? -eq 0 ]]; then passed=$((passed + 1)); else echo "FAIL quote list lacks the DKK quote"; failed=$((failed + 1)); fi

echo "global options: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
