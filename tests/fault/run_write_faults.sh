#!/usr/bin/env bash
# Faults around every command that writes: `quote add`, `calibrate import` and `refresh` (a
# pricelist-csv feed served on 127.0.0.1 by a server this script starts). With
# tests/fault/faultvfs.c preloaded the Nth SQLite write, sync or lock fails; with
# tests/fault/failmalloc.c (the third argument) the Nth allocation fails. N = 1, 2, 3, ... until
# a run completes without a fault (allocations: every ALLOC_STRIDE-th N, default 1, up to the last
# allocation of the run without one). After each run the database must pass PRAGMA
# integrity_check and hold exactly the old or the new state, compared as a canonical dump of
# every table (refresh run records aside: a failed refresh adds one, checked on its own); no run
# record may stay 'running'; the run itself must end with exit 0 (the fault was absorbed: the new
# state) or a clean error (exit 1 or 5 with a message), never a crash; and an allocation fault
# may not leave more blocks live at exit than the run without one (a leak). Then a disk that
# stays full: readers say "disk full" with the -shm file.
# Usage: run_write_faults.sh GPUPLAN FAULTVFS_SO [FAILMALLOC_SO]
set -uo pipefail

gpuplan=$1
vfs=$2
malloc=${3:-}
stride=${ALLOC_STRIDE:-1}
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
tmp=$(mktemp -d)
server=
trap '[[ -n "$server" ]] && kill "$server"; rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 XDG_CONFIG_HOME="$tmp/config"
runs=0
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }
# shellcheck source=leaks.sh
source "$(dirname "$0")/leaks.sh"

# One process answers for every run, one line a database: integrity_check, a digest of every
# table's rows (sorted; refresh_runs left out), runs left 'running', the last run's status.
coproc INSPECT {
  python3 -u -c '
import hashlib, sqlite3, sys
for line in sys.stdin:
    c = sqlite3.connect(line.rstrip("\n"))
    one = lambda q: (c.execute(q).fetchone() or [""])[0]
    digest = hashlib.sha1()
    for (table,) in c.execute("SELECT name FROM sqlite_master WHERE type = \"table\" ORDER BY name"):
        rows = c.execute("SELECT * FROM \"%s\"" % table).fetchall()
        if table == "sqlite_sequence":
            rows = [r for r in rows if r[0] != "refresh_runs"]
        if table != "refresh_runs":
            digest.update(repr((table, sorted(rows, key=repr))).encode())
    answer = (one("PRAGMA integrity_check"), digest.hexdigest(),
              one("SELECT count(*) FROM refresh_runs WHERE status = \"running\""),
              one("SELECT status FROM refresh_runs ORDER BY id DESC LIMIT 1") or "-")
    c.close()  # before answering: closing may remove the -wal file, by then the next run one
    print(*answer)
'
}
inspect() {
  echo "$1" >&"${INSPECT[1]}"
  read -r integrity state running last <&"${INSPECT[0]}"
}

# The feed's price list on a loopback port.
python3 -c '
import functools, http.server, sys
class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass
server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=sys.argv[1]))
print(server.server_address[1], flush=True)
server.serve_forever()
' "$fixtures/pricelist" >"$tmp/port" &
server=$!
for ((i = 0; i < 100; i++)); do [[ -s "$tmp/port" ]] && break; sleep 0.1; done
[[ -s "$tmp/port" ]] || { echo "the loopback server did not start"; exit 1; }

declare -A commands=(
  [quote]="quote add --provider acme --gpu b200 --price 3.10 --note fault"
  [import]="calibrate import $fixtures/calibration/h100-sxm.json"
  [refresh]="refresh --feed acme-csv"
)

mkdir -p "$tmp/config/gpuplan"
printf '{"feeds": [{"name": "acme-csv", "adapter": "pricelist-csv", "provider": "acme", "base_url": "http://127.0.0.1:%s/negotiated.csv"}]}\n' \
  "$(cat "$tmp/port")" >"$tmp/config/gpuplan/feeds.json"
GPUPLAN_DB="$tmp/base.db" "$gpuplan" prices --gpu b200 >/dev/null 2>&1 || { echo "cannot seed"; exit 1; }
python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' "$tmp/base.db"
base_sum=$(md5sum <"$tmp/base.db")

