#!/usr/bin/env bash
# Database safety: path resolution, first-run seeding, refusal (exit 5, file untouched) of a
# newer schema, a corrupt file and a read-only location, and readers who may not write.
set -uo pipefail

gpuplan=$1
tmp=$(mktemp -d)
trap 'chmod -R u+w "$tmp"; rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1
unset GPUPLAN_DB
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
passed=0
failed=0

check() { # check NAME EXPECTED_STATUS ACTUAL_STATUS [STDERR_FILE PATTERN]
  local name=$1 want=$2 got=$3
  if [[ "$got" != "$want" ]]; then
    echo "FAIL $name: exit $got, expected $want"; failed=$((failed + 1)); return
  fi
  if [[ $# -ge 5 ]] && ! grep -q -- "$5" "$4"; then
    echo "FAIL $name: stderr lacks '$5':"; cat "$4"; failed=$((failed + 1)); return
  fi
  passed=$((passed + 1))
}

sqlite() { python3 -c 'import sqlite3,sys; c=sqlite3.connect(sys.argv[1]); r=c.execute(sys.argv[2]).fetchall(); c.commit(); print(r[0][0] if r else "")' "$@"; }

# XDG_DATA_HOME decides the default path; the first run creates and seeds the database.
XDG_DATA_HOME="$tmp/xdg" "$gpuplan" prices --gpu b200 >/dev/null 2>"$tmp/err"
check "xdg path" 0 $?
[[ -f "$tmp/xdg/gpuplan/gpuplan.db" ]]; check "xdg file created" 0 $?
check "seeded gpus" 14 "$(sqlite "$tmp/xdg/gpuplan/gpuplan.db" 'select count(*) from gpus')"

# --db beats GPUPLAN_DB.
GPUPLAN_DB="$tmp/env.db" "$gpuplan" --version >/dev/null
GPUPLAN_DB="$tmp/env.db" "$gpuplan" prices --db "$tmp/flag.db" >/dev/null 2>&1
[[ -f "$tmp/flag.db" && ! -f "$tmp/env.db" ]]; check "--db over GPUPLAN_DB" 0 $?

# --db works before the command too, as a global option.
GPUPLAN_DB="$tmp/env.db" "$gpuplan" --db "$tmp/before.db" prices >/dev/null 2>&1
[[ -f "$tmp/before.db" && ! -f "$tmp/env.db" ]]; check "--db before the command" 0 $?

# A second run does not duplicate the seeded history.
db="$tmp/flag.db"
before=$(sqlite "$db" 'select count(*) from price_observations')
"$gpuplan" prices --db "$db" >/dev/null 2>&1
check "seed is idempotent" "$before" "$(sqlite "$db" 'select count(*) from price_observations')"

# The seed mark: the data's hash and, seeded from the embedded files, the build's digest of
# them, which later runs check instead of hashing the files. Another build's digest with the
# same hash, or a --data folder of the same files, is current too; changed data reseeds.
mark=$(sqlite "$db" "select value from meta where key = 'seed_hash'")
[[ "$mark" =~ ^[0-9a-f]{16}\ [0-9a-f]{64}$ ]]; check "seed mark holds the build digest" 0 $?
sqlite "$db" "update meta set value = substr(value, 1, 17) || '$(printf '0%.0s' {1..64})' where key = 'seed_hash'" >/dev/null
"$gpuplan" prices --db "$db" >/dev/null 2>&1
check "another build of the same data: no reseed" "$before" "$(sqlite "$db" 'select count(*) from price_observations')"
mkdir -p "$tmp/same" && cp -r "$(dirname "$0")/../../data/." "$tmp/same/"
"$gpuplan" --data "$tmp/same" prices --db "$db" >/dev/null 2>&1
check "a --data folder of the same files: no reseed" "$before" "$(sqlite "$db" 'select count(*) from price_observations')"
sed -i 's/"price": 2.39,/"price": 2.41,/' "$tmp/same/prices/runpod.json"
"$gpuplan" --data "$tmp/same" prices --db "$db" >/dev/null 2>&1
check "changed --data reseeds" 0 $?
after=$(sqlite "$db" 'select count(*) from price_observations')
[[ "$after" -gt "$before" ]]; check "changed --data: a new price in the history" 0 $?
"$gpuplan" prices --db "$db" >/dev/null 2>&1
[[ "$(sqlite "$db" "select value from meta where key = 'seed_hash'")" == "$mark" ]]
check "back to the embedded data: its mark again" 0 $?

# History is append-only, in its table and through the compatibility view.
for target in price_history price_observations; do
  sqlite "$db" "update $target set amount = 1" >/dev/null 2>"$tmp/err"
  check "$target: no update" 1 $? "$tmp/err" "append-only"
  sqlite "$db" "delete from $target" >/dev/null 2>"$tmp/err"
  check "$target: no delete" 1 $? "$tmp/err" "append-only"
done

# A database from a newer gpuplan is refused and left as it was.
cp "$db" "$tmp/newer.db"
sqlite "$tmp/newer.db" 'pragma user_version = 999' >/dev/null
sum=$(md5sum <"$tmp/newer.db")
"$gpuplan" prices --db "$tmp/newer.db" >/dev/null 2>"$tmp/err"
check "newer schema" 5 $? "$tmp/err" "newer gpuplan"
check "newer schema untouched" "$sum" "$(md5sum <"$tmp/newer.db")"

# A file that is not a database.
head -c 8192 /dev/urandom >"$tmp/corrupt.db"
sum=$(md5sum <"$tmp/corrupt.db")
"$gpuplan" prices --db "$tmp/corrupt.db" >/dev/null 2>"$tmp/err"
check "corrupt file" 5 $? "$tmp/err" "not a gpuplan database"
check "corrupt file untouched" "$sum" "$(md5sum <"$tmp/corrupt.db")"

# A read-only location. Root can write anywhere, so as root these run as the user nobody.
as_user=()
if [[ $(id -u) -eq 0 ]] && command -v runuser >/dev/null 2>&1; then
  chmod 755 "$tmp"
  # Only when nobody can reach the binary (a checkout under /root may not let it).
  if runuser -u nobody -- test -x "$gpuplan" 2>/dev/null; then
    as_user=(runuser -u nobody --)
  else
    echo "note: read-only checks skipped: the user nobody cannot run $gpuplan"
  fi
fi
if [[ $(id -u) -ne 0 || ${#as_user[@]} -gt 0 ]]; then
  mkdir "$tmp/ro" && chmod 555 "$tmp/ro"
  "${as_user[@]}" "$gpuplan" prices --db "$tmp/ro/gpuplan.db" >/dev/null 2>"$tmp/err"
  check "read-only folder" 5 $? "$tmp/err" "cannot open database"
  # A reader of a file it cannot write, in a folder where it cannot create the WAL's -shm file
  # (none is there: the copy has no WAL files), reads it and writes nothing.
  mkdir "$tmp/shared" && cp "$db" "$tmp/shared/ro-file.db" && chmod 444 "$tmp/shared/ro-file.db"
  [[ -n "${as_user[*]}" ]] || chmod 555 "$tmp/shared"
  sum=$(md5sum <"$tmp/shared/ro-file.db")
  "${as_user[@]}" "$gpuplan" prices --db "$tmp/shared/ro-file.db" --gpu b200 >"$tmp/out" 2>"$tmp/err"
  check "read-only file: prices" 0 $?
  grep -q lambda "$tmp/out"; check "read-only file: prices listed" 0 $?
  "${as_user[@]}" "$gpuplan" plan --db "$tmp/shared/ro-file.db" --workload chat-llama-3.1-70b \
    --gpus h100-sxm >/dev/null 2>"$tmp/err"
  check "read-only file: plan" 0 $?
  "${as_user[@]}" "$gpuplan" quote list --db "$tmp/shared/ro-file.db" >/dev/null 2>"$tmp/err"
  check "read-only file: quote list" 0 $?
  mkdir -m 777 "$tmp/out-dir"
  "${as_user[@]}" "$gpuplan" report --db "$tmp/shared/ro-file.db" -w chat-llama-3.1-70b \
    --out "$tmp/out-dir/report.json" >/dev/null 2>"$tmp/err"
  check "read-only file: report" 0 $?
  [[ -s "$tmp/out-dir/report.json" ]]; check "read-only file: report written" 0 $?
  "${as_user[@]}" "$gpuplan" quote add --db "$tmp/shared/ro-file.db" --provider acme --gpu b200 --price 3 \
    >/dev/null 2>"$tmp/err"
  check "read-only file: a write is refused" 5 $? "$tmp/err" "read-only"
  check "read-only file untouched" "$sum" "$(md5sum <"$tmp/shared/ro-file.db")"
  ls "$tmp/shared" >"$tmp/out"
  check "read-only file: no files beside it" "ro-file.db" "$(cat "$tmp/out")"
  chmod 755 "$tmp/shared"
  # A team database: its writer keeps the WAL files, so a reader uses them read-only and sees
  # what the writer committed.
  if [[ -n "${as_user[*]}" ]]; then
    mkdir "$tmp/team" && chmod 755 "$tmp/team"
    "$gpuplan" quote add --db "$tmp/team/gpuplan.db" --provider acme --gpu b200 --price 3.25 >/dev/null 2>&1
    [[ -f "$tmp/team/gpuplan.db-shm" ]]; check "writer keeps the -shm file" 0 $?
    "${as_user[@]}" "$gpuplan" quote list --db "$tmp/team/gpuplan.db" >"$tmp/out" 2>"$tmp/err"
    check "team reader: quote list" 0 $?
    grep -q '3.25' "$tmp/out"; check "team reader sees the writer's quote" 0 $?
    "$gpuplan" calibrate import --db "$tmp/team/gpuplan.db" "$fixtures/fleet/gpu-node01.json" \
      >/dev/null 2>&1
    "${as_user[@]}" "$gpuplan" calibrate list --db "$tmp/team/gpuplan.db" >"$tmp/out" 2>"$tmp/err"
    check "team reader: calibrate list" 0 $?
    grep -q 'gpu-node01' "$tmp/out"; check "team reader sees the fleet" 0 $?
  fi
  # A reader cannot upgrade an older schema: it says so and who can.
  cp "$db" "$tmp/shared/old.db" && sqlite "$tmp/shared/old.db" 'pragma user_version = 1' >/dev/null
  chmod 444 "$tmp/shared/old.db"
  "${as_user[@]}" "$gpuplan" prices --db "$tmp/shared/old.db" >/dev/null 2>"$tmp/err"
  check "read-only older schema" 5 $? "$tmp/err" "needs an upgrade.*as its writer"
  # Seeded from other data: a reader reads it as it is, and says so.
  cp "$db" "$tmp/shared/reseed.db"
  sqlite "$tmp/shared/reseed.db" "update meta set value = 'other' where key = 'seed_hash'" >/dev/null
  chmod 444 "$tmp/shared/reseed.db"
  "${as_user[@]}" "$gpuplan" prices --db "$tmp/shared/reseed.db" --gpu b200 >/dev/null 2>"$tmp/err"
  check "read-only other seed" 0 $? "$tmp/err" "seeded from other data"
fi
# A path under a regular file can never be created, even by root.
touch "$tmp/plainfile"
"$gpuplan" prices --db "$tmp/plainfile/sub/gpuplan.db" >/dev/null 2>"$tmp/err"
check "uncreatable path" 5 $? "$tmp/err" "cannot create folder"

# A broken --data file fails before anything is seeded from it.
"$gpuplan" prices --db "$tmp/bad.db" --data "$fixtures/data/bad-price" >/dev/null 2>"$tmp/err"
check "bad data file" 2 $? "$tmp/err" "runpod.json:26:16"
check "bad data seeds nothing" 0 "$(sqlite "$tmp/bad.db" 'select count(*) from offers')"

echo "database: $passed passed, $failed failed"
[[ $failed -eq 0 ]]
