#!/usr/bin/env bash
# Hardening checks that golden cases cannot express: refused environment values, and the
# outputs and files a hostile feed, user or folder could otherwise steer (docs/reliability.md).
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'umount "$tmp/full" 2>/dev/null; rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 GPUPLAN_DB="$tmp/gpuplan.db"
# shellcheck source=tests/cli/check.sh
source "$(dirname "$0")/check.sh"

# A clock that is not a date is refused, not silently replaced by the real one.
GPUPLAN_NOW=garbage "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "GPUPLAN_NOW=garbage" 2 $? "$tmp/err" "GPUPLAN_NOW 'garbage' is not a date"
GPUPLAN_NOW=2026-10-01 "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "GPUPLAN_NOW date" 0 $?

# Control characters from a price list, a quote note or a flag value never reach the terminal
# raw: tables and messages show them escaped; CSV and JSON keep them exact.
esc=$'\033'
no_raw_escape() { # no_raw_escape NAME FILE: FILE has no ESC or BEL byte and shows '\x1b'
  if grep -q "[$esc"$'\a'"]" "$2" || ! grep -qF '\x1b' "$2"; then
    echo "FAIL $1: raw control characters or no visible escape:"; od -c "$2" | head -20
    failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}
hostile=$(cd "$(dirname "$0")/../fixtures/data/hostile" && pwd)
export GPUPLAN_DB="$tmp/hostile.db"
"$gpuplan" prices --data "$hostile" --gpu h100-sxm >"$tmp/out" 2>"$tmp/err"
check "hostile prices table" 0 $?
no_raw_escape "hostile prices table" "$tmp/out"
grep -q '\\u009b' "$tmp/out"; check "C1 control shown escaped" 0 $?
"$gpuplan" prices --data "$hostile" --gpu h100-sxm --format csv >"$tmp/out" 2>&1
grep -q "$esc]0;owned"$'\a' "$tmp/out"; check "CSV keeps the region exact" 0 $?
"$gpuplan" prices --data "$hostile" --gpu h100-sxm --format json >"$tmp/out" 2>&1
grep -qF '\u001b]0;owned\u0007' "$tmp/out"; check "JSON keeps the region exact" 0 $?
"$gpuplan" quote add --gpu b200 --provider acme --price 3.10 --note "$esc]0;title"$'\a'"$esc[2J" \
  >/dev/null 2>&1
check "quote with a hostile note" 0 $?
"$gpuplan" quote list >"$tmp/out" 2>&1
no_raw_escape "quote list" "$tmp/out"
"$gpuplan" plan --workload "$esc[2Jmodel" >/dev/null 2>"$tmp/err"
check "hostile workload name" 2 $?
no_raw_escape "error message" "$tmp/err"
export GPUPLAN_DB="$tmp/gpuplan.db"

# Credentials in a base URL are redacted in the feed listing, in every format.
for format in table csv json; do
  "$gpuplan" refresh --list --format "$format" \
    --url 'oci=https://bob:hunter2@prices.example/v1?region=eu&api_key=S3CRET' >"$tmp/out" 2>&1
  check "refresh --list $format" 0 $? "$tmp/out" 'https://bob:\*\*\*@prices.example/v1?region=eu&api_key=\*\*\*'
  ! grep -q 'hunter2\|S3CRET' "$tmp/out"; check "refresh --list $format: no secret" 0 $?
done

# An observed date more than a day ahead of the clock is refused: such an offer never goes stale.
future=$(cd "$(dirname "$0")/../fixtures/data/future" && pwd)
GPUPLAN_DB="$tmp/future.db" "$gpuplan" prices --data "$future" --gpu h100-sxm >"$tmp/out" \
  2>"$tmp/err"
check "future observed date" 2 $? "$tmp/err" "observed: 2027-06-01 is more than a day ahead"

# A date before any price (1970-01-01 is 0, which meant "no date") is refused, not read as
# today's observation or as an open-ended quote.
epoch=$(cd "$(dirname "$0")/../fixtures/data/epoch" && pwd)
GPUPLAN_DB="$tmp/epoch.db" "$gpuplan" prices --data "$epoch" --gpu h100-sxm >"$tmp/out" 2>"$tmp/err"
check "observed 1970-01-01" 2 $? "$tmp/err" "observed: '1970-01-01' is not a date from 2022-01-01 on"
for until in 1970-01-01 2021-12-31; do
  "$gpuplan" quote add --gpu b200 --provider acme --price 3 --valid-until "$until" >/dev/null \
    2>"$tmp/err"
  check "quote --valid-until $until" 2 $? "$tmp/err" "is not a date from 2022-01-01 on"
