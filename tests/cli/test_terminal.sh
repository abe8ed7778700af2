#!/usr/bin/env bash
# `gpuplan plan` on a terminal: the table fits the terminal's width and the line saying how many
# columns were left out names the flags that show them; --wide leaves nothing out.
# Usage: test_terminal.sh GPUPLAN
set -uo pipefail
gpuplan=$1
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_DB=$tmp/gpuplan.db GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
failed=0
check() { # check DESCRIPTION COMMAND...
  local what=$1; shift
  if "$@"; then echo "ok   $what"; else echo "FAIL $what"; failed=1; fi
}
command -v script >/dev/null || { echo "skip: script (util-linux) is not installed"; exit 77; }
# script(1) gives the command a pseudo-terminal; with no size of its own, COLUMNS sets the width.
on_terminal() { # on_terminal OUTPUT ARGS...
  local out=$1; shift
  COLUMNS=100 script -qec "$(printf '%q ' "$gpuplan" "$@") 2>/dev/null" /dev/null </dev/null |
    tr -d '\r' >"$out"
}

on_terminal "$tmp/fit" plan -w chat-llama-3.1-70b
check "the compact table fits 100 characters" \
  bash -c "! awk 'length(\$0) > 100 && !/^(prices|within|cheapest|\\()/' '$tmp/fit' | grep -q ."
check "the left-out line names --wide and --columns" \
  grep -qE '^\([0-9]+ columns? left out to fit 100 characters; --wide shows every column, --columns picks them\)$' "$tmp/fit"
on_terminal "$tmp/wide" plan -w chat-llama-3.1-70b --wide
check "--wide leaves no column out" bash -c "! grep -q 'left out' '$tmp/wide' && grep -q 'efficiency' '$tmp/wide'"
exit $failed
