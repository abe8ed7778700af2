#!/usr/bin/env bash
# SQLite I/O faults around every command that writes: with tests/fault/faultvfs.c preloaded, the
# Nth write, sync or lock fails, for N = 1, 2, 3, ... until a run completes without a fault.
# After each run the database must pass PRAGMA integrity_check, hold the old or the new state
# and never a mix, and keep no refresh run record at 'running'; the run itself must end with
# exit 0 (the fault was absorbed: new state) or a clean error (exit 1 or 5 with a message), never
# a crash. Then a disk that stays full: readers say "disk full" with the -shm file.
# Usage: run_vfs_faults.sh GPUPLAN FAULTVFS_SO
set -uo pipefail

gpuplan=$1
shim=$2
fixtures=$(cd "$(dirname "$0")/../fixtures" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export GPUPLAN_NOW=2026-10-01T12:00:00Z NO_COLOR=1 XDG_CONFIG_HOME="$tmp/config"
runs=0
failed=0

fail() { echo "FAIL $*"; failed=$((failed + 1)); }
# integrity_check, the probe's state, runs left 'running' and the last run's status, one a line.
inspect() {
  python3 - "$@" <<'PY'
import sqlite3, sys
c = sqlite3.connect(sys.argv[1])
one = lambda q: (c.execute(q).fetchone() or [""])[0]
print(one("PRAGMA integrity_check"), one(sys.argv[2]),
      one("SELECT count(*) FROM refresh_runs WHERE status = 'running'"),
      one("SELECT status FROM refresh_runs ORDER BY id DESC LIMIT 1") or "-", sep="\n")
PY
}

# The state a command may leave: what `probe` prints on the database.
declare -A probes=(
  [quote]="SELECT count(*) FROM quotes"
  [import]="SELECT (SELECT count(*) FROM calibrations) || '/' || (SELECT count(*) FROM calibration_points) || '/' || (SELECT count(*) FROM calibration_fits)"
  [refresh]="SELECT (SELECT count(*) FROM feed_offers WHERE feed = 'acme-csv') || '/' || (SELECT count(*) FROM price_history)"
)
declare -A commands=(
  [quote]="quote add --provider acme --gpu b200 --price 3.10 --note fault"
  [import]="calibrate import $fixtures/calibration/h100-sxm.json"
  [refresh]="refresh --feed acme-csv"
)

mkdir -p "$tmp/config/gpuplan"
printf '{"feeds": [{"name": "acme-csv", "adapter": "pricelist-csv", "provider": "acme", "base_url": "file://%s"}]}\n' \
  "$fixtures/pricelist/negotiated.csv" >"$tmp/config/gpuplan/feeds.json"
GPUPLAN_DB="$tmp/base.db" "$gpuplan" prices --gpu b200 >/dev/null 2>&1 || { echo "cannot seed"; exit 1; }
python3 -c 'import sqlite3,sys; sqlite3.connect(sys.argv[1]).execute("PRAGMA wal_checkpoint(TRUNCATE)")' "$tmp/base.db"

for name in quote import refresh; do
  # shellcheck disable=SC2206
  command=(${commands[$name]})
  cp "$tmp/base.db" "$tmp/new.db"
  GPUPLAN_DB="$tmp/new.db" "$gpuplan" "${command[@]}" >/dev/null 2>&1 || { fail "$name without faults"; continue; }
  old=$(inspect "$tmp/base.db" "${probes[$name]}" | sed -n 2p)
  new=$(inspect "$tmp/new.db" "${probes[$name]}" | sed -n 2p)
  for op in write sync lock; do
    for ((n = 1; n < 2000; n++)); do
      rm -f "$tmp/run.db"* "$tmp/fault.log" && cp "$tmp/base.db" "$tmp/run.db"
      GPUPLAN_DB="$tmp/run.db" LD_PRELOAD="$shim" GPUPLAN_FAULT_OP=$op GPUPLAN_FAULT_N=$n \
        GPUPLAN_FAULT_LOG="$tmp/fault.log" "$gpuplan" "${command[@]}" >/dev/null 2>"$tmp/err"
      status=$?
      runs=$((runs + 1))
      where="$name, $op fault $n (exit $status)"
      # Read in full before the next run: a reader still open on run.db (a process substitution
      # is not waited for) would checkpoint and delete the log of the next run's new file.
      report=$(inspect "$tmp/run.db" "${probes[$name]}")
      { read -r integrity; read -r state; read -r running; read -r last; } <<<"$report"
      [[ "$integrity" == ok ]] || fail "$where: integrity_check says $integrity"
      [[ "$state" == "$old" || "$state" == "$new" ]] || fail "$where: state $state is neither $old nor $new"
      [[ "$running" == 0 ]] || fail "$where: a refresh run record stays 'running'"
      if [[ ! -s "$tmp/fault.log" ]]; then
        [[ $status -eq 0 && "$state" == "$new" ]] || fail "$where: the run without a fault did not complete"
        break
      fi
      case $status in
        0) [[ "$state" == "$new" ]] || fail "$where: exit 0 but the old state" ;;
        1 | 4 | 5) grep -q "gpuplan: error:" "$tmp/err" || fail "$where: no error message" ;;
        *) fail "$where: not a clean exit"; cat "$tmp/err" ;;
      esac
      if [[ $status -ne 0 && "$name" == refresh && "$state" == "$old" ]]; then
        [[ "$last" == - || "$last" == failed ]] || fail "$where: the run record says '$last'"
      fi
    done
    echo "$name: $op faults 1..$((n - 1)) held"
  done
done

# A disk that stays full: every -shm map fails with ENOSPC.
for command in "prices --gpu b200" "plan --workload chat-llama-3.1-70b"; do
  # shellcheck disable=SC2086
  GPUPLAN_DB="$tmp/base.db" LD_PRELOAD="$shim" GPUPLAN_FAULT_OP=shm GPUPLAN_FAULT_N=1 \
    GPUPLAN_FAULT_STICKY=1 "$gpuplan" $command >/dev/null 2>"$tmp/err"
  status=$?
  runs=$((runs + 1))
  [[ $status -eq 5 ]] && grep -q "disk full: cannot write $tmp/base.db-shm" "$tmp/err" ||
    { fail "full disk: $command (exit $status)"; cat "$tmp/err"; }
done

echo "vfs faults: $runs runs, $failed failures"
[[ $failed -eq 0 ]]