done
"$gpuplan" quote add --gpu b200 --provider acme --price 3 --valid-until 2022-01-01 >/dev/null 2>&1
check "quote --valid-until 2022-01-01" 0 $?
"$gpuplan" quote list --format csv >"$tmp/out" 2>&1
check "the quote keeps its date" 0 $? "$tmp/out" "2022-01-01,expired"

# Every number of a calibration import is range-checked before it is converted or stored
# ("bytes": 1e72 was cast to uint64_t, undefined behaviour).
calib=$(cd "$(dirname "$0")/../fixtures/calibration" && pwd)/h100-sxm.json
for case in "points bytes 1e72" "points bytes 1.5" "points median 1e300" "points repetitions 1e8" \
  "points m 1e9" "fits r2 5" "fits s_half 1e300"; do
  read -r list field value <<<"$case"
  python3 - "$calib" "$tmp/import.json" "$list" "$field" "$value" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
items = doc["calibrations"][0][sys.argv[3]]
item = next(i for i in items if sys.argv[4] in i and (sys.argv[4] != "bytes" or i["bytes"]))
item[sys.argv[4]] = float(sys.argv[5])
json.dump(doc, open(sys.argv[2], "w"))
PY
  GPUPLAN_DB="$tmp/import.db" "$gpuplan" calibrate import "$tmp/import.json" >/dev/null 2>"$tmp/err"
  check "calibrate import $field=$value" 2 $? "$tmp/err" "\.$field: "
done
GPUPLAN_DB="$tmp/import.db" "$gpuplan" calibrate import "$calib" >/dev/null 2>"$tmp/err"
check "calibrate import of the fixture" 0 $?
# A run dated ahead (it would stay the fleet's newest for good) or before any GPU it could
# measure, a p10 above its p90 or a median outside them, and a NUL in a text field (it cut
# "v\u0000m" to "v") are refused with the file, line and JSON path.
for case in "started_at 2099-01-01T00:00:00Z started_at" "started_at 2019-05-01T00:00:00Z started_at" \
  "p10 1e6 p10" "median 1e-9 median" "host v\u0000m host" "host v\uffffm host"; do
  read -r field value where <<<"$case"
  python3 - "$calib" "$tmp/import.json" "$field" "$value" <<'PY'
import json, sys
src, dst, field, value = sys.argv[1:]
doc = json.load(open(src))
run = doc["calibrations"][0]
if field in ("started_at", "host"):
    run[field] = value.encode().decode("unicode_escape")
else:
    run["points"][0][field] = float(value)
json.dump(doc, open(dst, "w"))
PY
  GPUPLAN_DB="$tmp/import.db" "$gpuplan" calibrate import "$tmp/import.json" >/dev/null 2>"$tmp/err"
  check "calibrate import $field=$value" 2 $? "$tmp/err" "import.json:[0-9]*:[0-9]*: .*calibrations\[0\].*$where: "
done

# Quote text: not empty where it names the seller, and UTF-8.
"$gpuplan" quote add --gpu b200 --provider "" --price 3 >/dev/null 2>"$tmp/err"
check "quote add --provider ''" 2 $? "$tmp/err" "\-\-provider must not be empty"
"$gpuplan" quote add --gpu b200 --provider "  " --price 3 >/dev/null 2>"$tmp/err"
check "quote add --provider of spaces" 2 $? "$tmp/err" "\-\-provider must not be empty"
"$gpuplan" quote add --gpu b200 --provider acme --region $'eu\xffwest' --price 3 >/dev/null \
  2>"$tmp/err"
check "quote add --region not UTF-8" 2 $? "$tmp/err" "\-\-region is not valid UTF-8"


# Ctrl-C during a calibration stops it at the next step, keeps nothing it measured, says so in
# one line and exits 130 (before, it died silently); a second Ctrl-C stops it at once.
GPUPLAN_DB="$tmp/sigint.db" "$gpuplan" calibrate --backend cpu >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT "$pid"
wait "$pid"
check "calibrate after SIGINT" 130 $? "$tmp/err" "^gpuplan: error: interrupted by SIGINT: nothing stored$"
[[ $(wc -l <"$tmp/err") -eq 1 ]]; check "calibrate after SIGINT: one line" 0 $?
GPUPLAN_DB="$tmp/sigint.db" "$gpuplan" calibrate list >/dev/null 2>&1
check "calibrate after SIGINT stored nothing" 3 $?
GPUPLAN_DB="$tmp/sigint.db" "$gpuplan" calibrate --backend cpu >/dev/null 2>"$tmp/err" &
pid=$!
sleep 1.5
kill -INT "$pid"; kill -INT "$pid"
wait "$pid"
check "calibrate after two SIGINTs" 130 $?

