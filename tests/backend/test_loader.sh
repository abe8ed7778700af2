#!/usr/bin/env bash
# The backend loader runs no code it should not: the build tree's module folder is searched only
# by a binary that runs from that tree, a module (or its folder) that others could have written
# is refused with the reason, and a command that names a built-in backend loads no module.
# Usage: test_loader.sh GPUPLAN SPY_MODULE BUILD_MODULE_DIR OTHER_SPY_MODULE
set -uo pipefail

gpuplan=$1
spy=$2
build_modules=$3
other=$4 # the same spy, built to leave another trace: "the other user's module"
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
export GPUPLAN_DB="$tmp/gpuplan.db" NO_COLOR=1 GPUPLAN_SPY_FILE="$tmp/spy.log"
passed=0
failed=0

check() { # check NAME EXPECTED ACTUAL [FILE PATTERN]
  if [[ "$3" != "$2" ]]; then
    echo "FAIL $1: got '$3', expected '$2'"; [[ $# -ge 4 ]] && cat "$4"
    failed=$((failed + 1)); return
  fi
  if [[ $# -ge 5 ]] && ! grep -q -- "$5" "$4"; then
    echo "FAIL $1: $4 lacks '$5':"; cat "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}
spy_ran() { [[ -s "$GPUPLAN_SPY_FILE" ]] && echo yes || echo no; rm -f "$GPUPLAN_SPY_FILE"; }

# A folder of our own with the spy in it, as an installed module would be.
mkdir -m 755 "$tmp/mods" && cp "$spy" "$tmp/mods/libgpuplan-spy.so" && chmod 755 "$tmp/mods"/*
GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
check "backends lists a safe module" 0 $? "$tmp/out" '^spy,loaded'
check "backends loads it" yes "$(spy_ran)"

# A command that names the built-in backend needs no module, so it loads none.
GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" calibrate --backend cpu --device 9 >"$tmp/out" 2>&1
check "calibrate --backend cpu stops on --device" 2 $? "$tmp/out" 'device'
check "calibrate --backend cpu loads no module" no "$(spy_ran)"
# Naming a module loads that one only.
GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" calibrate --backend spy --device 9 >"$tmp/out" 2>&1
check "calibrate --backend spy" 2 $? "$tmp/out" 'device'
check "calibrate --backend spy loads it" yes "$(spy_ran)"

# Writable by others: the file, then the folder. Refused before dlopen, with the reason.
chmod 666 "$tmp/mods/libgpuplan-spy.so"
GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
check "module writable by others" 0 $? "$tmp/out" '^spy,rejected.*writable by group or others'
check "module writable by others never runs" no "$(spy_ran)"
chmod 755 "$tmp/mods/libgpuplan-spy.so" && chmod 777 "$tmp/mods"
GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
check "folder writable by others" 0 $? "$tmp/out" '^spy,rejected.*writable by group or others'
check "folder writable by others never runs" no "$(spy_ran)"
chmod 755 "$tmp/mods"

# A link to a safe module, in a folder others can write, is refused: the folder the entry sits
# in is checked, not only the folder of the file it points to.
mkdir -m 1777 "$tmp/shared"
ln -s "$tmp/mods/libgpuplan-spy.so" "$tmp/shared/libgpuplan-spy.so"
GPUPLAN_BACKEND_DIR="$tmp/shared" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
check "link in a folder others can write" 0 $? "$tmp/out" "^spy,rejected.*folder $tmp/shared is writable"
check "link in a folder others can write never runs" no "$(spy_ran)"

# The link flipped, as fast as a loop can, between a safe module and another user's: the file
# loaded is the file checked, so the other user's code never runs (before the check went
# through the descriptor, it ran within a few tries). Root sets up the other user's file.
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
  mkdir -m 755 "$tmp/flip" "$tmp/evil"
  cp "$spy" "$tmp/flip/safe.so" && cp "$other" "$tmp/evil/libgpuplan-spy.so"
  chmod 755 "$tmp/flip/safe.so" "$tmp/evil/libgpuplan-spy.so"
  chown nobody "$tmp/evil/libgpuplan-spy.so"
  ( end=$((SECONDS + 30))
    while [[ $SECONDS -lt $end && -d "$tmp/flip" ]]; do
      ln -sfn "$tmp/flip/safe.so" "$tmp/flip/libgpuplan-spy.so"
      ln -sfn "$tmp/evil/libgpuplan-spy.so" "$tmp/flip/libgpuplan-spy.so"
    done 2>/dev/null ) &
  flipper=$!
  loaded=0 refused=0
  for _ in $(seq 60); do
    GPUPLAN_BACKEND_DIR="$tmp/flip" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
    grep -q '^spy,loaded' "$tmp/out" && loaded=$((loaded + 1))
    grep -q '^spy,rejected.*owned by uid' "$tmp/out" && refused=$((refused + 1))
  done
  kill "$flipper" 2>/dev/null; wait "$flipper" 2>/dev/null
  grep -q "other user's" "$GPUPLAN_SPY_FILE" 2>/dev/null && ran=yes || ran=no
  check "flipped link: the other user's module never runs" no "$ran"
  echo "note: flipped link: $loaded of 60 runs loaded the safe module, $refused refused the other"
  rm -f "$GPUPLAN_SPY_FILE"
else
  echo "note: the flipped-link check needs root and a user nobody; skipped"
fi

# Owned by another user who is not root (only root can set that up).
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1; then
  chown nobody "$tmp/mods/libgpuplan-spy.so"
  GPUPLAN_BACKEND_DIR="$tmp/mods" "$gpuplan" backends --format csv >"$tmp/out" 2>&1
  check "module of another user" 0 $? "$tmp/out" '^spy,rejected.*owned by uid'
  check "module of another user never runs" no "$(spy_ran)"
  chown root "$tmp/mods/libgpuplan-spy.so"
else
  echo "note: the other-owner check needs root; skipped"
fi

# A copy of the binary outside the build tree (as installed) does not search the build tree's
# module folder, even though that folder exists.
mkdir "$tmp/bin" && cp "$gpuplan" "$tmp/bin/gpuplan"
"$tmp/bin/gpuplan" backends --format csv >"$tmp/out" 2>&1
check "installed binary: backends" 0 $?
! grep -qF "$build_modules" "$tmp/out"; check "installed binary ignores the build tree" 0 $?
"$gpuplan" backends --format csv >"$tmp/out" 2>&1
grep -qF "$build_modules" "$tmp/out" || ! ls "$build_modules"/libgpuplan-*.so >/dev/null 2>&1
check "the build tree's binary finds the build tree's modules" 0 $?

echo "loader: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
