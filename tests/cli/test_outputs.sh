#!/usr/bin/env bash
# The files gpuplan writes (reports, calibration exports) through paths another user planted: a
# link is replaced, never written or cleared through; a FIFO or device is written into, never
# replaced; a failed write leaves the old file whole (docs/reliability.md). Where this runs as
# root, the links are planted by the user nobody in a shared sticky folder, as an attacker would.
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
chmod 755 "$tmp" # the planting user must reach the shared folder
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
# shellcheck source=tests/cli/check.sh
source "$(dirname "$0")/check.sh"
same() { # same NAME FILE TEXT: FILE still holds exactly TEXT
  if [[ "$(cat "$2" 2>/dev/null)" != "$3" ]]; then
    echo "FAIL $1: $2 changed"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

# The attacker: nobody where we are root (links in a sticky folder they may write), else us.
shared="$tmp/shared"
mkdir -m 1777 "$shared"
if [[ $(id -u) -eq 0 ]] && id nobody >/dev/null 2>&1 && setpriv --help >/dev/null 2>&1; then
  plant() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
  echo "note: links are planted by the user nobody"
else
  plant() { "$@"; }
  echo "note: not root: links are planted by this user"
fi
report() { "$gpuplan" report --workload chat-llama-3.1-70b "$@"; }

# 1. A CSV report through a link to a folder of CSV files clears nothing there.
mkdir "$tmp/ledger" && echo "a,1" >"$tmp/ledger/ledger.csv"
plant ln -s "$tmp/ledger" "$shared/out"
report --out "$shared/out/" >/dev/null 2>"$tmp/err"
check "csv report through a linked folder" 2 $? "$tmp/err" "is a symbolic link"
same "the linked folder's CSV file" "$tmp/ledger/ledger.csv" "a,1"
[[ -z "$(find "$shared" "$tmp/ledger" -name '*.tmp-*' -print -quit)" ]]
check "no temporary left beside it" 0 $?
# a real report folder is still replaced whole, and a link inside it is removed, not followed
report --out "$tmp/report/" >/dev/null 2>&1
check "csv report into a new folder" 0 $?
echo keep >"$tmp/victim.csv" && ln -s "$tmp/victim.csv" "$tmp/report/plant.csv"
report --out "$tmp/report/" >/dev/null 2>"$tmp/err"
check "a report folder holding a link is not a report folder" 2 $? "$tmp/err" "not a report folder"
same "the file a link in the folder names" "$tmp/victim.csv" "keep"
rm "$tmp/report/plant.csv"
report --out "$tmp/report/" >/dev/null 2>&1
check "csv report over its own folder" 0 $?

# 3. A calibration export through a planted link replaces the link, not the file it names; a
# failed export leaves the old file whole.
echo keep >"$tmp/victim.txt" && chmod 644 "$tmp/victim.txt"
plant ln -s "$tmp/victim.txt" "$shared/p.json"
"$gpuplan" calibrate --backend cpu --quick --export "$shared/p.json" >/dev/null 2>"$tmp/err"
check "calibrate --export over a planted link" 0 $?
same "the file the link named" "$tmp/victim.txt" "keep"
[[ -f "$shared/p.json" && ! -L "$shared/p.json" ]] && grep -q '"gpuplan-calibration"' "$shared/p.json"
check "the export is a file of its own" 0 $?
# A folder it cannot write (not as root, who may write anywhere): the old export stays whole.
if [[ $(id -u) -ne 0 ]]; then
  mkdir "$tmp/locked" && echo '{"old": true}' >"$tmp/locked/export.json" && chmod 555 "$tmp/locked"
  "$gpuplan" calibrate --backend cpu --quick --export "$tmp/locked/export.json" >/dev/null 2>"$tmp/err"
  check "export into a folder it cannot write" 1 $? "$tmp/err" "cannot create a file beside it"
  same "the old export" "$tmp/locked/export.json" '{"old": true}'
  chmod 755 "$tmp/locked"
fi
# As root a read-only folder does not stop the write: a device that is full does, mid-file.
"$gpuplan" calibrate --backend cpu --quick --export /dev/full >/dev/null 2>"$tmp/err"
check "export to a full device" 1 $? "$tmp/err" "No space left on device"

# 4. Special files: a FIFO is written into and stays a FIFO; a device is never replaced; "-" and
# /dev/stdout are standard output.
mkfifo "$tmp/fifo"
timeout 30 cat "$tmp/fifo" >"$tmp/fifo.out" &
reader=$!
report --format json --out "$tmp/fifo" >/dev/null 2>"$tmp/err"
check "report into a FIFO" 0 $?
wait "$reader"
[[ -p "$tmp/fifo" ]]; check "the FIFO is still a FIFO" 0 $?
python3 -c 'import json,sys; json.load(open(sys.argv[1]))' "$tmp/fifo.out"
check "the reader got the whole report" 0 $?
report --format json --out /dev/full >/dev/null 2>"$tmp/err"
check "report into /dev/full" 1 $? "$tmp/err" "/dev/full: No space left on device"
[[ -c /dev/full ]]; check "/dev/full is still a device" 0 $?
report --format json --out /dev/stdout 2>/dev/null | python3 -c 'import json,sys; json.load(sys.stdin)'
check "report to /dev/stdout" 0 $?
[[ -L /dev/stdout || -c /dev/stdout || -p /dev/stdout ]]; check "/dev/stdout is left as it was" 0 $?
report --format html --out - 2>/dev/null >"$tmp/piped.html"
check "report to -" 0 $? "$tmp/piped.html" '<!DOCTYPE html>'
report --format xlsx --out - 2>/dev/null >"$tmp/piped.xlsx"
check "xlsx report to -" 0 $?
python3 -c 'import sys, zipfile; zipfile.ZipFile(sys.argv[1]).testzip()' "$tmp/piped.xlsx"
check "the piped xlsx is a whole workbook" 0 $?
report --format csv --out - >/dev/null 2>"$tmp/err"
check "a CSV report to -" 2 $? "$tmp/err" "a CSV report is a folder of files"
[[ ! -e ./- ]]; check "no folder named -" 0 $?
report --format json --out /dev/no-such-node >/dev/null 2>"$tmp/err"
check "a missing node is not created" 2 $? "$tmp/err" "no such device or file to write into"
[[ ! -e /dev/no-such-node ]]; check "nothing was made under /dev" 0 $?
mkdir "$tmp/folder.json"
report --out "$tmp/folder.json" >/dev/null 2>"$tmp/err"
check "a folder named like a file" 2 $? "$tmp/err" "is a folder"

echo "outputs: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