# A command that only reads makes no database through a link to nothing, nor out of an empty
# file; both are said, with exit 5, and the path stays as it was.
ln -s "$tmp/elsewhere/nothing.db" "$tmp/dangling.db"
GPUPLAN_DB="$tmp/dangling.db" "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "prices through a dangling link" 5 $? "$tmp/err" "is a symbolic link to nothing"
[[ ! -e "$tmp/elsewhere" ]]; check "nothing made where the link points" 0 $?
: >"$tmp/empty.db"
GPUPLAN_DB="$tmp/empty.db" "$gpuplan" plan --workload chat-llama-3.1-70b >/dev/null 2>"$tmp/err"
check "plan on an empty file" 5 $? "$tmp/err" "is an empty file, not a gpuplan database"
[[ ! -s "$tmp/empty.db" ]]; check "the empty file stays empty" 0 $?

# A full disk is said as such, with the file, not as a damaged database. A small tmpfs is
# filled up (root with mount rights only; tests/fault/run_write_faults.sh covers it everywhere).
full="$tmp/full"
mkdir "$full"
if mount -t tmpfs -o size=1m tmpfs "$full" 2>/dev/null; then
  GPUPLAN_DB="$tmp/seed.db" "$gpuplan" prices --gpu b200 >/dev/null 2>&1
  python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' \
    "$tmp/seed.db"
  cp "$tmp/seed.db" "$full/g.db"
  dd if=/dev/zero of="$full/fill" bs=4k >/dev/null 2>&1
  for command in "prices --gpu b200" "plan --workload chat-llama-3.1-70b"; do
    # shellcheck disable=SC2086
    "$gpuplan" $command --db "$full/g.db" >/dev/null 2>"$tmp/err"
    check "full disk: $command" 5 $? "$tmp/err" "disk full: cannot write $full/g.db-shm"
  done
  umount "$full"
else
  echo "note: no tmpfs could be mounted; the full-disk check runs in the fault tests only"
fi

# A data folder's engine and network figures out of range are refused with the file and field,
# not planned with: an answer reservation above 1, a negative exchange latency, a per-layer
# latency above 1000 us.
data=$(cd "$(dirname "$0")/../../data" && pwd)
mkdir -p "$tmp/kv" "$tmp/a2a" "$tmp/layer"
sed 's/"kv_reserve": {"factor": 1.0,/"kv_reserve": {"factor": 1.5,/' "$data/stacks.json" \
  >"$tmp/kv/stacks.json"
grep -q '"kv_reserve": {"factor": 1.5,' "$tmp/kv/stacks.json"
check "the edited stacks.json holds kv_reserve 1.5" 0 $?
"$gpuplan" plan --workload chat-deepseek-r1 --data "$tmp/kv" >/dev/null 2>"$tmp/err"
check "kv_reserve above 1" 2 $? "$tmp/err" "phases.kv_reserve.factor: must be between 0 and 1"
sed 's/"alltoall_latency_us": 95.5/"alltoall_latency_us": -5/' "$data/efficiency.json" \
  >"$tmp/a2a/efficiency.json"
grep -q '"alltoall_latency_us": -5' "$tmp/a2a/efficiency.json"
check "the edited efficiency.json holds a negative latency" 0 $?
"$gpuplan" plan --workload chat-deepseek-r1 --data "$tmp/a2a" >/dev/null 2>"$tmp/err"
check "negative alltoall_latency_us" 2 $? "$tmp/err" "defaults.network.alltoall_latency_us"
sed 's/"layer_us": {"factor": 320,/"layer_us": {"factor": 5000,/' "$data/stacks.json" \
  >"$tmp/layer/stacks.json"
grep -q '"layer_us": {"factor": 5000,' "$tmp/layer/stacks.json"
check "the edited stacks.json holds layer_us 5000" 0 $?
"$gpuplan" plan --workload chat-deepseek-r1 --data "$tmp/layer" >/dev/null 2>"$tmp/err"
check "layer_us above 1000" 2 $? "$tmp/err" \
  'stacks.json:[0-9]*:[0-9]*: stacks\[[0-9]*\]\.phases\.layer_us\.factor: must be between 0 and 1000'

echo "hardening: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