# Run command $1 (array name) on a fresh copy of the old database with the fault in the rest of
# the arguments (VAR=VALUE ...), then check the outcome against the old and the new state.
run_one() {
  local -n cmd=$1
  shift
  rm -f "$tmp/run.db"* "$tmp/fault.log" "$tmp/count" && cp "$tmp/base.db" "$tmp/run.db"
  env GPUPLAN_DB="$tmp/run.db" GPUPLAN_FAULT_LOG="$tmp/fault.log" GPUPLAN_FAULT_COUNT="$tmp/count" \
    "$@" "$gpuplan" "${cmd[@]}" >/dev/null 2>"$tmp/err"
  status=$?
  runs=$((runs + 1))
  if [[ ! -e "$tmp/run.db-wal" && "$(md5sum <"$tmp/run.db")" == "$base_sum" ]]; then
    integrity=ok state=$old running=0 last=- # untouched
  else
    inspect "$tmp/run.db"
  fi
}

# The checks after a run with a fault; `where` names it.
check_run() {
  local name=$1 where=$2
  [[ "$integrity" == ok ]] || fail "$where: integrity_check says $integrity"
  [[ "$state" == "$old" || "$state" == "$new" ]] || fail "$where: the database holds a state that is neither the old nor the new one"
  [[ "$running" == 0 ]] || fail "$where: a refresh run record stays 'running'"
  case $status in
    0) [[ "$state" == "$new" ]] || fail "$where: exit 0 but the old state" ;;
    1 | 4 | 5) grep -q "gpuplan: error:" "$tmp/err" || fail "$where: no error message" ;;
    *) fail "$where: not a clean exit"; cat "$tmp/err" ;;
  esac
  if [[ $status -ne 0 && "$name" == refresh && "$state" == "$old" ]]; then
    [[ "$last" == - || "$last" == failed ]] || fail "$where: the run record says '$last'"
  fi
}

for name in quote import refresh; do
  # shellcheck disable=SC2206
  command=(${commands[$name]})
  inspect "$tmp/base.db"
  old=$state
  run_one command GPUPLAN_FAULT_NONE=1
  [[ $status -eq 0 ]] || { fail "$name without faults (exit $status)"; cat "$tmp/err"; continue; }
  new=$state
  for op in write sync lock; do
    for ((n = 1; n < 2000; n++)); do
      run_one command LD_PRELOAD="$vfs" GPUPLAN_FAULT_OP=$op GPUPLAN_FAULT_N=$n
      if [[ ! -s "$tmp/fault.log" ]]; then
        [[ $status -eq 0 && "$state" == "$new" ]] || fail "$name, $op: the run without a fault did not complete"
        break
      fi
      check_run "$name" "$name, $op fault $n (exit $status)"
    done
    echo "$name: $op faults 1..$((n - 1)) held"
  done
  [[ -n "$malloc" ]] || continue
  run_one command LD_PRELOAD="$malloc" GPUPLAN_FAIL_ALLOC=999999999
  read -r _ total _ base <"$tmp/count" || { fail "$name: no allocation count"; continue; }
  before=$failed
  for ((n = 1; n <= total; n += stride)); do
    run_one command LD_PRELOAD="$malloc" GPUPLAN_FAIL_ALLOC=$n
    [[ -s "$tmp/fault.log" ]] || break # a run with fewer allocations than the one without a failure
    check_run "$name" "$name, allocation $n (exit $status)"
    read -r _ _ _ live <"$tmp/count" 2>/dev/null || live=
    leak_check "$name, allocation $n" "$live" "$base" "$tmp/fault.log"
  done
  echo "$name: allocations 1..$total (every $stride): $((failed - before)) failures"
done

# A disk that stays full: every -shm map fails with ENOSPC.
for command in "prices --gpu b200" "plan --workload chat-llama-3.1-70b"; do
  # shellcheck disable=SC2086
  GPUPLAN_DB="$tmp/base.db" LD_PRELOAD="$vfs" GPUPLAN_FAULT_OP=shm GPUPLAN_FAULT_N=1 \
    GPUPLAN_FAULT_STICKY=1 "$gpuplan" $command >/dev/null 2>"$tmp/err"
  status=$?
  runs=$((runs + 1))
  [[ $status -eq 5 ]] && grep -q "disk full: cannot write $tmp/base.db-shm" "$tmp/err" ||
    { fail "full disk: $command (exit $status)"; cat "$tmp/err"; }
done

echo "write faults: $runs runs, $failed failures"
[[ $failed -eq 0 ]]
